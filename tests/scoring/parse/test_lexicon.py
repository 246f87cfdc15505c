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
    joiners,
    latex,
    latin_words,
    relations,
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
    ("spec", "text", "found"),
    [
        (relations.INEQUALITY, r"x \leq 3", [r"\leq"]),
        (relations.INEQUALITY, "1 < x ≤ 4", ["<", "≤"]),
        (relations.INEQUALITY, r"\left( x \right)", []),  # `\le` is no prefix of `\left`
        (relations.INEQUALITY, "x = 3", []),
        (relations.EQUATION_OR_INEQUALITY, r"x = 3, y \gt 2", ["=", r"\gt"]),
        (relations.CONDITION, r"x \geqslant 2", [r"\geqslant"]),
        (relations.CONDITION, r"x \in (1, 2)", []),
        (relations.SOLUTION_SET_INEQUALITY, r"x \leqslant 1 或 x \geq 2", [r"\leqslant", r"\geq"]),
        (relations.SOLUTION_SET_INEQUALITY, r"x \lt 1", []),  # not among a solution set's signs
        (relations.CHAIN, "x := 2", [":="]),
        (relations.CHAIN, "a <= b >= c", ["<=", ">="]),
        (relations.CHAIN, "x != 2", ["!="]),
        (relations.CHAIN, "5!=120", ["="]),  # `!` of a factorial, then equality
        (relations.CHAIN, r"a \equiv 1 \pmod{3}", [r"\equiv"]),
        (relations.CHAIN, r"A \subseteq B \subset C", [r"\subseteq", r"\subset"]),
        (relations.CHAIN, r"x \in S, \sin x", [r"\in"]),  # `\in` is no prefix of `\sin`
        (relations.CHAIN, "x ≈ 3.14 ≃ π", ["≈", "≃"]),
        (relations.STATED, r"x \le 2, y \leq 3 = z", [r"\le", "="]),  # `\leq` is not counted
        (relations.STATED, "a ≠ b ≈ c", ["≠", "≈"]),
        (relations.IN_SPAN, r"3 \pm 1 = 4", [r"\pm", "="]),
        (relations.IN_SPAN, "3 × 4", []),
        (relations.AFTER_VALUE, r"2, 3; x \cup y", [",", ";", r"\cup"]),
        (relations.AFTER_VALUE, r"\pi", []),
        (relations.BOUND, "a>=2", [">="]),
        (relations.BOUND, r"1 \le x < 4", [r"\le", "<"]),
    ],
)
def test_relation_signs(spec: relations.RelationSigns, text: str, found: list[str]) -> None:
    assert relations.relation_pattern(spec).findall(text) == found


def test_relation_patterns_are_built_once_per_spec() -> None:
    spec = relations.RelationSigns(("le",), ("<",))
    assert relations.relation_pattern(spec) is relations.relation_pattern(
        relations.RelationSigns(("le",), ("<",))
    )
    assert relations.relation_alternatives(relations.RelationSigns()) == ""


@pytest.mark.parametrize(
    ("spec", "text", "found"),
    [
        (joiners.STATEMENTS, "x = 1 or x = 2", ["or"]),
        (joiners.STATEMENTS, "x = 1 或者 x = 2", ["或者"]),  # the longer word first
        (joiners.STATEMENTS, "a > 0 且 b > 0 AND c", ["且", "AND"]),
        (joiners.STATEMENTS, "the band and the orchestra", ["and"]),  # whole words only
        (joiners.LIST, "3 apples, 4 pears and 5 plums", [",", "and"]),
        (joiners.LIST, "甲以及乙", ["以及"]),
        (joiners.LIST, "x = 1 or x = 2", []),  # a list is not joined by "or"
        (joiners.LIST_END, "2 cm.", ["."]),
        (joiners.PARTS, r"x = 1 \qquad y = 2", [r"\qquad"]),
        (joiners.PARTS, "a = 1 或 b = 2", ["或"]),
        (joiners.OPTION_LIST, "A, C and D", [",", "and"]),
        (joiners.OPTION_LIST, "A和C", ["和"]),
        (joiners.OPTION_LIST, "A or C", []),  # a choice between options, not a list of them
        (joiners.BOXED_PARTS, "3 or 4；5", ["or", "；"]),
        (joiners.BOXED_PARTS, "3 并且 4", []),  # 且 joins conditions, not parts
        (joiners.CHOICES, "neither A nor B", ["nor"]),
        (joiners.CHOICES, "A、B", ["、"]),
        (joiners.BLOCKS, r"x = 1 \\ y = 2", ["\\\\"]),
        (joiners.BLOCKS, "x = 2 where y = 3", ["where"]),
        (joiners.BLOCKS, "without x", []),
        (joiners.UNION, r"x < 1 \lor x > 2", [r"\lor"]),
        (joiners.UNION, "x < 1 and x > 0", []),
        (joiners.INTERSECTION, "x > 1 并且 x < 3", ["并且"]),
        (joiners.INTERSECTION, r"x > 1 \land x < 3", [r"\land"]),
    ],
)
def test_joiners(spec: joiners.Joiners, text: str, found: list[str]) -> None:
    assert joiners.joiner_pattern(spec, re.IGNORECASE).findall(text) == found


def test_joiner_case_follows_the_flags() -> None:
    assert joiners.joiner_pattern(joiners.UNION).findall("x < 1 OR x > 2") == []
    assert joiners.joiner_pattern(joiners.UNION, re.IGNORECASE).findall("x < 1 OR x > 2") == ["OR"]


@pytest.mark.parametrize(
    ("names", "symbols", "text", "found"),
    [
        (latex.SIZING, "", r"\left( x \right)", [r"\left", r"\right"]),
        (latex.SIZING, "", r"\Bigl[ x \biggr]", [r"\Bigl", r"\biggr"]),
        (latex.SIZING, "", r"\leftarrow \rightharpoonup", []),  # other names
        (
            (*latex.SIZING, *latex.STYLES),
            ",;:> ",
            r"\displaystyle a\,b\ c",
            [r"\displaystyle", r"\,", "\\ "],
        ),
        (latex.WIDE_SPACES, "", r"x \quad y \qquad z \quadx", [r"\quad", r"\qquad"]),
        (("[dtc]frac",), "", r"\dfrac{1}{2} \frac{1}{3} \tfrac{1}{4}", [r"\dfrac", r"\tfrac"]),
        ((), latex.THIN_SPACES, r"a\!b\:c", [r"\!", r"\:"]),
    ],
)
def test_latex_commands_are_matched_whole(
    names: tuple[str, ...], symbols: str, text: str, found: list[str]
) -> None:
    assert latex.latex_commands(names, symbols).findall(text) == found


@pytest.mark.parametrize(
    ("text", "boxed"),
    [(r"\boxed{7}", True), (r"\fbox {7}", True), (r"\boxedx", False), (r"\box{7}", False)],
)
def test_the_answer_box(text: str, boxed: bool) -> None:
    assert (re.match(latex.BOX + r"\s*\{", text) is not None) is boxed


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
