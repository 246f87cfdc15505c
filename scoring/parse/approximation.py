"""How close two values must be for a step's "=" or "≈" to hold: the precision a value is written with.

The third rule of the tolerance policy (`scoring.parse.tolerance`, which says why it differs
from the answer rules). A value written as a decimal with k places claims k places: `2/3 = 0.67`
and `2/3 = 0.66` (rounded or truncated) hold, `2/5 = 0.5` does not, since 0.4 is exact at one
place. Tolerance: one unit in the last written place, 10^-k (rounding needs half of it,
truncation all of it). Scientific notation counts places of the mantissa: `3.33 \\times 10^{-3}`
is written to 10^-5.

An approximation (the relation is `≈`, or the step says "about", "rounded", "约", "保留两位小数",
"3 significant figures", lexicon `APPROXIMATION_WORDS`) also allows `APPROXIMATE_REL_TOL` of the
value (ReasonEval's "random number" and "random operation" perturbations, a digit or an operator
changed, move a value by far more). A stated number of significant figures s allows one unit in
the s-th significant digit.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction

from scoring.parse.numeric import Value, exact, to_float
from scoring.parse.tolerance import APPROXIMATE_REL_TOL, FLOAT_NOISE
from scoring.parse.units import without_units

_LITERAL = re.compile(
    r"^\s*-?\s*(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?"
    r"(?:\s*(?:\\times|\\cdot|×|\*|·)\s*10\s*\^\s*\{?\s*([-−]?\s*\d+)\s*\}?)?\s*$"
)
_SIGNIFICANT = re.compile(
    r"(\d+)\s*(?:significant\s+(?:figures?|digits?)|s\.\s?f\.|sig\.?\s*figs?|位有效数字)",
    re.IGNORECASE,
)


def written_place(side: str) -> tuple[int, bool] | None:
    """For a side that is a bare number: the exponent of its last written place (`0.67` -> -2,
    `216` -> 0, `3.3 \\times 10^{-3}` -> -4) and whether it shows a decimal point."""
    m = _LITERAL.match(without_units(side))
    if m is None:
        return None
    places = len(m.group(1)) if m.group(1) else 0
    exponent = int(m.group(2).replace("−", "-").replace(" ", "")) if m.group(2) else 0
    return exponent - places, places > 0


def significant_figures(context: str) -> int | None:
    """The number of significant figures a step says it keeps ("to 3 significant figures")."""
    m = _SIGNIFICANT.search(context)
    return int(m.group(1)) if m and 0 < int(m.group(1)) <= 15 else None


def tolerance(side: str, other: Value, approximate: bool, figures: int | None = None) -> float:
    """How far the value of the other side may be from this side's bare number (0: exact)."""
    found = written_place(side)
    if found is None:
        return 0.0
    place, decimal = found
    exact = isinstance(other, Fraction) and (other * Fraction(10) ** -place).denominator == 1
    allowed = 0.0
    if approximate or (decimal and not exact):
        allowed = 10.0**place  # rounded or truncated to the written place
    if approximate and figures is not None and other != 0:
        magnitude = abs(to_float(other))
        if not math.isfinite(magnitude):
            return allowed
        digit = math.floor(math.log10(magnitude)) - figures + 1
        allowed = max(allowed, 10.0**digit)
    return allowed


def close(
    a: Value, b: Value, lhs: str, rhs: str, approximate: bool, figures: int | None = None
) -> bool:
    """`a` (the value of `lhs`) and `b` (of `rhs`) are equal up to float noise or up to the
    precision the writer shows (see the module docstring)."""
    if isinstance(a, Fraction) and isinstance(b, Fraction) and a == b:
        return True
    scale = max(abs(to_float(a)), abs(to_float(b)), 1e-12)
    ea, eb = exact(a), exact(b)
    diff = to_float(abs(ea - eb)) if ea is not None and eb is not None else abs(float(a) - float(b))
    floats = not isinstance(a, Fraction) or not isinstance(b, Fraction)
    if floats and diff <= FLOAT_NOISE * max(scale, 1.0):  # float noise: sin(3pi) is 3.7e-16, not 0
        return True
    allowed = max(tolerance(lhs, b, approximate, figures), tolerance(rhs, a, approximate, figures))
    if approximate:
        allowed = max(allowed, APPROXIMATE_REL_TOL * scale)
    return diff < allowed * (
        1 - FLOAT_NOISE
    )  # a whole unit off is a different value: 2 + 3 ≈ 6 is false
