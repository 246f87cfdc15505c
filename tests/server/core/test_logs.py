"""JSON log lines carry the request id of the request that wrote them."""

from __future__ import annotations

import json
import logging

import pytest

from server.core.logs import JsonFormatter, configure_logging, request_id_var
from tests.server.conftest import service


@pytest.fixture
def restore_loggers():
    names = ("stepgrade", "uvicorn", "uvicorn.error", "uvicorn.access")
    saved = {
        n: (
            logging.getLogger(n).handlers[:],
            logging.getLogger(n).propagate,
            logging.getLogger(n).level,
            logging.getLogger(n).disabled,
        )
        for n in names
    }
    yield
    for name, (handlers, propagate, level, disabled) in saved.items():
        logger = logging.getLogger(name)
        logger.handlers, logger.propagate, logger.disabled = handlers, propagate, disabled
        logger.setLevel(level)


def test_json_line_with_request_id_and_extras():
    record = logging.LogRecord("stepgrade.access", logging.INFO, "x.py", 1, "request", (), None)
    record.status = 200
    token = request_id_var.set("rid-1")
    try:
        line = JsonFormatter().format(record)
    finally:
        request_id_var.reset(token)
    out = json.loads(line)
    assert out["msg"] == "request" and out["request_id"] == "rid-1" and out["status"] == 200
    assert out["level"] == "info" and out["ts"].endswith("Z")


def test_access_log_per_request(capfd, restore_loggers):
    with service(log_json=True) as client:
        configure_logging("info")
        capfd.readouterr()
        client.get("/healthz", headers={"X-Request-ID": "log-me"})
    lines = [json.loads(x) for x in capfd.readouterr().err.splitlines() if x.startswith("{")]
    access = [x for x in lines if x.get("msg") == "request" and x.get("request_id") == "log-me"]
    assert access and access[0]["route"] == "/healthz" and access[0]["status"] == 200
    assert access[0]["duration_ms"] >= 0
