"""What the words of a step say about how its relations are meant.

The same "1000 ÷ 3 = 333" is a false equation in one step and a correct count of whole boxes in
another; "3 = 0011" is false in decimal and right in binary. A `Reading` collects, once per step,
the context that decides it; `scoring.parse.equations.check_relation` applies it. Each field's reading is
documented in its own module.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from scoring.parse.approximation import significant_figures
from scoring.parse.bases import stated_bases
from scoring.parse.lexicon import APPROXIMATION_WORDS, COUNTING_WORDS, ROUND_UP_WORDS, words
from scoring.parse.names import pi_is_named


@dataclass(frozen=True)
class Reading:
    """How to read the relations of one step.

    Attributes:
        approximate: "=" may be an approximation (`scoring.parse.approximation`).
        figures: significant figures the step says it keeps, if any.
        counting: a whole-number quotient may be a count (`scoring.parse.division`).
        round_up: ... and it counts what is needed, so it may be rounded up.
        bases: bases other than 10 named in the step or its context (`scoring.parse.bases`).
        pi_is_name: π names a quantity here, not the constant (`scoring.parse.names`).
    """

    approximate: bool = False
    figures: int | None = None
    counting: bool = False
    round_up: bool = False
    bases: tuple[int, ...] = ()
    pi_is_name: bool = False


EXACT = Reading()


@lru_cache(maxsize=4096)
def read_context(step: str, context: str = "") -> Reading:
    """The reading of `step`; `context` (the problem, earlier steps) may name a base."""
    approximate = words(APPROXIMATION_WORDS).search(step) is not None
    counting = words(COUNTING_WORDS, ROUND_UP_WORDS).search(step) is not None
    return Reading(
        approximate=approximate,
        figures=significant_figures(step) if approximate else None,
        counting=counting,
        round_up=counting and words(ROUND_UP_WORDS).search(step) is not None,
        bases=stated_bases(f"{context}\n{step}" if context else step),
        pi_is_name=pi_is_named(step),
    )
