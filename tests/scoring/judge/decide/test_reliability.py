"""What a model's step label is worth: likelihood ratios from its sensitivity and false alarms,
and measured rates made usable when a model is no better than chance."""

import math

import pytest

from scoring.judge.calibration import Calibration, LlmRates, StepModel
from scoring.judge.decide.reliability import (
    RELIABILITY,
    UNINFORMATIVE_GAP,
    Reliability,
    informative,
    measured,
    measured_reliability,
)


def rates(sensitivity, false_alarm, wrong=40, right=60):
    return LlmRates(wrong, wrong // 2, right, right // 4, sensitivity, false_alarm)


def test_the_defaults_are_assumed_and_informative():
    assert (RELIABILITY.sensitivity, RELIABILITY.false_alarm) == (0.7, 0.1)
    assert RELIABILITY.source == "assumed" and RELIABILITY.wrong is None
    assert RELIABILITY.youden == pytest.approx(0.6)


def test_a_label_moves_the_odds_by_its_likelihood_ratio():
    r = Reliability(0.8, 0.2)
    assert r.log_likelihood_ratio(True) == pytest.approx(math.log(4))
    assert r.log_likelihood_ratio(False) == pytest.approx(math.log(0.2 / 0.8))
    assert r.log_likelihood_ratio(True) > 0 > r.log_likelihood_ratio(False)


@pytest.mark.parametrize(
    ("sensitivity", "false_alarm"),
    [(0.5, 0.5), (0.3, 0.6), (1.0, 0.1), (0.7, 0.0), (0.7, -0.1), (1.2, 0.5)],
)
def test_rates_that_are_no_evidence_or_certainty_are_refused(sensitivity, false_alarm):
    with pytest.raises(ValueError, match="0 < false_alarm < sensitivity < 1"):
        Reliability(sensitivity, false_alarm)


@pytest.mark.parametrize(
    ("sensitivity", "false_alarm", "expected"),
    [
        (0.8, 0.1, (0.8, 0.1)),  # already informative: kept
        (0.4, 0.4, (0.405, 0.395)),  # a coin: rates a gap apart around their mean
        (0.3, 0.5, (0.405, 0.395)),
        (0.001, 0.002, (UNINFORMATIVE_GAP * 1.5, UNINFORMATIVE_GAP / 2)),  # kept above 0
        (0.999, 0.999, (1 - UNINFORMATIVE_GAP / 2, 1 - UNINFORMATIVE_GAP * 1.5)),  # below 1
    ],
)
def test_informative(sensitivity, false_alarm, expected):
    got = informative(sensitivity, false_alarm)
    assert got == pytest.approx(expected)
    Reliability(*got)  # always accepted


def test_measured_rates_keep_their_counts_and_say_so():
    r = measured(rates(0.75, 0.2, wrong=40, right=60))
    assert (r.sensitivity, r.false_alarm, r.source, r.wrong, r.right) == (
        0.75,
        0.2,
        "measured",
        40,
        60,
    )
    chance = measured(rates(0.3, 0.5))
    assert chance.youden == pytest.approx(UNINFORMATIVE_GAP)
    assert abs(chance.log_likelihood_ratio(True)) < 0.05


def test_measured_reliability_per_language_and_none_for_an_unmeasured_model():
    cal = Calibration(
        "t",
        {"en": StepModel({}, 0.5)},
        llm_rates={"m": {"en": rates(0.8, 0.1), "zh": rates(0.6, 0.3)}},
    )
    found = measured_reliability(cal, "m")
    assert set(found) == {"en", "zh"}
    assert found["zh"].sensitivity == 0.6 and found["en"].source == "measured"
    assert measured_reliability(cal, "other") == {}
