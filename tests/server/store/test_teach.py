"""The review queue's `order=teach`: unremembered problems first, the most uncertain and most
typical grade of a problem first, a problem's best before any problem's second best, larger
classes first, and grades that opted out of memory last."""

from __future__ import annotations

from datetime import timedelta

from server.store.repository import new_grade, utcnow
from server.store.teach import teach_order
from tests.server.store.conftest import report_json, request_json


def grade(problem: str, minute: int, *, interval=None, memory: bool = True, steps=("x = 4",)):
    request = {**request_json(problem), "solution_steps": list(steps)}
    if not memory:
        request["memory"] = False
    report = report_json(steps=len(steps), interval=interval)
    for step, text in zip(report["steps"], steps, strict=True):
        step["text"] = text
    return new_grade("a", request, report, now=utcnow() + timedelta(minutes=minute))


def names(grades, labelled):
    return [labelled[g.id] for g in grades]


def test_a_problem_with_no_memory_comes_before_one_that_has_some():
    known, unknown = grade("Solve 2x = 8.", 0), grade("Solve 3x = 9.", 1)
    labelled = {known.id: "known", unknown.id: "unknown"}
    order = teach_order([known, unknown], remembered={known.problem_key})
    assert names(order, labelled) == ["unknown", "known"]


def test_the_widest_interval_of_a_problem_first_and_each_problems_best_before_seconds():
    p_narrow = grade("Solve 2x = 8.", 0, interval=[4, 5])
    p_wide = grade("Solve 2x = 8.", 1, interval=[0, 10])
    q_only = grade("Solve 3x = 9.", 2, interval=[4, 5])
    labelled = {p_narrow.id: "p narrow", p_wide.id: "p wide", q_only.id: "q"}
    order = teach_order([p_narrow, q_only, p_wide], remembered=set())
    # p has two grades (a larger class): its best first, then q's best, then p's second
    assert names(order, labelled) == ["p wide", "q", "p narrow"]


def test_a_grade_that_opted_out_of_memory_comes_last():
    out = grade("Solve 2x = 8.", 0, interval=[0, 10], memory=False)
    plain = grade("Solve 5x = 10.", 1)
    labelled = {out.id: "out", plain.id: "plain"}
    assert names(teach_order([out, plain], remembered=set()), labelled) == ["plain", "out"]


def test_the_order_is_a_permutation_and_empty_stays_empty():
    grades = [grade(f"Solve {n}x = {2 * n}.", n) for n in range(1, 5)]
    assert sorted(g.id for g in teach_order(grades, set())) == sorted(g.id for g in grades)
    assert teach_order([], set()) == []
