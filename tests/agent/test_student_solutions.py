"""Short solutions as a student types them, graded as the service grades them: offline, on the
shipped calibration. Its fitted numbers move with a refit; what a student's solution must get
does not."""

from __future__ import annotations

import pytest

from agent.context import Context
from agent.grader import Grader
from scoring.schema import GradeRequest

from .conftest import bag_of_words


def grade(**fields: object):
    return Grader(Context(embedder=bag_of_words)).grade(GradeRequest(mode="offline", **fields))


@pytest.mark.parametrize(
    ("last", "right"), [("x = 4", True), ("x = 5", False), ("So x = 5.", False)]
)
def test_an_unmarked_final_answer_decides_the_last_step(last, right):
    """No "the answer is": the closing line states the answer, and a wrong one
    makes the last step wrong (a solution with it must not score 10 with every step correct)."""
    report = grade(
        problem="Solve for x: 2x + 3 = 11.",
        solution=f"2x + 3 = 11\n2x = 8\n{last}",
        reference_answer="4",
    )
    assert report.answer.correct is right
    assert report.steps[-1].label == ("correct" if right else "incorrect")
    assert (report.score == 10) is right


@pytest.mark.parametrize(
    ("solution", "wrong"),
    [
        ("3 + 5 × 2 = 8 × 2 = 16.", 0),
        ("Each box holds 12 apples, so 3 boxes hold 3 × 12 = 38 apples.\nThe answer is 38.", 0),
    ],
)
def test_a_false_calculation_in_a_short_step_is_wrong(solution, wrong):
    """A student's short first step with false arithmetic: the English prior, fitted on long
    model-written steps, would put it under the threshold; a check that precise decides."""
    report = grade(problem="Compute it.", solution=solution)
    assert report.steps[wrong].label == "incorrect"
    assert report.score < 10


def test_a_one_step_solution_to_a_wrong_answer_is_not_all_correct():
    """One step, its arithmetic true, its answer wrong: the step that reached the answer is
    wrong, whatever prior a one-step solution gets."""
    report = grade(
        problem="Find the area of a rectangle 7 cm by 4 cm.",
        solution="Area = 7 + 4 = 11 cm^2",
        reference_answer="28",
    )
    assert report.answer.correct is False
    assert [s.label for s in report.steps] == ["incorrect"] and report.score == 0


@pytest.mark.parametrize(
    ("problem", "solution", "reference"),
    [
        ("Divide 3/5 by 2/3.", "3/5 ÷ 2/3 = 3/5 × 3/2 = 9/10", "9/10"),
        ("Simplify √50.", "√50 = √(25 × 2) = 5√2", "5\\sqrt{2}"),
        ("Solve x^2 - 5x + 6 = 0.", "(x - 2)(x - 3) = 0\nThe solutions are 2 and 3.", "2, 3"),
        ("Is 0.5 greater than 1/3?", "1/3 ≈ 0.33\n0.5 > 0.33\nYes.", "Yes"),
    ],
)
def test_a_right_solution_typed_plainly_scores_10(problem, solution, reference):
    """Right solutions as a student types them (÷ before a fraction, a root sign, the roots
    listed in words, a bare verdict); each must be read as what it is, not as something else."""
    report = grade(problem=problem, solution=solution, reference_answer=reference)
    assert report.answer.correct is True and report.score == 10
    assert not any(s.label in ("incorrect", "meaningless") for s in report.steps)


@pytest.mark.parametrize(
    ("last", "reference"),
    [
        ("Two tickets cost 2 × 32.40 = **$64.80**", "64.80"),
        ("The answer is __64.80__.", "64.8"),
        ("So the answer is five.", "5"),
    ],
)
def test_an_answer_typed_in_markdown_or_words_is_read(last, reference):
    """A fully correct solution whose answer is in bold, or in words, is right and scores 10."""
    report = grade(
        problem="Two tickets cost $32.40 each; or, count 3 red and 2 blue marbles.",
        solution=f"Each ticket costs $32.40; there are 3 + 2 marbles.\n{last}",
        reference_answer=reference,
    )
    assert report.answer.correct is True
    assert report.score == 10


def test_a_proof_states_no_answer_its_step_labels_give():
    """A proof reports no answer it does not state: not its last step's number."""
    report = grade(
        problem="Prove that the square of an even number is even.",
        solution="Step 1: Let n be even, so n = 2k for an integer k.\n"
        "Step 2: Then n^2 = 4k^2 = 2(2k^2).\nStep 3: Hence n^2 is even.",
        problem_type="proof",
    )
    assert report.answer.extracted is None
