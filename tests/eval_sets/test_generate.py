"""`bench generate` against a mocked OpenAI-compatible endpoint (respx; no network)."""

from __future__ import annotations

import json
import time

import httpx
import pytest
import respx

from eval_sets.bundled import bundled_path
from server.cli import main

BASE = "http://model.test/v1"
SOLUTIONS = {
    "Solve for $x$": "Subtract $2x$: $3x - 3 = 9$.\nAdd $3$: $3x = 12$.\nSo $x = \\boxed{4}$.",
    "right triangle": "The hypotenuse is $\\sqrt{6^2 + 8^2}$.\nThat is $\\sqrt{100} = \\boxed{12}$.",
}


def _answer(request: httpx.Request) -> httpx.Response:
    body = json.loads(request.content)
    problem = body["messages"][-1]["content"]
    text = next(v for k, v in SOLUTIONS.items() if k in problem)
    return httpx.Response(
        200,
        json={
            "id": "chatcmpl-1",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": body["model"],
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": text},
                    "finish_reason": "stop",
                }
            ],
            "usage": {"prompt_tokens": 10, "completion_tokens": 10, "total_tokens": 20},
        },
    )


@pytest.mark.model
def test_generate_then_grade_with_cache(tmp_path, capsys) -> None:
    argv = [
        "bench",
        "generate",
        "--model",
        "tiny",
        "--base-url",
        BASE,
        "--dataset",
        "math",
        "--path",
        str(bundled_path("math")),
        "--subsets",
        "algebra",
        "geometry",
        "--out",
        str(tmp_path),
        "--no-progress",
    ]
    with respx.mock(assert_all_called=False) as mock:
        route = mock.post(f"{BASE}/chat/completions").mock(side_effect=_answer)
        assert main(argv) == 0
        assert route.call_count == 2
        sent = json.loads(route.calls[0].request.content)
        assert sent["model"] == "tiny" and "step by step" in sent["messages"][0]["content"]

        rows = [json.loads(x) for x in (tmp_path / "results.jsonl").read_text().splitlines()]
        by_id = {r["id"]: r for r in rows}
        algebra = by_id["math-demo/algebra/1.json"]
        assert algebra["request"]["solution"].startswith("Subtract $2x$")
        assert algebra["request"]["reference_solution"].startswith("Subtracting $2x$")
        assert algebra["report"]["answer"]["correct"] is True
        assert algebra["report"]["alignment"] is not None
        assert by_id["math-demo/geometry/1.json"]["report"]["answer"]["correct"] is False
        summary = json.loads((tmp_path / "summary.json").read_text())
        assert summary["tables"]["realign"]["rows"]["overall"]["accuracy"] == pytest.approx(0.5)
        assert (tmp_path / "heatmap_best.png").exists()

        # A rerun from scratch (results removed) answers from the cache: no new model call.
        (tmp_path / "results.jsonl").unlink()
        assert main(argv) == 0
        assert route.call_count == 2
    assert "Reference alignment (ReAlign)" in capsys.readouterr().out


def test_generate_needs_an_endpoint(tmp_path, capsys, monkeypatch) -> None:
    monkeypatch.delenv("STEPGRADE_LLM_BASE_URL", raising=False)
    code = main(
        [
            "bench",
            "generate",
            "--model",
            "m",
            "--dataset",
            "gsm8k",
            "--path",
            str(bundled_path("gsm8k")),
            "--out",
            str(tmp_path),
        ]
    )
    assert code == 2 and "needs --base-url" in capsys.readouterr().err
