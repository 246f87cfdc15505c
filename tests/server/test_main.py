"""The assembled app: every route documented with examples, JSON for unknown routes and methods."""

from __future__ import annotations

import pytest

from tests.server.conftest import service


@pytest.fixture(scope="module")
def client():
    with service() as c:
        yield c


def test_method_not_allowed_is_json(client):
    r = client.get("/grade")
    assert r.status_code == 405 and r.json()["error"]["code"] == "method_not_allowed"


def test_openapi_documents_every_endpoint_with_examples(client):
    spec = client.get("/openapi.json").json()
    paths = spec["paths"]
    assert {
        "/grade",
        "/grade/batch",
        "/grade/stream",
        "/healthz",
        "/readyz",
        "/metrics",
        "/calibration",
    } <= set(paths)
    for path in ("/grade", "/grade/batch", "/grade/stream"):
        assert paths[path]["post"]["requestBody"]["content"]["application/json"]["examples"]
    for path in ("/healthz", "/readyz", "/metrics", "/calibration"):
        content = paths[path]["get"]["responses"]["200"]["content"]
        assert any("example" in c for c in content.values())
    assert client.get("/docs").status_code == 200


def test_unknown_route_is_json_404(client):
    r = client.get("/nope")
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"


def test_the_api_docs_load_nothing_from_another_host(client):
    for path, assets in (
        ("/docs", ("swagger-ui-bundle.js", "swagger-ui.css")),
        ("/redoc", ("redoc.standalone.js",)),
    ):
        page = client.get(path).text
        assert "http://" not in page and "https://" not in page, path
        for asset in assets:
            assert f"/docs-assets/{asset}" in page
            assert client.get(f"/docs-assets/{asset}").status_code == 200
