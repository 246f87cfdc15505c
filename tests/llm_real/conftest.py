"""`make test-llm`: a real OpenAI-compatible server, llama.cpp's own C++ `llama-server` (built
from the llama.cpp that llama-cpp-python's sdist vendors, `scripts/build_llama_server.sh`),
serving the Gemma 3 270M GGUF on one thread. Collected only when the Makefile names the server
and the model (`STEPGRADE_TEST_LLM_SERVER`, `STEPGRADE_TEST_LLM_GGUF`): `make test` has no
model to run."""

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

SERVER = os.environ.get("STEPGRADE_TEST_LLM_SERVER")
GGUF = os.environ.get("STEPGRADE_TEST_LLM_GGUF")
HERE = Path(__file__).parent

if not (SERVER and GGUF):
    collect_ignore_glob = ["test_*.py"]

# The grades' parallel requests (difficulty, judgement, answer judgement) decode together, one
# slot each, in one batch on the one thread; each slot gets CONTEXT / SLOTS tokens.
SLOTS = 4
CONTEXT = 16384


@dataclass(frozen=True)
class RealServer:
    base_url: str
    root: str
    log: Path

    def busy_slots(self) -> int:
        """How many of the server's slots are generating now (its `/slots` monitor)."""
        slots = httpx.get(f"{self.root}/slots", timeout=10).json()
        return sum(bool(slot.get("is_processing")) for slot in slots)

    def idle_within(self, seconds: float) -> bool:
        """True once no slot is generating, within `seconds`."""
        deadline = time.monotonic() + seconds
        while self.busy_slots():
            if time.monotonic() > deadline:
                return False
            time.sleep(0.1)
        return True


@pytest.fixture(scope="session")
def llama_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RealServer]:
    """llama-server on 127.0.0.1, one thread for generation and for prompts. The GGUF is a base
    model with no chat template: the server is given Gemma's (`gemma.jinja`, Gemma 3's turn
    markers)."""
    port = free_port()
    log = tmp_path_factory.mktemp("llama") / "server.log"
    command = [
        str(SERVER),
        "--model",
        str(GGUF),
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--threads",
        "1",
        "--threads-batch",
        "1",
        "--ctx-size",
        str(CONTEXT),
        "--parallel",
        str(SLOTS),
        "--jinja",
        "--chat-template-file",
        str(HERE / "gemma.jinja"),
        "--slots",
        "--no-webui",
    ]
    with log.open("wb") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
    root = f"http://127.0.0.1:{port}"
    server = RealServer(f"{root}/v1", root, log)
    try:
        deadline = time.monotonic() + 180
        while not _healthy(root):
            if process.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"llama-server did not start: {log.read_text()[-2000:]}")
            time.sleep(0.5)
        yield server
    finally:
        stop(process)


def _healthy(root: str) -> bool:
    try:
        return httpx.get(f"{root}/health", timeout=2).status_code == 200
    except httpx.HTTPError:
        return False


ROWS: list[str] = []


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """What the real server did, per grade: methods, requests, tokens, degradations, times."""
    if ROWS:
        terminalreporter.section("real-server grades")
        for row in ROWS:
            terminalreporter.write_line(row)
