"""The offline judge: step labels without an LLM, from evidence only (DESIGN.md 4.2, 4.7).

Each rule can only be applied when code can decide it: a closed equation that evaluates false, a
relation that contradicts earlier ones, a final answer that does not match the reference, a step
that matches no reference step or contradicts the numbers of the one it aligns with, a repeated
step, malformed LaTeX (format module). Steps that use the results of a wrong step are
meaningless. Every label carries the evidence that produced it; an unchecked step keeps the prior.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from scoring.align import Alignment
from scoring.backsubstitute import back_substitute
from scoring.equations import Relation, check_against, check_step, extract_relations
from scoring.latexlint import latex_problems
from scoring.provenance import unexplained_numbers
from scoring.quantities import dependencies, extract_quantities
from scoring.schema import ProblemType
from scoring.verdict import AnswerVerdict, StepVerdict

_SPACE = re.compile(r"[\s$\\,.;:，。；：]+")
_NUMERIC = re.compile(r"-?\d+(?:\.\d+)?(?:/\d+)?")


@dataclass(frozen=True)
class JudgeConfig:
    """Validity levels per kind of evidence (ReasonEval-style step scores in [0, 1])."""

    prior: float = 0.75
    checked_true: float = 0.92
    symbolic_false: float = 0.03
    contradiction: float = 0.08
    answer_wrong: float = 0.12
    answer_unmarked_wrong: float = 0.35
    reference_mismatch: float = 0.3
    malformed: float = 0.25
    meaningless: float = 0.6
    redundant_validity: float = 0.5
    redundant: float = 0.9
    not_redundant: float = 0.05
    unrelated_similarity: float = 0.3
    unexplained: float = 0.55
    relatedness: bool = False  # embeds every English solution: ~10x slower offline grading
    off_topic_mean: float = 0.25
    off_topic_step: float = 0.3
    off_topic: float = 0.3


@dataclass(frozen=True)
class JudgeInput:
    problem: str
    steps: Sequence[str]
    problem_type: ProblemType
    answer: AnswerVerdict
    alignment: Alignment | None = None
    reference_steps: Sequence[str] = ()
    format_module: bool = False
    problem_similarity: Sequence[float] | None = None


def _normalise(text: str) -> str:
    return _SPACE.sub(" ", text).strip().lower()


def _results(step: str) -> set[str]:
    """The numbers a step derives (variable names left out: they say nothing about values)."""
    return {q for q in extract_quantities(step).produced if _NUMERIC.fullmatch(q)}


def _symbolic(
    step: str, relations: list[Relation], known: list[Relation], config: JudgeConfig
) -> StepVerdict | None:
    check = check_step(step)
    if check.verdict == "false":
        return StepVerdict(
            "incorrect", check.evidence, ("symbolic",), (), ("calculation",), config.symbolic_false
        )
    for rel in relations:
        against = check_against(known, rel)
        if against.verdict == "false":
            return StepVerdict(
                "incorrect",
                f"contradicts earlier steps: {against.detail}",
                ("symbolic",),
                (),
                ("contradiction",),
                config.contradiction,
            )
    known.extend(relations)
    if check.verdict == "true":
        return StepVerdict("correct", check.evidence, ("symbolic",), validity=config.checked_true)
    return None


def _reference(i: int, step: str, inp: JudgeInput, config: JudgeConfig) -> StepVerdict | None:
    al = inp.alignment
    if al is None or not inp.reference_steps:
        return None
    refs = al.step_reference[i]
    if not refs:
        if al.step_similarity[i] < config.unrelated_similarity:
            return StepVerdict(
                "incorrect",
                f"matches no reference step (best similarity {al.step_similarity[i]:.2f})",
                ("alignment",),
                (),
                ("unsupported",),
                config.reference_mismatch,
            )
        return None
    mine = _results(step)
    theirs: set[str] = set()
    for r in refs:
        theirs |= _results(inp.reference_steps[r])
    if mine and theirs and not mine & theirs:
        shown = ", ".join(str(r + 1) for r in refs)
        return StepVerdict(
            "incorrect",
            f"results {sorted(mine)} differ from reference step {shown} ({sorted(theirs)})",
            ("alignment",),
            (),
            ("calculation",),
            config.reference_mismatch,
        )
    return None


def _final_step(inp: JudgeInput, current: StepVerdict, config: JudgeConfig) -> StepVerdict:
    """The final step states the answer: it takes the answer check (proofs have no answer)."""
    answer = inp.answer
    if inp.problem_type == "proof" or answer.correct is None:
        return current
    if answer.correct:
        if current.label == "incorrect":
            return current
        return current.relabel(
            "correct",
            f"final answer {answer.extracted} matches the reference",
            "answer",
            validity=max(current.validity, config.checked_true),
        )
    ref = " or ".join(answer.reference)
    if answer.anchored:
        reason = f"final answer {answer.extracted} does not match the reference {ref}"
        validity = config.answer_wrong
    else:
        reason = f"no expression in the closing lines equals the reference {ref}"
        validity = config.answer_unmarked_wrong
    return current.relabel(
        "incorrect",
        reason,
        "answer",
        error_categories=(*current.error_categories, "final_answer"),
        validity=min(current.validity, validity),
    )


def _back_substitute(
    verdicts: list[StepVerdict], relations: list[list[Relation]], steps: Sequence[str],
    config: JudgeConfig,
) -> None:
    for failure in back_substitute(relations, steps):
        current = verdicts[failure.step]
        if current.label in ("correct", "redundant") and "answer" not in current.evidence:
            verdicts[failure.step] = StepVerdict(
                "incorrect", failure.detail, ("symbolic",), (), ("contradiction",),
                config.contradiction,
            )


def _flag_unexplained(
    verdicts: list[StepVerdict], unexplained: list[list[str]], config: JudgeConfig
) -> None:
    """Soft evidence only: numbers from nowhere lower validity but never change a label."""
    for i, numbers in enumerate(unexplained):
        current = verdicts[i]
        if numbers and current.label == "correct" and current.validity > config.unexplained:
            shown = ", ".join(numbers[:3])
            verdicts[i] = replace(
                current,
                reason=f"{current.reason}; mentions {shown}, which neither the problem nor an "
                "earlier step explains",
                validity=config.unexplained,
            )


def _flag_off_topic(
    verdicts: list[StepVerdict], similarity: Sequence[float], config: JudgeConfig
) -> None:
    """A solution whose steps as a whole do not resemble the problem answers some other problem.

    Soft evidence (embedding similarity): it lowers validity, it does not change labels.
    """
    if not similarity or sum(similarity) / len(similarity) >= config.off_topic_mean:
        return
    for i, sim in enumerate(similarity):
        current = verdicts[i]
        if sim < config.off_topic_step and current.validity > config.off_topic:
            verdicts[i] = replace(
                current,
                reason=f"{current.reason}; unrelated to the problem (similarity {sim:.2f})",
                evidence=(*current.evidence, "structure") if "structure" not in current.evidence
                else current.evidence,
                validity=config.off_topic,
            )


def _propagate(verdicts: list[StepVerdict], deps: Sequence[Sequence[int]], config: JudgeConfig) -> None:
    """A step built on a wrong result is meaningless, however right it is in isolation."""
    for j, verdict in enumerate(verdicts):
        if verdict.label not in ("correct", "redundant") or "answer" in verdict.evidence:
            continue
        bad = [d for d in deps[j] if verdicts[d].label in ("incorrect", "meaningless")]
        if bad:
            verdicts[j] = verdict.relabel(
                "meaningless",
                f"uses the result of step {bad[-1] + 1}, which is wrong",
                "dependency",
                validity=config.meaningless,
            )


def judge_steps(inp: JudgeInput, config: JudgeConfig = JudgeConfig()) -> list[StepVerdict]:
    """Label every step from the evidence code can decide; `depends_on` is 1-based."""
    known: list[Relation] = []
    seen: dict[str, int] = {}
    deps = dependencies(inp.steps, inp.problem)
    relations = [extract_relations(step) for step in inp.steps]
    verdicts: list[StepVerdict] = []
    for i, step in enumerate(inp.steps):
        verdict = StepVerdict("correct", "no check found a problem", validity=config.prior)
        found = _symbolic(step, relations[i], known, config)
        if found is not None:
            verdict = found
        if verdict.label == "correct" and (ref := _reference(i, step, inp, config)) is not None:
            verdict = ref
        if inp.format_module and verdict.label == "correct" and (problems := latex_problems(step)):
            verdict = StepVerdict(
                "incorrect", "; ".join(problems), ("structure",), (), ("format",), config.malformed
            )
        key = _normalise(step)
        if verdict.label == "correct" and key in seen and key:
            verdict = StepVerdict(
                "redundant",
                f"repeats step {seen[key] + 1}",
                ("structure",),
                validity=config.redundant_validity,
                redundancy=config.redundant,
            )
        seen.setdefault(key, i)
        if i == len(inp.steps) - 1:
            verdict = _final_step(inp, verdict, config)
        if verdict.label != "redundant":
            verdict = replace(verdict, redundancy=config.not_redundant)
        verdicts.append(verdict)
    _back_substitute(verdicts, relations, inp.steps, config)
    _flag_unexplained(verdicts, unexplained_numbers(inp.problem, inp.steps, relations), config)
    if inp.problem_similarity is not None:
        _flag_off_topic(verdicts, inp.problem_similarity, config)
    _propagate(verdicts, deps, config)
    return [replace(v, depends_on=tuple(d + 1 for d in deps[i])) for i, v in enumerate(verdicts)]
