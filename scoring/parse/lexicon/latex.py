"""LaTeX commands by name: `\\frac`, `\\left`, `\\,`, `\\boxed`, matched as TeX reads them.

TeX takes the longest run of letters after a backslash as a command's name, so a pattern for
`\\le` must not find the start of `\\leq` or `\\left`: a name is followed by no letter. A
one-character command (`\\,`, `\\;`) needs no such boundary. The builder is cached, as
Math-Verify's `parser.py` caches the regexes it builds from its configs.
"""

from __future__ import annotations

import re
from functools import lru_cache

# Commands that size a delimiter (`\left(`, `\bigl[`, `\Biggr)`): they mean nothing alone.
DELIMITER_PAIR = ("left", "right")
SIZING = (*DELIMITER_PAIR, "[bB]igg?[lr]?")
# Commands that set the math style: `\displaystyle \frac{1}{2}` is `\frac{1}{2}`.
STYLES = ("displaystyle", "textstyle")
# Wide spaces (`\quad`, `\qquad`) and thin ones (`\,`, `\;`, `\:`, `\!`, a negative space).
WIDE_SPACES = ("quad", "qquad")
THIN_SPACES = ",;:!"
# The box an answer is put in (`\boxed{7}`, `\fbox{7}`), without its braces.
BOX = r"\\(?:boxed|fbox)"
# A fraction: `\frac`, and `\dfrac`, `\tfrac`, which only set its size.
FRAC = r"\\[dt]?frac"
# A fraction or a continued fraction's step (`\cfrac`), which answers also write for a fraction.
ANY_FRAC = r"\\[dtc]?frac"
# Any command by its name (`\frac`, `\alpha`, `\text`), without its arguments: TeX reads the
# longest run of letters after the backslash.
COMMAND = r"\\[A-Za-z]+"
COMMAND_NAME = re.compile(COMMAND)


# Where a name starts: not after a letter (inside a longer word) nor after a backslash (the
# name of a command: the `pi` of `\pi`).
NAME_START = r"(?<![A-Za-z\\])"


@lru_cache(maxsize=256)
def function_call(name: str) -> re.Pattern[str]:
    """`name` applied to an argument (`f(2)`, `g (x)`): function notation, not a product. The
    name starts a word (`NAME_START`); `name` is literal text."""
    return re.compile(NAME_START + re.escape(name) + r"\s*\(")


def fraction(numerator: str, denominator: str, command: str = FRAC) -> str:
    """A fraction command and its two braced arguments, `numerator` and `denominator` being the
    regexes each brace holds (`\\frac{3}{4}`, `\\dfrac {a} {b}`)."""
    return command + r"\s*\{" + numerator + r"\}\s*\{" + denominator + r"\}"


def command_alternatives(names: tuple[str, ...], symbols: str = "") -> str:
    """`\\name` for any of `names` (regex alternatives), matched whole, or a one-character command
    of `symbols`, as one regex alternation (no group around it)."""
    parts = [r"\\(?:" + "|".join(names) + r")(?![A-Za-z])"] if names else []
    if symbols:
        parts.append(r"\\[" + "".join(re.escape(c) for c in symbols) + "]")
    return "|".join(parts)


@lru_cache(maxsize=64)
def latex_commands(names: tuple[str, ...], symbols: str = "") -> re.Pattern[str]:
    """The compiled pattern that finds any of the commands (`command_alternatives`)."""
    return re.compile(command_alternatives(names, symbols))
