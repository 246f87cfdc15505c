"""Arithmetic operators: which of `+`, `×`, `\\times`, `\\frac`, ... a reader takes for an
operation, built from a spec.

Whether a text computes something ("52 + 24", `3 \\times 4`, `\\frac{1}{2}`) or only names a value
is asked by several readers, each with its own set: a calculation between numbers is written with
the four signs and their LaTeX commands; a text that may be rewritten counts powers, fractions and
roots too. The shape is one: signs typed as characters (a character class), then LaTeX commands
by name after the backslash. Commands are matched as written, with no boundary after the name,
as every reader here writes them. Specs are frozen dataclasses, as in `relations` and `joiners`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache


@dataclass(frozen=True)
class Operators:
    """Which operators a reader finds: `signs` typed as characters, `commands` LaTeX command
    names without the backslash (regex alternatives)."""

    signs: str = ""
    commands: tuple[str, ...] = ()


def operator_alternatives(spec: Operators) -> str:
    """The spec as one regex alternation (no group around it), to embed in a larger pattern."""
    parts = ["[" + "".join(re.escape(c) for c in spec.signs) + "]"] if spec.signs else []
    if spec.commands:
        parts.append(r"\\(?:" + "|".join(spec.commands) + ")")
    return "|".join(parts)


@lru_cache(maxsize=16)
def operator_pattern(spec: Operators) -> re.Pattern[str]:
    """The compiled pattern that finds any operator of `spec`."""
    return re.compile(operator_alternatives(spec))


_FOUR = "-+*/"
# The four operations between numbers, as signs or as LaTeX writes them (`3 \times 4`).
ARITHMETIC = Operators(_FOUR + "×÷", ("times", "cdot", "div"))
# Arithmetic after a number in prose (`2^3`, `\frac{1}{2}`): powers and fractions count too.
PROSE_ARITHMETIC = Operators(_FOUR + "^×÷", ("times", "cdot", "div", "frac"))
# What a rewrite may act on in a formula: an operation, a power, a fraction or a root.
REWRITABLE = Operators(_FOUR + "^", ("frac", "cdot", "times", "sqrt", "div"))
# What computes a value on one side of an equation, rather than states it: any operation, a
# power, a fraction in either size, a root.
COMPUTING = Operators(_FOUR + "×÷·^", ("frac", "dfrac", "div", "times", "cdot", "sqrt"))
