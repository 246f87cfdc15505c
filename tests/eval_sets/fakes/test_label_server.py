"""The label server: the label oracle over HTTP, started as a fake model process."""

from __future__ import annotations

import json
import urllib.request

import pytest

from eval_sets.fakes.label_server import main, read_rows
from eval_sets.processes import fake_model
from tests.eval_sets.fakes.conftest import SYNTHETIC


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


def test_read_rows_skips_blank_lines(tmp_path) -> None:
    path = tmp_path / "rows.jsonl"
    path.write_text('{"uid": "a"}\n\n  \n{"uid": "b"}\n', encoding="utf-8")
    assert read_rows(path) == [{"uid": "a"}, {"uid": "b"}]


def test_unreadable_data_is_one_line_and_exit_2(tmp_path, capsys) -> None:
    assert main(["--data", str(tmp_path / "none.jsonl"), "--port", "1"]) == 2
    assert capsys.readouterr().err.startswith(
        f"label_server: cannot read {tmp_path / 'none.jsonl'}"
    )
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{not json\n", encoding="utf-8")
    assert main(["--data", str(bad), "--port", "1"]) == 2
    assert "label_server: cannot read" in capsys.readouterr().err


@pytest.mark.parametrize("option", ["--miss", "--false-alarm"])
def test_a_rate_outside_0_1_is_a_usage_error(tmp_path, capsys, option) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["--data", str(tmp_path), "--port", "1", option, "1.5"])
    assert exit_.value.code == 2 and "must be between 0 and 1" in capsys.readouterr().err
