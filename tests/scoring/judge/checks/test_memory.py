"""Memory findings as the report reads them: each kind says what the teacher's corrections
showed, and a grade without a memory of its problem gets none."""

from datetime import datetime

from scoring.judge.checks.memory import find_memory
from scoring.judge.input import JudgeInput
from scoring.judge.memory import ProblemMemory, RememberedSolution, RememberedStep
from scoring.verdict import AnswerVerdict

PROBLEM = "Apples cost 4 dollars a bag and pears 6 dollars a bag. Ann buys 9 bags of each."
ACCEPTED = ["9 * 4 = 36", "9 * 6 = 54", "36 + 54 = 90"]
SLIP = ["9 * 4 = 36", "9 * 6 = 56", "36 + 56 = 92"]


def remembered(source, steps, labels, day):
    return RememberedSolution(
        source,
        tuple(RememberedStep(t, lab) for t, lab in zip(steps, labels, strict=True)),
        datetime(2026, 2, day),
    )


MEMORY = ProblemMemory(
    "apples",
    (
        remembered("right", ACCEPTED, ["correct"] * 3, 1),
        remembered("slip", SLIP, ["correct", "incorrect", "meaningless"], 2),
    ),
)


def findings(steps, memory=MEMORY):
    inp = JudgeInput(PROBLEM, steps, "calculation", AnswerVerdict(None, ()), memory=memory)
    return find_memory(inp)


def test_each_kind_says_what_the_corrections_showed():
    found = {(f.kind, f.step): f.detail for f in findings(SLIP)}
    assert found[("memory_accepted", 0)] == (
        "computes what a teacher accepted in another solution of this problem"
    )
    assert found[("memory_mistake", 1)].startswith(
        "repeats a step a teacher rejected in another solution of this problem ("
    )
    assert "9 * 6 = 56" in found[("memory_mistake", 1)]
    assert found[("memory_divergence", 1)] == (
        "first step that leaves every solution of this problem a teacher accepted"
    )


def test_a_solution_that_follows_the_accepted_one_gets_only_support():
    assert {f.kind for f in findings(ACCEPTED)} == {"memory_accepted"}


def test_no_memory_or_an_empty_one_gives_nothing():
    assert findings(SLIP, memory=None) == []
    assert findings(SLIP, memory=ProblemMemory("apples", ())) == []
