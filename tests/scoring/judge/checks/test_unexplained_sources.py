"""Where numbers come from: parts of shown work, rounding, powers, other bases, elided decimals."""

from scoring.judge.checks.unexplained import unexplained_numbers


def test_parts_of_shown_work_are_explained_but_its_literals_are_not_results():
    steps = ["So $3 \\cdot 4^3 + 2 = 3 \\cdot 64 + 2 = 194$."]
    assert unexplained_numbers("Evaluate the polynomial at 4.", steps) == [[]]  # 64 is 4^3


def test_elided_decimals_are_not_judged():
    steps = ["Write the repeating decimal as $0.181818...$"]
    assert unexplained_numbers("What fraction is 0.18 repeating?", steps) == [[]]


def test_rounded_results_squares_and_other_bases():
    steps = ["Dividing both sides by 7 gives $k < 1.43$."]
    assert unexplained_numbers("Find k with 7k < 10.", steps) == [[]]  # 10 / 7 = 1.428...
    assert unexplained_numbers("Find k with 7k < 10.", ["So $k < 1.52$."]) == [["1.52"]]
    assert unexplained_numbers("Expand (y + 6)^3.", ["The constant is 216."]) == [[]]
    assert unexplained_numbers("Write 100 in base 3.", ["It is $10201_3$."]) == [[]]
