"""Fitting the check weights: kind statistics, back-off to a family, and the verdict prior."""

import pytest

from eval_sets.calibrate.evidence import Observed
from eval_sets.calibrate.fit import MIN_NO_VERDICT, fit_weights, kind_stats, verdict_prior
from eval_sets.calibrate.labelled import LabelledSolution
from scoring.judge.findings import Evidence
from scoring.judge.input import JudgeInput
from scoring.verdict import AnswerVerdict
from tests.eval_sets.calibrate.conftest import observed_solution


def test_kind_statistics_count_labelled_steps_only():
    data = [
        observed_solution(
            [True, False, None],
            [["calculation_false"], ["calculation_false"], ["calculation_false"]],
        ),
        observed_solution(
            [True, False, False, False], [["calculation_false"], [], [], ["calculation_true"]]
        ),
    ]
    stats = kind_stats(data)
    false = stats["calculation_false"]
    assert (false.wrong, false.right) == (2, 1)  # the unlabelled third step is not counted
    assert false.precision == pytest.approx(2 / 3, abs=1e-4)
    assert false.likelihood_ratio == pytest.approx((2.5 / 3) / (1.5 / 5), rel=1e-3)
    assert not false.decisive  # 3 firings: fewer than the 5 a decisive kind needs
    assert stats["calculation_true"].precision == 1.0  # support: right when it fires
    assert stats["odd_copy"] == type(false)(0, 0, None, None, False)


def _toy_set():
    """Wrong steps found by false calculations or contradictions, right steps mostly plain; one
    derivation and one odd copy, each seen once."""
    data = []
    for _ in range(30):
        data.append(observed_solution([True, False], [["calculation_false"], []]))
        data.append(observed_solution([False, False, False], [[], [], []]))
    for _ in range(10):
        data.append(observed_solution([True, False], [["contradiction"], []]))
        data.append(observed_solution([False, False], [["calculation_false"], []]))
    data.append(observed_solution([True, False], [["derivation"], ["odd_copy"]]))
    return data


def test_a_false_relation_seen_too_rarely_takes_its_familys_weight():
    data = _toy_set()
    weights = fit_weights(data, ("bias",))
    own = weights["finding:calculation_false"], weights["finding:contradiction"]
    assert min(own) > 1.0  # their own fitted weights
    # one firing: no weight of its own, the weight of "some relation was found false", which
    # lies between those of the kinds that make up the family
    assert min(own) < weights["finding:derivation"] < max(own)
    assert weights["finding:continuation"] == weights["finding:derivation"]  # never seen
    assert "finding:odd_copy" not in weights  # seen once, and no family to back off to


def test_no_back_off_without_a_weighed_false_relation():
    data = [observed_solution([True, False, False], [["derivation"], [], []]) for _ in range(2)]
    data += [
        observed_solution([True, False, False], [["unexplained_number"], [], []]) for _ in range(5)
    ]
    weights = fit_weights(data, ("bias",))
    assert "finding:unexplained_number" in weights
    assert not any(k in weights for k in ("finding:derivation", "finding:continuation"))


def test_an_answer_kind_seen_twice_in_this_language_takes_the_answer_familys_weight():
    """Steps of one language: wrong marked answers on wrong final steps, and an unmarked wrong
    answer twice, both times on a step labelled right (two firings say "never wrong")."""
    data = []
    for _ in range(20):
        data.append(observed_solution([False, True], [[], ["answer_wrong"]]))
        data.append(observed_solution([False, False, False], [[], [], ["answer_correct"]]))
    data += [observed_solution([False, False], [[], ["answer_unmarked_wrong"]]) for _ in range(2)]
    weights = fit_weights(data, ("bias",))
    assert weights["finding:answer_wrong"] > 1.0
    # no weight of its own from two firings: "the final answer is not the reference"
    assert 0.0 < weights["finding:answer_unmarked_wrong"] < weights["finding:answer_wrong"]


def test_a_kind_is_weighed_on_the_steps_it_is_fitted_on_not_on_another_languages():
    often = [observed_solution([True, False], [["unexplained_number"], []]) for _ in range(6)]
    rare = [observed_solution([True, False], [["unexplained_number"], []])] + [
        observed_solution([True, False, False], [[], [], []]) for _ in range(5)
    ]
    assert "finding:unexplained_number" in fit_weights(often, ("bias",))
    # what six firings elsewhere say does not make one firing here weighable
    assert "finding:unexplained_number" not in fit_weights(rare, ("bias",))


def _answered(i, verdict, reference=("1",)):
    sol = LabelledSolution(
        "toy", f"toy-{i}", "fit", "p", ("s",), (False,), "calculation", "zh", reference
    )
    answer = AnswerVerdict(
        "1" if verdict else "2", reference, symbolic=verdict if reference else None
    )
    return Observed(sol, JudgeInput("p", ("s",), "calculation", answer), Evidence((), ((),)))


def test_the_verdict_prior_is_the_share_of_right_answers_when_few_lack_a_reference():
    data = [_answered(i, i < 3) for i in range(5)] + [_answered(9, None, ())]
    assert verdict_prior(data) == pytest.approx(0.6)  # 3 of the 5 with a verdict
    unchecked = [_answered(10 + i, None, ()) for i in range(MIN_NO_VERDICT)]
    assert verdict_prior(data + unchecked) is None  # enough to fit their own prior
