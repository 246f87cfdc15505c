"""The one place where evidence becomes labels (docs/architecture.md 4.2, 4.10).

Evidence first. Every step has a state read off the decisive checks (`check_state`: kinds whose measured
precision earns them a say, `Calibration.decisive`):
- `fails`: a check refuted it (an error finding, and the decisive findings together say wrong);
- `holds`: a check supported it (a true calculation, the right final answer) and none refuted it;
- `unchecked`: nothing decisive touched it, or the decisive checks disagree.

Offline the label follows the state: `incorrect`, `correct`, `unchecked` (`redundant` for a step
that repeats an earlier one). A prior never makes a label: it makes the step's P(wrong), which an
`unchecked` step turns into its expected points (`scoring.score.stepmath`). A step that uses the
result of a wrong step is `meaningless` (StepMathAgent), whatever its own state.

In LLM mode the model's label stands, with the findings beside it; it changes only where the
posterior crosses the threshold against it and the decisive findings alone outweigh the model's
word (`_with_model`). Validity is 1 - P(wrong): ReasonEval's step validity, calibrated.

The most likely first error, a best guess for tasks that ask for one (ProcessBench), is decided
apart from the labels (`scoring.judge.decide.first_error`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from scoring.judge.calibration import Calibration
from scoring.judge.decide.first_error import likely_first_error
from scoring.judge.decide.posterior import StepPosterior, posterior_without, posteriors
from scoring.judge.decide.reliability import RELIABILITY, Reliability
from scoring.judge.findings import ANSWER_KINDS, SOURCE, Evidence, Finding
from scoring.judge.input import JudgeInput
from scoring.schema import Evidence as EvidenceSource
from scoring.schema import StepLabel, StepState
from scoring.verdict import CheckNote, FirstErrorGuess, StepVerdict

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


@dataclass(frozen=True)
class Decision:
    """Labels for every step, a warning for every disagreement with the model, and the most
    likely first error (a best guess, apart from the labels)."""

    verdicts: list[StepVerdict]
    warnings: list[str]
    first_error: FirstErrorGuess | None = None


def _sources(found: Sequence[Finding]) -> tuple[EvidenceSource, ...]:
    return tuple(dict.fromkeys(SOURCE[f.kind] for f in found))  # type: ignore[misc]


def _errors(post: StepPosterior) -> list[Finding]:
    return [f for f in post.counted if f.polarity == "error"]


def _supports(post: StepPosterior) -> list[Finding]:
    return [f for f in post.counted if f.polarity == "support"]


def _notes(post: StepPosterior) -> list[str]:
    """What the checks of too low a measured precision to decide noticed (repeats aside)."""
    return [
        f"a check noted: {f.detail} (not precise enough to decide)"
        for f in post.warned
        if f.kind != "repeat"
    ]


def _reason(post: StepPosterior, state: StepState) -> str:
    """The findings behind the state, in words, with the step's one P(wrong)."""
    p = f"P(wrong) = {post.p_wrong:.2f}"
    errors, supports = _errors(post), _supports(post)
    if state == "fails":
        strongest = post.strongest or errors[0]
        head = f"{strongest.detail} ({p})"
    elif state == "holds":
        head = f"{'; '.join(f.detail for f in supports)} ({p})"
    elif errors:
        head = (
            f"checks disagree: {'; '.join(f.detail for f in (*errors, *supports))}; "
            f"not decided ({p})"
        )
    else:
        head = (
            f"not checked: no check could confirm or refute this step ({p} for a step "
            "of this kind and place)"
        )
    return "; ".join([head, *_notes(post)])


def _checks(post: StepPosterior) -> tuple[CheckNote, ...]:
    """Every finding about the step, the decisive ones first, as the report shows them."""
    return tuple(
        CheckNote(
            f.kind,
            f.polarity,
            SOURCE[f.kind],  # type: ignore[arg-type]
            f.detail,
            decisive,
        )
        for found, decisive in ((post.counted, True), (post.warned, False))
        for f in found
    )


def _offline_label(
    i: int, post: StepPosterior, evidence: Evidence, config: DecideConfig
) -> StepVerdict:
    state = post.state
    common = {
        "validity": 1.0 - post.p_wrong,
        "p_wrong": post.p_wrong,
        "state": state,
        "depends_on": tuple(d + 1 for d in evidence.depends_on[i]),
        "checks": _checks(post),
    }
    if state == "fails":
        errors = _errors(post)
        return StepVerdict(
            "incorrect",
            _reason(post, state),
            _sources(errors),
            error_categories=tuple(
                dict.fromkeys(CATEGORY[f.kind] for f in errors if f.kind in CATEGORY)
            ),
            redundancy=config.not_redundant,
            **common,  # type: ignore[arg-type]
        )
    repeat = next((f for f in evidence.at(i) if f.kind == "repeat"), None)
    if repeat is not None:
        return StepVerdict(
            "redundant",
            repeat.detail,
            ("structure",),
            redundancy=config.redundant,
            **common,  # type: ignore[arg-type]
        )
    label: StepLabel = "correct" if state == "holds" else "unchecked"
    return StepVerdict(
        label,
        _reason(post, state),
        _sources(_supports(post)) if state == "holds" else (),
        redundancy=config.not_redundant,
        **common,  # type: ignore[arg-type]
    )


def _wrong_before(out: Sequence[StepVerdict], evidence: Evidence, j: int) -> list[int]:
    """The earlier steps labelled wrong whose results step `j` uses (0-based)."""
    return [d for d in evidence.depends_on[j] if out[d].label in ("incorrect", "meaningless")]


def _root_of(out: Sequence[StepVerdict], evidence: Evidence, j: int) -> int:
    """The earliest wrong step that step `j`'s error comes from, through steps built on errors."""
    seen = {j}
    while True:
        bad = [d for d in _wrong_before(out, evidence, j) if d not in seen]
        if not bad:
            return j
        j = bad[0]
        seen.add(j)
        if out[j].label == "incorrect":
            return j


def _propagate(
    verdicts: list[StepVerdict], evidence: Evidence, offline: Sequence[bool]
) -> list[StepVerdict]:
    """A step built on a wrong result is meaningless, however right it is in isolation; the
    final step whose answer matches the reference is not. Labels the model gave keep the
    model's own reading of what depends on what. A meaningless step keeps, for follow-through,
    the credit its own state earns."""
    out = list(verdicts)
    for j, verdict in enumerate(out):
        if not offline[j] or verdict.label not in ("correct", "redundant", "unchecked"):
            continue
        if any(f.kind == "answer_correct" for f in evidence.at(j)):
            continue
        if bad := _wrong_before(out, evidence, j):
            credit = 1.0 - (verdict.p_wrong or 0.0) if verdict.label == "unchecked" else 1.0
            out[j] = verdict.relabel(
                "meaningless",
                f"uses the result of step {bad[-1] + 1}, which is wrong; {verdict.reason}",
                "dependency",
                follow_credit=credit,
            )
    return out


def _carried_answer(
    inp: JudgeInput,
    evidence: Evidence,
    calibration: Calibration,
    out: list[StepVerdict],
    post: StepPosterior,
) -> list[StepVerdict]:
    """The final step refuted only by its answer, which it reached through an earlier wrong
    step: human graders mark it wrong (StepMathAgent's policy keeps it `incorrect`), and
    follow-through credits it with what it is worth without the answer's finding."""
    last = len(out) - 1
    if (
        last < 1
        or out[last].state != "fails"
        or out[last].model_label is not None
        or any(f.kind not in ANSWER_KINDS for f in _errors(post))
    ):
        return out
    if not _wrong_before(out, evidence, last):
        return out
    alone = posterior_without(inp, evidence, calibration, last, ANSWER_KINDS)
    verdict = out[last]
    root = _root_of(out, evidence, last)
    out[last] = replace(
        verdict,
        follow_credit=1.0 - alone.p_wrong,
        reason=(f"{verdict.reason}; it carries forward the error of step {root + 1}"),
    )
    return out


def decide(
    inp: JudgeInput,
    evidence: Evidence,
    calibration: Calibration,
    model: Sequence[StepVerdict | None] | None = None,
    reliability: Reliability = RELIABILITY,
    config: DecideConfig = DECIDE,
) -> Decision:
    """Labels for every step, a warning for every disagreement with the model, and the most
    likely first error.

    Without a model (or where it gave no label: a part of a long solution whose call failed)
    the labels come from the evidence alone (see the module docstring) and `depends_on` from the
    quantities the steps share. With one, the model's label is one more source: it changes only
    where the posterior crosses the threshold against it and a decisive check found something
    that way, and its `depends_on` is kept.
    """
    model = list(model) if model is not None else [None] * len(inp.steps)
    if len(model) != len(inp.steps):
        raise ValueError(f"{len(model)} model labels for {len(inp.steps)} steps")
    says = [None if m is None else m.label == "incorrect" for m in model]
    posts = posteriors(inp, evidence, calibration, says, reliability)
    threshold = calibration.model(inp.language).threshold
    verdicts: list[StepVerdict] = []
    warnings: list[str] = []
    for i, (mine, post) in enumerate(zip(model, posts, strict=True)):
        if mine is None:
            verdicts.append(_offline_label(i, post, evidence, config))
            continue
        verdict, note = _with_model(i + 1, mine, post, post.p_decide >= threshold)
        verdicts.append(verdict)
        warnings.extend(note)
    verdicts = _propagate(verdicts, evidence, [m is None for m in model])
    if verdicts:
        verdicts = _carried_answer(inp, evidence, calibration, verdicts, posts[-1])
    judged = None if all(m is None for m in model) else [v.label for v in verdicts]
    return Decision(
        verdicts, warnings, likely_first_error(inp, evidence, calibration, posts, judged)
    )


def _with_model(
    index: int, mine: StepVerdict, post: StepPosterior, wrong: bool
) -> tuple[StepVerdict, list[str]]:
    """The model's label, unless the posterior crosses the threshold against it *and* the
    decisive checks' findings outweigh the model's word by themselves (their log-odds and the
    model's sum to the other side): the prior (base rates of steps like this one) weighs in the
    probability, but never overrules a model's direct judgement, alone or by tipping a weak
    finding over. A real judge sees what the prior encodes (the final answer, the step's place),
    so counting the prior against it counts that twice."""
    merged = tuple(dict.fromkeys((*mine.evidence, *_sources(post.counted))))
    mine = replace(
        mine,
        validity=1.0 - post.p_wrong,
        p_wrong=post.p_wrong,
        model_label=mine.label,
        state=post.state,
        checks=_checks(post),
    )
    if wrong and mine.label != "incorrect" and _errors(post) and post.evidence_log_odds > 0:
        reason = _reason(post, "fails")
        categories = (
            *mine.error_categories,
            *(CATEGORY[f.kind] for f in _errors(post) if f.kind in CATEGORY),
        )
        return replace(
            mine,
            label="incorrect",
            reason=reason,
            evidence=merged,
            error_categories=tuple(dict.fromkeys(categories)),
        ), [(f"step {index}: judged {mine.label}, but {reason}; relabelled incorrect")]
    if not wrong and mine.label == "incorrect" and _supports(post) and post.evidence_log_odds < 0:
        reason = _reason(post, "holds")
        return replace(
            mine, label="correct", reason=reason, evidence=merged, error_categories=()
        ), [
            (
                f"step {index}: judged incorrect, but the evidence outweighs it ({reason}); "
                "relabelled correct"
            )
        ]
    notes = [
        f"step {index}: judged {mine.label}; offline check: {f.detail} "
        f"(P(wrong) = {post.p_wrong:.2f}, label kept)"
        for f in _errors(post)
        if not wrong
    ]
    return replace(mine, evidence=merged), notes
