"""Schemathesis fuzzing of the OpenAPI schema: no 5xx, responses match their documented schema.

`make test` runs a bounded number of examples per operation; `make fuzz` raises the count
(STEPGRADE_FUZZ_EXAMPLES) for a longer hunt. Hangs are caught by the service's request
deadline and pytest-timeout.
"""

from __future__ import annotations

import os

import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error, response_schema_conformance

from agent.context import Context
from agent.grader import Grader
from server.main import create_app

from .conftest import bag_of_words, settings_for

EXAMPLES = int(os.environ.get("STEPGRADE_FUZZ_EXAMPLES", "12"))


# Small limits so generated bodies also exercise the 413 and batch-limit paths.
SETTINGS = settings_for(request_timeout=10.0, max_body_bytes=64_000, batch_max_items=3)
APP = create_app(SETTINGS, grader=Grader(Context(embedder=bag_of_words)))
schema = schemathesis.openapi.from_asgi("/openapi.json", APP)


@pytest.fixture(scope="module", autouse=True)
def started():
    """Run the lifespan once; schemathesis' own clients then find the grader on app.state."""
    with TestClient(APP):
        yield


@schema.parametrize()
@settings(
    max_examples=EXAMPLES, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck)
)
@pytest.mark.timeout(600)
def test_api_never_fails(case):
    # /metrics is Prometheus text: only the no-5xx check applies to it.
    checks = [not_a_server_error]
    if case.path != "/metrics" and case.path != "/grade/stream":
        checks.append(response_schema_conformance)
    case.call_and_validate(checks=checks)
