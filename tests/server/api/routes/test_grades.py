"""The grade store through the service: `meta.grade_id` on every answer, the review queue,
corrections, the export, owners, retention, and the service without a store."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy.exc import OperationalError

from server.core.security import DEFAULT_OWNER
from server.store import recording
from server.store.engine import open_store
from server.store.repository import new_grade, save_grades, utcnow
from tests.server.conftest import service
from tests.server.store.conftest import report_json, request_json

SOLVED = {
    "problem": "Solve 2x + 3 = 11.",
    "solution_steps": ["2x = 8", "x = 4"],
    "reference_answer": "4",
}
SLIPPED = {
    "problem": "Compute 3 * 4 + 1.",
    "solution_steps": ["3 * 4 = 12", "12 + 1 = 14"],
    "reference_answer": "13",
}


def graded_id(client: Any, body: dict[str, Any] = SOLVED, **headers: str) -> str:
    r = client.post("/grade", json=body, headers=headers)
    assert r.status_code == 200
    grade_id = r.json()["meta"]["grade_id"]
    assert isinstance(grade_id, str) and grade_id
    return grade_id


def stream_report(client: Any, body: dict[str, Any], **headers: str) -> dict[str, Any]:
    r = client.post("/grade/stream", json=body, headers=headers)
    events = [block.split("\n") for block in r.text.strip().split("\n\n")]
    [report] = [
        json.loads(lines[2][len("data: ") :]) for lines in events if lines[1] == "event: report"
    ]
    return report


def test_every_grading_route_stores_its_grade_and_names_it(database_url):
    with service(database_url=database_url) as c:
        r = c.post("/grade", json=SOLVED)
        answered = r.json()
        stored = c.get(f"/grades/{answered['meta']['grade_id']}").json()
        assert stored["request"]["problem"] == SOLVED["problem"]
        assert stored["request"]["solution_steps"] == SOLVED["solution_steps"]
        answered["meta"].pop("grade_id")
        assert stored["report"] == answered and stored["corrections"] == []

        batch = c.post(
            "/grade/batch",
            json={"items": [SOLVED, {"problem": "p", "solution": "x", "mode": "llm"}, SLIPPED]},
        ).json()
        ok, failed, slipped = batch["results"]
        assert failed["error"]["code"] == "llm_unavailable" and failed["report"] is None
        for item, body in ((ok, SOLVED), (slipped, SLIPPED)):
            detail = c.get(f"/grades/{item['report']['meta']['grade_id']}").json()
            assert detail["request"]["problem"] == body["problem"]
            assert detail["report"]["score"] == item["report"]["score"]

        report = stream_report(c, SLIPPED)
        detail = c.get(f"/grades/{report['meta']['grade_id']}").json()
        assert detail["report"]["steps"] == report["steps"]
        assert len(c.get("/grades").json()["items"]) == 4


def test_the_queue_lists_newest_first_a_page_at_a_time(database_url):
    with service(database_url=database_url) as c:
        ids = [
            graded_id(c, {**SOLVED, "problem": f"Problem {i}: solve 2x + 3 = 11."})
            for i in range(5)
        ]
        seen, cursor = [], None
        while True:
            query = "/grades?limit=2" + (f"&cursor={cursor}" if cursor else "")
            page = c.get(query).json()
            seen += [item["id"] for item in page["items"]]
            cursor = page["next_cursor"]
            if cursor is None:
                break
        assert seen == ids[::-1]
        first = c.get("/grades?limit=1").json()["items"][0]
        assert first["problem_excerpt"] == "Problem 4: solve 2x + 3 = 11."
        # A solved equation checked against its reference: nothing to review (the tests' hand
        # calibration fits no interval).
        assert (
            first["score_interval"],
            first["needs_review"],
            first["review_reasons"],
            first["corrected"],
        ) == (None, False, [], False)
        assert c.get("/grades?needs_review=true").json() == {"items": [], "next_cursor": None}
        bad = c.get("/grades?cursor=garbage")
        assert bad.status_code == 422 and bad.json()["error"]["field"] == "query.cursor"
        assert c.get("/grades?order=random").json()["error"]["field"] == "query.order"


def test_the_queue_puts_the_most_uncertain_grade_needing_review_first(database_url):
    store = open_store(database_url)  # reports with the uncertainty fields, as that issue adds
    rows = [
        new_grade(
            DEFAULT_OWNER,
            request_json(f"p{i}"),
            report_json(interval=interval, needs_review=review),
            now=utcnow() - timedelta(minutes=10 - i),
        )
        for i, (interval, review) in enumerate(
            [([2, 5], True), ([0, 10], True), ([4, 6], False), (None, True)]
        )
    ]
    save_grades(store, rows)
    store.close()
    with service(database_url=database_url) as c:
        items = c.get("/grades?needs_review=true&order=uncertainty").json()["items"]
        assert [i["problem_excerpt"] for i in items] == ["p1", "p0", "p3"]
        assert items[0]["score_interval"] == [0, 10] and items[0]["needs_review"] is True
        assert items[0]["review_reasons"] == [{"code": "wide_interval", "message": "wide"}]
        assert items[2]["score_interval"] is None


def test_a_grade_that_needs_review_is_queued_with_its_reasons(database_url):
    proof = {
        "problem": "Prove that the sum of two odd integers is even.",
        "solution": "Let a = 3 and b = 5. Then a + b = 8, which is even. Therefore the sum "
        "of any two odd integers is even.",
    }
    with service(database_url=database_url) as c:
        sure = graded_id(c, SOLVED)
        unsure = graded_id(c, proof)
        items = c.get("/grades?needs_review=true&order=uncertainty").json()["items"]
        assert [item["id"] for item in items] == [unsure]
        codes = [reason["code"] for reason in items[0]["review_reasons"]]
        assert "proof_without_model" in codes
        assert sure not in [item["id"] for item in items]


def test_corrections_are_checked_kept_and_the_latest_holds(database_url):
    with service(database_url=database_url) as c:
        grade_id = graded_id(c, SLIPPED)
        steps = len(c.get(f"/grades/{grade_id}").json()["report"]["steps"])
        short = c.post(f"/grades/{grade_id}/corrections", json={"step_labels": ["correct"]})
        assert short.status_code == 422 and short.json()["error"]["field"] == "step_labels"
        assert f"1 labels for a report of {steps} steps" in short.json()["error"]["message"]
        wrong = c.post(
            f"/grades/{grade_id}/corrections",
            json={"step_labels": ["correct"] * (steps - 1) + ["bad"]},
        )
        assert wrong.status_code == 422
        assert wrong.json()["error"]["field"] == f"step_labels.{steps - 1}"
        assert (
            c.post(
                f"/grades/{grade_id}/corrections",
                json={"step_labels": ["correct"] * steps, "score": 11},
            ).status_code
            == 422
        )

        first = c.post(
            f"/grades/{grade_id}/corrections",
            json={"step_labels": ["correct"] * steps, "score": 10},
        )
        assert first.status_code == 201 and first.json()["superseded"] is False
        labels = ["correct"] * (steps - 1) + ["incorrect"]
        second = c.post(
            f"/grades/{grade_id}/corrections",
            json={
                "step_labels": labels,
                "score": 6,
                "note": "the last step adds wrong",
                "reviewer": "teacher-7",
            },
        ).json()
        assert (second["step_labels"], second["score"], second["reviewer"]) == (
            labels,
            6,
            "teacher-7",
        )
        kept = c.get(f"/grades/{grade_id}").json()["corrections"]
        assert [(k["score"], k["superseded"]) for k in kept] == [(10, True), (6, False)]
        assert c.get("/grades").json()["items"][0]["corrected"] is True
        missing = c.post("/grades/nope/corrections", json={"step_labels": ["correct"]})
        assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"


def test_export_is_json_lines_of_corrected_grades_with_the_latest_labels(database_url):
    with service(database_url=database_url) as c:
        corrected, plain = graded_id(c, SLIPPED), graded_id(c, SOLVED)
        steps = c.get(f"/grades/{corrected}").json()["report"]["steps"]
        labels = ["correct"] * (len(steps) - 1) + ["incorrect"]
        c.post(f"/grades/{corrected}/corrections", json={"step_labels": ["correct"] * len(steps)})
        c.post(f"/grades/{corrected}/corrections", json={"step_labels": labels, "score": 5})
        r = c.get("/grades/export?corrected=true")
        assert r.status_code == 200 and r.headers["content-type"] == "application/x-ndjson"
        [line] = [json.loads(x) for x in r.text.splitlines()]
        assert (line["grade_id"], line["problem"], line["labels"], line["score"]) == (
            corrected,
            SLIPPED["problem"],
            labels,
            5,
        )
        assert line["steps"] == [s["text"] for s in steps]
        assert line["model_labels"] == [s["label"] for s in steps]
        assert line["report"]["steps"] == steps
        every = [json.loads(x) for x in c.get("/grades/export?corrected=false").text.splitlines()]
        assert [(e["grade_id"], e["labels"]) for e in every] == [(corrected, labels), (plain, None)]


def test_a_key_sees_and_corrects_only_its_own_grades(database_url):
    a, b = {"X-API-Key": "key-a"}, {"X-API-Key": "key-b"}
    with service(database_url=database_url, api_keys="key-a,key-b") as c:
        mine = graded_id(c, SOLVED, **a)
        theirs = stream_report(c, SLIPPED, **b)["meta"]["grade_id"]
        assert [i["id"] for i in c.get("/grades", headers=a).json()["items"]] == [mine]
        assert [i["id"] for i in c.get("/grades", headers=b).json()["items"]] == [theirs]
        assert c.get(f"/grades/{theirs}", headers=a).status_code == 404
        assert c.get(f"/grades/{mine}", headers=b).json()["error"]["code"] == "not_found"
        denied = c.post(
            f"/grades/{mine}/corrections", headers=b, json={"step_labels": ["correct", "correct"]}
        )
        assert denied.status_code == 404
        assert (
            c.post(
                f"/grades/{mine}/corrections",
                headers=a,
                json={"step_labels": ["correct", "correct"]},
            ).status_code
            == 201
        )
        assert c.get("/grades/export", headers=b).text == ""
        assert c.get("/grades").status_code == 401
        assert c.get(f"/grades/{mine}", headers={"X-API-Key": "key-c"}).status_code == 401
    store = open_store(database_url)  # the owner is a hash of the key, never the key
    with store.engine.connect() as connection:
        owners = set(connection.exec_driver_sql("SELECT owner FROM grades").scalars())
    store.close()
    assert len(owners) == 2 and not owners & {"key-a", "key-b"}
    assert all(len(o) == 64 for o in owners)


def test_retention_deletes_old_grades_at_start_up(database_url):
    store = open_store(database_url)
    old = new_grade(DEFAULT_OWNER, request_json(), report_json(), now=utcnow() - timedelta(days=40))
    young = new_grade(
        DEFAULT_OWNER, request_json(), report_json(), now=utcnow() - timedelta(days=2)
    )
    save_grades(store, [old, young])
    store.close()
    with service(database_url=database_url, retention_days=30) as c:
        assert [i["id"] for i in c.get("/grades").json()["items"]] == [young.id]
        assert c.get(f"/grades/{old.id}").status_code == 404


def test_a_grade_that_cannot_be_stored_is_not_answered_200(database_url, monkeypatch):
    def broken(store: Any, grades: Any, **_: Any) -> list[str]:
        raise OperationalError("INSERT", {}, Exception("disk I/O error"))

    monkeypatch.setattr(recording, "save_grades", broken)
    with service(database_url=database_url) as c:
        r = c.post("/grade", json=SOLVED)
        assert r.status_code == 503 and r.json()["error"]["code"] == "store_unavailable"
        assert c.post("/grade/batch", json={"items": [SOLVED]}).status_code == 503
        events = c.post("/grade/stream", json=SOLVED).text
        assert "event: error" in events and "store_unavailable" in events
        assert "event: report" not in events


def test_without_a_store_grades_carry_no_id_and_grades_routes_say_so(tmp_path):
    with service(store="off") as c:
        assert "grade_id" not in c.post("/grade", json=SOLVED).json()["meta"]
        [item] = c.post("/grade/batch", json={"items": [SOLVED]}).json()["results"]
        assert "grade_id" not in item["report"]["meta"]
        assert "grade_id" not in stream_report(c, SOLVED)["meta"]
        for r in (
            c.get("/grades"),
            c.get("/grades/x"),
            c.get("/grades/export"),
            c.post("/grades/x/corrections", json={"step_labels": ["correct"]}),
        ):
            assert r.status_code == 503
            assert r.json()["error"] == {
                "code": "store_off",
                "field": None,
                "message": "this service keeps no grades (STEPGRADE_STORE=off)",
            }
    assert not (tmp_path / "data").exists()


def test_the_default_store_is_an_sqlite_file_in_the_data_directory(tmp_path):
    with service() as c:
        graded_id(c)
    assert (tmp_path / "data" / "stepgrade.db").is_file()


@pytest.mark.parametrize("path", ["/grades", "/grades/{grade_id}", "/grades/export"])
def test_openapi_documents_the_grades_routes_with_examples(path):
    with service(store="off") as c:
        spec = c.get("/openapi.json").json()
    responses = spec["paths"][path]["get"]["responses"]
    assert {"200", "404", "503"} <= set(responses)
    assert any("example" in media for media in responses["200"]["content"].values())
    correction = spec["paths"]["/grades/{grade_id}/corrections"]["post"]
    assert correction["requestBody"]["content"]["application/json"]["examples"]
    assert "201" in correction["responses"] and "422" in correction["responses"]
    meta = spec["components"]["schemas"]["ServedMeta"]["properties"]
    assert "grade_id" in meta
