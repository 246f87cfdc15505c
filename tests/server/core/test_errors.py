"""Every error the service answers has one JSON shape: {"error": {"code", "message", "field"}},
whatever raised it; an unexpected exception is a 500 with no traceback on the wire."""

from __future__ import annotations

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from pydantic import BaseModel

from agent.grader import LlmUnavailableError
from server.core.errors import ApiError, error_body, install_error_handlers


class Item(BaseModel):
    name: str
    count: int


def app() -> TestClient:
    api = FastAPI()
    install_error_handlers(api)

    @api.post("/items")
    async def create(item: Item) -> dict:
        return {"name": item.name}

    @api.get("/refused")
    async def refused() -> dict:
        raise ApiError(409, "conflict", "already there", "name", headers={"Retry-After": "3"})

    @api.get("/no-llm")
    async def no_llm() -> dict:
        raise LlmUnavailableError("no model is configured")

    @api.get("/broken")
    async def broken() -> dict:
        raise RuntimeError("secret internals")

    return TestClient(api, raise_server_exceptions=False)


def test_the_error_body_has_code_message_and_field():
    assert error_body("bad", "it is bad") == {
        "error": {"code": "bad", "message": "it is bad", "field": None}
    }
    assert error_body("bad", "it is bad", "x")["error"]["field"] == "x"


def test_a_validation_error_names_the_field():
    answer = app().post("/items", json={"name": "a", "count": "many"})
    assert answer.status_code == 422
    error = answer.json()["error"]
    assert (error["code"], error["field"]) == ("invalid_request", "count")
    assert error["message"].startswith("count: ")


@pytest.mark.parametrize(
    ("content", "code"),
    [(None, "empty_body"), (b"{not json", "invalid_json")],
)
def test_a_missing_or_broken_body_is_named_as_the_body(content, code):
    answer = app().post("/items", content=content, headers={"content-type": "application/json"})
    assert answer.status_code == 422
    assert answer.json()["error"]["code"] == code and answer.json()["error"]["field"] == "body"


def test_an_api_error_keeps_its_status_code_field_and_headers():
    answer = app().get("/refused")
    assert answer.status_code == 409 and answer.headers["retry-after"] == "3"
    assert answer.json() == error_body("conflict", "already there", "name")


def test_llm_mode_without_a_model_is_a_422_on_the_mode():
    answer = app().get("/no-llm")
    assert answer.status_code == 422
    assert answer.json() == error_body("llm_unavailable", "no model is configured", "mode")


def test_starlettes_own_errors_get_stable_codes():
    client = app()
    assert client.get("/nowhere").json()["error"]["code"] == "not_found"
    assert client.delete("/items").json()["error"]["code"] == "method_not_allowed"


def test_an_unexpected_exception_is_a_500_without_its_text():
    answer = app().get("/broken")
    assert answer.status_code == 500
    assert answer.json()["error"]["code"] == "internal_error"
    assert "secret" not in answer.text
