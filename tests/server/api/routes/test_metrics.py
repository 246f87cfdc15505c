"""GET /metrics: the app's registry in Prometheus text, labelled by route template."""

from __future__ import annotations

import pytest

from tests.server.conftest import service


@pytest.fixture(scope="module")
def client():
    with service() as c:
        yield c


def test_unknown_routes_do_not_grow_metric_labels(client):
    client.get("/no/such/path/123")
    assert "/no/such/path" not in client.get("/metrics").text


def test_docs_and_openapi_are_routes_in_the_metrics(client):
    for path in ("/docs", "/openapi.json", "/redoc", "/docs-assets/swagger-ui-bundle.js"):
        assert client.get(path).status_code == 200
    client.get("/no-such-page")
    text = client.get("/metrics").text
    for route in ("/docs", "/openapi.json", "/redoc", "/docs-assets"):
        assert f'route="{route}",status="200"' in text, route
    unmatched = [
        line
        for line in text.splitlines()
        if line.startswith("stepgrade_http_requests_total") and 'route="unmatched"' in line
    ]
    assert unmatched and all('status="404"' in line for line in unmatched)
