"""A new solution read against a problem's memory: accepted work, known mistakes, the divergence
from every accepted path, and the accepted path chosen by alignment."""

from datetime import datetime

from scoring.judge.checks.memory import find_memory
from scoring.judge.input import JudgeInput
from scoring.judge.memory import ProblemMemory, RememberedSolution, RememberedStep, problem_key
from scoring.judge.memory.match import read_memory, remembered_signatures
from scoring.judge.memory.signature import given_numbers, signature
from scoring.verdict import AnswerVerdict

PROBLEM = (
    "A shop sells pens at 3 dollars each and notebooks at 5 dollars each. Tom buys 12 "
    "pens and 7 notebooks. How much does he pay?"
)
RIGHT = ["12 * 3 = 36", "7 * 5 = 35", "36 + 35 = 71", "He pays 71 dollars."]
WRONG = ["12 * 3 = 36", "7 * 5 = 45", "36 + 45 = 81", "He pays 81 dollars."]


def solution(
    source: str, steps: list[str], labels: list[str], answer: str | None = None, day: int = 1
) -> RememberedSolution:
    return RememberedSolution(
        source,
        tuple(RememberedStep(t, lab) for t, lab in zip(steps, labels, strict=True)),
        datetime(2026, 1, day),
        answer,
    )


ACCEPTED = solution("right", RIGHT, ["correct"] * 4, "71")
REJECTED = solution("slip", WRONG, ["correct", "incorrect", "meaningless", "incorrect"], day=2)


def memory(*solutions: RememberedSolution) -> ProblemMemory:
    return ProblemMemory(problem_key(PROBLEM), solutions)


def kinds(steps: list[str], mem: ProblemMemory) -> list[tuple[str, int]]:
    inp = JudgeInput(PROBLEM, steps, "calculation", AnswerVerdict(None, ()), memory=mem)
    return sorted((f.kind, f.step) for f in find_memory(inp))


def test_work_a_teacher_accepted_supports_the_step():
    found = kinds(
        ["3 * 12 = 36 dollars for pens", "5 * 7 = 35 dollars", "Total 71"], memory(ACCEPTED)
    )
    assert ("memory_accepted", 0) in found and ("memory_accepted", 1) in found
    assert not [k for k, _ in found if k != "memory_accepted"]


def test_a_known_mistake_is_found_and_the_divergence_placed():
    found = kinds(["12 * 3 = 36", "7 * 5 = 45", "36 + 45 = 81"], memory(ACCEPTED, REJECTED))
    assert ("memory_accepted", 0) in found
    assert ("memory_mistake", 1) in found and ("memory_mistake", 2) in found
    assert [s for k, s in found if k == "memory_divergence"] == [1]  # the first only


def test_a_new_mistake_is_a_divergence_not_a_known_one():
    found = kinds(["12 * 3 = 36", "7 * 5 = 30", "36 + 30 = 66"], memory(ACCEPTED, REJECTED))
    assert ("memory_divergence", 1) in found
    assert not [k for k, _ in found if k == "memory_mistake"]


def test_a_memory_of_mistakes_alone_places_no_divergence():
    found = kinds(["12 * 3 = 36", "7 * 5 = 45"], memory(REJECTED))
    assert ("memory_mistake", 1) in found and "memory_divergence" not in {k for k, _ in found}


def test_no_memory_no_findings():
    assert kinds(RIGHT, ProblemMemory(problem_key(PROBLEM), ())) == []
    assert find_memory(JudgeInput(PROBLEM, RIGHT, "calculation", AnswerVerdict(None, ()))) == []


def test_the_accepted_path_is_chosen_by_alignment_not_by_order():
    other_way = solution(
        "other", ["35 + 36 = 71", "pens and notebooks: 71"], ["correct"] * 2, "71", day=1
    )  # corrected first
    reading = read_memory(PROBLEM, RIGHT, memory(other_way, ACCEPTED))
    assert reading.path == "right"
    reading = read_memory(PROBLEM, ["35 + 36 = 71", "71 in all"], memory(ACCEPTED, other_way))
    assert reading.path == "other"


def test_the_memory_counts_what_it_holds():
    mem = memory(ACCEPTED, REJECTED)
    assert [s.source for s in mem.accepted_solutions] == ["right"]
    assert mem.mistakes == 3 and mem.answers == ("71",)
    assert mem.last_corrected == datetime(2026, 1, 2)


def test_an_equal_memory_built_again_reuses_its_signatures():
    given = given_numbers(PROBLEM)
    first = remembered_signatures(memory(ACCEPTED, REJECTED), given)
    again = remembered_signatures(memory(ACCEPTED, REJECTED), given)  # built anew, as per grade
    assert again is first
    assert first == tuple(tuple(signature(t, given) for t in steps) for steps in (RIGHT, WRONG))


def test_a_relabelled_memory_is_read_anew():
    relabelled = solution("right", RIGHT, ["correct", "incorrect", "meaningless", "correct"], "71")
    before = read_memory(PROBLEM, RIGHT[:3], memory(ACCEPTED))
    after = read_memory(PROBLEM, RIGHT[:3], memory(relabelled))
    assert before.path == "right" and [r.accepted for r in before.steps] == [True] * 3
    assert after.path is None  # no solution accepted whole any more
    assert after.steps[1].mistake == "7 * 5 = 35" and not after.steps[1].accepted
