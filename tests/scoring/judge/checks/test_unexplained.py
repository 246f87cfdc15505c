"""Numbers from nowhere: soft evidence of a changed or missing step."""

from scoring.judge.checks.unexplained import unexplained_numbers

PROBLEM = "Three pencils and a jumbo eraser cost $1.24. Five pencils and a jumbo eraser cost $1.82."


def test_numbers_from_the_problem_earlier_steps_or_one_operation_are_explained():
    steps = [
        "$3p+e=1.24$ and $5p+e=1.82$.",
        "$5p+e-3p-e=1.82-1.24$.",
        "So $2p = 0.58$ and $p = 0.29$.",
        "A pencil costs 29 cents.",
    ]
    assert unexplained_numbers(PROBLEM, steps) == [[], [], [], []]


def test_a_changed_number_is_unexplained():
    steps = ["$3p+e=1.24$ and $5p+e=1.82$.", "$5p+e-3p-e=1.15-1.24$."]
    assert unexplained_numbers(PROBLEM, steps) == [[], ["1.15"]]


def test_a_result_leaning_on_a_removed_step_is_unexplained():
    problem = "A box holds 19 red, 26 blue and 8 green marbles. How many marbles are in 9 boxes?"
    full = ["Each box holds $19 + 26 + 8 = 53$ marbles.", "So 9 boxes hold $9 \\times 53 = 477$."]
    assert unexplained_numbers(problem, full) == [[], []]
    # one operation on known numbers counts as shown work; 53 needs two, so it came from nowhere
    assert unexplained_numbers(problem, full[1:]) == [["53"]]


def test_common_constants_and_small_numbers_are_always_explained():
    assert unexplained_numbers("A right angle.", ["It measures 90 degrees, half of 180."]) == [[]]
