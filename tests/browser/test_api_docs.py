"""`/docs` (Swagger UI) and `/redoc` (ReDoc) render the service's endpoints in headless Chromium
with no network but the loopback: their scripts and styles ship with the install."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from .cdp import OFFLINE_FLAGS, Browser
from .conftest import Service, artefacts_dir, require_chromium

require_chromium()

CDN_FILE = "https://cdn.jsdelivr.net/npm/swagger-ui-dist@5/swagger-ui.css"


@pytest.fixture(scope="module")
def offline(chromium: str) -> Iterator[Browser]:
    with Browser(chromium, flags=OFFLINE_FLAGS) as browser:
        browser.viewport(1280, 900)
        yield browser


def _reaches(browser: Browser, url: str) -> str:
    return browser.eval(
        f"fetch({url!r}, {{mode: 'no-cors'}}).then(() => 'reached', () => 'failed')"
    )


def test_the_browser_really_has_no_network(offline: Browser, service: Service) -> None:
    offline.goto(f"{service.url}/healthz")
    assert _reaches(offline, CDN_FILE) == "failed"
    assert _reaches(offline, f"{service.url}/healthz") == "reached"


def test_swagger_ui_lists_every_endpoint_offline(offline: Browser, service: Service) -> None:
    offline.goto(f"{service.url}/docs")
    offline.wait("document.querySelectorAll('.opblock-summary-path').length > 5", timeout=60)
    paths = offline.eval(
        "[...document.querySelectorAll('.opblock-summary-path')]"
        ".map(e => e.getAttribute('data-path'))"
    )
    assert {"/grade", "/grade/batch", "/grade/stream", "/grades", "/readyz"} <= set(paths)
    assert offline.eval("document.querySelector('.info .title').textContent").startswith(
        "stepgrade"
    )
    offline.screenshot(artefacts_dir() / "api-docs.png")


def test_redoc_lists_every_endpoint_offline(offline: Browser, service: Service) -> None:
    offline.goto(f"{service.url}/redoc")
    offline.wait(
        "document.querySelectorAll('[data-section-id^=\"operation/\"]').length > 5", timeout=60
    )
    text = offline.eval("document.body.innerText")
    for path in ("/grade/batch", "/grade/stream", "/grades/{grade_id}"):
        assert path in text, path
    offline.screenshot(artefacts_dir() / "api-redoc.png")
