"""Relation signs: which of `=`, `<`, `\\le`, `≈`, ... a reader looks for, built from a spec.

Each reader needs its own set (an answer's condition looks for inequalities only, a relation chain
for every relation LaTeX writes, a value is closed off by a comma as much as by `=`), but the
shape is one: LaTeX commands matched as whole names (TeX reads the longest run of letters as the
command's name, so `\\le` is no prefix of `\\leq` nor of `\\left`), then the signs typed as
characters. The specs are frozen dataclasses and the builder is cached, as Math-Verify's
`parser.py` builds its extraction regexes from its configs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from scoring.parse.lexicon.latex import command_alternatives


@dataclass(frozen=True)
class RelationSigns:
    """Which relations a reader finds.

    `commands` are LaTeX command names without the backslash. `signs` are regex alternatives for
    signs typed as characters, tried in order: a longer sign (`<=`) before its prefix (`<`).
    """

    commands: tuple[str, ...] = ()
    signs: tuple[str, ...] = ()


def relation_alternatives(spec: RelationSigns) -> str:
    """The spec as one regex alternation (no group around it), to embed in a larger pattern."""
    commands = [command_alternatives(spec.commands)] if spec.commands else []
    return "|".join([*commands, *spec.signs])


@lru_cache(maxsize=64)
def relation_pattern(spec: RelationSigns) -> re.Pattern[str]:
    """The compiled pattern that finds any relation of `spec`."""
    return re.compile(relation_alternatives(spec))


_ORDER_COMMANDS = ("le", "ge", "leq", "geq", "lt", "gt")
_ORDER_SIGNS = ("<", ">", "≤", "≥")

# An inequality between two sides: `<`, `\le`, `\geq`, `≥`, ... (strict or not).
INEQUALITY = RelationSigns(_ORDER_COMMANDS, _ORDER_SIGNS)
# An equation or an inequality: what makes an answer's text a statement rather than a value.
EQUATION_OR_INEQUALITY = RelationSigns(_ORDER_COMMANDS, ("=", *_ORDER_SIGNS))
# A condition on a variable, as answers write one; `\leqslant` is the slanted `\leq`.
CONDITION = RelationSigns((*_ORDER_COMMANDS, "leqslant", "geqslant"), _ORDER_SIGNS)
# The inequalities a solution set is written with (`x < 1`, `x \geq 2`); `\lt` and `\gt`, which
# only some renderers know, are not among them.
SOLUTION_SET_INEQUALITY = RelationSigns(
    ("le", "ge", "leq", "geq", "leqslant", "geqslant"), _ORDER_SIGNS
)
# Every relation a relation chain is cut at, each sign's name read by
# `scoring.parse.mathstatements`: equality, definition (`:=`), approximation, order, congruence,
# membership, inclusion, divisibility, proportionality. `!=` not after a factorial or a name.
CHAIN = RelationSigns(
    (
        "approx",
        "simeq",
        "neq",
        "ne",
        "leqslant",
        "leq",
        "le",
        "geqslant",
        "geq",
        "ge",
        "lt",
        "gt",
        "equiv",
        "sim",
        "cong",
        "in",
        "notin",
        "subseteq",
        "subset",
        "mid",
        "propto",
        "doteq",
    ),
    ("<=", ">=", r"(?<![\w)}!])!=", ":=", "==", "=", "<", ">", "≈", "≠", "≤", "≥", "≡", "≃"),
)
# The relations a step is counted to state (a feature of its length and kind): `\le`, not `\leq`.
STATED = RelationSigns(
    ("le", "ge", "lt", "gt", "neq", "approx"), ("=", "<", ">", "≤", "≥", "≠", "≈")
)
# A relation inside a math span of prose arithmetic: the span states more than a value.
IN_SPAN = RelationSigns(("le", "ge", "neq", "approx", "pm", "mp"), ("=", "<", ">"))
# What closes off an answer's value: any relation, a set operation, `±`, or a list separator.
AFTER_VALUE = RelationSigns(
    ("le", "ge", "leq", "geq", "neq", "ne", "lt", "gt", "in", "cup", "cap", "pm", "mp", "approx"),
    ("=", "<", ">", "≤", "≥", "≠", ",", ";"),
)
# A bound in a condition written in prose (`a>2`, `1 ≤ x`), non-strict signs typed either way.
BOUND = RelationSigns(("le", "ge", "leq", "geq"), ("<=?", ">=?", "≤", "≥"))
