"""`bench grade --mode llm` against the fake OpenAI-compatible server: answers are cached."""

from __future__ import annotations

import json

from eval_sets.bundled import bundled_path
from eval_sets.registry import load_dataset
from server.cli import main
from tests.fakes.openai_server import FakeOpenAI


def _oracle():
    items = load_dataset("mr_math_invalid", bundled_path("mr_math_invalid"))
    steps = {i.request.problem: len(i.request.solution_steps or []) for i in items}

    def answer(operation: str, prompt: str):
        n = next((v for k, v in steps.items() if k in prompt), None)
        if n is None:
            return None
        if operation == "difficulty":
            return {"level": 2, "process_evaluation_needed": True, "problem_type": "calculation",
                    "reason": "two steps or more"}
        if operation == "step_judgement":
            return {"steps": [{"index": i, "label": "correct", "reason": "fine", "depends_on": [],
                               "reference_steps": [], "error_categories": []}
                              for i in range(1, n + 1)]}
        if operation == "answer_judgement":
            return {"correct": True, "reason": "same value"}
        return None

    return answer


def test_llm_mode_rerun_answers_from_the_cache(tmp_path, monkeypatch, capsys) -> None:
    with FakeOpenAI(_oracle()) as server:
        monkeypatch.setenv("STEPGRADE_LLM_BASE_URL", server.base_url)
        monkeypatch.setenv("STEPGRADE_LLM_MODEL", "fake-model")
        argv = ["bench", "grade", "--dataset", "mr_math_invalid", "--path",
                str(bundled_path("mr_math_invalid")), "--out", str(tmp_path), "--mode", "llm",
                "--concurrency", "2", "--no-progress"]
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
