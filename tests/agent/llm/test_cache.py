"""Record answers once (`STEPGRADE_LLM_RECORD`), replay them with no server (`STEPGRADE_LLM_REPLAY`)."""

from __future__ import annotations

import asyncio
import json

from agent.build import make_grader
from agent.settings import GradingSettings
from eval_sets.fakes.openai_server import FakeOpenAI
from example_requests import load_example
from scoring.schema import Modules
from tests.agent.conftest import ANSWERS


def _settings(**values) -> GradingSettings:
    return GradingSettings(llm_model="m", llm_max_retries=0, _env_file=None, **values)


def test_recorded_answers_replay_without_a_server(tmp_path):
    request = load_example("arithmetic_slip").model_copy(update={"mode": "llm"})
    # A server that refuses json_schema: the answers are recorded with the method it took.
    with FakeOpenAI(ANSWERS, refuse=frozenset({"json_schema"})) as server:
        live = make_grader(_settings(llm_base_url=server.base_url, llm_record=tmp_path)).grade(
            request
        )
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


def test_answers_recorded_from_openai_replay_for_any_endpoint(tmp_path):
    """OpenAI's API gets `max_completion_tokens` and a plain schema, the other servers
    `max_tokens` and a bounded one: the same question, so the same recorded answer."""
    from agent.llm.cache import AnswerCache
    from agent.llm.client import LlmClient, schema_for
    from agent.llm.config import LlmConfig
    from agent.llm.langchain_adapter import cache_key
    from agent.llm.tokens import limits

    _, bounds = limits(
        "step_judgement", language="en", items=3, exact=True, reason_tokens=64, cap=4096
    )

    async def llm_string(base_url: str) -> str:
        client = LlmClient(LlmConfig(base_url=base_url, model="m"))
        call = client.structured("step_judgement", "json_schema", 512, bounds)
        return cache_key(call.model.bound, **call.model.kwargs)

    openai, local = (
        asyncio.run(llm_string(u))
        for u in ("https://api.openai.com/v1", "http://127.0.0.1:8080/v1")
    )
    assert openai != local and "maxItems" in local and "max_completion_tokens" in openai
    cache = AnswerCache(tmp_path)
    assert cache.path("prompt", openai) == cache.path("prompt", local)
    assert cache.path("prompt", local) != cache.path("another prompt", local)
    assert "maxItems" not in json.dumps(schema_for("step_judgement", "json_schema", None))
