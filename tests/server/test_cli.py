"""The `stepgrade` command: JSON lines out, --pretty tables, exit code 2 on bad input."""

import json
import os
import socket
import subprocess
import sys
import time

import httpx

from eval_sets.examples import EXAMPLES_DIR
from server.cli import main

SLIP = str(EXAMPLES_DIR / "arithmetic_slip.json")


def test_grade_prints_one_report_per_request(capsys):
    assert main(["grade", SLIP, "--mode", "offline"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 1
    report = json.loads(lines[0])
    assert report["score"] == 0 and report["meta"]["mode"] == "offline"


def test_pretty_prints_a_table(capsys):
    assert main(["grade", SLIP, "--pretty"]) == 0
    out = capsys.readouterr().out
    assert "score 0/10" in out and "error tree  (1)-(2)" in out
    assert "incorrect" in out and "meaningless" in out


def test_json_lines_in_and_output_file(tmp_path, capsys):
    source = tmp_path / "in.jsonl"
    rows = [json.loads((EXAMPLES_DIR / f"{n}.json").read_text()) for n in ("chinese", "arithmetic_slip")]
    source.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows), encoding="utf-8")
    out = tmp_path / "out.jsonl"
    assert main(["grade", str(source), "--output", str(out)]) == 0
    scores = [json.loads(line)["score"] for line in out.read_text().splitlines()]
    assert scores == [10, 0]
    assert "grading 2/2" in capsys.readouterr().err


def test_bad_input_exits_2_naming_the_field(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"problem": "p", "solution": "s", "mode": "fast"}))
    assert main(["grade", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "field 'mode'" in err and "Traceback" not in err


def test_missing_file_exits_2(capsys):
    assert main(["grade", "/no/such/file.json"]) == 2
    assert "no such file" in capsys.readouterr().err


def test_llm_mode_without_endpoint_exits_2(capsys, monkeypatch):
    monkeypatch.delenv("STEPGRADE_LLM_BASE_URL", raising=False)
    assert main(["grade", SLIP, "--mode", "llm"]) == 2
    assert "STEPGRADE_LLM_BASE_URL" in capsys.readouterr().err


def test_console_script_reads_stdin():
    payload = json.dumps({"problem": "Compute 3 * 4.", "solution": "3 * 4 = 12", "reference_answer": "12"})
    done = subprocess.run(
        [sys.executable, "-m", "server.cli", "grade", "-"], input=payload, capture_output=True,
        text=True, timeout=120, check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["score"] == 10


def _get(url: str) -> int | None:
    try:
        return httpx.get(url, timeout=2).status_code
    except httpx.HTTPError:
        return None


def test_serve_with_two_workers_answers_and_a_second_instance_fails_clearly():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {**os.environ, "STEPGRADE_WORKERS": "2", "STEPGRADE_PRELOAD_EMBEDDING": "false",
           "STEPGRADE_LOG_LEVEL": "warning"}
    command = [sys.executable, "-m", "server.cli", "serve", "--host", "127.0.0.1", "--port", str(port)]
    first = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 90
        while _get(f"http://127.0.0.1:{port}/healthz") != 200 and time.monotonic() < deadline:
            assert first.poll() is None, "the service exited during start-up"
            time.sleep(0.3)
        assert all(_get(f"http://127.0.0.1:{port}/healthz") == 200 for _ in range(8))
        second = subprocess.run(command, env=env, capture_output=True, text=True, timeout=60,
                                check=False)
        assert second.returncode != 0
        assert f"cannot listen on 127.0.0.1:{port}" in second.stderr
        assert "Traceback" not in second.stderr
    finally:
        first.terminate()
        first.wait(timeout=30)
