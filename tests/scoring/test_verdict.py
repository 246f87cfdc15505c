"""The typed results passed between stages: how the answer verdict is decided from the symbolic
and the model's verdicts, and a step verdict relabelled with its evidence kept."""

import dataclasses

import pytest

from scoring.verdict import AnswerVerdict, DifficultyVerdict, FirstErrorGuess, StepVerdict


@pytest.mark.parametrize(
    ("symbolic", "llm", "plain_difference", "correct", "method"),
    [
        (True, False, False, True, "both"),  # a symbolic "equal" stands
        (False, True, True, False, "both"),  # two values that differ overrule the model
        (False, True, False, True, "both"),  # otherwise the model's verdict
        (None, False, False, False, "llm"),
        (False, None, False, False, "symbolic"),
        (None, None, False, None, "none"),
    ],
)
def test_correct_and_method(symbolic, llm, plain_difference, correct, method):
    verdict = AnswerVerdict("a", ("b",), symbolic, llm, plain_difference=plain_difference)
    assert verdict.correct is correct and verdict.method == method
    assert verdict.overruled_model is (llm is True and symbolic is False and plain_difference)


@pytest.mark.parametrize(
    ("symbolic", "llm", "plain_difference", "deciding"),
    [
        (False, None, False, None),  # the route's own verdict: withheld
        (True, None, False, None),
        (True, False, False, None),  # "equal" came from the route, not from the model
        (False, True, False, True),  # the model's verdict decides
        (None, False, False, False),
        (False, True, True, None),  # a value difference the route found: withheld
    ],
)
def test_an_imprecise_route_withholds_what_rests_on_it(symbolic, llm, plain_difference, deciding):
    verdict = AnswerVerdict(
        "a", ("b",), symbolic, llm, plain_difference=plain_difference, route_decides=False
    )
    assert verdict.deciding is deciding


def test_a_precise_route_decides_what_it_found():
    assert AnswerVerdict("a", ("b",), False).deciding is False
    assert AnswerVerdict("a", ("a",), True).deciding is True
    assert AnswerVerdict(None, ()).deciding is None


def test_relabel_keeps_the_earlier_evidence_once():
    step = StepVerdict("correct", "model", evidence=("llm",), validity=0.9)
    relabelled = step.relabel("incorrect", "a false product", "symbolic", p_wrong=0.8)
    assert (relabelled.label, relabelled.reason) == ("incorrect", "a false product")
    assert relabelled.evidence == ("llm", "symbolic")
    assert relabelled.p_wrong == 0.8 and relabelled.validity == 0.9
    again = relabelled.relabel("incorrect", "still", "symbolic")
    assert again.evidence == ("llm", "symbolic")
    assert step.label == "correct"  # a copy, the original unchanged


def test_the_results_are_frozen_values():
    for value in (
        FirstErrorGuess(None, 1.0),
        DifficultyVerdict(1, False),
        StepVerdict("correct", ""),
        AnswerVerdict(None, ()),
    ):
        with pytest.raises(dataclasses.FrozenInstanceError):
            value.reason = "x"  # type: ignore[union-attr]
    assert StepVerdict("correct", "").state == "unchecked"
    assert DifficultyVerdict(2, True).reason == ""
