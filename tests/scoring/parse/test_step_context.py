"""General readings of step text: for each, a correct step that must not read
as a false equation, and a really false step of the same shape that still must, so a reading can
never just switch the check off. Every case is hand-written."""

from __future__ import annotations

import pytest

from scoring.parse.equations import check_step, extract_relations
from scoring.parse.step_context import read_context

PAIRS = {
    "bases": [
        ("3 的二进制表示为 3 = 0011", "3 的二进制表示为 3 = 0111"),
        ("In binary, 110 = 6.", "In binary, 110 = 7."),
        ("Converting to base 5: 38 = 123.", "Converting to base 5: 38 = 124."),
        ("十进制数 10 的八进制表示：10 = 12", "十进制数 10 的八进制表示：10 = 13"),
        ("$1011_2 + 11_2 = 14$", "$1011_2 + 11_2 = 15$"),
        ("$(101)_2 = 5$", "$(101)_2 = 6$"),
        ("$101_{(2)} = 5$", "$101_{(2)} = 6$"),
        ("$0b101 = 5$", "$0b101 = 6$"),
        ("$0x1F = 31$", "$0x1F = 30$"),
        ("$0o17 = 15$", "$0o17 = 16$"),
        # base suffixes where a base is named, fractions, and each side in its own base
        (
            "把 10.5 转换为二进制：$10 = 1010(2)$，$0.5 = 0.1(2)$",
            "把 10.5 转换为二进制：$10 = 1011(2)$",
        ),
        ("In binary, $2.25 = 10.01$.", "In binary, $2.25 = 10.11$."),
        ("二进制转八进制：$101 = 5$，$.100 = .4$", "二进制转八进制：$101 = 5$，$.100 = .6$"),
    ],
    "integer division": [
        (
            "So 1000 ÷ 3 = 333 boxes can be filled, with 1 left over.",
            "So 1000 ÷ 3 = 330 boxes can be filled, with 1 left over.",
        ),
        ("最多可以装 1000 ÷ 3 = 333 个", "最多可以装 1000 ÷ 3 = 334 个"),
        ("1000 ÷ 3 = 333 个", "1000 ÷ 3 = 335 个"),  # a count of whole items by its measure word
        ("At least 1000 ÷ 3 = 334 boxes are needed.", "At least 1000 ÷ 3 = 336 boxes are needed."),
        ("至少需要 1000 ÷ 3 = 334 个箱子", "至少需要 1000 ÷ 3 = 336 个箱子"),
        (
            r"The remainder: $17 \div 5 = 3$ and $17 - 15 = 2$.",
            r"The remainder: $17 \div 5 = 4$ and $17 - 15 = 2$.",
        ),
        ("1000 ÷ 3 = 333 余 1", "1000 ÷ 3 = 333 余 2"),
        ("1000 ÷ 3 = 333 R 1", "1000 ÷ 3 = 332 R 4"),  # r < b fails
        ("7 ÷ 2 = 3……1", "7 ÷ 2 = 3……2"),
        ("Divide 47 by 5 to get 9, remainder 2.", "Divide 47 by 5 to get 8, remainder 2."),
        # integer parts: floor and ceiling brackets, and [x] as the greatest-integer function
        (r"$\lfloor 1000/3 \rfloor = 333$", r"$\lfloor 1000/3 \rfloor = 334$"),
        (r"$\lceil 1000/3 \rceil = 334$", r"$\lceil 1000/3 \rceil = 333$"),
        (r"$\left[ \frac{47}{5} \right] = 9$", r"$\left[ \frac{47}{5} \right] = 10$"),
        (r"$225 \div 17 = 13 \text{ remainder } 4$", r"$225 \div 17 = 13 \text{ remainder } 5$"),
    ],
    "approximation": [
        ("$2/3 = 0.67$", "$2/3 = 0.76$"),
        ("$2/3 = 0.66$", "$2/3 = 0.65$"),  # truncated: within one unit of the last place
        (
            "The result is 10/3 = 3.3 (rounded to one decimal place).",
            "The result is 10/3 = 3.5 (rounded to one decimal place).",
        ),
        (
            "The area is about 10/3 = 3.33 square meters.",
            "The area is about 10/3 = 3.6 square meters.",
        ),
        ("面积约为 10/3 = 3.3 平方米", "面积约为 10/3 = 3.6 平方米"),
        ("面积为 10/3 = 3.33 平方米", "面积为 10/3 = 3.43 平方米"),  # the unit is no digit
        ("保留两位小数：$\\sqrt{2} = 1.41$", "保留两位小数：$\\sqrt{2} = 1.51$"),
        ("So $7/3 \\approx 2.3$.", "So $7/3 \\approx 2.5$."),
        ("$2 + 3.4 \\approx 5$", "$2 + 3 \\approx 6$"),  # a whole unit off is another value
        (r"$1/300 = 3.33 \times 10^{-3}$", r"$1/300 = 3.43 \times 10^{-3}$"),
        (
            "Rounded to 2 significant figures, $8287 \\times 1 = 8300$.",
            "Rounded to 2 significant figures, $8287 \\times 1 = 8500$.",
        ),
        (
            "The speed is approximately 100/7 = 14.3 m/s",
            "The speed is approximately 100/7 = 15.3 m/s",
        ),
    ],
    "names": [
        ("The ratio is 2 x 3 = 6.", "The ratio is 2 x 3 = 5."),
        ("The area is 3x4 = 12.", "The area is 3x4 = 13."),
        (
            r"$\pi = 400(20) - (20^3 - 20(20^2) + 100) = 7900$",
            r"$\pi = 400(20) - (20^3 - 20(20^2) + 100) = 7800$",
        ),
        (
            r"Let $\pi$ be the profit: $\pi = 400 \times 20 - 100 = 7900$",
            r"Let $\pi$ be the profit: $\pi = 400 \times 20 - 100 = 7800$",
        ),
        (r"$\pi \approx 3.14$", r"$\pi \approx 3.5$"),
        (r"$\pi = 3.14$", r"$\pi = 3.5$"),  # a bad approximation of π is still false
        ("$A1 + 2 = 5$ where $3 + 2 = 5$", "$A1 + 2 = 5$ where $3 + 2 = 6$"),
    ],
    "multi-part": [
        (
            "$(x-1)(x-2) = 0$, so $x = 1$ or $x = 2$; check: $1 + 2 = 3$",
            "$(x-1)(x-2) = 0$, so $x = 1$ or $x = 2$; and $1 + 2 = 4$",
        ),
        (
            "$x^2 = 9 \\Rightarrow x = 3 \\text{ or } x = -3$, so $3 \\times 3 = 9$",
            "$x^2 = 9 \\Rightarrow x = 3 \\text{ or } x = -3$, so $3 \\times 3 = 6$",
        ),
        (
            "The roots are $x = 1, 2$ and $1 \\times 2 = 2$.",
            "The roots are $x = 1, 2$ and $1 \\times 2 = 3$.",
        ),
    ],
}


@pytest.mark.parametrize(
    ("correct", "false"),
    [pair for pairs in PAIRS.values() for pair in pairs],
    ids=[f"{kind}-{i}" for kind, pairs in PAIRS.items() for i in range(len(pairs))],
)
def test_reading_keeps_correct_steps_and_catches_false_ones(correct: str, false: str) -> None:
    ok, bad = check_step(correct), check_step(false)
    assert ok.verdict == "true", ok.evidence
    assert bad.verdict == "false", bad.evidence


@pytest.mark.parametrize(
    "step",
    [
        "x = 1 or x = 2",
        "x = 1 or 2",
        r"$x = 1 \text{ or } 2$",
        r"$x = 1 \text{ and } x = 2$",
        "$x = 1, 2$",
        "$x_1 = 1, x_2 = 2$",
        "$x = -1, 2$",
        "方程的解为 x = 1, 2",
        "$x=3$ 或 $x=-3$",
        "O2 = 1",  # a chemical formula, not O times 2
        "CO2 + H2O = 2",
        r"So the profit is $\pi = 7900$.",
        r"$\pi(Q) = 20Q - 100$, so $\pi(20) = 300$",
        "Let x = 5. Then 2 x 3 = 6.",  # x is the variable here, not a times sign
    ],
)
def test_names_and_lists_of_solutions_are_not_false_equations(step: str) -> None:
    assert check_step(step).verdict == "unknown", check_step(step).evidence


def test_lists_of_solutions_are_not_read_as_one_value_equal_to_another() -> None:
    for step in (
        "x = 1 or x = 2",
        r"$x = 1 \text{ or } x = 2$",
        "$x = 1, 2$",
        r"$x = 1 \text{ or } 2$",
    ):
        pairs = {(r.lhs, r.rhs) for r in extract_relations(step)}
        assert ("1", "2") not in pairs and all(r.lhs != "1" for r in extract_relations(step)), pairs


def test_a_chain_that_equates_two_values_is_still_false() -> None:
    assert check_step("$x = 3 = -3$").verdict == "false"


def test_read_context_collects_the_readings_of_a_step() -> None:
    reading = read_context("约有 1000 ÷ 3 = 333 箱，至少需要 334 箱", "把 5 转成二进制")
    assert reading.approximate and reading.counting and reading.round_up
    assert reading.bases == (2,)
    plain = read_context("So 3 + 4 = 7.")
    assert not (plain.approximate or plain.counting or plain.bases or plain.pi_is_name)
    assert not read_context("约分得 2/3").approximate  # 约分: reduce a fraction
    assert not read_context("Think about it: 3 + 4 = 7.").approximate


def test_a_base_named_only_in_the_context_still_reads_the_step() -> None:
    assert check_step("$110 = 6$").verdict == "false"  # decimal, nothing says otherwise
    assert check_step("$110 = 6$", context="Write 6 in binary.").verdict == "true"
    assert check_step("$110 = 7$", context="Write 6 in binary.").verdict == "false"
