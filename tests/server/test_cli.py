"""The `stepgrade` command: JSON lines out, --pretty tables, an error per bad line (exit 1),
exit 2 for usage errors only."""

import json
import os
import subprocess
import sys
import time

import httpx
import pytest

from eval_sets.processes import free_port, start_service, stop
from example_requests import EXAMPLES_DIR
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


def test_pretty_says_how_sure_and_why_to_look(tmp_path, capsys, monkeypatch):
    source = tmp_path / "proof.json"
    source.write_text(
        json.dumps(
            {
                "problem": "Prove that the sum of two odd integers is even.",
                "solution": "Let a = 3 and b = 5. Then a + b = 8, which is even. Therefore the sum of "
                "any two odd integers is even.",
            }
        ),
        encoding="utf-8",
    )
    assert main(["grade", str(source), "--pretty"]) == 0
    out = capsys.readouterr().out
    assert "REVIEW      a proof graded without a model" in out
    assert "(80% interval)" not in out  # the tests' hand calibration fits no interval
    monkeypatch.delenv("STEPGRADE_CALIBRATION")  # the shipped one does
    assert main(["grade", str(source), "--pretty"]) == 0
    assert "(80% interval)" in capsys.readouterr().out


def test_json_lines_in_and_output_file(tmp_path, capsys):
    source = tmp_path / "in.jsonl"
    rows = [
        json.loads((EXAMPLES_DIR / f"{n}.json").read_text()) for n in ("chinese", "arithmetic_slip")
    ]
    source.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows), encoding="utf-8")
    out = tmp_path / "out.jsonl"
    assert main(["grade", str(source), "--output", str(out)]) == 0
    scores = [json.loads(line)["score"] for line in out.read_text().splitlines()]
    assert scores == [10, 0]
    assert "grading 2/2" in capsys.readouterr().err


def test_a_bad_single_request_is_an_error_in_its_place_and_exits_1(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"problem": "p", "solution": "s", "mode": "fast"}))
    assert main(["grade", str(bad)]) == 1
    captured = capsys.readouterr()
    error = json.loads(captured.out)["error"]
    assert error["code"] == "invalid_request" and error["field"] == "mode"
    assert "field 'mode'" in captured.err and "Traceback" not in captured.err


def _lines(path, rows):
    path.write_text(
        "\n".join(r if isinstance(r, str) else json.dumps(r) for r in rows) + "\n", encoding="utf-8"
    )
    return str(path)


GOOD = {"problem": "Compute 3 * 4.", "solution": "3 * 4 = 12", "reference_answer": "12"}


def test_every_line_gets_a_report_or_an_error_in_its_place(tmp_path, capsys, monkeypatch):
    import agent.build

    real = agent.build.make_grader

    class Exploding:
        """Grades like the real grader, except the problem "explode", which raises."""

        def __init__(self, settings):
            self.inner = real(settings)
            self.llm_configured = self.inner.llm_configured

        def grade(self, request):
            if request.problem == "explode":
                raise RuntimeError("a bug in the grader")
            return self.inner.grade(request)

    monkeypatch.setattr(agent.build, "make_grader", Exploding)
    monkeypatch.delenv("STEPGRADE_LLM_BASE_URL", raising=False)
    source = _lines(
        tmp_path / "in.jsonl",
        [
            GOOD,
            "{not json",
            {**GOOD, "problem": "explode"},
            {"problem": "p"},
            {**GOOD, "mode": "llm"},
            GOOD,
        ],
    )
    assert main(["grade", source, "--mode", "offline"]) == 1
    out = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(out) == 6
    assert out[0]["score"] == 10 and out[5]["score"] == 10
    assert out[1] == {
        "line": 2,
        "error": {"code": "invalid_json", "field": None, "message": out[1]["error"]["message"]},
    }
    assert out[2]["line"] == 3 and out[2]["error"]["code"] == "internal_error"
    assert "RuntimeError: a bug in the grader" in out[2]["error"]["message"]
    assert out[3]["line"] == 4 and out[3]["error"]["code"] == "invalid_request"
    assert out[4]["meta"]["mode"] == "offline", "--mode overrides each line's mode"


def test_a_line_asking_for_an_llm_that_is_not_there_fails_alone(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("STEPGRADE_LLM_BASE_URL", raising=False)
    source = _lines(tmp_path / "in.jsonl", [{**GOOD, "mode": "llm"}, GOOD])
    assert main(["grade", source]) == 1
    first, second = (json.loads(line) for line in capsys.readouterr().out.splitlines())
    assert first["error"]["code"] == "llm_unavailable" and first["error"]["field"] == "mode"
    assert second["score"] == 10


def test_pretty_shows_the_error_in_its_place(tmp_path, capsys):
    source = _lines(tmp_path / "in.jsonl", ["[]", GOOD])
    assert main(["grade", source, "--pretty"]) == 1
    out = capsys.readouterr().out
    assert "line 1: error invalid_request" in out and "score 10/10" in out


def test_an_empty_solution_is_graded_zero(tmp_path, capsys):
    source = _lines(
        tmp_path / "in.jsonl",
        [{**GOOD, "solution": "  \n "}, {"problem": "p", "solution_steps": ["", " "]}],
    )
    assert main(["grade", source]) == 0
    reports = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    for report in reports:
        assert (report["score"], report["score_binary"], report["steps"]) == (0, 0, [])
        assert report["error_tree"]["roots"] == [] and report["answer"]["extracted"] is None
        assert "empty solution: nothing to grade" in report["meta"]["warnings"]
    # with a reference the answer is wrong; without one there is nothing to compare it with
    assert [r["answer"]["correct"] for r in reports] == [False, None]


@pytest.mark.parametrize("content", ["", "\n  \n"])
def test_an_empty_file_is_a_usage_error(tmp_path, capsys, content):
    empty = tmp_path / "empty.jsonl"
    empty.write_text(content)
    assert main(["grade", str(empty)]) == 2
    assert "input is empty" in capsys.readouterr().err


def test_an_output_that_cannot_be_written_is_a_usage_error(capsys):
    assert main(["grade", SLIP, "--output", "/no/such/dir/out.jsonl"]) == 2
    assert "cannot write" in capsys.readouterr().err


def test_missing_file_exits_2(capsys):
    assert main(["grade", "/no/such/file.json"]) == 2
    assert "no such file" in capsys.readouterr().err


def test_llm_mode_without_endpoint_exits_2(capsys, monkeypatch):
    monkeypatch.delenv("STEPGRADE_LLM_BASE_URL", raising=False)
    assert main(["grade", SLIP, "--mode", "llm"]) == 2
    assert "STEPGRADE_LLM_BASE_URL" in capsys.readouterr().err


def test_console_script_reads_stdin():
    payload = json.dumps(
        {"problem": "Compute 3 * 4.", "solution": "3 * 4 = 12", "reference_answer": "12"}
    )
    done = subprocess.run(
        [sys.executable, "-m", "server.cli", "grade", "-"],
        input=payload,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["score"] == 10


def _get(url: str) -> int | None:
    try:
        return httpx.get(url, timeout=2).status_code
    except httpx.HTTPError:
        return None


def _knock(port: int, path: str) -> str:
    """One request on a new connection: its status (and body, unless 200), or what went wrong."""
    try:
        with httpx.Client(timeout=20) as client:  # a new connection each time
            r = client.get(f"http://127.0.0.1:{port}{path}")
            return str(r.status_code) if r.status_code == 200 else f"{r.status_code} {r.text}"
    except httpx.ConnectError as err:
        return f"refused: {err}"
    except httpx.TimeoutException:
        return "hang"
    except httpx.HTTPError as err:
        return f"{type(err).__name__}: {err}"


@pytest.mark.timeout(240)
def test_two_workers_answer_every_connection_after_the_first_answer():
    """Connections opened continuously from the start: once one is answered, none is refused,
    reset or left hanging while the workers warm up (each listens only once it can grade), and
    /readyz is ready only when both are."""
    port = free_port()
    service = start_service(
        None,
        port,
        workers=2,
        env={"STEPGRADE_PRELOAD_EMBEDDING": "false"},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    seen: list[tuple[str, str]] = []
    try:
        deadline = time.monotonic() + 180
        ready_at, first_ok = None, 10**9
        while time.monotonic() < deadline and (
            ready_at is None or time.monotonic() < ready_at + 3 or len(seen) < first_ok + 30
        ):
            assert service.poll() is None, "the service exited"
            path = "/readyz" if len(seen) % 5 == 4 else "/healthz"
            seen.append((path, _knock(port, path)))
            if ready_at is None and seen[-1] == ("/readyz", "200"):
                ready_at = time.monotonic()
            if first_ok > len(seen) and seen[-1][1] == "200":
                first_ok = len(seen)
            if not any(outcome == "200" for _, outcome in seen):
                time.sleep(0.05)
        assert ready_at is not None, f"never ready: {seen[-5:]}"
        first = next(i for i, (_, outcome) in enumerate(seen) if outcome == "200")
        after = seen[first:]
        failures = [(path, o) for path, o in after if o != "200" and not o.startswith("503")]
        assert not failures, f"{len(failures)} of {len(after)} connections failed: {failures[:5]}"
        assert all(o == "200" for path, o in after if path == "/healthz")
        assert len(after) >= 30
    finally:
        stop(service, grace=30)


def test_a_second_instance_on_the_same_port_fails_clearly():
    port = free_port()
    first = start_service(
        None,
        port,
        workers=2,
        env={"STEPGRADE_PRELOAD_EMBEDDING": "false"},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    env = {
        **os.environ,
        "STEPGRADE_WORKERS": "2",
        "STEPGRADE_PRELOAD_EMBEDDING": "false",
        "STEPGRADE_LOG_LEVEL": "warning",
    }
    command = [
        sys.executable,
        "-m",
        "server.cli",
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
    ]
    try:
        deadline = time.monotonic() + 120
        while _get(f"http://127.0.0.1:{port}/readyz") != 200 and time.monotonic() < deadline:
            assert first.poll() is None, "the service exited during start-up"
            time.sleep(0.3)
        second = subprocess.run(
            command, env=env, capture_output=True, text=True, timeout=60, check=False
        )
        assert second.returncode != 0
        assert f"port {port} on 127.0.0.1 is already in use" in second.stderr
        assert "STEPGRADE_PORT=" in second.stderr and "Traceback" not in second.stderr
    finally:
        stop(first, grace=30)


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_taken_port_is_found_before_the_warm_up(tmp_path, workers):
    """The socket is bound before anything loads: with an embedding model that cannot load (its
    warm-up would fail on it), the port is what `stepgrade serve` reports, naming STEPGRADE_PORT."""
    import socket

    holder = socket.socket()
    holder.bind(("127.0.0.1", 0))
    holder.listen()
    port = holder.getsockname()[1]
    env = {
        **os.environ,
        "STEPGRADE_WORKERS": workers,
        "STEPGRADE_DATA_DIR": str(tmp_path),
        "STEPGRADE_EMBEDDING_MODEL": str(tmp_path / "no-such-model"),
    }
    try:
        done = subprocess.run(
            [sys.executable, "-m", "server.cli", "serve", "--port", str(port)],
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
    finally:
        holder.close()
    assert done.returncode == 1
    assert done.stderr.strip() == (
        f"stepgrade serve: port {port} on 127.0.0.1 is already in use; stop what holds it, or "
        f"choose another port: STEPGRADE_PORT={port + 1} stepgrade serve (or --port {port + 1})"
    )
    assert not (tmp_path / "stepgrade.db").exists()  # the store was not opened either


def test_bench_says_how_to_install_it_when_not_registered(monkeypatch, capsys):
    """The service finds `bench` through an entry point only; without it, a clear message."""
    import server.cli

    monkeypatch.setattr(server.cli, "entry_points", lambda group: [])
    assert main(["bench", "grade", "--dataset", "stepmath"]) == 2
    assert "pip install 'stepgrade[bench]'" in capsys.readouterr().err


def test_bench_says_which_module_is_missing(monkeypatch, capsys):
    import server.cli

    class Point:
        name = "bench"

        def load(self):
            raise ModuleNotFoundError("No module named 'tqdm'", name="tqdm")

    monkeypatch.setattr(server.cli, "entry_points", lambda group: [Point()])
    assert main(["bench", "list"]) == 2
    err = capsys.readouterr().err
    assert "tqdm" in err and "stepgrade[bench]" in err


def test_bench_is_registered_through_the_entry_point():
    from importlib.metadata import entry_points

    assert [p.value for p in entry_points(group="stepgrade.commands") if p.name == "bench"][:1] == [
        "eval_sets.cli:register"
    ]


@pytest.mark.parametrize(
    "argv",
    [
        ["--help"],
        ["grade", "--help"],
        ["bench", "--help"],
        ["calibrate", "--help"],
        ["store", "assign", "--help"],
    ],
)
def test_help_imports_no_grader(argv):
    """`stepgrade --help` (and each command's) builds the parser only: the grader, sympy, torch
    and the benchmark runner are imported when a command runs."""
    script = (
        "import sys\nfrom server.cli import main\ntry:\n    main(sys.argv[1:])\n"
        "except SystemExit:\n    pass\nheavy = ['torch', 'sympy', 'numpy', 'agent.grader', "
        "'scoring.schema', 'fastapi', 'sqlalchemy', 'eval_sets.runner']\n"
        "print([m for m in heavy if m in sys.modules])"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, *argv],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert "usage: stepgrade" in done.stdout
    assert done.stdout.strip().splitlines()[-1] == "[]"
