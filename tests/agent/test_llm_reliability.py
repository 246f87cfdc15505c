"""The configured model's reliability: measured per language from the calibration, explicit
settings win, the assumed default otherwise; an LLM grade says when its model is unmeasured."""

from __future__ import annotations

import pytest

from agent.build import ConfigError, judge_config
from agent.settings import GradingSettings
from eval_sets.fakes.openai_server import ARITHMETIC_SLIP_STEPS, FakeOpenAI
from eval_sets.llm_reliability import Counts, rates_of, update_calibration
from scoring.judge.decide.reliability import Reliability
from scoring.judge.load import DEFAULT_PATH
from scoring.schema import GradeRequest
from scoring.score.features import GradeFeatures
from scoring.score.interval import load_uncertainty
from scoring.score.uncertainty import review_reasons


@pytest.fixture
def measured_file(tmp_path):
    out = tmp_path / "cal.json"
    update_calibration(
        DEFAULT_PATH,
        out,
        "judge-x",
        {"en": rates_of(Counts(wrong=40, caught=36, right=200, alarms=10), "t")},
    )
    return out


def _settings(monkeypatch, **env) -> GradingSettings:
    for name in ("LLM_SENSITIVITY", "LLM_FALSE_ALARM", "CALIBRATION", "LLM_MODEL"):
        monkeypatch.delenv(f"STEPGRADE_{name}", raising=False)
    for name, value in env.items():
        monkeypatch.setenv(f"STEPGRADE_{name}", str(value))
    return GradingSettings(_env_file=None)


def test_the_measured_rates_are_used_for_their_language(monkeypatch, measured_file) -> None:
    config = judge_config(_settings(monkeypatch, CALIBRATION=measured_file, LLM_MODEL="judge-x"))
    en = config.reliability_for("en")
    assert en.source == "measured" and (en.wrong, en.right) == (40, 200)
    assert en.sensitivity == pytest.approx(36.5 / 41) and en.false_alarm == pytest.approx(
        10.5 / 201
    )
    assert config.reliability_for("zh") == Reliability()  # not measured: the assumed default
    other = judge_config(_settings(monkeypatch, CALIBRATION=measured_file, LLM_MODEL="other"))
    assert other.reliability_for("en").source == "assumed"


def test_an_explicit_setting_wins_over_the_measurement(monkeypatch, measured_file) -> None:
    config = judge_config(
        _settings(
            monkeypatch, CALIBRATION=measured_file, LLM_MODEL="judge-x", LLM_FALSE_ALARM="0.3"
        )
    )
    en = config.reliability_for("en")
    assert en.source == "set" and en.false_alarm == 0.3
    assert en.sensitivity == pytest.approx(36.5 / 41)  # the other rate stays measured
    assert config.reliability_for("zh") == Reliability(0.7, 0.3, "set")
    with pytest.raises(ConfigError, match="false_alarm < sensitivity"):
        judge_config(_settings(monkeypatch, LLM_SENSITIVITY="0.2", LLM_FALSE_ALARM="0.3"))


def _features(**kw) -> GradeFeatures:
    base = {
        "problem_type": "calculation",
        "verdict": "right",
        "has_reference": True,
        "answer_read": True,
        "mode": "llm",
        "step_logic_checked": True,
        "degraded": False,
        "steps": 3,
        "score": 10,
    }
    return GradeFeatures(**{**base, **kw})  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("kw", "codes"),
    [
        ({"model_reliability": "assumed", "model_youden": 0.6}, ["model_unmeasured"]),
        (
            {"model_reliability": "measured", "model_youden": 0.8, "model_steps": 5},
            ["model_unmeasured"],
        ),
        (
            {"model_reliability": "measured", "model_youden": 0.3, "model_steps": 50},
            ["model_unreliable"],
        ),
        ({"model_reliability": "set", "model_youden": 0.3}, ["model_unreliable"]),
        ({"model_reliability": "measured", "model_youden": 0.8, "model_steps": 50}, []),
        (
            {
                "model_reliability": "assumed",
                "model_youden": 0.6,
                "step_logic_checked": False,
                "mode": "offline",
            },
            [],
        ),
    ],
)
def test_model_review_codes(kw, codes) -> None:
    model = load_uncertainty()
    found = review_reasons(_features(**kw), (10, 10), model)
    assert [c for c in found if c.startswith("model_")] == codes


def test_an_llm_grade_with_an_unmeasured_model_asks_for_review(make_llm_grader) -> None:
    with FakeOpenAI() as server:
        request = GradeRequest(
            problem="A bakery sells muffins for $3 each. It sells 47 muffins "
            "on Monday and 58 on Tuesday. How many dollars does it take in?",
            solution="\n".join(ARITHMETIC_SLIP_STEPS),
            reference_answer="315",
            mode="llm",
        )
        assumed = make_llm_grader(server.base_url).grade(request)
        measured = make_llm_grader(
            server.base_url, judge={"reliability": Reliability(0.9, 0.05, "measured", 100, 100)}
        ).grade(request)
    assert not assumed.meta.degraded, assumed.meta.warnings
    assert "model_unmeasured" in {r.code for r in assumed.review_reasons}
    assert assumed.needs_review
    assert not {"model_unmeasured", "model_unreliable"} & {r.code for r in measured.review_reasons}
