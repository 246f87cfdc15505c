"""Names that look like numbers or operators.

- A token of one or two letters directly followed by digits (`O2`, `A1`, `P3`, `x2`, `CO2`,
  `H2SO4`) is a name: a chemical formula, a label, or a subscript written without `_`. It is not
  the product O·2 (a product puts the number first: `2x`).
- "x" (or "X") between two numbers (`3 x 4`, `3x4`) is a times sign, unless the text also uses x
  as a variable (`x = 5`, `2x`, `f(x)`), in which case every x is that variable.
- π is the constant unless the solution defines it as a name: "let π be the profit", `π(Q) =
  ...`, `π = TR - TC`, or `π = <a value no approximation of π could be>` (outside [π/2, 2π]):
  nobody rounds π to 7900, so there π names a quantity.
"""

from __future__ import annotations

import math
import re

from scoring.parse.lexicon import DEFINING_WORDS, PI, latex

# One or two letters, digits, and optionally more letter-digit groups; not inside a word or a
# command, and not after a digit (`2x3` is a product).
NAME_TOKEN = r"(?<![\w\\.])[A-Za-z]{1,2}\d+(?:[A-Za-z]{1,2}\d*)*(?!\w|\.\d)"

_X = re.compile(latex.NAME_START + r"[xX](?![A-Za-z])")
# `0x1F` is a hexadecimal numeral (`scoring.parse.bases`), not 0 times 1F
_X_BETWEEN_NUMBERS = re.compile(r"(?<=\d)(?:(?<!\b0)\s*|\s+)[xX]\s*(?=\d)")
_BARE_PI = re.compile(r"\s*" + PI + r"\s*")
_PI_FUNCTION = re.compile(PI + r"\s*\(\s*[A-Za-z]")
_PI_DEFINED = re.compile(
    r"(?:"
    + "|".join(DEFINING_WORDS)
    + r")\s*\$?\\?\(?\s*"
    + PI
    + r"|"
    + PI
    + r"\s*\$?\s*(?:be|denotes?|represents?|stands?\s+for|表示|代表)\b",
    re.IGNORECASE,
)


def x_is_times(text: str) -> bool:
    """Every standalone x in `text` sits between two numbers: it is a times sign."""
    found = [m.start() for m in _X.finditer(text)]
    if not found:
        return False
    between = {
        m.start() + m.group().index(m.group().strip()) for m in _X_BETWEEN_NUMBERS.finditer(text)
    }
    return set(found) <= between


def with_times_signs(text: str) -> str:
    """`3 x 4` -> `3 × 4` (call only when `x_is_times` holds for the whole step)."""
    return _X_BETWEEN_NUMBERS.sub(" × ", text)


def is_bare_pi(side: str) -> bool:
    """Whether a side is π alone, which a step may use as a name rather than the constant."""
    return _BARE_PI.fullmatch(side) is not None


def cannot_be_pi(value: float) -> bool:
    """No approximation of π is this far off: a side equated with bare π names a quantity."""
    return not math.pi / 2 <= value <= 2 * math.pi


def pi_is_named(step: str) -> bool:
    """The step defines π as a name ("let π be the profit", `π(Q) = ...`)."""
    return _PI_DEFINED.search(step) is not None or _PI_FUNCTION.search(step) is not None
