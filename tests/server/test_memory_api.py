"""Problem memory through the service: a correction teaches the next grade of the same problem
(for the same key only), once, unless the request opts out; the memory survives a restart, is
exported with the grades and goes with them; the review queue's `teach` order."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

from scoring.judge.memory import problem_key
from server.store.engine import open_store
from server.store.lifecycle import prune
from server.store.memory import load_memory
from server.store.models import Grade, MemorySolution
from tests.server.api.routes.test_grades import stream_report
from tests.server.conftest import service

PROBLEM = (
    r"Tom buys 12 pens at 3 dollars each and 7 notebooks at 5 dollars each. How much "
    r"does he pay in dollars?"
)
RIGHT = [
    "The pens cost 12 * 3 = 36 dollars.",
    "The notebooks cost 7 * 5 = 35 dollars.",
    "In all 36 + 35 = 71 dollars.",
    "He pays 71 dollars.",
]
SLIP = ["The pens cost 36 dollars.", "The notebooks are 45 dollars.", "He pays 81 dollars."]
ALL_RIGHT = ["correct"] * 4


def grade(c: Any, steps: list[str], problem: str = PROBLEM, **extra: Any) -> dict[str, Any]:
    headers = extra.pop("headers", {})
    r = c.post(
        "/grade",
        json={"problem": problem, "solution_steps": steps, "mode": "offline", **extra},
        headers=headers,
    )
    assert r.status_code == 200, r.text
    return dict(r.json())


def correct(c: Any, grade_id: str, labels: list[str], **headers: str) -> Any:
    return c.post(
        f"/grades/{grade_id}/corrections",
        headers=headers,
        json={"step_labels": labels, "score": 10, "note": "fine"},
    )


def test_a_correction_teaches_the_next_grade_of_the_same_problem(database_url):
    with service(database_url=database_url) as c:
        before = grade(c, SLIP)
        assert before["meta"]["memory"] is None
        assert before["answer"]["correct"] is None  # no reference: nothing checked the answer
        taught = grade(c, RIGHT)
        assert correct(c, taught["meta"]["grade_id"], ALL_RIGHT).status_code == 201
        # the same problem, typed with other spacing and LaTeX spacing
        again = grade(c, SLIP, problem=PROBLEM.replace(" at ", r" at \, ").replace(" ", "  "))
        memory = again["meta"]["memory"]
        assert memory["solutions"] == 1 and memory["accepted_solutions"] == 1
        assert memory["aligned_solution"] == taught["meta"]["grade_id"]
        assert memory["reference_answer"] is True and memory["last_corrected"]
        assert again["answer"]["reference"] == ["71"] and again["answer"]["correct"] is False
        assert again["score"] < before["score"]
        assert any("memory" in s["evidence"] for s in again["steps"])
        # a different problem knows nothing of it
        other = grade(c, SLIP, problem=PROBLEM.replace("12 pens", "13 pens"))
        assert other["meta"]["memory"] is None


def test_memory_never_crosses_owners(database_url):
    a, b = {"X-API-Key": "key-a"}, {"X-API-Key": "key-b"}
    with service(database_url=database_url, api_keys="key-a,key-b") as c:
        taught = grade(c, RIGHT, headers=a)
        assert correct(c, taught["meta"]["grade_id"], ALL_RIGHT, **a).status_code == 201
        assert grade(c, SLIP, headers=b)["meta"]["memory"] is None
        assert grade(c, SLIP, headers=a)["meta"]["memory"]["solutions"] == 1
        body = {"problem": PROBLEM, "solution_steps": SLIP, "mode": "offline"}
        batched = c.post("/grade/batch", headers=b, json={"items": [body]}).json()
        assert batched["results"][0]["report"]["meta"]["memory"] is None
        batched = c.post("/grade/batch", headers=a, json={"items": [body]}).json()
        assert batched["results"][0]["report"]["meta"]["memory"]["solutions"] == 1
        assert stream_report(c, body, **b)["meta"]["memory"] is None
        assert stream_report(c, body, **a)["meta"]["memory"]["solutions"] == 1


def test_a_retried_correction_adds_nothing(database_url):
    with service(database_url=database_url) as c:
        taught = grade(c, RIGHT)
        grade_id = taught["meta"]["grade_id"]
        first = correct(c, grade_id, ALL_RIGHT)
        retry = correct(c, grade_id, ALL_RIGHT)
        assert (first.status_code, retry.status_code) == (201, 200)
        assert retry.json()["id"] == first.json()["id"]
        assert len(c.get(f"/grades/{grade_id}").json()["corrections"]) == 1
        assert grade(c, SLIP)["meta"]["memory"]["solutions"] == 1
        # a different correction supersedes: still one remembered solution, now with a mistake
        assert (
            correct(c, grade_id, ["correct", "correct", "incorrect", "incorrect"]).status_code
            == 201
        )
        memory = grade(c, SLIP)["meta"]["memory"]
        assert memory["solutions"] == 1 and memory["mistakes"] == 2
        assert memory["accepted_solutions"] == 0


def test_a_request_can_opt_out(database_url):
    with service(database_url=database_url) as c:
        taught = grade(c, RIGHT)
        correct(c, taught["meta"]["grade_id"], ALL_RIGHT)
        plain = grade(c, SLIP, memory=False)
        assert plain["meta"]["memory"] is None and plain["answer"]["reference"] == []
        remembered = grade(c, SLIP)
        assert remembered["meta"]["memory"] is not None
        # an opted-out grade, corrected, does not feed the memory
        quiet = grade(c, RIGHT, memory=False)
        correct(c, quiet["meta"]["grade_id"], ALL_RIGHT)
        assert grade(c, SLIP)["meta"]["memory"]["solutions"] == 1


def test_memory_survives_a_restart_is_exported_and_goes_with_its_grades(database_url):
    with service(database_url=database_url) as c:
        taught = grade(c, RIGHT)
        correct(c, taught["meta"]["grade_id"], ALL_RIGHT)
        [line] = [json.loads(x) for x in c.get("/grades/export").text.splitlines()]
        assert line["problem_key"] == problem_key(PROBLEM) and line["labels"] == ALL_RIGHT
    with service(database_url=database_url) as c:  # a new process on the same store
        assert grade(c, SLIP)["meta"]["memory"]["accepted_solutions"] == 1
    store = open_store(database_url)
    try:
        assert load_memory(store, "anyone-else", problem_key(PROBLEM)) is None
        with store.session() as session, session.begin():
            session.query(Grade).update({"created_at": Grade.created_at - timedelta(days=40)})
        assert prune(store, 30) >= 2
        with store.session() as session, session.begin():
            assert session.query(MemorySolution).count() == 0
    finally:
        store.close()


def test_the_teach_queue_asks_first_where_no_memory_is(database_url):
    other = "A rope 20 m long is cut into pieces of 4 m. How many pieces are there?"
    with service(database_url=database_url) as c:
        ids = [grade(c, steps)["meta"]["grade_id"] for steps in (RIGHT, SLIP, RIGHT[:3])]
        rope = [
            grade(c, steps, problem=other)["meta"]["grade_id"]
            for steps in (["20 / 4 = 5", "5 pieces"], ["20 / 4 = 6", "6 pieces"])
        ]
        queue = [i["id"] for i in c.get("/grades", params={"order": "teach"}).json()["items"]]
        assert len(queue) == 5 and set(queue[:2]) <= set(ids) | set(rope)
        # one grade of each problem before any problem's second
        firsts = queue[:2]
        assert {i in ids for i in firsts} == {True, False}
        # the larger class first; its most typical solution: a full one, not the slip
        assert queue[0] in ids and queue[0] != ids[1]
        correct(c, queue[0], ["correct"] * (4 if queue[0] == ids[0] else 3))
        after = [i["id"] for i in c.get("/grades", params={"order": "teach"}).json()["items"]]
        assert after[0] in rope and queue[0] not in after
        page = c.get("/grades", params={"order": "teach", "cursor": "abc"})
        assert page.status_code == 422 and page.json()["error"]["field"] == "query.cursor"


def test_an_answer_written_as_a_computation_is_remembered_as_its_result(database_url):
    eggs = "A box holds 6 rows of 8 eggs. 5 eggs break. How many eggs are left?"
    with service(database_url=database_url) as c:
        taught = grade(c, ["6 * 8 = 48", "48 - 5 = 43"], problem=eggs)
        correct(c, taught["meta"]["grade_id"], ["correct", "correct"])
        slip = grade(c, ["6 * 8 = 48", "48 - 5 = 42"], problem=eggs)
        assert slip["answer"]["reference"] == ["43"] and slip["answer"]["correct"] is False
        assert slip["meta"]["memory"]["divergence_step"] == 2
        assert "memory_diverged" in {r["code"] for r in slip["review_reasons"]}
