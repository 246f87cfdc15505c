"""Whether a text tries, hedges, tests or rejects rather than states (`TENTATIVE_WORDS`).

Several checks ask this of the same step: the derivation checks of a step and of the step after
it, and back-substitution twice. The pattern is a long case-insensitive alternation that costs
more than the rest of some checks, so the answer is kept per text (bounded; the text is the key,
so nothing carries over between different texts).
"""

from __future__ import annotations

from functools import lru_cache

from scoring.parse.lexicon import TENTATIVE_WORDS, words

_TENTATIVE = words(TENTATIVE_WORDS)


@lru_cache(maxsize=8192)
def is_tentative(text: str) -> bool:
    """Whether a step only explores (supposes, tries, checks, rejects): its values are not
    ones the solution settles on."""
    return _TENTATIVE.search(text) is not None
