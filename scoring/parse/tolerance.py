"""How close two numbers must be to be equal: one policy, three rules for three questions.

Every number comparison in `scoring/` that allows any slack takes its constants from here.

1. **An answer written to k decimal places** (`scoring.answer.readings.numbers`): does the
   reference `9.03` state the answer 9.0312? A decimal stands for every value that rounds (half
   up) or truncates to it at its last written place, provided it carries at least
   `MIN_SIGNIFICANT` significant digits; `0.5` or `0.33` state no precision (a short decimal is
   as likely an exact value) and must match exactly (MARIO's numeric tolerance, Math-Verify's
   precision setting). Two computed values, which state no precision at all, differ only by float
   noise: `COMPUTED_REL_TOL`.
   When the problem itself asks for k decimal places ("to two decimal places", "保留两位小数"),
   the reference is the correctly rounded value and an answer within `STATED_PLACE_UNITS` units
   of the k-th place is accepted (`scoring.answer.readings.rounding.within_stated_precision`):
   a solver who rounded intermediate values lands a unit off, and human graders accept it; only
   for decimal places (not whole numbers: another count) and where that unit is within
   `APPROXIMATE_REL_TOL` of the value (a rounding, not another answer).
2. **A computation through rounded quantities** (`scoring.answer.readings.rounding`): two solvers
   who rounded a conversion factor or constant differently reach different numbers that are the
   same answer, so numbers within `ROUNDED_REL_TOL` (relative) are equal, as Qwen2.5-Math's
   `numeric_equal` does for every number. Here it applies only when the problem or the solution
   shows an inexact quantity (an approximation word, or a conversion factor written as a decimal
   of at least `FACTOR_DIGITS` significant digits), so exact counts stay exact: 10000 is not 10001.
3. **A step's "≈"** (`scoring.parse.approximation`): a value written to k places in a step holds
   within one unit of its last place, 10^-k (rounding needs half of it, truncation all of it);
   a step that says it approximates ("≈", "about", "rounded", lexicon `APPROXIMATION_WORDS`) also
   allows `APPROXIMATE_REL_TOL` of the value. Differences of `FLOAT_NOISE` (relative) are noise.

Why the rules differ:

- Rule 1 judges a final answer against a reference, rounded once at the written place; rule 3
  judges a step against its own computation, where a rounded value was often computed from values
  rounded earlier, so errors compound beyond the last place. Rule 3 may be that loose because the
  slips the step check exists for (a digit or an operator changed) move a value by far more than
  1%; rule 1 must not be, since a wrong final answer is often close to the right one.
- Rule 2 is looser than rule 1 (any number of places, not just the written ones) but much tighter
  than rule 3: the whole solution, not a step, is compared, and only a differently rounded input
  may separate two right answers; a 1% slack would accept wrong answers.
"""

from __future__ import annotations

# Rule 1: an answer written to k places
MIN_SIGNIFICANT = 3  # digits a decimal must carry before it states a precision
COMPUTED_REL_TOL = 1e-12  # two computed values: float noise only
STATED_PLACE_UNITS = 1  # units of the place a problem asks for that a rounded answer may be off

# Rule 2: a computation through rounded quantities
ROUNDED_REL_TOL = 1e-4  # Qwen2.5-Math, evaluation/grader.py numeric_equal
FACTOR_DIGITS = 4  # a conversion factor written to this many significant digits is a rounded one

# Rule 3: a step's "=" or "≈"
APPROXIMATE_REL_TOL = 0.01  # an approximation may be 1% off
FLOAT_NOISE = 1e-9  # relative: sin(3pi) evaluates to 3.7e-16, not 0
