"""Record real answers once (`STEPGRADE_LLM_RECORD`), replay them in CI (`STEPGRADE_LLM_REPLAY`)."""

from __future__ import annotations

import json

from agent.llm.fake_server import FakeOpenAI
from eval_sets.examples import load_example
from scoring.schema import Modules
from server.factory import make_grader
from server.settings import Settings

from .test_llm_failures import ANSWERS


def _oracle(operation, prompt):
    return ANSWERS[operation]


def test_recorded_answers_replay_without_a_server(tmp_path):
    request = load_example("arithmetic_slip").model_copy(update={"mode": "llm"})
    with FakeOpenAI(_oracle) as server:
        live = make_grader(Settings(llm_base_url=server.base_url, llm_model="m", llm_max_retries=0,
                                    llm_record=tmp_path, _env_file=None)).grade(request)
        sent = len(server.requests)
    cassettes = sorted(tmp_path.glob("*.json"))
    assert len(cassettes) == sent == live.meta.llm_calls == 4
    saved = json.loads(cassettes[0].read_text(encoding="utf-8"))
    assert saved["request"]["model"] == "m" and saved["body"]["choices"]

    # No base URL, no server: the answers come from the cassettes alone.
    replayed = make_grader(Settings(llm_model="m", llm_max_retries=0, llm_replay=tmp_path,
                                    _env_file=None)).grade(request)
    assert not replayed.meta.degraded and replayed.meta.llm_calls == 4
    assert replayed.model_dump(exclude={"meta"}) == live.model_dump(exclude={"meta"})
    assert replayed.meta.prompt_tokens == live.meta.prompt_tokens


def test_a_changed_prompt_misses_its_cassette_loudly(tmp_path):
    request = load_example("arithmetic_slip").model_copy(update={"mode": "llm"})
    with FakeOpenAI(_oracle) as server:
        make_grader(Settings(llm_base_url=server.base_url, llm_model="m", llm_max_retries=0,
                             llm_record=tmp_path, _env_file=None)).grade(request)
    changed = request.model_copy(update={"modules": Modules(format=True)})
    report = make_grader(Settings(llm_model="m", llm_max_retries=0, llm_replay=tmp_path,
                                  _env_file=None)).grade(changed)
    assert report.meta.degraded
    assert any("step_judgement" in w and "no cassette" in w for w in report.meta.warnings), report.meta.warnings
