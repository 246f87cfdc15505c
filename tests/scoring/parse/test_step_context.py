"""General readings of step text: for each, a correct step that must not read
as a false equation, and a really false step of the same shape that still must, so a reading can
never just switch the check off. Every case is hand-written."""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy

from scoring.parse.approximation import close, significant_figures, written_place
from scoring.parse.bases import (
    read_in_base,
    stated_bases,
    with_plain_subscripts,
    with_prefixed_numerals,
)
from scoring.parse.division import is_whole_count, quotient_remainder, states_remainder
from scoring.parse.equations import check_step, extract_relations
from scoring.parse.mathparse import parse_math
from scoring.parse.names import cannot_be_pi, pi_is_named, with_times_signs, x_is_times
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


@pytest.mark.parametrize(
    ("text", "bases"),
    [
        ("convert 25 to binary", (2,)),
        ("in base 5 and base-7", (5, 7)),
        ("二进制与十六进制", (2, 16)),
        ("12进制", (12,)),
        ("$1556_7 + 10_{(3)}$", (7, 3)),
        ("base 10 only", ()),
        ("$a_2 + x_3 = 5$", ()),  # indices, not bases
        ("the base of the triangle", ()),
        ("二进制：$1010(2)$ 与 $12(8)$", (2, 8)),  # suffixes count where a base is named
        ("$3(2) = 6$", ()),  # elsewhere a product
    ],
)
def test_stated_bases(text: str, bases: tuple[int, ...]) -> None:
    assert stated_bases(text) == bases


def test_numerals_are_read_in_a_base_but_exponents_and_indices_stay() -> None:
    assert read_in_base("3 = 0011", 2) == "3 = 3"
    assert read_in_base("2^{10} + 110", 2) == "2^{10} + 6"
    assert read_in_base("a_{11} + 11_3", 2) is None
    assert read_in_base("7 + 8", 2) is None  # single digits mean the same
    assert read_in_base("123", 3) is None  # 3 is not a base-3 digit
    assert read_in_base("0.11", 2) == "(3/4)"
    assert read_in_base("1010(2) + 7(10)", 2, (2,)) == "10 + 7"
    assert read_in_base("11(3)", 2, (2,)) is None  # an unstated suffix: a product
    assert with_prefixed_numerals("0b101 + 0x1f + 0o17 + 10x3") == "5 + 31 + 15 + 10x3"
    assert with_plain_subscripts("(101)_2 + 11_{(2)}") == "101_2 + 11_{2}"


@pytest.mark.parametrize(
    ("exact", "shown", "round_up", "whole"),
    [
        (Fraction(1000, 3), Fraction(333), False, True),
        (Fraction(1000, 3), Fraction(334), False, False),
        (Fraction(1000, 3), Fraction(334), True, True),
        (Fraction(1000, 3), Fraction(335), True, False),
        (Fraction(12), Fraction(12), False, False),  # a whole quotient needs no reading
        (Fraction(7, 2), Fraction(7, 2), False, False),
        (3.5, Fraction(3), False, True),
    ],
)
def test_is_whole_count(exact, shown, round_up: bool, whole: bool) -> None:
    assert is_whole_count(exact, shown, round_up) is whole


def test_quotient_and_remainder_notations() -> None:
    assert quotient_remainder("so 17 ÷ 5 = 3 R 2 and") == [("17", "5", "3", "2", "17 ÷ 5 = 3 R 2")]
    assert quotient_remainder(r"$17 \div 5 = 3 \text{ remainder } 2$")[0][:4] == (
        "17",
        "5",
        "3",
        "2",
    )
    assert quotient_remainder("17 ÷ 5 = 3 余 2")[0][:4] == ("17", "5", "3", "2")
    assert quotient_remainder("17 ÷ 5 = 3……2")[0][:4] == ("17", "5", "3", "2")
    assert quotient_remainder("17 ÷ 5 = 3.4") == []
    assert states_remainder("3 R 2") and states_remainder(r"3 \text{ remainder } 2")
    assert not states_remainder("3 + 2")


@pytest.mark.parametrize(
    ("side", "place"),
    [
        ("0.67", (-2, True)),
        ("216", (0, False)),
        ("1,234.5", (-1, True)),
        (r"3.33 \times 10^{-3}", (-5, True)),
        ("2.5×10^4", (3, True)),
        ("x + 1", None),
    ],
)
def test_written_place(side: str, place) -> None:
    assert written_place(side) == place


def test_tolerance_is_the_written_place_and_one_percent_for_approximations() -> None:
    third = Fraction(1, 3)
    assert close(third, Fraction(33, 100), "1/3", "0.33", approximate=False)
    assert not close(
        Fraction(2, 5), Fraction(5, 10), "2/5", "0.5", approximate=False
    )  # exact at 1 place
    assert not close(Fraction(1000, 3), Fraction(333), "1000/3", "333", approximate=False)
    assert close(Fraction(1000, 3), Fraction(333), "1000/3", "333", approximate=True)
    assert close(Fraction(1000), Fraction(1009), "1000", "1009", approximate=True)  # < 1%
    assert not close(Fraction(1000), Fraction(1011), "1000", "1011", approximate=True)
    assert close(Fraction(8287), Fraction(8300), "8287", "8300", approximate=True, figures=2)
    assert significant_figures("to 3 significant figures") == 3
    assert significant_figures("保留3位有效数字") == 3
    assert significant_figures("3 decimal places") is None


def test_names_that_look_like_products() -> None:
    assert parse_math("O2").free_symbols == {sympy.Symbol("O2")}
    assert parse_math("H2SO4 + 1").free_symbols == {sympy.Symbol("H2SO4")}
    assert parse_math("2x").free_symbols == {sympy.Symbol("x")}  # a number first is a product
    assert x_is_times("3 x 4 = 12") and x_is_times("3x4 = 12")
    assert not x_is_times("x = 5, so 2 x 3 = 30") and not x_is_times("2x + 3 = 7")
    assert not x_is_times("0x1F = 31")
    assert with_times_signs("3 x 4") == "3 × 4"


def test_pi_as_a_name() -> None:
    assert pi_is_named(r"Let $\pi$ be the profit.") and pi_is_named(r"设 $\pi$ 为利润")
    assert pi_is_named(r"$\pi(Q) = 20Q$")
    assert not pi_is_named(r"The area is $\pi r^2$.")
    assert cannot_be_pi(7900) and cannot_be_pi(0.5)
    assert not cannot_be_pi(3.5) and not cannot_be_pi(3.14)


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
