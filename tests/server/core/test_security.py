"""`X-API-Key`: open without configured keys, 401 with a JSON body otherwise; the store's owner
of a key is a hash of it, never the key."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Annotated

from fastapi import Depends, FastAPI
from fastapi.testclient import TestClient
from pydantic import SecretStr

from server.core.errors import install_error_handlers
from server.core.security import DEFAULT_OWNER, get_owner, owner_id, require_api_key


def client(*keys: str) -> TestClient:
    app = FastAPI()
    install_error_handlers(app)
    app.state.settings = SimpleNamespace(api_keys=[SecretStr(k) for k in keys])

    @app.get("/whoami", dependencies=[Depends(require_api_key)])
    async def whoami(owner: Annotated[str, Depends(get_owner)]) -> dict:
        return {"owner": owner}

    return TestClient(app)


def test_without_keys_everyone_is_the_default_owner():
    answer = client().get("/whoami", headers={"X-API-Key": "anything"})
    assert answer.status_code == 200 and answer.json() == {"owner": DEFAULT_OWNER}


def test_any_configured_key_is_let_in_as_its_own_owner():
    c = client("k1", "k2")
    for key in ("k1", "k2"):
        answer = c.get("/whoami", headers={"X-API-Key": key})
        assert answer.status_code == 200 and answer.json() == {"owner": owner_id(key)}


def test_a_missing_or_wrong_key_is_a_401_naming_the_header():
    c = client("k1")
    for headers in ({}, {"X-API-Key": "k2"}, {"X-API-Key": "k1 "}):
        answer = c.get("/whoami", headers=headers)
        assert answer.status_code == 401
        assert answer.headers["www-authenticate"] == "APIKey"
        assert answer.json()["error"] == {
            "code": "unauthorized",
            "message": "missing or invalid X-API-Key header",
            "field": "X-API-Key",
        }


def test_an_owner_id_is_a_stable_hash_that_does_not_carry_the_key():
    assert owner_id("teacher-key") == owner_id("teacher-key") != owner_id("other-key")
    assert len(owner_id("teacher-key")) == 64 and "teacher" not in owner_id("teacher-key")
