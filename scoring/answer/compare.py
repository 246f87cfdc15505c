"""Final answers: whether a solution's answer equals the reference (docs/architecture.md 4.7).

The comparison pipeline: the answers are cleaned (`scoring.answer.clean`), read in code by the
readings of `scoring.answer.readings` (as written, then as values), and only a pair none of them
decides goes to math-verify, through a `Comparer` (by default the shared worker pool of
`scoring.answer.worker`, the one place that starts processes).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scoring.answer.clean import clean_answer, for_math_verify, normalise
from scoring.answer.extract import answer_candidates, find_answer
from scoring.answer.readings import READINGS, Reading, read_pair, restate
from scoring.answer.readings.parts import one_unknown_set
from scoring.answer.readings.rounding import (
    computed_inexactly,
    stated_places,
    within_rounding,
    within_stated_precision,
)
from scoring.answer.readings.words import is_verdict, yes_no
from scoring.answer.routes import route_of
from scoring.answer.worker import WORKER_READINGS, Comparer, Outcome, default_verifier, verdict_of
from scoring.schema import AnswerRoute

__all__ = [
    "AnswerCheck",
    "Equivalence",
    "check_answer",
    "compare_answers",
    "is_equivalent",
]


@dataclass(frozen=True)
class Equivalence:
    """A verdict and the reading that decided it (`same_text`, a name from
    `scoring.answer.readings.READINGS`, `rounded_computation`, `stated_precision`,
    `math_verify`, a reading of the worker's (`scoring.answer.worker.WORKER_READINGS`), or
    `empty`)."""

    verdict: bool | None
    reading: str
    restated: bool = False  # decided on the values `restate` read from the answers
    timed_out: bool = False  # math-verify ran out of time: undecided, never a guess

    @property
    def route(self) -> AnswerRoute | None:
        """The group of readings that decided (`scoring.answer.routes`), None when none did."""
        return None if self.verdict is None else route_of(self.reading, self.restated)


def compare_answers(
    gold: str | Sequence[str],
    pred: str | None,
    *,
    timeout: float = 2.0,
    verifier: Comparer | None = None,
    readings: Sequence[tuple[str, Reading]] = READINGS,
    inexact: bool = False,
    places: int | None = None,
    left_out: frozenset[str] = frozenset(),
) -> Equivalence:
    """Whether `pred` equals the gold answer (any of them, for a list), and what decided it.

    The readings of `scoring.answer.readings` are tried first (exact, in this process), on the
    answers as written and then as values (`restate`: the answer a text in words states, without
    units and names); a pair none of them decides goes to math-verify in its worker. `readings`
    is there to measure what each one adds. With `inexact` (the computation went through a
    rounded quantity, `scoring.answer.readings.rounding`), numbers within `ROUNDED_REL_TOL` are
    equal (`rounded_computation`). With `places` (the decimal places the problem asks for,
    `scoring.answer.readings.rounding.stated_places`), numbers a unit off in that place are
    equal (`stated_precision`). `left_out` names readings, the worker's included, that may not
    decide (a pair one of them would equate gets math-verify's verdict).
    """
    readings = [(name, reading) for name, reading in readings if name not in left_out]
    items = [gold] if isinstance(gold, (str, int, float)) else list(gold)
    golds = [clean_answer(str(g)) for g in items if g is not None and str(g).strip()]
    if pred is None or not str(pred).strip() or not golds:
        return Equivalence(None, "empty")
    pred = clean_answer(str(pred))
    refused: Equivalence | None = None
    undecided: dict[str, list[tuple[str, bool]]] = {}  # pred for math-verify -> (gold, restated)
    for g in golds:
        if normalise(g) == normalise(pred):
            return Equivalence(True, "same_text")
        found, values = read_pair(g, pred, readings), (g, pred)
        if found is None and (values := restate(g, pred)) != (g, pred):
            found = read_pair(*values, readings)
        restated = values != (g, pred)
        if inexact and not (found and found[0]) and within_rounding(*values):
            return Equivalence(True, "rounded_computation", restated)
        if (
            places is not None
            and not (found and found[0])
            and within_stated_precision(*values, places)
        ):
            return Equivalence(True, "stated_precision", restated)
        if found is None:
            sent = (for_math_verify(values[0]), restated)
            undecided.setdefault(for_math_verify(values[1]), []).append(sent)
        elif found[0]:
            return Equivalence(True, found[1], restated)
        else:
            refused = refused or Equivalence(False, found[1], restated)
    verdict: Outcome = None
    for text, pending in undecided.items():
        verdict = (verifier or default_verifier()).outcome([g for g, _ in pending], text, timeout)
        if verdict in left_out:
            verdict = False
        if verdict is True:
            return Equivalence(True, "math_verify", any(r for _, r in pending))
        if verdict in WORKER_READINGS:
            return Equivalence(True, str(verdict), any(r for _, r in pending))
        if verdict == "timeout":
            break  # each time-out costs a budget and a worker restart: the rest are not tried
    if refused is not None:
        return refused
    restated = any(r for p in undecided.values() for _, r in p)
    if verdict == "timeout":
        return Equivalence(None, "math_verify", restated, timed_out=True)
    return Equivalence(verdict_of(verdict), "math_verify", restated)


def is_equivalent(
    gold: str | Sequence[str],
    pred: str | None,
    *,
    timeout: float = 2.0,
    verifier: Comparer | None = None,
) -> bool | None:
    """Whether `pred` equals the gold answer (any of them, for a list).

    Returns None when either side is empty or cannot be parsed, or math-verify runs past
    `timeout` CPU seconds (the worker is then restarted on the next call).
    """
    return compare_answers(gold, pred, timeout=timeout, verifier=verifier).verdict


@dataclass(frozen=True)
class AnswerCheck:
    """The answer found, whether it equals the reference, whether the solution marked it, and
    the reading that decided (an `Equivalence.reading`; its precision is measured by
    `eval_sets.studies.answer_agreement`), "" when no one comparison decided (nothing compared, or every
    guessed candidate refused). `route` groups the reading (`scoring.answer.routes`).

    `timed_out`: a comparison ran out of time, so `correct` is None (undecided), never a guess.
    """

    extracted: str | None
    correct: bool | None
    anchored: bool
    reading: str = ""
    timed_out: bool = False
    route: AnswerRoute | None = None


def check_answer(
    text: str,
    gold: str | Sequence[str],
    *,
    timeout: float = 2.0,
    candidate_timeout: float = 0.5,
    verifier: Comparer | None = None,
    problem: str = "",
    rounding: bool = True,
    readings: Sequence[tuple[str, Reading]] = READINGS,
    left_out: frozenset[str] = frozenset(),
    guess: bool = True,
) -> AnswerCheck:
    """Check a solution's final answer against the reference.

    A marked answer (boxed, "final answer", ...) is decisive. An unmarked one is looked for among
    the closing lines' expressions: the solution is right if any of them equals the reference.
    When the problem or the solution shows a rounded quantity, numbers are compared within
    rounding (`scoring.answer.readings.rounding`), and when the problem asks for a number of
    decimal places, a unit off in that place is equal; `rounding=False` leaves both readings
    out, `readings` the others (to measure what each adds); `left_out` is `compare_answers`'.
    Without a reference there is nothing to compare, and with `guess=False` (a proof, which
    need not end on a value) an answer the solution does not mark is not reported: its last
    number is no answer it states.
    """
    found = find_answer(text, problem)
    golds = [gold] if isinstance(gold, str) else list(gold)
    if not golds:
        return AnswerCheck(found.text if found.anchored or guess else None, None, found.anchored)
    inexact = rounding and computed_inexactly(problem, text)
    places = stated_places(problem) if rounding else None
    if found.anchored:
        result = compare_answers(
            golds,
            found.text,
            timeout=timeout,
            verifier=verifier,
            inexact=inexact,
            places=places,
            readings=readings,
            left_out=left_out,
        )
        return AnswerCheck(
            found.text, result.verdict, True, result.reading, result.timed_out, result.route
        )
    # With no expression in the closing lines (a one-line `30^\circ`), the answer found is the one.
    candidates = answer_candidates(text) or ([found.text] if found.text else [])
    if all(is_verdict(g) for g in golds) and not any(yes_no(c) is not None for c in candidates):
        # A verdict answers a yes/no question and the closing lines' numbers are none ("91 =
        # 7 x 13, so 91 is not prime" says its verdict in words): undecided, not wrong.
        return AnswerCheck(found.text, None, False)
    for candidate in candidates:
        result = compare_answers(
            golds,
            candidate,
            timeout=candidate_timeout,
            verifier=verifier,
            inexact=inexact,
            places=places,
            readings=readings,
            left_out=left_out,
        )
        if result.verdict:
            return AnswerCheck(candidate, True, False, result.reading, route=result.route)
        if result.verdict is False and one_unknown_set(candidate):
            # `x = 2 or x = -2` against 2: the answer is the set, and its values are not tried
            # one by one (a hedge is not the answer it contains).
            return AnswerCheck(candidate, False, False, result.reading, route=result.route)
        if result.timed_out:
            # It might have matched: undecided, not wrong. The rest are not tried: one answer
            # that exhausts math-verify is seldom alone, and each costs a deadline and a restart.
            return AnswerCheck(found.text, None, False, timed_out=True)
    return AnswerCheck(found.text, False if found.text else None, False)
