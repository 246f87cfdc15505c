"""Joiners: the words and marks that join two statements, two parts or two items of a list.

"or", "and", 或, 和, a comma, `\\lor`: every reader that splits an answer into parts or asks
whether two statements are joined needs some of them, and each needs a different set (a list of
items is joined by "and", not "or"; a union of conditions by "or" alone). The shape is one:
punctuation marks, English words matched whole (`\\band\\b`, not the "and" of "band"), Chinese
words as written (no spaces between words), LaTeX commands. Specs are frozen dataclasses and the
builder is cached, as Math-Verify's `parser.py` builds its regexes from its configs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache


@dataclass(frozen=True)
class Joiners:
    """Which joiners a reader finds.

    `marks` are single characters (a character class); `words` English words, matched whole;
    `cjk` Chinese words, tried in order (a longer word, 或者, before its prefix 或); `commands`
    regex alternatives for a LaTeX command after its backslash (`q?quad`, `lor`, `\\\\` for a line
    break), matched as written, without a boundary after them.
    """

    marks: str = ""
    words: tuple[str, ...] = ()
    cjk: tuple[str, ...] = ()
    commands: tuple[str, ...] = ()


def joiner_alternatives(spec: Joiners) -> str:
    """The spec as one regex alternation (no group around it), to embed in a larger pattern."""
    parts = ["[" + "".join(re.escape(c) for c in spec.marks) + "]"] if spec.marks else []
    parts += [rf"\b{w}\b" for w in spec.words]
    parts += spec.cjk
    if spec.commands:
        parts.append(r"\\(?:" + "|".join(spec.commands) + ")")
    return "|".join(parts)


@lru_cache(maxsize=64)
def joiner_pattern(spec: Joiners, flags: int = 0) -> re.Pattern[str]:
    """The compiled pattern that finds any joiner of `spec`."""
    return re.compile(joiner_alternatives(spec), flags)


# Two statements of one answer joined into one sentence ("x = 1 or x = 2", "a > 0 且 b > 0").
STATEMENTS = Joiners(words=("or", "and"), cjk=("或者", "或", "且", "和"))
# Items of a list: commas, semicolons, "and", 以及, 和, 及 (a list is not joined by "or").
LIST = Joiners(marks=",，、;；", words=("and",), cjk=("以及", "和", "及"))
# What may close a list item before the next one: the list's joiners or a full stop.
LIST_END = Joiners(marks=",，;；。、.", words=("and",), cjk=("以及", "和", "及"))
# Parts of one answer given side by side: "and" or "or", in either language, or wide spacing
# (`\quad`); the commas between parts are read by the caller, which allows them before a word.
PARTS = Joiners(words=("and", "or"), cjk=("以及", "或者", "或", "和", "及"), commands=("q?quad",))
# Options of a multiple-select answer listed together (`A, C and D`, `B、C`, `A和C`).
OPTION_LIST = Joiners(marks=",，、;；", words=("and",), cjk=("和", "及"))
# Options of a multiple-choice answer named together ("A or B", "A、B", "neither A nor B").
CHOICES = Joiners(marks=",、", words=("or", "and", "nor"), cjk=("或者", "或", "和"))
# What joins two boxed parts of one answer (`\boxed{3} and \boxed{4}`, `\boxed{1}，\boxed{2}`).
BOXED_PARTS = Joiners(marks=",，、;；", words=("and", "or"), cjk=("和", "或", "及"))
# What separates two blocks of math in one step: a joiner, a clause that qualifies the first
# block ("for", "where", "with"), a semicolon or a LaTeX line break.
BLOCKS = Joiners(marks=";，；", words=("and", "or", "for", "where", "with"), commands=(r"\\",))
# A union of conditions in a solution set (`x < 1 或 x > 2`, `x < 1 \lor x > 2`).
UNION = Joiners(words=("or",), cjk=("或者", "或"), commands=("lor",))
# An intersection of conditions (`x > 1 且 x < 3`, `x > 1 \land x < 3`).
INTERSECTION = Joiners(words=("and",), cjk=("并且", "且"), commands=("land",))
# The words of `UNION` and `INTERSECTION` that answers also write inside `\text{}`.
UNION_IN_TEXT = Joiners(words=("or",), cjk=("或",))
INTERSECTION_IN_TEXT = Joiners(words=("and",), cjk=("且",))
