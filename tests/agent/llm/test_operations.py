"""The five LLM operations over HTTP (respx): each renders its prompt, asks, and returns the
types of its offline twin; what a schema cannot say (the asked step indices, a non-empty
segmentation, earlier dependencies) is checked here."""

from __future__ import annotations

import asyncio
import json

import httpx
import pytest
import respx

from agent.llm.client import LlmClient
from agent.llm.config import LlmConfig
from agent.llm.operations import (
    REDUNDANCY,
    VALIDITY,
    JudgeRequest,
    judge_answer,
    judge_difficulty,
    judge_fused,
    judge_steps,
    segment_solution,
    student_texts,
    to_difficulty_verdict,
)
from agent.llm.records import LlmError, LlmRun
from agent.llm.schemas import Difficulty
from scoring.schema import Modules
from tests.agent.conftest import BASE, URL, body_of, operation_of
from tests.agent.llm.test_llm_failures import raw

STEPS = ["2x + 3 = 11", "2x = 8", "x = 4"]
REQ = JudgeRequest("Solve 2x + 3 = 11.", "calculation", "en", ["4"], [], Modules())


def judged(index: int, label: str = "correct", depends_on=()) -> dict:
    return {
        "index": index,
        "label": label,
        "reason": f"step {index}",
        "depends_on": list(depends_on),
        "reference_steps": [],
        "error_categories": [],
    }


def llm() -> LlmClient:
    config = LlmConfig(base_url=BASE, model="m", max_retries=0, stream=False)
    return LlmClient(config, http_client=httpx.AsyncClient)


def answering(answers: dict) -> list[dict]:
    """Mock the endpoint to answer each operation from `answers`; the request bodies seen."""
    seen: list[dict] = []

    def respond(request: httpx.Request) -> httpx.Response:
        body = body_of(request)
        seen.append(body)
        return raw(request, json.dumps(answers[operation_of(body)[0]]))

    respx.post(URL).mock(side_effect=respond)
    return seen


def run(coroutine):
    return asyncio.run(coroutine)


def test_a_prompts_student_texts_are_its_solution_answer_and_steps():
    variables = {"solution": "s", "answer": "", "steps": ["a", 3, "b"], "problem": "p"}
    assert student_texts(variables) == ("s", "a", "b")


def test_model_labels_have_a_validity_and_redundancy_each():
    assert set(VALIDITY) == set(REDUNDANCY) == {"correct", "incorrect", "meaningless", "redundant"}
    assert VALIDITY["correct"] > VALIDITY["incorrect"]
    assert REDUNDANCY["redundant"] > REDUNDANCY["correct"]


@pytest.mark.parametrize(
    ("level", "needed", "expected"), [(1, False, False), (1, True, True), (2, False, True)]
)
def test_a_level_above_one_always_needs_process_evaluation(level, needed, expected):
    answer = Difficulty(
        level=level, process_evaluation_needed=needed, problem_type="calculation", reason="r"
    )
    verdict = to_difficulty_verdict(answer)
    assert verdict.process_evaluation_needed is expected


@respx.mock
def test_difficulty_and_answer_judgement_come_back_as_their_schemas():
    seen = answering(
        {
            "difficulty": {
                "level": 2,
                "process_evaluation_needed": True,
                "problem_type": "calculation",
                "reason": "two steps",
            },
            "answer_judgement": {"correct": True, "reason": "4 = 4"},
        }
    )
    difficulty = run(judge_difficulty(llm(), LlmRun(), "Solve it.", "x = 4", "en"))
    assert (difficulty.level, difficulty.problem_type) == (2, "calculation")
    verdict = run(judge_answer(llm(), LlmRun(), "Solve it.", "x = 4", ["4"], "en"))
    assert verdict.correct is True
    assert "Solve it." in json.dumps(seen[0]["messages"])


@respx.mock
def test_a_segmentation_drops_blank_steps_and_an_empty_one_fails():
    answering({"segmentation": {"steps": [" 2x = 8 ", "", "x = 4"]}})
    assert run(segment_solution(llm(), LlmRun(), "p", "2x = 8\nx = 4", "en")) == ["2x = 8", "x = 4"]


@respx.mock
def test_an_empty_segmentation_is_repaired_then_fails_on_content():
    answering({"segmentation": {"steps": ["  "]}})
    with pytest.raises(LlmError) as err:
        run(segment_solution(llm(), LlmRun(), "p", "2x = 8\nx = 4", "en"))
    assert err.value.reason == "content" and "the list is empty" in str(err.value)


@respx.mock
def test_judged_steps_become_verdicts_and_later_dependencies_are_dropped():
    answering(
        {
            "step_judgement": {
                "steps": [judged(1), judged(2, "incorrect", [1, 3]), judged(3, "redundant", [2])]
            }
        }
    )
    warnings: list[str] = []
    verdicts = run(judge_steps(llm(), LlmRun(), REQ, STEPS, warnings))
    assert [v.label for v in verdicts] == ["correct", "incorrect", "redundant"]
    assert verdicts[1].depends_on == (1,) and verdicts[2].depends_on == (2,)
    assert verdicts[1].validity == VALIDITY["incorrect"] and verdicts[0].evidence == ("llm",)
    assert warnings == ["step 2: model dependencies [1, 3] include non-earlier steps; dropped"]


@respx.mock
def test_a_span_must_come_back_with_exactly_its_indices():
    answering({"step_judgement": {"steps": [judged(1), judged(2)]}})
    with pytest.raises(LlmError) as err:
        run(judge_steps(llm(), LlmRun(), REQ, STEPS, [], span=(2, 3)))
    assert err.value.reason == "content" and "index 2..3" in str(err.value)


@respx.mock
def test_a_fused_judgement_gives_steps_and_verdicts_numbered_as_kept():
    fused = [
        {**judged(0), "text": "2x = 8"},
        {**judged(0), "text": "  "},
        {**judged(0, "incorrect", [1]), "text": "x = 5"},
    ]
    for step in fused:
        del step["index"]
    answering({"fused_judgement": {"steps": fused}})
    steps, verdicts = run(judge_fused(llm(), LlmRun(), REQ, "2x = 8\nx = 5", []))
    assert steps == ["2x = 8", "x = 5"]
    assert [v.label for v in verdicts] == ["correct", "incorrect"]
    assert verdicts[1].depends_on == (1,)
