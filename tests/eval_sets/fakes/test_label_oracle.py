"""The fallible label oracle: seeded, deterministic per step, at its stated rates; and an LLM-mode
grade against it keeps the model's own label where the evidence overruled it."""

from __future__ import annotations

import math

import pytest

from eval_sets.fakes.label_oracle import EXACT, ErrorRates, LabelOracle, answered_labels
from scoring.schema import GradeRequest
from tests.agent.conftest import scripted_grader
from tests.eval_sets.fakes.conftest import SYNTHETIC, labelled_row


def _binomial_bound(n: int, p: float) -> float:
    """Five standard deviations: a seed this far off would be a broken draw, not bad luck."""
    return 5 * math.sqrt(n * p * (1 - p))


def _observed(rates: ErrorRates) -> tuple[int, int]:
    """(wrong steps answered correct, right steps answered incorrect) over SYNTHETIC."""
    missed = alarms = 0
    for row in SYNTHETIC:
        for human, said in zip(row["gold_step_score"], answered_labels(row, rates), strict=True):
            missed += human == "0" and said == "correct"
            alarms += human == "1" and said == "incorrect"
    return missed, alarms


@pytest.mark.parametrize("seed", [0, 1, 7])
def test_the_fallible_oracle_errs_at_its_stated_rates(seed) -> None:
    missed, alarms = _observed(ErrorRates(miss=0.3, false_alarm=0.1, seed=seed))
    assert abs(missed - 60) <= _binomial_bound(200, 0.3), missed
    assert abs(alarms - 20) <= _binomial_bound(200, 0.1), alarms
    assert _observed(ErrorRates(miss=1.0, false_alarm=0.0, seed=seed)) == (200, 0)
    assert _observed(ErrorRates(miss=0.0, false_alarm=1.0, seed=seed)) == (0, 200)


def test_the_exact_oracle_answers_the_human_labels() -> None:
    row = labelled_row("x", ["1", "0", "1(0)", "1（0）", "1"])
    assert answered_labels(row, EXACT) == [
        "correct",
        "incorrect",
        "meaningless",
        "meaningless",
        "correct",
    ]


def test_each_step_gets_the_same_answer_every_time_and_seeds_differ() -> None:
    rates = ErrorRates(miss=0.5, false_alarm=0.5, seed=3)
    first = [answered_labels(row, rates) for row in SYNTHETIC]
    # the same oracle asked twice, and a new one over the rows in another order
    again = LabelOracle(list(reversed(SYNTHETIC)), rates)
    assert [answered_labels(row, again.rates) for row in SYNTHETIC] == first
    prompt = f"<solution>\n{SYNTHETIC[5]['model_output']}\n</solution>"
    asked = [again("step_judgement", prompt)["steps"] for _ in range(3)]
    assert asked[0] == asked[1] == asked[2]
    assert [s["label"] for s in asked[0]] == first[5]
    other = [answered_labels(row, ErrorRates(0.5, 0.5, seed=4)) for row in SYNTHETIC]
    assert other != first


def test_meaningless_steps_are_answered_as_labelled() -> None:
    row = labelled_row("m", ["0", "1(0)", "1(0)"])
    for seed in range(20):
        labels = answered_labels(row, ErrorRates(miss=0.5, false_alarm=0.5, seed=seed))
        assert labels[1:] == ["meaningless", "meaningless"]


def test_rates_outside_zero_one_are_refused() -> None:
    with pytest.raises(ValueError, match="miss"):
        ErrorRates(miss=1.5)


# A hand-written item: step 1 adds wrongly, step 2 builds on it, step 3 states a wrong answer.
SLIP = labelled_row(
    "slip",
    ["0", "1(0)", "0"],
    question="A bakery sells muffins for $3 each. It sells 47 muffins on Monday and 58 "
    "on Tuesday. How many dollars does it take in?",
    steps=[
        "The bakery sells $47 + 58 = 95$ muffins in total.",
        "It takes in $95 \\times 3 = 285$ dollars.",
        "So the bakery takes in $\\boxed{285}$ dollars.",
    ],
    answers=["315"],
)


def test_an_overruled_model_label_is_kept_in_model_label() -> None:
    """The fake misses every wrong step; the checks find the false sum and the wrong answer."""
    oracle = LabelOracle([SLIP], ErrorRates(miss=1.0, false_alarm=0.0))
    said = answered_labels(SLIP, oracle.rates)
    assert said == ["correct", "meaningless", "correct"]
    report = scripted_grader(oracle).grade(
        GradeRequest(
            problem=SLIP["question"],
            solution=SLIP["model_output"],
            reference_answer="315",
            problem_type="calculation",
            mode="llm",
        )
    )
    assert report.meta.mode == "llm" and not report.meta.degraded, report.meta.warnings
    assert [s.model_label for s in report.steps] == said
    overruled = [s.index for s in report.steps if s.label != s.model_label]
    assert overruled == [1, 3], [(s.label, s.model_label, s.reason) for s in report.steps]
    assert report.steps[0].label == report.steps[2].label == "incorrect"
    assert any("relabelled incorrect" in w for w in report.meta.warnings)
