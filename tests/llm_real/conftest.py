"""`make test-llm`: a real OpenAI-compatible server (llama-cpp-python's, in its own venv) serving
the Gemma 3 270M GGUF. Collected only when the Makefile names the server's Python and the model
(`STEPGRADE_TEST_LLM_PYTHON`, `STEPGRADE_TEST_LLM_GGUF`): `make test` has no model to run."""

from __future__ import annotations

import os
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from eval_sets.processes import free_port, stop

SERVER_PYTHON = os.environ.get("STEPGRADE_TEST_LLM_PYTHON")
GGUF = os.environ.get("STEPGRADE_TEST_LLM_GGUF")

if not (SERVER_PYTHON and GGUF):
    collect_ignore_glob = ["test_*.py"]


@dataclass(frozen=True)
class RealServer:
    base_url: str
    log: Path

    def idle_within(self, seconds: float) -> bool:
        """True if the server answers `/models` within `seconds`: it serves one request at a
        time, so a generation still running (an abandoned request) holds the answer back."""
        try:
            httpx.get(f"{self.base_url}/models", timeout=seconds)
        except httpx.HTTPError:
            return False
        return True


@pytest.fixture(scope="session")
def llama_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RealServer]:
    """llama-cpp-python's server on 127.0.0.1, one thread; the GGUF has no chat template, so the
    server is given llama-cpp-python's Gemma one (`--chat_format gemma`)."""
    port = free_port()
    log = tmp_path_factory.mktemp("llama") / "server.log"
    command = [str(SERVER_PYTHON), "-m", "llama_cpp.server", "--model", str(GGUF),
               "--host", "127.0.0.1", "--port", str(port), "--n_ctx", "8192",
               "--n_threads", "1", "--chat_format", "gemma"]
    with log.open("wb") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
    server = RealServer(f"http://127.0.0.1:{port}/v1", log)
    try:
        deadline = time.monotonic() + 180
        while not server.idle_within(2.0):
            if process.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"llama-cpp-python's server did not start: {log.read_text()[-2000:]}")
            time.sleep(0.5)
        yield server
    finally:
        stop(process)


ROWS: list[str] = []


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """What the real server did, per grade: methods, requests, degradations, times."""
    if ROWS:
        terminalreporter.section("real-server grades")
        for row in ROWS:
            terminalreporter.write_line(row)
