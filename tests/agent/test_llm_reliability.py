"""The model's reliability in a grade: the review codes it raises, and an LLM grade that says
when its model is unmeasured (how the settings choose it: tests/agent/test_build.py)."""

from __future__ import annotations

import pytest

from eval_sets.fakes.openai_server import ARITHMETIC_SLIP_STEPS, FakeOpenAI
from scoring.judge.decide.reliability import Reliability
from scoring.schema import GradeRequest
from scoring.score.features import GradeFeatures
from scoring.score.interval import load_uncertainty
from scoring.score.uncertainty import review_reasons


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
