"""The readings tried, in order, before math-verify: each decides a pair or passes it on (None).

Each reading is a general rule of the public graders (Math-Verify, lighteval, MARIO, NeMo-Skills,
hendrycks MATH, simple-evals, Qwen2.5-Math) that math-verify alone does not apply; the name of
the reading that decided a pair is reported so that its precision can be measured
(`stepgrade study answer_agreement`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from scoring.answer.clean import bare, is_prose, too_long
from scoring.answer.extract import find_answer
from scoring.answer.readings.bases import compare_base_numbers
from scoring.answer.readings.congruence import compare_congruences
from scoring.answer.readings.measures import compare_amounts
from scoring.answer.readings.numbers import (
    compare_angle_units,
    compare_clock_times,
    compare_quantities,
    numeric_value,
    values_equal,
    without_unit,
)
from scoring.answer.readings.parts import (
    compare_matrices,
    compare_parts,
    compare_worded_parts,
    name_of,
    read_parts,
    worded_parts,
)
from scoring.answer.readings.words import compare_choices, compare_option_sets, compare_yes_no
from scoring.parse.enumeration import enumerated_parts
from scoring.parse.lexicon import relations

Reading = Callable[[str, str], bool | None]

_CONDITION = relations.relation_pattern(relations.CONDITION)
_MATH_DELIMITER = re.compile(r"(?<!\\)\$.*?(?<!\\)\$|\\\(|\\\[|\\boxed|\\begin\{", re.DOTALL)


def compare_approximation(gold: str, pred: str) -> bool | None:
    """A decimal that rounds an exact value (`125.663` for `40\\pi`) equals it; never decides
    False, since an expression read in code may mean more than its value."""
    g, p = numeric_value(gold), numeric_value(pred)
    if g is None or p is None:
        return None
    return True if values_equal(g, p) else None


# `worded_parts` comes before `yes_no`: "是，3" is a verdict and a value, not a verdict alone.
READINGS: tuple[tuple[str, Reading], ...] = (
    ("worded_parts", compare_worded_parts),
    ("yes_no", compare_yes_no),
    ("option_set", compare_option_sets),
    ("choice_letter", compare_choices),
    ("clock_time", compare_clock_times),
    ("amount", compare_amounts),
    ("plain_number", compare_quantities),
    ("angle_units", compare_angle_units),
    ("base_number", compare_base_numbers),
    ("congruence", compare_congruences),
    ("matrix", compare_matrices),
    ("multi_part", compare_parts),
    ("approximation", compare_approximation),
)


def read_pair(
    gold: str, pred: str, readings: Sequence[tuple[str, Reading]] = READINGS
) -> tuple[bool, str] | None:
    """(verdict, reading) from the first reading that decides the pair, or None."""
    if too_long(gold, pred):
        return None
    for name, reading in readings:
        verdict = reading(gold, pred)
        if verdict is not None:
            return verdict, name
    return None


def stated_answer(text: str) -> str:
    """The answer a text written in words states (`scoring.answer.extract`), else the text itself.

    Texts with math delimiters are left whole: math-verify finds the answer in those itself; so
    are answers of several parts (`(1) 是 (2) 5`, `不是；5`), whose every part is the answer, and
    conditions (`x<1或x>2`, `a 的取值范围是 a>2`), whose numbers are bounds, not the answer.
    """
    if (
        not is_prose(text)
        or _MATH_DELIMITER.search(text)
        or enumerated_parts(text) is not None
        or worded_parts(text) is not None
        or _CONDITION.search(text)
    ):
        return text
    return find_answer(text).text or text


def restate(gold: str, pred: str) -> tuple[str, str]:
    """The pair as values: the answer a text in words states, without its unit or its name."""
    return drop_names(*(without_unit(stated_answer(without_unit(t))) for t in (gold, pred)))


def drop_names(gold: str, pred: str) -> tuple[str, str]:
    """`f(x) = 2x + 3` against `y = 2x + 3`: two answers that each set one differently named
    variable or function equal to a value are compared by their values (MARIO's reading)."""
    if too_long(gold, pred) or read_parts(gold) is not None or read_parts(pred) is not None:
        return gold, pred
    (g_name, g_value), (p_name, p_value) = name_of(bare(gold)), name_of(bare(pred))
    if g_name and p_name and g_name != p_name:
        return g_value, p_value
    return gold, pred
