"""Browser-test fixtures: a real `stepgrade serve` on a free port, headless Chromium, artefacts.

The tests skip, with the reason in pytest's `-rs` summary, only when no Chromium is installed;
with STEPGRADE_BROWSER_REQUIRED=1 (`make test-browser`) a missing browser fails instead.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from eval_sets.fakes.openai_server import FakeOpenAI
from eval_sets.processes import free_port, stepgrade_command, stop

from .cdp import Browser, find_chromium

REPO = Path(__file__).resolve().parents[2]
API_KEY = "review-page-test-key"
MAX_BODY_BYTES = 20_000
START_TIMEOUT = 180.0  # torch and the embedding model load first; slow on a loaded machine


def artefacts_dir() -> Path:
    """Screenshots go here: $STEPGRADE_BROWSER_ARTEFACTS, else build/browser in the checkout."""
    path = Path(os.environ.get("STEPGRADE_BROWSER_ARTEFACTS") or REPO / "build" / "browser")
    path.mkdir(parents=True, exist_ok=True)
    return path


def docs_screenshot(page: Browser, name: str) -> Path:
    """A screenshot the docs show: written to docs/ (the README and docs/review.md link these
    files, so a changed page changes its picture) and to the artefacts."""
    page.screenshot(artefacts_dir() / name)
    return page.screenshot(REPO / "docs" / name)


def require_chromium() -> str:
    """Chromium's path; else skip the calling test module (one line in `-rs`), or fail it under
    STEPGRADE_BROWSER_REQUIRED=1."""
    path = find_chromium()
    if path is None:
        reason = (
            "Chromium is not installed, so the review page's browser tests did not run "
            "(`make test-browser` installs it and runs them)"
        )
        if os.environ.get("STEPGRADE_BROWSER_REQUIRED") == "1":
            pytest.fail(reason, pytrace=False)
        pytest.skip(reason, allow_module_level=True)
    return path


@pytest.fixture(scope="session")
def chromium() -> str:
    return require_chromium()


@pytest.fixture(scope="session")
def fake_llm() -> Iterator[FakeOpenAI]:
    """An OpenAI-compatible fake the tests can make fail (`fake_llm.fault = "500"`)."""
    with FakeOpenAI() as llm:
        yield llm


@dataclass(frozen=True)
class Service:
    url: str
    api_key: str

    def grade(self, request: dict) -> dict:
        """The same request graded through the API, to compare the page's DOM with."""
        response = httpx.post(
            f"{self.url}/grade", json=request, timeout=60, headers={"X-API-Key": self.api_key}
        )
        response.raise_for_status()
        return response.json()

    def get(self, path: str) -> dict:
        """GET `path` with the key (e.g. `/grades/{id}`), the JSON answer."""
        response = httpx.get(f"{self.url}{path}", timeout=30, headers={"X-API-Key": self.api_key})
        response.raise_for_status()
        return response.json()

    def examples(self) -> dict[str, dict]:
        response = httpx.get(f"{self.url}/examples", timeout=30)
        response.raise_for_status()
        return {e["name"]: e["request"] for e in response.json()}


def _hand_calibration_with_interval(folder: Path) -> Path:
    """The hand-written calibration plus the shipped file's `uncertainty` section."""
    hand = json.loads((REPO / "tests" / "data" / "hand_calibration.json").read_text("utf-8"))
    shipped = json.loads((REPO / "scoring" / "judge" / "calibration.json").read_text("utf-8"))
    path = folder / "calibration.json"
    path.write_text(json.dumps({**hand, "uncertainty": shipped["uncertainty"]}), "utf-8")
    return path


@pytest.fixture(scope="session")
def service(chromium: str, fake_llm: FakeOpenAI) -> Iterator[Service]:
    """`stepgrade serve` as a user starts it: a key required, a small body limit, a (fake) LLM."""
    port = free_port()
    workdir = Path(tempfile.mkdtemp(prefix="stepgrade-serve-"))  # no stray .env is read
    env = {k: v for k, v in os.environ.items() if not k.startswith("STEPGRADE_")}
    env.update(
        {
            "STEPGRADE_HOST": "127.0.0.1",
            "STEPGRADE_PORT": str(port),
            "STEPGRADE_API_KEYS": API_KEY,
            "STEPGRADE_MAX_BODY_BYTES": str(MAX_BODY_BYTES),
            "STEPGRADE_LLM_BASE_URL": fake_llm.base_url,
            "STEPGRADE_LLM_MODEL": "fake-model",
            "STEPGRADE_LLM_MAX_RETRIES": "0",
            "STEPGRADE_LLM_TIMEOUT": "10",
            "HF_HUB_OFFLINE": "1",
            "TRANSFORMERS_OFFLINE": "1",
            # the page is under test, not the fitted numbers: the hand-written calibration, with
            # the shipped interval statistics so that the page has an interval to show
            "STEPGRADE_CALIBRATION": str(_hand_calibration_with_interval(workdir)),
            # a grade store of its own (SQLite), gone with the run
            "STEPGRADE_DATA_DIR": str(workdir / "data"),
        }
    )
    log = (artefacts_dir() / "serve.log").open("wb")
    process = subprocess.Popen(
        [*stepgrade_command(), "serve"], cwd=workdir, env=env, stdout=log, stderr=subprocess.STDOUT
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            if process.poll() is not None:
                pytest.fail(
                    f"stepgrade serve exited with {process.returncode}; "
                    f"see {artefacts_dir() / 'serve.log'}"
                )
            try:
                if httpx.get(f"{url}/readyz", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"stepgrade serve was not ready within {START_TIMEOUT:g} s")
            time.sleep(0.25)
        yield Service(url=url, api_key=API_KEY)
    finally:
        stop(process)
        log.close()
        shutil.rmtree(workdir, ignore_errors=True)


@pytest.fixture(scope="session")
def browser(chromium: str) -> Iterator[Browser]:
    with Browser(chromium) as b:
        yield b


@pytest.fixture
def page(browser: Browser, service: Service, fake_llm: FakeOpenAI) -> Browser:
    """The review page freshly loaded at 1280 x 900, examples listed, the fake LLM healthy."""
    fake_llm.fault = "none"
    browser.viewport(1280, 900)
    browser.goto(f"{service.url}/")
    browser.wait("document.querySelectorAll('#example option').length > 1")
    return browser
