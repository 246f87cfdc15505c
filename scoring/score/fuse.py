"""Fusion: from step verdicts and checks to the GradeReport (docs/architecture.md 4.3, 4.8, 4.9).

Every number in the report is computed here from labels; no model ever supplies a score.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import get_args

from scoring.align.realign import Alignment
from scoring.judge.guard import Guard
from scoring.schema import (
    AlignedPair,
    AlignmentReport,
    AnswerReport,
    CheckReport,
    DifficultyReport,
    ErrorTreeReport,
    FirstErrorReport,
    GradeReport,
    HcrsReport,
    Meta,
    PolicyScore,
    ProblemType,
    ReasonEvalReport,
    ScoringPolicy,
    StepReport,
)
from scoring.score.hcrs import (
    HcrsConfig,
    HcrsScore,
    base_score,
    hcrs_score,
    holistic_score,
    is_lucky_guess,
)
from scoring.score.quadrants import quadrant
from scoring.score.reasoneval import solution_redundancy, solution_validity
from scoring.score.stepmath import (
    StepMathScore,
    expected_score,
    score_points,
    simple_problem_score,
    step_points,
)
from scoring.score.summary import SummaryInput, plain_summary
from scoring.score.tree import TreeResult
from scoring.verdict import AnswerVerdict, DifficultyVerdict, FirstErrorGuess, StepVerdict

POLICIES: tuple[ScoringPolicy, ...] = get_args(ScoringPolicy)


@dataclass(frozen=True)
class FuseConfig:
    """Thresholds of the fusion; `quadrant_threshold` is ReAlign's high-alignment cut (0.7)."""

    quadrant_threshold: float = 0.7
    hcrs: HcrsConfig = field(default_factory=HcrsConfig)
    policy: ScoringPolicy = "stepmath"  # the scoring policy when a request names none


@dataclass(frozen=True)
class GradeInputs:
    """Everything the stages produced for one solution, ready to be fused into a report."""

    steps: Sequence[str]
    verdicts: Sequence[StepVerdict]
    tree: TreeResult
    problem_type: ProblemType
    language: str
    answer: AnswerVerdict
    alignment: Alignment | None = None
    skeleton_len: int | None = None
    simplicity: bool = False
    difficulty: DifficultyVerdict | None = None
    policy: ScoringPolicy = "stepmath"
    first_error: FirstErrorGuess | None = None

    @property
    def process_evaluated(self) -> bool:
        """False when the difficulty module rated the problem simple (the answer alone scores)."""
        return self.difficulty is None or self.difficulty.process_evaluation_needed


def _step_reports(inputs: GradeInputs) -> list[StepReport]:
    al = inputs.alignment
    reports = []
    for i, (text, verdict) in enumerate(zip(inputs.steps, inputs.verdicts, strict=True)):
        label = inputs.tree.labels[i]
        reason = verdict.reason
        if label != verdict.label:
            reason = f"{reason} (relabelled {label}: no earlier error it builds on)"
        reports.append(
            StepReport(
                index=i + 1,
                text=text,
                label=label,
                state=verdict.state,
                reason=reason,
                evidence=list(verdict.evidence),
                checks=[
                    CheckReport(
                        kind=c.kind,
                        polarity=c.polarity,
                        source=c.source,
                        detail=c.detail,
                        decisive=c.decisive,
                    )
                    for c in verdict.checks
                ],
                depends_on=list(inputs.tree.depends_on[i]),
                aligned_reference=[r + 1 for r in al.step_reference[i]] if al else [],
                similarity=round(float(al.step_similarity[i]), 4) if al else None,
                validity=round(min(1.0, max(0.0, verdict.validity)), 4),
                redundancy=round(min(1.0, max(0.0, verdict.redundancy)), 4),
                error_categories=list(verdict.error_categories),
                p_wrong=None if verdict.p_wrong is None else round(verdict.p_wrong, 4),
                model_label=verdict.model_label,
            )
        )
    return reports


def _alignment_report(al: Alignment | None) -> AlignmentReport | None:
    if al is None:
        return None
    return AlignmentReport(
        score=round(float(al.score), 4),
        pairs=[
            AlignedPair(
                reference=[r + 1 for r in g.reference],
                solution=[s + 1 for s in g.solution],
                similarity=round(float(g.similarity), 4),
            )
            for g in al.pairs
        ],
        insertions=[s + 1 for s in al.insertions],
        deletions=[r + 1 for r in al.deletions],
        divergence_step=None if al.divergence_step is None else al.divergence_step + 1,
    )


def _points(inputs: GradeInputs, policy: ScoringPolicy) -> list[float]:
    return step_points(
        inputs.tree.labels,
        [v.p_wrong for v in inputs.verdicts],
        simplicity=inputs.simplicity,
        policy=policy,
        own=[v.follow_credit for v in inputs.verdicts],
    )


def _policy_score(inputs: GradeInputs, policy: ScoringPolicy) -> StepMathScore:
    if not inputs.process_evaluated:
        return simple_problem_score(inputs.answer.correct)
    if not inputs.tree.labels:  # an empty solution (docs/scoring.md "Empty solutions")
        return StepMathScore(raw=0.0, score=0, binary=0)
    return score_points(_points(inputs, policy), inputs.problem_type)


def _expected(inputs: GradeInputs) -> float | None:
    if not inputs.process_evaluated:
        return None
    if not inputs.tree.labels:  # an empty solution scores 0, as `score` does
        return 0.0
    p = [v.p_wrong for v in inputs.verdicts]
    if any(x is None for x in p):
        return None
    return round(
        expected_score(
            [x for x in p if x is not None], inputs.problem_type, inputs.tree.labels, inputs.policy
        ),
        4,
    )


def _first_error(inputs: GradeInputs) -> FirstErrorReport | None:
    guess = inputs.first_error
    if guess is None or not inputs.process_evaluated:
        return None
    step = None if guess.step is None else guess.step + 1
    return FirstErrorReport(step=step, probability=round(guess.probability, 4))


def fuse(
    inputs: GradeInputs, meta: Meta, config: FuseConfig = FuseConfig(), guard: Guard | None = None
) -> GradeReport:
    """Assemble the GradeReport: Eq. 1, HCRS, ReasonEval, the tree, quadrant and flags.

    Parts that can be left out run through `guard` (`scoring.judge.guard`): a failing alignment report
    is None (and the quadrant uses the process score, as without a reference); failing HCRS
    penalties are 0 (HCRS = its base). Without a guard a failure raises.
    """
    g = guard if guard is not None else Guard(contain=False)
    labels = inputs.tree.labels
    scores = {policy: _policy_score(inputs, policy) for policy in POLICIES}
    main = scores[inputs.policy]
    points = _points(inputs, "stepmath") if labels else []
    first_error = next((i for i, lab in enumerate(labels, 1) if lab == "incorrect"), None)
    base = base_score(points)
    hc = g.run(
        "fuse.hcrs",
        hcrs_score,
        points,
        first_error,
        inputs.skeleton_len,
        config.hcrs,
        default=HcrsScore(base, base, 0.0, 0.0, first_error),
    )
    answer_correct = inputs.answer.correct
    # Without a reference answer, the final step's verdict stands in for answer correctness.
    answer_ok = bool(answer_correct) if answer_correct is not None else bool(main.binary)
    alignment = g.run("fuse.alignment", _alignment_report, inputs.alignment, default=None)
    aligned = inputs.alignment if alignment is not None else None
    process = aligned.score if aligned is not None else main.raw / 10.0
    quad = quadrant(process, answer_ok, config.quadrant_threshold)
    tree = inputs.tree.tree
    steps = _step_reports(inputs)
    return GradeReport(
        score=main.score,
        score_raw=round(main.raw, 4),
        score_binary=main.binary,
        score_expected=_expected(inputs),
        scoring_policy=inputs.policy,
        scores={p: PolicyScore(score=v.score, raw=round(v.raw, 4)) for p, v in scores.items()},
        summary=plain_summary(
            SummaryInput(
                labels,
                inputs.problem_type,
                inputs.language,
                answer_correct,
                bool(inputs.answer.reference),
                inputs.policy,
                {p: v.score for p, v in scores.items()},
                inputs.process_evaluated,
                [
                    lab == "incorrect" and v.follow_credit is not None
                    for lab, v in zip(labels, inputs.verdicts, strict=True)
                ],
            )
        ),
        likely_first_error=_first_error(inputs),
        problem_type=inputs.problem_type,
        language="zh" if inputs.language == "zh" else "en",
        steps=steps,
        error_tree=ErrorTreeReport(
            roots=list(tree.roots),
            edges=list(tree.edges),
            chains=[list(c) for c in tree.chains],
            formatted=tree.formatted(),
        ),
        answer=AnswerReport(
            extracted=inputs.answer.extracted,
            reference=list(inputs.answer.reference),
            correct=answer_correct,
            method=inputs.answer.method,
            symbolic=inputs.answer.symbolic,
            llm=inputs.answer.llm,
            route=inputs.answer.route,
            route_precision=inputs.answer.route_precision,
        ),
        alignment=alignment,
        hcrs=HcrsReport(
            score=round(hc.score, 4),
            base=round(hc.base, 4),
            format_penalty=round(hc.format_penalty, 4),
            hazard_penalty=round(hc.hazard_penalty, 4),
            first_error=hc.first_error,
        ),
        reasoneval=ReasonEvalReport(
            validity=solution_validity([s.validity for s in steps]),
            redundancy=solution_redundancy([s.redundancy for s in steps]),
        ),
        holistic=round(holistic_score(hc.score, answer_ok, config.hcrs), 4),
        quadrant=quad,
        lucky_guess=is_lucky_guess(hc.score, answer_ok, config.hcrs),
        hallucination=quad == "hallucination",
        difficulty=(
            DifficultyReport(
                level=inputs.difficulty.level,
                process_evaluated=inputs.difficulty.process_evaluation_needed,
            )
            if inputs.difficulty is not None
            else None
        ),
        meta=meta.model_copy(update={"warnings": [*meta.warnings, *inputs.tree.warnings]}),
    )
