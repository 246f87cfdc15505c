"""`stepgrade grade FILE --mode llm` against an OpenAI-compatible URL taken from the environment."""

from __future__ import annotations

import json

from eval_sets.fakes.openai_server import FakeOpenAI
from example_requests import EXAMPLES_DIR
from server.cli import main

from .conftest import ANSWERS


def test_grade_in_llm_mode_from_the_environment(monkeypatch, capsys, tmp_path):
    monkeypatch.chdir(tmp_path)  # no stray .env
    with FakeOpenAI(lambda op, prompt: ANSWERS[op]) as server:
        monkeypatch.setenv("STEPGRADE_LLM_BASE_URL", server.base_url)
        monkeypatch.setenv("STEPGRADE_LLM_MODEL", "served-model")
        monkeypatch.setenv("STEPGRADE_LLM_API_KEY", "sk-test")
        monkeypatch.setenv("STEPGRADE_LLM_MAX_RETRIES", "0")
        code = main(["grade", str(EXAMPLES_DIR / "arithmetic_slip.json"), "--mode", "llm"])
        sent = list(server.requests)
    assert code == 0
    report = json.loads(capsys.readouterr().out)
    assert report["meta"]["mode"] == "llm" and not report["meta"]["degraded"]
    assert report["meta"]["llm_calls"] == len(sent) == 4
    assert {body["model"] for body in sent} == {"served-model"}
    assert [s["label"] for s in report["steps"]] == ["incorrect", "meaningless", "incorrect"]
    assert report["meta"]["versions"]["model"] == "served-model"
