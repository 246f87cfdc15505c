"""What a problem's memory holds: steps a teacher accepted or rejected, whole accepted
solutions, and the answers of solutions whose final step stood."""

from datetime import datetime

import pytest

from scoring.judge.memory.model import (
    ACCEPTED_LABELS,
    ProblemMemory,
    RememberedSolution,
    RememberedStep,
)


def solution(labels, answer=None, day=1, source="s"):
    steps = tuple(RememberedStep(f"step {i}", lab) for i, lab in enumerate(labels))
    return RememberedSolution(source, steps, datetime(2026, 3, day), answer)


@pytest.mark.parametrize(
    ("label", "accepted"),
    [("correct", True), ("redundant", True), ("incorrect", False), ("meaningless", False)],
)
def test_a_step_stands_when_the_teacher_let_it(label, accepted):
    assert RememberedStep("x = 2", label).accepted is accepted
    assert (label in ACCEPTED_LABELS) is accepted


def test_a_solution_splits_into_accepted_steps_and_mistakes():
    mixed = solution(["correct", "incorrect", "redundant", "meaningless"])
    assert [s.label for s in mixed.accepted_steps] == ["correct", "redundant"]
    assert [s.label for s in mixed.mistakes] == ["incorrect", "meaningless"]
    assert not mixed.accepted_whole
    assert solution(["correct", "redundant"]).accepted_whole
    assert not solution([]).accepted_whole  # nothing to follow


def test_answers_come_from_solutions_whose_final_step_stood_each_once():
    memory = ProblemMemory(
        "k",
        (
            solution(["correct", "correct"], "71", day=1),
            solution(["incorrect", "correct"], "71", day=2),  # its final step stood
            solution(["correct", "incorrect"], "81", day=3),  # its final step was rejected
            solution(["correct"], None, day=4),  # no answer read
            solution(["correct"], "12", day=5),
        ),
    )
    assert memory.answers == ("71", "12")
    assert memory.mistakes == 2
    assert memory.last_corrected == datetime(2026, 3, 5)
    assert len(memory.accepted_solutions) == 3


def test_an_empty_memory_is_false_and_has_nothing():
    empty = ProblemMemory("k", ())
    assert not empty and empty.last_corrected is None
    assert empty.answers == () and empty.mistakes == 0 and empty.accepted_solutions == ()
    assert ProblemMemory("k", (solution(["incorrect"]),))
