"""`calibrate_difficulty`: whether the process is evaluated at all (StepMathAgent's difficulty
module), decided offline or by the model, and the problem type when the request leaves it."""

from __future__ import annotations

from agent.nodes.calibrate_difficulty import calibrate_difficulty
from eval_sets.fakes.openai_server import ARITHMETIC_SLIP_ANSWERS
from scoring.schema import Modules
from tests.agent.nodes.conftest import call, llm_context, slip, state_before

SIMPLE = {
    **ARITHMETIC_SLIP_ANSWERS,
    "difficulty": {
        "level": 1,
        "process_evaluation_needed": False,
        "problem_type": "proof",
        "reason": "one step",
    },
}


def test_without_the_module_the_process_is_always_evaluated(offline):
    state = state_before(calibrate_difficulty, slip(), offline)
    assert call(calibrate_difficulty, state, offline) == {
        "difficulty": None,
        "evaluate_process": True,
    }


def test_offline_the_module_rates_the_problem(offline):
    request = slip(modules=Modules(difficulty=True))
    update = call(
        calibrate_difficulty, state_before(calibrate_difficulty, request, offline), offline
    )
    assert update["difficulty"] is not None
    assert update["evaluate_process"] == update["difficulty"].process_evaluation_needed


def test_the_models_simple_rating_skips_the_process(offline):
    context, _ = llm_context(offline, SIMPLE)
    request = slip(mode="llm", modules=Modules(difficulty=True), problem_type="calculation")
    update = call(
        calibrate_difficulty, state_before(calibrate_difficulty, request, context), context
    )
    assert update["evaluate_process"] is False and update["difficulty"].level == 1
    assert "problem_type" not in update  # the request gave one


def test_the_model_classifies_a_problem_whose_type_is_not_given(offline):
    context, _ = llm_context(offline, SIMPLE)
    update = call(
        calibrate_difficulty, state_before(calibrate_difficulty, slip(mode="llm"), context), context
    )
    assert update["problem_type"] == "proof"
    assert update["difficulty"] is None and update["evaluate_process"] is True  # module off


def test_a_failed_rating_falls_back_offline_and_says_so(offline):
    broken, _ = llm_context(offline, {**ARITHMETIC_SLIP_ANSWERS, "difficulty": "no JSON"})
    request = slip(mode="llm", modules=Modules(difficulty=True))
    update = call(calibrate_difficulty, state_before(calibrate_difficulty, request, broken), broken)
    assert update["degraded"] is True and update["difficulty"] is not None
    assert "degraded to the offline difficulty calibration" in update["warnings"][0]
