"""The most likely first error: a best guess for tasks that ask for one, apart from the labels.

ProcessBench and MR-MATH ask which step is the first wrong one, and score a guess with the F1 of
their two kinds of solution (with and without an error). Labels rest on evidence alone; this guess
may rest on the step model's P(wrong) too, by the decision rule the calibration chose for the
language on the fit half (`StepModel.decision`):
- `threshold`: the first step whose decisive P(wrong) (`StepPosterior.p_decide`, the posterior
  without the kinds that only warn) reaches the calibrated threshold;
- `expected`: the most likely wrong steps, as many as bring Eq. 1 on them closest to its
  expectation plus a calibrated lenience (`scoring.judge.decide.expected`);
under either, a step a check of measured precision at least `SURE_PRECISION` refuted is wrong
(`sure_error`), and a final answer decided wrong names its likeliest cause when nothing else is
wrong (`answer_cause`). In LLM mode the guess is the first step the decided labels call
incorrect.

The guess carries its probability under the reported P(wrong): that the first wrong step is this
one, P(step k wrong) x prod_{j<k} P(step j right), steps taken as independent (or, for "no
error", the product over all steps).
"""

from __future__ import annotations

from collections.abc import Sequence

from scoring.judge.calibration import Calibration
from scoring.judge.decide.expected import closest_to_expected
from scoring.judge.decide.posterior import StepPosterior
from scoring.judge.findings import Evidence
from scoring.judge.input import JudgeInput
from scoring.verdict import FirstErrorGuess

# An error kind this precise marks its step wrong in the guess by itself (`sure_error`); the bar
# an answer route must clear to decide labels (`scoring.answer.routes.DECIDE_PRECISION`), for the
# same reason.
SURE_PRECISION = 0.8


def sure_error(post: StepPosterior, calibration: Calibration) -> bool:
    """A decisive check found an error of a kind right at least `SURE_PRECISION` of the times
    it fired on the fit half, and the decisive findings together say wrong.

    The prior's length and position weights were fitted on model-written solutions whose steps
    are long and whose first steps restate the problem: on a student's short first step
    ("3 x 12 = 38 apples.") they put a false product below the threshold, extrapolating past
    the steps they saw; the kind's precision is measured on all its firings."""
    return post.evidence_log_odds > 0 and any(
        f.polarity == "error"
        and (stats := calibration.stats(f.kind)) is not None
        and stats.precision is not None
        and stats.precision >= SURE_PRECISION
        for f in post.counted
    )


def answer_cause(
    inp: JudgeInput, posts: Sequence[StepPosterior], wrong: Sequence[bool]
) -> int | None:
    """A final answer decided wrong was reached through a wrong step (97% of the labelled
    solutions whose answer was decided wrong have a step humans labelled wrong): when the rule
    in use marks none (`wrong`), the step most likely wrong (the largest decisive P(wrong), the
    later on a tie) is that step. None when some step is wrong already, or the answer is not
    decided wrong."""
    if inp.problem_type == "proof" or inp.answer.deciding is not False or not posts or any(wrong):
        return None
    return max(range(len(posts)), key=lambda i: (posts[i].p_decide, i))


def guessed_wrong(
    inp: JudgeInput, evidence: Evidence, calibration: Calibration, posts: Sequence[StepPosterior]
) -> list[bool]:
    """Which steps the language's decision rule calls wrong (see the module docstring)."""
    model = calibration.model(inp.language)
    sure = [sure_error(p, calibration) for p in posts]
    if model.decision == "expected":
        shielded = [
            any(f.kind == "answer_correct" for f in evidence.at(i)) for i in range(len(inp.steps))
        ]
        wrong = closest_to_expected(
            [p.p_decide for p in posts],
            inp.problem_type,
            evidence.depends_on,
            shielded,
            model.lenience,
            sure,
        )
    else:
        wrong = [p.p_decide >= model.threshold or s for p, s in zip(posts, sure, strict=True)]
    cause = answer_cause(inp, posts, wrong)
    return [i == cause for i in range(len(posts))] if cause is not None else wrong


def first_error_probability(p_wrong: Sequence[float], step: int | None) -> float:
    """P(the first wrong step is `step`), or P(no step is wrong) for None, steps independent."""
    right = 1.0
    for i, p in enumerate(p_wrong):
        if i == step:
            return right * p
        right *= 1.0 - p
    return right


def likely_first_error(
    inp: JudgeInput,
    evidence: Evidence,
    calibration: Calibration,
    posts: Sequence[StepPosterior],
    judged: Sequence[str] | None = None,
) -> FirstErrorGuess | None:
    """The best guess at the first wrong step (0-based; `step` None: no step likely wrong), by
    the decided labels when a model judged the steps (`judged`), else by the language's decision
    rule. None for a solution without steps."""
    if not posts:
        return None
    if judged is not None:
        wrong = [label == "incorrect" for label in judged]
    else:
        wrong = guessed_wrong(inp, evidence, calibration, posts)
    step = next((i for i, w in enumerate(wrong) if w), None)
    return FirstErrorGuess(step, first_error_probability([p.p_wrong for p in posts], step))
