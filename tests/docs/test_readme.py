"""The README's commands, run as a reader runs them, and the outputs it shows checked against what
they print.

Every ```sh block of the README is run in order, one line (or quoted multi-line command) at a
time, in a temporary folder: `make serve` and `stepgrade serve` (with the variables before them)
start the service in the background on a free port (the README's 127.0.0.1:8000 is rewritten to
it); `export` sets variables for the rest of its block (an LLM endpoint's URL is rewritten to a
fake OpenAI-compatible server on 127.0.0.1); `make TARGET` lines other than `make serve` must be
targets that `.ci/run` runs (CI runs them: they cannot run inside `make test`); every other line
runs in bash and must exit 0. A block marked `<!-- example: NAME -->` is paired with the block
marked `<!-- example-output: NAME -->`: a JSON output is checked field by field (every key shown
exists, with a value of the same JSON type; values that move with calibration are not compared),
a text output line by line (each shown line's first word starts a printed line, in order).
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

from eval_sets.fakes.openai_server import FakeOpenAI
from eval_sets.processes import free_port, stop

REPO = Path(__file__).resolve().parents[2]
README = REPO / "README.md"
BLOCK = re.compile(
    r"(?:<!-- (example|example-output): ([\w-]+) -->\n)?```(\w*)\n(.*?)```", re.DOTALL
)
README_PORT = "127.0.0.1:8000"
README_LLM = re.compile(r"http://127\.0\.0\.1:8001/v1")
SERVE = re.compile(r"^((?:[A-Z_]+=\S+ )*)(?:stepgrade serve|make serve)$")


@dataclass
class Block:
    lang: str
    body: str
    marker: str | None = None
    name: str | None = None


def blocks(text: str) -> list[Block]:
    """The README's fenced blocks, with their example markers."""
    return [Block(m.group(3), m.group(4), m.group(1), m.group(2)) for m in BLOCK.finditer(text)]


def commands(body: str) -> Iterator[str]:
    """The block's commands: a line, or lines joined while a quote is open or a line ends in `\\`."""
    pending = ""
    for line in body.splitlines():
        pending = f"{pending}\n{line}" if pending else line
        if pending.endswith("\\"):
            continue
        try:
            shlex.split(pending, comments=True)
        except ValueError:  # an open quote: the command goes on
            continue
        if pending.strip():
            yield pending
        pending = ""
    assert not pending, f"unterminated command: {pending!r}"


def same_shape(shown: Any, printed: Any, where: str = "") -> list[str]:
    """Where `printed` lacks a field `shown` has, or holds another JSON type there."""
    if isinstance(shown, dict):
        if not isinstance(printed, dict):
            return [f"{where or '.'}: an object in the README, {type(printed).__name__} printed"]
        problems = []
        for key, value in shown.items():
            if key not in printed:
                problems.append(f"{where}.{key}: shown in the README, not printed")
            else:
                problems += same_shape(value, printed[key], f"{where}.{key}")
        return problems
    if isinstance(shown, list):
        if not isinstance(printed, list) or len(printed) < len(shown):
            return [f"{where}: a list of at least {len(shown)} in the README, {printed!r} printed"]
        return [
            p for i, item in enumerate(shown) for p in same_shape(item, printed[i], f"{where}[{i}]")
        ]
    kinds = {bool: "boolean", int: "number", float: "number", str: "string", type(None): "null"}
    if kinds[type(shown)] != kinds.get(type(printed)):
        return [f"{where}: {kinds[type(shown)]} in the README, {printed!r} printed"]
    return []


def same_lines(shown: str, printed: str) -> list[str]:
    """Shown lines whose first word does not start a printed line (in order)."""
    rest = [line.strip() for line in printed.splitlines()]
    missing = []
    for line in filter(str.strip, shown.splitlines()):
        word = line.split()[0]
        at = next((i for i, p in enumerate(rest) if p.startswith(word)), None)
        if at is None:
            missing.append(line)
        else:
            rest = rest[at + 1 :]
    return missing


def ci_targets() -> set[str]:
    return set(re.findall(r"^make ([\w-]+)$", (REPO / ".ci" / "run").read_text(), re.MULTILINE))


@dataclass
class Reader:
    """A reader's shell: a folder, the service they started, the fake model they pointed at."""

    work: Path
    llm_url: str
    env: dict[str, str] = field(default_factory=dict)
    service: subprocess.Popen[bytes] | None = None
    port: int = 0
    outputs: dict[str, str] = field(default_factory=dict)

    def base_env(self) -> dict[str, str]:
        bin_dir = str(Path(sys.executable).parent)
        keep = {k: v for k, v in os.environ.items() if not k.startswith("STEPGRADE_")}
        return {
            **keep,
            "PATH": f"{bin_dir}{os.pathsep}{keep.get('PATH', '')}",
            "STEPGRADE_DATA_DIR": str(self.work / "data"),
            "STEPGRADE_LOG_LEVEL": "warning",
            "HF_HUB_OFFLINE": "1",
            "TRANSFORMERS_OFFLINE": "1",
            "STEPGRADE_PORT": str(self.port),
        }

    def rewrite(self, command: str) -> str:
        command = command.replace(README_PORT, f"127.0.0.1:{self.port}")
        command = README_LLM.sub(self.llm_url, command)
        for folder in ("example_requests/", "eval_sets/bundled/"):
            command = re.sub(rf"(?<![\w/]){re.escape(folder)}", f"{REPO / folder}/", command)
        return command

    def serve(self, assignments: str) -> None:
        self.stop()
        self.port = free_port()
        env = {**self.base_env(), **dict(a.split("=", 1) for a in assignments.split())}
        stepgrade = Path(sys.executable).parent / "stepgrade"
        self.service = subprocess.Popen(
            [str(stepgrade), "serve"],
            cwd=self.work,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        deadline = time.monotonic() + 600  # torch and the embedding model load first
        while time.monotonic() < deadline:
            assert self.service.poll() is None, self.service.stderr.read().decode()[-2000:]  # type: ignore[union-attr]
            try:
                if httpx.get(f"http://127.0.0.1:{self.port}/readyz", timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.3)
        raise AssertionError("the service did not become ready")

    def stop(self) -> None:
        if self.service is not None:
            stop(self.service)
            self.service = None

    def run_block(self, block: Block) -> str:
        """Run the block's commands; the last one's standard output."""
        exported: dict[str, str] = {}
        out = ""
        for command in commands(block.body):
            line = command.split("#")[0].strip() if "\n" not in command else command.strip()
            if SERVE.match(line):
                self.serve(SERVE.match(line).group(1))  # type: ignore[union-attr]
                continue
            if line.startswith("make "):
                target = line.split()[1]
                assert target in ci_targets(), f"`{line}`: not a target .ci/run runs"
                continue
            if line.startswith("export "):
                for word in shlex.split(self.rewrite(line))[1:]:
                    name, _, value = word.partition("=")
                    exported[name] = value
                continue
            done = subprocess.run(
                ["bash", "-c", self.rewrite(command)],
                cwd=self.work,
                env={**self.base_env(), **exported},
                capture_output=True,
                text=True,
                timeout=300,
                check=False,
            )
            assert done.returncode == 0, (
                f"`{command}` exited {done.returncode}: {done.stderr[-3000:]}"
            )
            out = done.stdout
        return out


@pytest.fixture(scope="module")
def reader(tmp_path_factory) -> Iterator[Reader]:
    with FakeOpenAI() as llm:
        reading = Reader(tmp_path_factory.mktemp("reader"), llm.base_url)
        try:
            yield reading
        finally:
            reading.stop()


@pytest.mark.model
def test_every_readme_command_runs_and_prints_what_it_shows(reader: Reader) -> None:
    found = blocks(README.read_text(encoding="utf-8"))
    shown = {b.name: b for b in found if b.marker == "example-output"}
    ran = set()
    for block in found:
        if block.lang != "sh":
            continue
        printed = reader.run_block(block)
        if block.marker == "example" and block.name:
            ran.add(block.name)
            reader.outputs[block.name] = printed
            expected = shown.get(block.name)
            if expected is None:
                continue
            if expected.lang == "json":
                got = json.loads(printed.splitlines()[0]) if printed.strip() else None
                assert same_shape(json.loads(expected.body), got) == [], block.name
            else:
                assert same_lines(expected.body, printed) == [], block.name
    assert ran >= set(shown), f"outputs shown for examples that were not run: {set(shown) - ran}"
    assert "mode llm" in reader.outputs["llm"].splitlines()[0]  # graded by the fake model


def test_the_readme_is_short_and_starts_with_what_a_newcomer_needs() -> None:
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 300
    first = "\n".join(lines[:40])
    for needed in (
        "make serve",
        "make test",
        "curl -s http://127.0.0.1:8000/grade",
        "STEPGRADE_LLM_BASE_URL",
        "STEPGRADE_LLM_MODEL",
    ):
        assert needed in first, needed


def test_the_shape_check_finds_what_it_should() -> None:
    assert (
        same_shape({"a": 1, "b": [{"c": "x"}]}, {"a": 2.5, "b": [{"c": "y", "d": 1}], "e": 0}) == []
    )
    assert same_shape({"a": 1}, {"a": "1"}) == [".a: number in the README, '1' printed"]
    assert same_shape({"a": {"b": True}}, {"a": {}}) == [".a.b: shown in the README, not printed"]
    assert same_shape({"a": [1, 2]}, {"a": [1]})
    assert same_lines("score 1\n  1 x\nanswer y", "score 0/10\n 1  ✗ incorrect\nanswer 2") == []
    assert same_lines("answer\nscore", "score\nanswer") == ["score"]


def test_commands_are_split_as_a_shell_reads_them() -> None:
    body = "a 'b\nc' d\ne \\\n  f\n# only a comment\ng # trailing\n"
    assert list(commands(body)) == ["a 'b\nc' d", "e \\\n  f", "# only a comment", "g # trailing"]
