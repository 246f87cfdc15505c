"""The label server: the label oracle over HTTP, started as a fake model process."""

from __future__ import annotations

import json
import math
import urllib.request

import pytest

from eval_sets.fakes.label_oracle import EXACT, ErrorRates, LabelOracle, answered_labels
from eval_sets.processes import fake_model
from scoring.schema import GradeRequest
from tests.eval_sets.fakes.conftest import SYNTHETIC
from tests.agent.conftest import scripted_grader


def test_the_label_server_serves_the_oracle(tmp_path) -> None:
    data = tmp_path / "rows.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in SYNTHETIC[:3]), encoding="utf-8")
    oracle = ["--data", str(data), "--miss", "1", "--false-alarm", "0", "--seed", "0"]
    with fake_model("eval_sets.fakes.label_server", oracle, "the label server", "test") as base:
        body = {
            "model": "fake-model",
            "messages": [
                {
                    "role": "user",
                    "content": f"<solution>\n{SYNTHETIC[1]['model_output']}\n</solution>",
                }
            ],
            "response_format": {"type": "json_schema", "json_schema": {"name": "step_judgement"}},
        }
        request = urllib.request.Request(
            f"{base}/chat/completions",
            json.dumps(body).encode(),
            method="POST",
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=30) as response:
            answer = json.loads(response.read())
        steps = json.loads(answer["choices"][0]["message"]["content"])["steps"]
        assert [s["label"] for s in steps] == ["correct"] * 10
