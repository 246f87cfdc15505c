"""The body of GET /calibration, built from the judge in use: the hand calibration has no
interval; the shipped one states its interval; a configured model gets its reliability."""

from __future__ import annotations

from scoring.judge import JudgeConfig, load_calibration
from scoring.score import uncertainty_of
from server.services.calibration_info import describe
from tests.server.conftest import HAND_CALIBRATION


def test_a_calibration_without_an_interval_or_a_model_says_so():
    judge = JudgeConfig(calibration=load_calibration(HAND_CALIBRATION))
    info = describe(judge, None, llm_model=None, from_file=True)
    assert (info.version, info.source) == ("hand-written-for-tests", "file")
    assert info.interval is None and info.llm is None and info.corrections is None
    assert info.languages == sorted(judge.calibration.models)


def test_the_shipped_calibration_states_its_interval():
    judge = JudgeConfig(calibration=load_calibration())
    interval = uncertainty_of(judge.calibration)
    assert interval is not None
    info = describe(judge, interval, llm_model=None, from_file=False)
    assert info.source == "shipped" and info.interval is not None
    assert info.interval.coverage == interval.coverage
    assert info.interval.max_width == interval.max_width
    assert info.interval.version == interval.version


def test_a_configured_model_gets_the_reliability_in_use():
    judge = JudgeConfig(calibration=load_calibration(HAND_CALIBRATION))
    info = describe(judge, None, llm_model="some-model", from_file=True)
    assert info.llm is not None and info.llm.model == "some-model"
    reliability = info.llm.reliability
    assert (reliability.sensitivity, reliability.false_alarm, reliability.source) == (
        judge.reliability.sensitivity,
        judge.reliability.false_alarm,
        judge.reliability.source,
    )
    if reliability.source != "measured":  # an assumed or set rate carries no measurement
        assert reliability.sensitivity_interval is None and reliability.measured_on is None
