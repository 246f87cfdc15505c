"""The offline judge: step labels without an LLM, from evidence only (DESIGN.md 4.2, 4.7).

Each rule can only be applied when code can decide it: a closed equation that evaluates false
(also when stated in words, `scoring.prose_arithmetic`), a relation that contradicts earlier ones,
an equation derived in a step that shares no root with the one it comes from
(`scoring.step_consequence`), an announced rewrite that changes the value
(`scoring.rewrite_check`), a final answer that does not match the reference, a step that matches
no reference step or contradicts the numbers of the one it aligns with, a repeated step,
malformed LaTeX (format module). Steps that use the results of a wrong step are meaningless.
Every label carries the evidence that produced it; an unchecked step keeps the prior.
Soft evidence lowers validity without a label: numbers from nowhere (`scoring.provenance`), a copy
that differs from all the others in one token (`scoring.restatement`), a final answer stated before
the work it depends on (`scoring.ordering`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from scoring.align import Alignment
from scoring.backsubstitute import Substitution, back_substitute
from scoring.equations import (
    Relation,
    check_against,
    check_relation,
    check_step,
    definitions,
    extract_relations,
    single_value,
)
from scoring.guard import Guard
from scoring.latexlint import latex_problems
from scoring.numeric import Value, relative_difference
from scoring.ordering import early_answer
from scoring.prose_arithmetic import continued_operation
from scoring.provenance import unexplained_numbers
from scoring.quantities import dependencies, extract_quantities, literal_numbers
from scoring.restatement import odd_copies
from scoring.rewrite_check import broken_rewrites
from scoring.schema import ProblemType
from scoring.step_consequence import broken_continuation, broken_derivations
from scoring.verdict import AnswerVerdict, StepVerdict

_SPACE = re.compile(r"[\s$\\,.;:，。；：]+")
_CASE = re.compile(
    r"\bif\b|\bwhen\b|\bcase\b|\bsuppos|\bassum|\bfor\s+\$?[a-z]\s*=|\btry|若|如果|当|情况|假设",
    re.IGNORECASE,
)
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
    unexplained_unused: float = 0.52
    odd_copy: float = 0.53  # a copy at odds with two others: between a number from nowhere
    # that later steps use (unexplained) and one that leads nowhere (unexplained_unused)
    early_answer: float = 0.45
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


def _names(rel: Relation) -> set[str]:
    exprs = (rel.lhs_expr, rel.rhs_expr)
    return {s.name for e in exprs if e is not None for s in e.free_symbols}


def _new_case(relations: list[Relation], known: list[Relation]) -> set[str]:
    """Variables this step sets to a value other than the one earlier steps gave them.

    "If m = 0 ...", then "if m = 2, m^2 = 4": the second step starts a new case, and its
    relations are about the new value, not the old one. Only asked of steps that say they
    consider a case (`_CASE`): elsewhere a changed value is what the contradiction check is for.
    """
    values = definitions(known)
    changed: set[str] = set()
    for rel in relations:
        if (found := single_value(rel)) is not None and found[0] in values:
            name, value = found
            if _differs(values[name], value):
                changed.add(name)
    return changed


def _differs(old: Value, new: Value) -> bool:
    """Different beyond float noise (compared exactly: values may be too large for a float)."""
    return relative_difference(old, new) > 1e-9


def _symbolic(
    step: str, relations: list[Relation], known: list[Relation], config: JudgeConfig
) -> StepVerdict | None:
    check = check_step(step)
    if check.verdict == "false":
        return StepVerdict(
            "incorrect", check.evidence, ("symbolic",), (), ("calculation",), config.symbolic_false
        )
    for broken in broken_derivations(step, relations):
        return StepVerdict(
            "incorrect", broken.detail, ("symbolic",), (), ("derivation",), config.contradiction
        )
    new_case = _new_case(relations, known) if _CASE.search(step) else set()
    for rel in relations:
        if new_case and _names(rel) & new_case:
            continue
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


def _carried_operation(step: str, previous: list[Relation]) -> str | None:
    """"The sum is -5 + 3 = -2." then "And dividing by two gives us -9.": decided on -2."""
    last = next((r for r in reversed(previous) if r.op == "=" and r.rhs_expr is not None
                 and not r.rhs_expr.free_symbols), None)
    if last is None or (st := continued_operation(step, last.rhs)) is None:
        return None
    check = check_relation(Relation(st.lhs, st.rhs, "=", st.source))
    return f"applied to the previous result {last.rhs}: {check.detail}" if check.verdict == "false" \
        else None


def _derivation(
    i: int, steps: Sequence[str], relations: list[list[Relation]], config: JudgeConfig
) -> StepVerdict | None:
    """A step that continues or rewrites what the step before it ended with must agree with it
    (`scoring.step_consequence`, `scoring.rewrite_check`)."""
    previous = steps[i - 1] if i else ""
    detail: str | None = None
    if i and (cont := broken_continuation(previous, relations[i - 1], steps[i], relations[i])):
        detail = cont.detail
    elif i and (carried := _carried_operation(steps[i], relations[i - 1])) is not None:
        detail = carried
    elif rewrites := broken_rewrites(steps[i], previous):
        detail = rewrites[0].detail
    if detail is None:
        return None
    return StepVerdict("incorrect", detail, ("symbolic",), (), ("derivation",), config.contradiction)


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
    verdicts: list[StepVerdict], failures: Sequence[Substitution], config: JudgeConfig
) -> None:
    for failure in failures:
        current = verdicts[failure.step]
        if current.label in ("correct", "redundant") and "answer" not in current.evidence:
            verdicts[failure.step] = StepVerdict(
                "incorrect", failure.detail, ("symbolic",), (), ("contradiction",),
                config.contradiction,
            )


def _flag_unexplained(
    verdicts: list[StepVerdict], unexplained: list[list[str]], steps: Sequence[str],
    config: JudgeConfig,
) -> None:
    """Soft evidence only: numbers from nowhere lower validity but never change a label.

    A number from nowhere that no later step uses either leads nowhere: an unshown mental
    computation is made to be used, a changed number (ReasonEval "random number") is not, since
    the steps after it were written with the original. Those lower validity a little more.
    """
    later: list[set[str]] = [set() for _ in steps]
    after: set[str] = set()
    for i in range(len(steps) - 1, -1, -1):
        later[i] = set(after)
        after |= set(literal_numbers(steps[i]))
    for i, numbers in enumerate(unexplained):
        current = verdicts[i]
        if not numbers or current.label != "correct":
            continue
        unused = [n for n in numbers if n not in later[i]] if i < len(steps) - 1 else []
        level = config.unexplained_unused if unused else config.unexplained
        if current.validity > level:
            shown = ", ".join((unused or numbers)[:3])
            tail = " and no later step uses" if unused else ""
            verdicts[i] = replace(
                current,
                reason=f"{current.reason}; mentions {shown}, which neither the problem nor an "
                f"earlier step explains{tail}",
                validity=level,
            )


def _flag_soft(
    verdicts: list[StepVerdict], notes: dict[int, str], level: float
) -> None:
    """Soft evidence on the steps in `notes`: validity drops to `level`, labels stay."""
    for i, note in notes.items():
        current = verdicts[i]
        if current.label == "correct" and current.validity > level:
            verdicts[i] = replace(current, reason=f"{current.reason}; {note}", validity=level)


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


def judge_steps(
    inp: JudgeInput, config: JudgeConfig = JudgeConfig(), guard: Guard | None = None
) -> list[StepVerdict]:
    """Label every step from the evidence code can decide; `depends_on` is 1-based.

    Every check runs through `guard` (`scoring.guard`): one that raises is left out for that
    step and recorded there, so the caller can report it; without a guard a failure raises.
    """
    g = guard if guard is not None else Guard(contain=False)
    n = len(inp.steps)
    known: list[Relation] = []
    seen: dict[str, int] = {}
    deps = g.run("judge.dependencies", dependencies, inp.steps, inp.problem,
                 default=[[] for _ in range(n)])
    relations = [g.run("judge.relations", extract_relations, step, default=[], step=i + 1)
                 for i, step in enumerate(inp.steps)]
    verdicts: list[StepVerdict] = []
    for i, step in enumerate(inp.steps):
        verdict = StepVerdict("correct", "no check found a problem", validity=config.prior)
        found = g.run("judge.symbolic", _symbolic, step, relations[i], known, config,
                      default=None, step=i + 1)
        if found is not None:
            verdict = found
        if verdict.label == "correct" and (ref := g.run(
                "judge.reference", _reference, i, step, inp, config, default=None, step=i + 1)):
            verdict = ref
        if verdict.label == "correct" and (derived := g.run(
                "judge.derivation", _derivation, i, inp.steps, relations, config, default=None,
                step=i + 1)):
            verdict = derived
        if inp.format_module and verdict.label == "correct" and (problems := g.run(
                "judge.format", latex_problems, step, default=[], step=i + 1)):
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
        if i == n - 1:
            verdict = _final_step(inp, verdict, config)
        if verdict.label != "redundant":
            verdict = replace(verdict, redundancy=config.not_redundant)
        verdicts.append(verdict)
    failures = g.run("judge.back_substitution", back_substitute, relations, inp.steps, default=[])
    _back_substitute(verdicts, failures, config)
    unexplained = g.run("judge.provenance", unexplained_numbers, inp.problem, inp.steps, relations,
                        default=[[] for _ in range(n)])
    _flag_unexplained(verdicts, unexplained, inp.steps, config)
    copies = g.run("judge.restatement", odd_copies, inp.problem, inp.steps, default=[])
    _flag_soft(verdicts, {i: found[0].detail for i, found in enumerate(copies) if found},
               config.odd_copy)
    early = g.run("judge.ordering", early_answer, inp.problem, inp.steps, inp.answer.extracted,
                  default=None)
    if early is not None:
        _flag_soft(verdicts, {early.step: early.detail}, config.early_answer)
    if inp.problem_similarity is not None:
        _flag_off_topic(verdicts, inp.problem_similarity, config)
    _propagate(verdicts, deps, config)
    return [replace(v, depends_on=tuple(d + 1 for d in deps[i])) for i, v in enumerate(verdicts)]
