"""`verify`: the findings (and in LLM mode the model's labels) become the step labels; a model
label changes only where the evidence crosses against it, and then says so."""

from __future__ import annotations

from agent.nodes.verify import verify
from scoring.verdict import StepVerdict
from tests.agent.nodes.conftest import call, llm_context, slip, state_before


def test_offline_the_refuted_step_is_labelled_incorrect(offline):
    update = call(verify, state_before(verify, slip(), offline), offline)
    labels = [v.label for v in update["verdicts"]]
    assert labels[0] == "incorrect" and len(labels) == 3
    assert (
        update["first_error"] is not None and update["first_error"].step == 0
    )  # 0-based: the first step


def test_a_model_label_the_evidence_refutes_is_overruled_with_a_warning(offline):
    context, _ = llm_context(offline)
    state = state_before(verify, slip(mode="llm"), context)
    says_correct = [
        StepVerdict("correct", "the model says so", evidence=("llm",)) for _ in state["steps"]
    ]
    update = call(verify, {**state, "verdicts": says_correct, "judged_by": "llm"}, context)
    assert update["verdicts"][0].label == "incorrect"  # 47 + 58 is not 95, whatever it says
    assert any("step 1" in w for w in update["warnings"])


def test_model_labels_the_evidence_agrees_with_stand(offline):
    context, _ = llm_context(offline)
    state = state_before(verify, slip(mode="llm"), context)
    update = call(verify, state, context)
    assert update["verdicts"][0].label == state["verdicts"][0].label == "incorrect"
