"""Problem memory in the store: what a correction remembers, and what a later grade of the problem reads back (for its owner only)."""

from __future__ import annotations

import pytest

from scoring.judge.memory import problem_key
from server.store.memory import load_memory, remember, remembered_answer
from server.store.models import Correction, Grade
from server.store.repository import add_correction, new_grade, save_grade, utcnow
from tests.server.store.conftest import report_json, request_json


@pytest.mark.parametrize(
    ("extracted", "labels", "remembered"),
    [
        ("48 - 5 = 43", ["correct", "correct"], "43"),
        ("12 \\times 3 = 36", ["incorrect", "redundant"], "36"),
        ("a = 2, b = 3", ["correct", "correct"], "a = 2, b = 3"),
        ("x = 5", ["correct", "correct"], "x = 5"),
        ("43", ["correct", "incorrect"], None),  # the final step rejected: no accepted answer
    ],
)
def test_the_answer_a_correction_accepts(extracted, labels, remembered):
    report = {"answer": {"extracted": extracted}, "steps": [{"text": "a"}, {"text": "b"}]}
    assert remembered_answer(report, labels) == remembered


def _corrected(store, owner: str, labels: list[str], *, memory: bool = True, note: str = ""):
    steps = ["6 * 8 = 48", "48 - 5 = 43"]
    request = {**request_json("How many eggs are left?"), "solution_steps": steps}
    if not memory:
        request["memory"] = False
    report = report_json(steps=len(steps))
    for step, text in zip(report["steps"], steps, strict=True):
        step["text"] = text
    grade = new_grade(owner, request, report)
    save_grade(store, grade)
    with store.session() as session:
        add_correction(session, owner, grade.id, step_labels=labels, note=note)
    return grade


def test_a_correction_is_read_back_as_its_problems_memory_by_its_owner_only(store):
    grade = _corrected(store, "a", ["correct", "correct"], note="checked")
    key = problem_key("How many eggs are left?")
    memory = load_memory(store, "a", key)
    assert memory is not None and memory.key == key
    [solution] = memory.solutions
    assert solution.source == grade.id and solution.note == "checked"
    assert [(s.text, s.label) for s in solution.steps] == [
        ("6 * 8 = 48", "correct"),
        ("48 - 5 = 43", "correct"),
    ]
    assert solution.answer == "43"  # a computation is remembered as its result
    assert load_memory(store, "b", key) is None
    assert load_memory(store, "a", problem_key("another problem")) is None


def test_a_later_correction_replaces_the_grades_memory_and_not_math_steps_are_left_out(store):
    grade = _corrected(store, "a", ["correct", "correct"])
    with store.session() as session, session.begin():
        stored = session.get(Grade, grade.id)
        assert stored is not None
        later = Correction(
            grade_id=grade.id,
            created_at=utcnow(),
            step_labels=["not_math", "incorrect"],
            score=None,
            note="",
            reviewer=None,
        )
        session.add(later)
        remember(session, stored, later)
    memory = load_memory(store, "a", problem_key("How many eggs are left?"))
    assert memory is not None
    [solution] = memory.solutions
    assert [(s.text, s.label) for s in solution.steps] == [("48 - 5 = 43", "incorrect")]
    assert solution.answer is None  # the final step was not accepted


def test_a_grade_that_opted_out_of_memory_teaches_nothing(store):
    _corrected(store, "a", ["correct", "correct"], memory=False)
    assert load_memory(store, "a", problem_key("How many eggs are left?")) is None


def test_no_remembered_answer_without_labels_or_steps():
    assert remembered_answer({"steps": []}, []) is None
    assert remembered_answer({"steps": []}, ["correct"]) is None
    # read from the final step's text when the grade extracted no answer
    report = {"answer": {"extracted": None}, "steps": [{"text": "so the answer is 12"}]}
    assert remembered_answer(report, ["correct"]) == "12"
