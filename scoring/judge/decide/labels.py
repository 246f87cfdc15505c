"""The one place where evidence becomes labels (docs/architecture.md 4.2, 4.10).

A step is `incorrect` when its posterior probability of being wrong reaches the calibrated
threshold, or, offline in a language calibrated that way, when it is among the most likely wrong
steps that bring Eq. 1 closest to its expectation (`scoring.judge.decide.expected`). Offline, a
step in which a check of measured precision at least `SURE_PRECISION` found an error is
`incorrect` under either rule (`_sure_error`), and a final answer decided wrong makes its
likeliest cause `incorrect` when no step is (`_answer_cause`).
Otherwise it keeps the model's label in LLM mode, or is `correct` offline (`redundant` when it
repeats an earlier step). A step that is not wrong in itself but uses the
result of a wrong step is `meaningless` (StepMathAgent). Validity is 1 - P(wrong): ReasonEval's
step validity, calibrated.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from scoring.judge.calibration import Calibration
from scoring.judge.decide.expected import closest_to_expected
from scoring.judge.decide.posterior import StepPosterior, posteriors
from scoring.judge.decide.reliability import RELIABILITY, Reliability
from scoring.judge.findings import SOURCE, Evidence, Finding
from scoring.judge.input import JudgeInput
from scoring.schema import Evidence as EvidenceSource
from scoring.verdict import StepVerdict

# Error categories reported for the kinds that speak for an error.
CATEGORY: dict[str, str] = {
    "calculation_false": "calculation",
    "contradiction": "contradiction",
    "derivation": "derivation",
    "continuation": "derivation",
    "rewrite": "derivation",
    "back_substitution": "contradiction",
    "answer_wrong": "final_answer",
    "answer_unmarked_wrong": "final_answer",
    "reference_unmatched": "unsupported",
    "reference_mismatch": "calculation",
    "malformed_latex": "format",
    "memory_mistake": "known_mistake",
    "memory_divergence": "unsupported",
}


@dataclass(frozen=True)
class DecideConfig:
    """Redundancy levels (ReasonEval-style step redundancy in [0, 1])."""

    redundant: float = 0.9
    not_redundant: float = 0.05


DECIDE = DecideConfig()
# An error kind this precise labels its step by itself offline (`_sure_error`); the bar an answer
# route must clear to decide labels (`scoring.answer.routes.DECIDE_PRECISION`), for the same reason.
SURE_PRECISION = 0.8


def _sources(found: Sequence[Finding]) -> tuple[EvidenceSource, ...]:
    return tuple(dict.fromkeys(SOURCE[f.kind] for f in found))  # type: ignore[misc]


def _reason(post: StepPosterior, wrong: bool) -> str:
    """The strongest error finding of a wrong step; for a step that is not wrong, the support
    found for it or, where checks did find something, what they found and why it did not
    decide (the notes of kinds that only warn come last)."""
    errors = [f.detail for f in post.counted if f.polarity == "error"]
    if wrong:
        head = post.strongest.detail if post.strongest is not None else \
            f"likely wrong (P(wrong) = {post.p_decide:.2f}) for a step of this kind and place"
    elif errors:
        head = f"{'; '.join(errors)}, but not enough to call the step wrong " \
               f"(P(wrong) = {post.p_decide:.2f})"
    else:
        support = [f.detail for f in post.counted if f.polarity == "support"]
        head = "; ".join(support) if support else "no check found a problem"
    notes = [f.detail for f in post.warned if f.kind != "repeat"]
    return "; ".join([head, *notes])


def _offline_label(i: int, post: StepPosterior, wrong: bool, evidence: Evidence,
                   config: DecideConfig) -> StepVerdict:
    repeat = next((f for f in evidence.at(i) if f.kind == "repeat"), None)
    errors = tuple(f for f in post.counted if f.polarity == "error")
    if wrong:
        return StepVerdict("incorrect", _reason(post, True), _sources(errors) or ("structure",),
                           (), tuple(dict.fromkeys(CATEGORY[f.kind] for f in errors
                                                   if f.kind in CATEGORY)),
                           1.0 - post.p_wrong, config.not_redundant, post.p_wrong)
    if repeat is not None:
        return StepVerdict("redundant", repeat.detail, ("structure",), validity=1.0 - post.p_wrong,
                           redundancy=config.redundant, p_wrong=post.p_wrong)
    return StepVerdict("correct", _reason(post, False), _sources(post.counted),
                       validity=1.0 - post.p_wrong, redundancy=config.not_redundant,
                       p_wrong=post.p_wrong)


def _propagate(verdicts: list[StepVerdict], evidence: Evidence,
               offline: Sequence[bool]) -> list[StepVerdict]:
    """A step built on a wrong result is meaningless, however right it is in isolation; the
    final step whose answer matches the reference is not. Labels the model gave keep the
    model's own reading of what depends on what."""
    out = list(verdicts)
    for j, verdict in enumerate(out):
        if not offline[j] or verdict.label not in ("correct", "redundant"):
            continue
        if any(f.kind == "answer_correct" for f in evidence.at(j)):
            continue
        bad = [d for d in evidence.depends_on[j] if out[d].label in ("incorrect", "meaningless")]
        if bad:
            out[j] = verdict.relabel("meaningless",
                                     f"uses the result of step {bad[-1] + 1}, which is wrong",
                                     "dependency")
    return out


def decide(
    inp: JudgeInput, evidence: Evidence, calibration: Calibration,
    model: Sequence[StepVerdict | None] | None = None, reliability: Reliability = RELIABILITY,
    config: DecideConfig = DECIDE,
) -> tuple[list[StepVerdict], list[str]]:
    """Labels for every step, and a warning for every disagreement with the model.

    Without a model (or where it gave no label: a part of a long solution whose call failed)
    the labels come from the evidence alone and `depends_on` from the quantities the steps
    share. With one, the model's label is one more source: it changes only where the posterior
    crosses the threshold against it and a decisive check found something that way, and its
    `depends_on` is kept.
    """
    model = list(model) if model is not None else [None] * len(inp.steps)
    if len(model) != len(inp.steps):
        raise ValueError(f"{len(model)} model labels for {len(inp.steps)} steps")
    says = [None if m is None else m.label == "incorrect" for m in model]
    posts = posteriors(inp, evidence, calibration, says, reliability)
    sure = [_sure_error(p, calibration) for p in posts]
    threshold = calibration.model(inp.language).threshold
    wrong_at: list[bool] | None = None
    cause: int | None = None
    if all(m is None for m in model):
        wrong_at = _offline_wrong(inp, evidence, calibration, posts, sure)
        if wrong_at is None:  # each step on the threshold
            wrong_at = [p.p_decide >= threshold or s for p, s in zip(posts, sure, strict=True)]
        cause = _answer_cause(inp, posts, wrong_at)
        if cause is not None:
            wrong_at = [i == cause for i in range(len(posts))]
    verdicts: list[StepVerdict] = []
    warnings: list[str] = []
    for i, (mine, post) in enumerate(zip(model, posts, strict=True)):
        wrong = post.p_decide >= threshold if wrong_at is None else wrong_at[i]
        if mine is None:
            wrong = wrong or sure[i]
            own = _offline_label(i, post, wrong, evidence, config)
            if i == cause:
                found = tuple(e for e in own.evidence if e != "structure")
                own = replace(own, evidence=tuple(dict.fromkeys((*found, "answer"))), reason=(
                    f"the final answer is wrong and no check placed the error: this is the step "
                    f"most likely wrong (P(wrong) = {post.p_decide:.2f}); {own.reason}"))
            verdicts.append(replace(own, depends_on=tuple(d + 1 for d in evidence.depends_on[i])))
            continue
        verdict, note = _with_model(i + 1, mine, post, wrong)
        verdicts.append(verdict)
        warnings.extend(note)
    return _propagate(verdicts, evidence, [m is None for m in model]), warnings


def _offline_wrong(inp: JudgeInput, evidence: Evidence, calibration: Calibration,
                   posts: Sequence[StepPosterior], sure: Sequence[bool]) -> list[bool] | None:
    """The wrong steps of an offline grade when the language decides them together (Eq. 1 on
    the labels closest to its expectation), the `sure` ones (`_sure_error`) first; None when
    each step is decided on the threshold. Kinds that only warn are left out here too: they
    never move a label."""
    model = calibration.model(inp.language)
    if model.decision != "expected":
        return None
    shielded = [any(f.kind == "answer_correct" for f in evidence.at(i))
                for i in range(len(inp.steps))]
    return closest_to_expected([p.p_decide for p in posts], inp.problem_type,
                               evidence.depends_on, shielded, model.lenience, sure)


def _answer_cause(inp: JudgeInput, posts: Sequence[StepPosterior],
                  wrong: Sequence[bool]) -> int | None:
    """A final answer decided wrong was reached through a wrong step (on the fit half, 97% of the
    solutions whose answer was decided wrong have a step humans labelled wrong): when the rule
    in use labels none (`wrong`), the step most likely wrong (the largest decisive P(wrong), the later on
    a tie) is that step. None when some step is wrong already, or the answer is not decided
    wrong."""
    if inp.problem_type == "proof" or inp.answer.deciding is not False or not posts \
            or any(wrong):
        return None
    return max(range(len(posts)), key=lambda i: (posts[i].p_decide, i))


def _sure_error(post: StepPosterior, calibration: Calibration) -> bool:
    """A decisive check found an error of a kind right at least `SURE_PRECISION` of the times
    it fired on the fit half (a false calculation, a wrong final answer), and the decisive
    findings together say wrong (support found for the step, a right final answer, can outweigh
    it).

    Offline, such a finding labels its step wrong whatever the prior says: on the threshold, or
    first among the steps chosen to meet the expected score (there, a false product in step 1
    and a wrong final answer built on it made only the final step wrong, the likelier one, and
    the Tree-of-Error rooted the mistake in the wrong step). The prior's length and position
    weights were fitted on model-written solutions whose steps are long and whose first steps
    restate the problem: on a student's short first step ("3 x 12 = 38 apples.") they put a
    false product below the threshold, extrapolating past the steps they saw; the kind's
    precision is measured on all its firings. The step's P(wrong) stays the model's: raised to
    the kind's precision, it ranked the originals of the perturbation set above their
    perturbations wherever a check misread an original's step (ReasonEval protocol AUC 0.755 ->
    0.745 fit, 0.756 -> 0.742 check)."""
    return post.evidence_log_odds > 0 and any(
        f.polarity == "error" and (stats := calibration.stats(f.kind)) is not None
        and stats.precision is not None and stats.precision >= SURE_PRECISION
        for f in post.counted)


def _found(post: StepPosterior, polarity: str) -> bool:
    """A decisive check found something of this polarity about the step."""
    return any(f.polarity == polarity for f in post.counted)


def _with_model(index: int, mine: StepVerdict, post: StepPosterior,
                wrong: bool) -> tuple[StepVerdict, list[str]]:
    """The model's label, unless the posterior crosses the threshold against it *and* the
    decisive checks' findings outweigh the model's word by themselves (their log-odds and the
    model's sum to the other side): the prior (base rates of steps like this one) weighs in the
    probability, but never overrules a model's direct judgement, alone or by tipping a weak
    finding over. A real judge sees what the prior encodes (the final answer, the step's place),
    so counting the prior against it counts that twice."""
    merged = tuple(dict.fromkeys((*mine.evidence, *_sources(post.counted))))
    mine = replace(mine, validity=1.0 - post.p_wrong, p_wrong=post.p_wrong, model_label=mine.label)
    if wrong and mine.label != "incorrect" and _found(post, "error") \
            and post.evidence_log_odds > 0:
        reason = _reason(post, True)
        errors = [f for f in post.counted if f.polarity == "error"]
        categories = (*mine.error_categories,
                      *(CATEGORY[f.kind] for f in errors if f.kind in CATEGORY))
        return replace(mine, label="incorrect", reason=reason, evidence=merged,
                       error_categories=tuple(dict.fromkeys(categories))), [(
            f"step {index}: judged {mine.label}, but {reason} (P(wrong) = {post.p_wrong:.2f}); "
            "relabelled incorrect")]
    if not wrong and mine.label == "incorrect" and _found(post, "support") \
            and post.evidence_log_odds < 0:
        reason = _reason(post, False)
        return replace(mine, label="correct", reason=reason, evidence=merged,
                       error_categories=()), [(
            f"step {index}: judged incorrect, but the evidence outweighs it ({reason}; "
            f"P(wrong) = {post.p_wrong:.2f}); relabelled correct")]
    notes = [f"step {index}: judged {mine.label}; offline check: {f.detail} "
             f"(P(wrong) = {post.p_wrong:.2f}, label kept)"
             for f in post.counted if f.polarity == "error" and not wrong]
    return replace(mine, evidence=merged), notes
