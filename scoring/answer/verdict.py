"""The symbolic half of the answer verdict, as the judge reads it (docs/architecture.md 4.7)."""

from __future__ import annotations

from collections.abc import Sequence

from scoring.answer.compare import AnswerCheck, check_answer
from scoring.answer.load import load_routes
from scoring.answer.readings import READINGS
from scoring.answer.routes import DECIDE_PRECISION, Routes
from scoring.verdict import AnswerVerdict

# The readings that compare parsed values in code (numbers, letters, matrices, parts): a "not
# equal" from one of them is two values that differ, not math-verify failing to prove equality.
PARSED = frozenset(name for name, _ in READINGS)


def _shown(answer: str | None, limit: int = 80) -> str:
    """The answer as a warning shows it: quoted, and clipped when long (it may be 200,000 chars)."""
    text = repr(answer)
    if len(text) <= limit:
        return text
    return f"{text[: limit - 5]}...{text[-1]} ({len(answer or '')} characters)"


def answer_warnings(
    check: AnswerCheck, gold: Sequence[str], timeout: float, routes: Routes | None = None
) -> list[str]:
    """What a reader of the report must know about the answer check: not found, undecided, or
    decided by a route too imprecise to decide step labels (`scoring.answer.routes`)."""
    if not gold:
        return []
    routes = routes or load_routes()
    if check.correct is not None and not routes.decides(check.route):
        return [
            (
                f"the answer verdict ({'equal' if check.correct else 'not equal'}) rests on the "
                f"{check.route} route, whose measured precision "
                f"{routes.precision(check.route):.2f} is below {DECIDE_PRECISION:g}: it is "
                "reported but decides no step label"
            )
        ]
    if check.timed_out:
        return [
            (
                f"answer check timed out after {timeout:g} s of CPU: whether "
                f"{_shown(check.extracted)} equals the reference is left undecided"
            )
        ]
    if check.extracted is None:
        return ["no final answer found in the solution"]
    if check.correct is None:
        return [f"could not decide whether {_shown(check.extracted)} equals the reference answer"]
    return []


def answer_verdict(
    check: AnswerCheck, gold: Sequence[str], routes: Routes | None = None
) -> AnswerVerdict:
    """The symbolic verdict of an answer check; `plain_difference` when parsed values differ;
    its route, the route's measured precision and whether it may decide step labels."""
    routes = routes or load_routes()
    route = check.route if check.correct is not None else None
    return AnswerVerdict(
        extracted=check.extracted,
        reference=tuple(gold),
        symbolic=check.correct,
        anchored=check.anchored,
        plain_difference=check.correct is False and check.reading in PARSED,
        route=route,
        route_precision=routes.precision(route),
        route_decides=routes.decides(route),
    )


def symbolic_verdict(
    text: str,
    gold: Sequence[str],
    timeout: float,
    problem: str = "",
    left_out: frozenset[str] = frozenset(),
) -> tuple[AnswerVerdict, list[str]]:
    """The final answer found in `text` checked against the references (without the readings
    `left_out`), and what to warn about."""
    check = check_answer(text, list(gold), timeout=timeout, problem=problem, left_out=left_out)
    return answer_verdict(check, gold), answer_warnings(check, gold, timeout)
