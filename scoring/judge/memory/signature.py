"""What identifies a step of a given problem, read without a model: the values it computes and
the characters it is written in.

The numbers a step derives or mentions that the problem does not state (and that are not 0, 1
or 2) are what its work produced: two solutions that compute 2400 at some point have both done
that piece of work, whatever their wording. Where a step has none of its own, the wording is the
identity: character bigrams of the text (math included), which read Chinese, where the default
sentence-embedding model (all-MiniLM-L6-v2) does not.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from scoring.parse.quantities import TRIVIAL, extract_quantities, literal_numbers

_NOISE = re.compile(r"[\s$\\{}()\[\]（）【】，。；：,.;:!?！？、]+")


@dataclass(frozen=True)
class Signature:
    """A step's own values (derived and mentioned, the problem's left out) and its bigrams."""

    results: frozenset[str]
    values: frozenset[str]
    grams: frozenset[str]


def _grams(text: str) -> frozenset[str]:
    flat = _NOISE.sub(" ", text).strip()
    return frozenset(flat[i : i + 2] for i in range(len(flat) - 1) if " " not in flat[i : i + 2])


def given_numbers(problem: str) -> frozenset[str]:
    """The numbers a problem states, with the trivial ones: they identify no step."""
    return frozenset(literal_numbers(problem)) | TRIVIAL


@lru_cache(maxsize=8192)
def signature(step: str, given: frozenset[str]) -> Signature:
    """The step's signature against the numbers its problem gives. Cached by value: a remembered
    step is read again on every grade of its problem, long after `extract_quantities`' own
    cache, which every check shares, has let it go."""
    q = extract_quantities(step)
    numeric = {v for v in (*q.produced, *q.used) if v[:1].isdigit()}
    results = frozenset(v for v in q.produced if v[:1].isdigit()) - given
    return Signature(results, frozenset(numeric) - given, _grams(step))


def _jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    """|a & b| / |a | b|, 0 for two empty sets; the union is counted, not built."""
    if not (a or b):
        return 0.0
    shared = len(a & b)
    return shared / (len(a) + len(b) - shared)


def similarity(a: Signature, b: Signature) -> float:
    """How alike two steps of one problem are, in [0, 1]: the overlap of their own values when
    either has any (a shared value counts for more than shared wording), else of their bigrams."""
    words = _jaccard(a.grams, b.grams)
    if not (a.values or b.values):
        return words
    return 0.7 * _jaccard(a.values, b.values) + 0.3 * words


def solution_signature(steps: Sequence[str], problem: str) -> frozenset[str]:
    """A whole solution as one set: the values its steps compute (marked `=`) and the bigrams
    they are written in."""
    given = given_numbers(problem)
    out: set[str] = set()
    for step in steps:
        sig = signature(step, given)
        out |= {f"={v}" for v in sig.values} | sig.grams
    return frozenset(out)


def typicality(signatures: Sequence[frozenset[str]]) -> list[float]:
    """For each solution of one problem, its mean Jaccard similarity to the others (0 alone):
    how much of what a class wrote it shares."""
    n = len(signatures)
    if n < 2:
        return [0.0] * n
    return [
        sum(_jaccard(a, b) for j, b in enumerate(signatures) if j != i) / (n - 1)
        for i, a in enumerate(signatures)
    ]
