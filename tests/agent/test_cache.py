"""Record answers once (`STEPGRADE_LLM_RECORD`), replay them with no server (`STEPGRADE_LLM_REPLAY`)."""

from __future__ import annotations

import json

import respx

from agent.build import make_grader
from agent.settings import GradingSettings
from eval_sets.examples import load_example
from scoring.schema import Modules
from tests.fakes.openai_server import FakeOpenAI

from .test_llm_failures import ANSWERS, ok


def _settings(**values) -> GradingSettings:
    return GradingSettings(llm_model="m", llm_max_retries=0, _env_file=None, **values)


def test_recorded_answers_replay_without_a_server(tmp_path):
    request = load_example("arithmetic_slip").model_copy(update={"mode": "llm"})
    # A server that refuses json_schema: the answers are recorded with the method it took.
    with FakeOpenAI(ANSWERS, refuse=frozenset({"json_schema"})) as server:
        live = make_grader(_settings(llm_base_url=server.base_url, llm_record=tmp_path)).grade(request)
        sent = len(server.requests)
    saved = sorted(tmp_path.glob("*.json"))
    assert len(saved) == 4 and sent == live.meta.llm_calls == 5  # one refused request
    assert json.loads(saved[0].read_text(encoding="utf-8"))["messages"][0]["type"] == "ai"

    # No base URL, no server: the answers come from the folder alone.
    replayed = make_grader(_settings(llm_replay=tmp_path)).grade(request)
    assert not replayed.meta.degraded
    assert replayed.model_dump(exclude={"meta"}) == live.model_dump(exclude={"meta"})
    assert replayed.meta.prompt_tokens == live.meta.prompt_tokens
    assert {op.method for op in replayed.meta.llm_operations} == {"function_calling"}


def test_recording_answers_repeated_requests_from_the_folder(tmp_path):
    request = load_example("arithmetic_slip").model_copy(update={"mode": "llm"})
    with FakeOpenAI(ANSWERS) as server:
        grader = make_grader(_settings(llm_base_url=server.base_url, llm_record=tmp_path))
        first = grader.grade(request)
        asked = len(server.requests)
        again = grader.grade(request)
        assert len(server.requests) == asked
    assert again.model_dump(exclude={"meta"}) == first.model_dump(exclude={"meta"})


def test_a_changed_prompt_misses_its_recording_loudly(tmp_path):
    request = load_example("arithmetic_slip").model_copy(update={"mode": "llm"})
    with FakeOpenAI(ANSWERS) as server:
        make_grader(_settings(llm_base_url=server.base_url, llm_record=tmp_path)).grade(request)
    changed = request.model_copy(update={"modules": Modules(format=True)})
    report = make_grader(_settings(llm_replay=tmp_path)).grade(changed)
    assert report.meta.degraded
    judged = next(op for op in report.meta.llm_operations if op.operation == "step_judgement")
    assert judged.degraded == "format" and "no recorded answer" in judged.detail
    assert any("step_judgement" in w and "no recorded answer" in w for w in report.meta.warnings)


@respx.mock
def test_answers_recorded_from_openai_replay_offline(tmp_path):
    """OpenAI's API gets `max_completion_tokens`, a replay `max_tokens`: the same request."""
    route = respx.post("https://api.openai.com/v1/chat/completions").mock(side_effect=ok)
    request = load_example("arithmetic_slip").model_copy(update={"mode": "llm"})
    live = make_grader(_settings(llm_base_url="https://api.openai.com/v1",
                                 llm_record=tmp_path)).grade(request)
    assert all("max_completion_tokens" in json.loads(c.request.content) for c in route.calls)
    replayed = make_grader(_settings(llm_replay=tmp_path)).grade(request)
    assert not replayed.meta.degraded
    assert replayed.model_dump(exclude={"meta"}) == live.model_dump(exclude={"meta"})
