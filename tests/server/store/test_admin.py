"""`stepgrade store assign`: grades stored while no keys were set, given to one key; and the
service saying at start-up that such grades are hidden from every key."""

from __future__ import annotations

import io
import logging

import pytest

from example_requests import ARITHMETIC_SLIP
from server.cli import main
from server.core.security import DEFAULT_OWNER, owner_id
from server.store.engine import open_store
from server.store.repository import count_by_owner
from tests.server.conftest import service


def _grade_without_keys(data_dir) -> str:
    with service(data_dir=data_dir) as client:
        return client.post("/grade", json=ARITHMETIC_SLIP).json()["meta"]["grade_id"]


def test_grades_stored_without_a_key_are_given_to_one(tmp_path, monkeypatch, capsys, caplog):
    grade_id = _grade_without_keys(tmp_path)
    monkeypatch.setenv("STEPGRADE_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("STEPGRADE_API_KEYS", "teacher-key,other-key")
    # keys on: the earlier grade is hidden, and the service says so at start-up
    with (
        caplog.at_level(logging.WARNING, logger="stepgrade.store"),
        service(data_dir=tmp_path, api_keys="teacher-key,other-key") as client,
    ):
        headers = {"X-API-Key": "teacher-key"}
        assert client.get(f"/grades/{grade_id}", headers=headers).status_code == 404
    hidden = [r for r in caplog.records if "hidden from every key" in r.getMessage()]
    assert (
        hidden
        and hidden[0].hidden_grades == 1
        and "stepgrade store assign" in hidden[0].getMessage()
    )

    assert main(["store", "assign", "--key", "teacher-key", "--dry-run"]) == 0
    assert "1 grades stored without a key would be given" in capsys.readouterr().out
    monkeypatch.setattr("sys.stdin", io.StringIO("teacher-key\n"))  # the key kept off argv
    assert main(["store", "assign"]) == 0
    assert "gave 1 grades stored without a key to this key" in capsys.readouterr().out

    with service(data_dir=tmp_path, api_keys="teacher-key,other-key") as client:
        mine = client.get(f"/grades/{grade_id}", headers={"X-API-Key": "teacher-key"})
        assert mine.status_code == 200 and mine.json()["id"] == grade_id
        listed = client.get("/grades?needs_review=false", headers={"X-API-Key": "teacher-key"})
        assert [g["id"] for g in listed.json()["items"]] == [grade_id]
        other = client.get(f"/grades/{grade_id}", headers={"X-API-Key": "other-key"})
        assert other.status_code == 404
    store = open_store(f"sqlite:///{tmp_path / 'stepgrade.db'}")
    with store.session() as session:
        assert count_by_owner(session, DEFAULT_OWNER) == 0
        assert count_by_owner(session, owner_id("teacher-key")) == 1
    store.close()


@pytest.mark.parametrize(
    ("env", "argv", "message"),
    [
        ({"STEPGRADE_API_KEYS": "a,b"}, ["--key", "c"], "not one of STEPGRADE_API_KEYS"),
        ({"STEPGRADE_STORE": "off"}, ["--key", "a"], "the grade store is off"),
        ({}, ["--key", ""], "no key given"),
    ],
)
def test_assign_refuses_what_would_lose_grades(tmp_path, monkeypatch, capsys, env, argv, message):
    monkeypatch.setenv("STEPGRADE_DATA_DIR", str(tmp_path))
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert main(["store", "assign", *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
    assert not (tmp_path / "stepgrade.db").exists()
