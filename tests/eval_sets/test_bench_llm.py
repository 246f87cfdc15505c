"""`bench grade --mode llm` against the fake OpenAI-compatible server: answers are cached."""

from __future__ import annotations

import json

from eval_sets.bundled import bundled_path
from eval_sets.fakes.openai_server import FakeOpenAI
from server.cli import main


def test_llm_mode_rerun_answers_from_the_cache(
    tmp_path, monkeypatch, capsys, mr_math_oracle
) -> None:
    with FakeOpenAI(mr_math_oracle) as server:
        monkeypatch.setenv("STEPGRADE_LLM_BASE_URL", server.base_url)
        monkeypatch.setenv("STEPGRADE_LLM_MODEL", "fake-model")
        argv = [
            "bench",
            "grade",
            "--dataset",
            "mr_math_invalid",
            "--path",
            str(bundled_path("mr_math_invalid")),
            "--out",
            str(tmp_path),
            "--mode",
            "llm",
            "--concurrency",
            "2",
            "--no-progress",
        ]
        assert main(argv) == 0, capsys.readouterr().err
        asked = len(server.requests)
        assert asked >= 4
        rows = [json.loads(x) for x in (tmp_path / "results.jsonl").read_text().splitlines()]
        assert {r["report"]["meta"]["mode"] for r in rows} == {"llm"}
        assert all(not r["report"]["meta"]["degraded"] for r in rows)
        assert any((tmp_path / "llm_cache").iterdir())

        (tmp_path / "results.jsonl").unlink()
        assert main(argv) == 0
        assert len(server.requests) == asked  # every answer came from llm_cache
