"""The shared lexicon: number shapes and word groups, as tables of hand-written cases."""

from __future__ import annotations

import re

import pytest

from scoring.parse.lexicon import (
    APPROXIMATION_WORDS,
    BASE_WORDS,
    CASE_WORDS,
    CHECK_WORDS,
    CJK_CHAR,
    CJK_UNIT,
    CJK_UNITS,
    COUNTING_WORDS,
    DECIMAL,
    DIGIT,
    FRACTION,
    GROUPED,
    HEDGE_WORDS,
    LOOSE_GROUPED,
    NEGATION_WORDS,
    NUMBER,
    PERCENT_SIGN,
    RATIONAL,
    REMAINDER_WORDS,
    ROUND_UP_WORDS,
    SCIENTIFIC,
    TENTATIVE_WORDS,
    UNESCAPED_DOLLAR,
    UNIT_WORDS,
    cjk_integer,
    latin_words,
    without_thousands_separators,
    words,
)


@pytest.mark.parametrize(
    ("pattern", "text", "matches"),
    [
        (DECIMAL, "12", True),
        (DECIMAL, "12.5", True),
        (DECIMAL, "12.", False),
        (DECIMAL, "1/2", False),
        (GROUPED, "1,234,567", True),
        (GROUPED, "1,234.75", True),
        (GROUPED, "1,2345", False),  # not a thousands group
        (GROUPED, "12,34", False),
        (FRACTION, "3/4", True),
        (FRACTION, "3 / 4", True),
        (RATIONAL, "-3/4", True),
        (RATIONAL, "0.25", True),
        (RATIONAL, "x/4", False),
        (SCIENTIFIC, "1.5e-3", True),
        (SCIENTIFIC, "2E5", True),
        (SCIENTIFIC, r"3.2 \times 10^{-4}", True),
        (SCIENTIFIC, "3.2×10^-4", True),
        (SCIENTIFIC, "6*10^23", True),
        (SCIENTIFIC, "3.2 x", False),
        (SCIENTIFIC, r"3 \times 12", False),
        (LOOSE_GROUPED, "1,000", True),
        (LOOSE_GROUPED, "10,00", True),  # grouped loosely, unlike `GROUPED`
        (LOOSE_GROUPED, "1,234.5", True),
        (LOOSE_GROUPED, ",100", False),
        (LOOSE_GROUPED, "1.2.3", False),
        (PERCENT_SIGN, "%", True),
        (PERCENT_SIGN, r"\%", True),
        (PERCENT_SIGN, r"\\%", False),
    ],
)
def test_number_shapes(pattern: str, text: str, matches: bool) -> None:
    assert (re.fullmatch(pattern, text) is not None) is matches


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1,000 + 24 = 1,024", "1000 + 24 = 1024"),
        (r"1{,}000", "1000"),
        ("1,234,567.5", "1234567.5"),
        ("1, 2, 3", "1, 2, 3"),  # a list, not a number
        ("(1,2)", "(1,2)"),
        ("3.5,000", "3.5,000"),
    ],
)
def test_thousands_separators(text: str, expected: str) -> None:
    assert without_thousands_separators(text) == expected


@pytest.mark.parametrize(
    ("text", "has_digit"),
    [("x = 3", True), ("三", False), ("x", False), ("", False), ("½", False)],
)
def test_digit(text: str, has_digit: bool) -> None:
    assert (DIGIT.search(text) is not None) is has_digit


@pytest.mark.parametrize(
    ("groups", "text", "found"),
    [
        ((HEDGE_WORDS,), "Suppose the width is 3.", True),
        ((HEDGE_WORDS,), "假设宽为 3", True),
        ((HEDGE_WORDS,), "Let's try 35.", True),
        ((HEDGE_WORDS,), "The width is 3.", False),
        ((HEDGE_WORDS,), "The difference is 3.", False),  # `if` only as a word
        ((CASE_WORDS,), "When x = 0, y = 1.", True),
        ((CASE_WORDS,), "当 x = 0 时", True),
        ((CASE_WORDS,), "For $x = 2$ we get 5.", True),
        ((CASE_WORDS,), "The showcase has 4 shelves.", False),
        ((CHECK_WORDS,), "Let's verify: 2 + 3 = 5.", True),
        ((CHECK_WORDS,), "检验：2 + 3 = 5", True),
        ((CHECK_WORDS,), "The contest has 5 rounds.", False),
        ((NEGATION_WORDS,), "3 + 4 = 8 is not true", True),
        ((NEGATION_WORDS,), "This doesn't hold.", True),
        ((NEGATION_WORDS,), "The note costs 5.", False),
        ((TENTATIVE_WORDS,), "x = 1 or x = 2", True),
        ((TENTATIVE_WORDS,), "In part (b), x = 4.", True),
        ((TENTATIVE_WORDS,), "So x = 4.", False),
        ((APPROXIMATION_WORDS,), "about 3.3 metres", True),
        ((APPROXIMATION_WORDS,), "rounded to two decimal places", True),
        ((APPROXIMATION_WORDS,), "3 significant figures", True),
        ((APPROXIMATION_WORDS,), "约为 3.3", True),
        ((APPROXIMATION_WORDS,), "The ground is flat.", False),  # `round` only as a word
        ((REMAINDER_WORDS,), "333 余 1", True),
        ((REMAINDER_WORDS,), "the remainder is 1", True),
        ((REMAINDER_WORDS,), r"17 \bmod 5 = 2", True),
        ((REMAINDER_WORDS,), "由余弦定理", False),  # cosine, not a remainder
        ((REMAINDER_WORDS,), "余角为 30 度", False),  # complementary angle
        ((COUNTING_WORDS,), "at most 333 boxes", True),
        ((COUNTING_WORDS,), "最多可以装 333 箱", True),
        ((COUNTING_WORDS,), "The total is 333.", False),
        ((ROUND_UP_WORDS,), "we need 334 boxes", True),
        ((ROUND_UP_WORDS,), "至少需要 334 个", True),
        ((ROUND_UP_WORDS,), "we fill 333 boxes", False),
        ((BASE_WORDS,), "In binary, 6 is 110.", True),
        ((BASE_WORDS,), "convert to base 5", True),
        ((BASE_WORDS,), "3 的二进制表示", True),
        ((BASE_WORDS,), "the base of the triangle is 5", False),
    ],
)
def test_word_groups(groups: tuple[tuple[str, ...], ...], text: str, found: bool) -> None:
    assert (words(*groups).search(text) is not None) is found


def test_words_composes_groups_case_insensitively_and_once() -> None:
    pattern = words(HEDGE_WORDS, CASE_WORDS)
    assert pattern.search("SUPPOSE x = 1") and pattern.search("In this case")
    assert words(HEDGE_WORDS, CASE_WORDS) is pattern  # compiled once, shared by every check


def test_units_prefer_the_longest_cjk_unit() -> None:
    assert re.match(CJK_UNIT, "平方厘米").group() == "平方厘米"
    assert re.match(CJK_UNIT, "立方米").group() == "立方米"
    assert [len(u) for u in CJK_UNITS] == sorted((len(u) for u in CJK_UNITS), reverse=True)
    assert {"cm", "gallon", "dollars"} <= UNIT_WORDS


@pytest.mark.parametrize(
    ("text", "cjk"),
    [("中", True), ("㐀", True), ("豈", True), ("䷀", False), ("，", False), ("a", False)],
)
def test_one_cjk_range_for_every_reader(text: str, cjk: bool) -> None:
    """Ideographs (extension A, unified, compatibility) count; hexagrams and punctuation do not."""
    from scoring.parse.lexicon import CJK

    assert (re.fullmatch(f"[{CJK}]", text) is not None) is cjk


@pytest.mark.parametrize(
    ("text", "leads"),
    [
        ("Therefore,", True),
        ("Secondly,", True),
        ("综上所述，", True),
        ("由此可得，", True),
        ("So x = 2", False),
        ("Otherwise,", False),
    ],
)
def test_a_lead_word_alone_carries_into_the_next_step(text: str, leads: bool) -> None:
    from scoring.steps.segment import segment_steps

    steps = segment_steps(f"{text}\nThe area is $x^2 = 4$.")
    assert (len(steps) == 1) is leads


@pytest.mark.parametrize(
    ("numeral", "value"),
    [
        ("三", 3),
        ("十", 10),
        ("十二", 12),
        ("二十", 20),
        ("一百零五", 105),
        ("两千", 2000),
        ("三千零二十", 3020),
        ("零", 0),
        ("二三", None),
        ("三个", None),
    ],
)
def test_chinese_numerals_below_ten_thousand(numeral: str, value: int | None) -> None:
    assert cjk_integer(numeral) == value


@pytest.mark.parametrize(
    ("pattern", "text", "found"),
    [
        (NUMBER, "3 apples at 1.25 each", ["3", "1.25"]),
        (NUMBER, "x^2", ["2"]),
        (UNESCAPED_DOLLAR, r"$x$ costs \$5", ["$", "$"]),
        (CJK_CHAR, "设 x 为长", ["设", "为", "长"]),
        (CJK_CHAR, "，。", []),  # punctuation is no ideograph
        (latin_words(2), r"so \frac{a}{b} is x", ["so", "is"]),
        (latin_words(3), r"the area \times ab", ["the", "area"]),
    ],
)
def test_shared_patterns(pattern: re.Pattern[str], text: str, found: list[str]) -> None:
    assert pattern.findall(text) == found
