"""What the prior of a step being wrong is read from (docs/architecture.md 4.10).

A step's prior depends on the problem (type, length, an offline estimate of its difficulty;
each language has a model of its own), on where the step stands in the solution (first, second,
..., last, relative position, solution length; before or after the first step a check found a
false relation in), on how much it says (its length, how many numbers and relations it holds: a
step that says more can be wrong in more ways) and on the answer verdict when one is known (a
wrong final answer makes every earlier step more likely wrong, and the later ones most: errors
accumulate towards a wrong answer). Findings enter as indicators of their kind. Every feature is
named, so the calibration file stores weights by name and a reader sees what each weight is for.

These are what differs between sets of problems (how often answers are wrong, how many proofs,
how hard the problems are): a probability that reads them holds when the mix of problems moves,
where one fitted to the average of one mix does not.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, get_args

from scoring.judge.findings import Evidence, Finding, FindingKind
from scoring.judge.input import JudgeInput
from scoring.parse.lexicon import NUMBER, relations
from scoring.steps.difficulty import estimate_difficulty

_RELATION = relations.relation_pattern(relations.STATED)

PRIOR_FEATURES: tuple[str, ...] = (
    "bias",
    "proof",
    "open_ended",
    "position",
    "first",
    "second",
    "third",
    "last",
    "log_steps",
    "log_chars",
    "log_numbers",
    "log_relations",
    "log_problem_chars",
    "answer_correct_earlier",
    "answer_wrong_earlier",
    "wrong_position",
    "before_false_relation",
    "after_false_relation",
    "difficulty",
    "wrong_difficulty",
)
# The features that are not indicators: a model reads them only within the range it was fit on
# (`StepModel.ranges`), since a linear weight extrapolates without bound (a 2,000-step solution
# or a 10-character step is far outside what the labelled sets hold).
CONTINUOUS: tuple[str, ...] = (
    "position",
    "log_steps",
    "log_chars",
    "log_numbers",
    "log_relations",
    "log_problem_chars",
    "wrong_position",
    "difficulty",
    "wrong_difficulty",
)
# A relation the bounded evaluator found false: in the step's own arithmetic, against earlier
# values, between an equation and the one it is derived from, across an operation carried onto
# the previous result or an announced rewrite, or with the solution's final values put back. One
# reading: the step model's place features read the first of them, and the calibration pools
# their weights as one family.
FALSE_RELATION_KINDS: tuple[FindingKind, ...] = (
    "calculation_false",
    "contradiction",
    "derivation",
    "continuation",
    "rewrite",
    "back_substitution",
)


@dataclass(frozen=True)
class SolutionContext:
    """What a step's prior reads of the whole solution: the first step (0-based) a check found
    a false relation in, and the offline difficulty estimate (a level from 1 to 3; None
    without a fitted estimate)."""

    first_false: int | None = None
    difficulty: float | None = None


def solution_context(
    inp: JudgeInput, evidence: Evidence, difficulty_weights: dict[str, float]
) -> SolutionContext:
    """The solution-wide features of the prior (see `SolutionContext`)."""
    first = min((f.step for f in evidence.findings if f.kind in FALSE_RELATION_KINDS), default=None)
    level = (
        estimate_difficulty(inp.problem, inp.steps, difficulty_weights)
        if difficulty_weights
        else None
    )
    return SolutionContext(first, level)


# The groups whose grades err alike (`eval_sets.runner.risk.group_of` reads the same from a
# report): the shipped models give them no weight of their own; a refit on a school's
# corrections may shift one group's level (`eval_sets.calibrate.correction_refit.refit_score`).
GradeGroup = Literal["answer_right", "answer_wrong", "no_verdict", "proof", "open_ended"]
GROUP_FEATURES: tuple[str, ...] = tuple(f"group:{g}" for g in get_args(GradeGroup))


def grade_group(inp: JudgeInput) -> GradeGroup:
    """A proof or open-ended solution by its type (its score rests on the steps whatever the
    answer), a calculation by the answer verdict that decides labels."""
    if inp.problem_type in ("proof", "open_ended"):
        return inp.problem_type
    verdict = inp.answer.deciding
    return "no_verdict" if verdict is None else "answer_right" if verdict else "answer_wrong"


def finding_feature(kind: FindingKind) -> str:
    """The feature name of a finding kind, as the calibration's weights name it."""
    return f"finding:{kind}"


def step_features(
    inp: JudgeInput,
    i: int,
    findings: Sequence[Finding],
    supposed: bool | None = None,
    context: SolutionContext = SolutionContext(),
) -> dict[str, float]:
    """The named features of step `i` (0-based); `findings` are those about this step and
    `context` what the prior reads of the whole solution. `supposed`, for a calculation whose
    answer verdict is unknown: the features the step would have were the answer right (True)
    or wrong (False), the final step's answer finding included."""
    n = len(inp.steps)
    step = inp.steps[i]
    verdict = inp.answer.deciding if inp.problem_type != "proof" else None
    if supposed is not None:
        verdict = supposed
    earlier = i < n - 1
    position = i / (n - 1) if n > 1 else 1.0
    wrong_earlier = float(earlier and verdict is False)
    first = context.first_false
    features = {
        "bias": 1.0,
        "proof": float(inp.problem_type == "proof"),
        "open_ended": float(inp.problem_type == "open_ended"),
        "position": position,
        "first": float(i == 0),
        "second": float(i == 1),
        "third": float(i == 2),
        "last": float(i == n - 1),
        "log_steps": math.log(n),
        "log_chars": math.log1p(len(step)),
        "log_numbers": math.log1p(len(NUMBER.findall(step))),
        "log_relations": math.log1p(len(_RELATION.findall(step))),
        "log_problem_chars": math.log1p(len(inp.problem)),
        "answer_correct_earlier": float(earlier and verdict is True),
        "answer_wrong_earlier": wrong_earlier,
        "wrong_position": wrong_earlier * position,
        "before_false_relation": float(first is not None and i < first),
        "after_false_relation": float(first is not None and i > first),
    }
    if context.difficulty is not None:
        features["difficulty"] = context.difficulty
        features["wrong_difficulty"] = wrong_earlier * context.difficulty
    group = grade_group(inp) if supposed is None else "answer_right" if supposed else "answer_wrong"
    features[f"group:{group}"] = 1.0
    for finding in findings:
        features[finding_feature(finding.kind)] = 1.0
    if supposed is not None and not earlier:
        features[finding_feature("answer_correct" if supposed else "answer_wrong")] = 1.0
    return features
