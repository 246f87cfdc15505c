"""A fixed split of every data set by problem into a fit half and a check half.

Rules and constants are fitted on the fit half only and reported on both: a change that helps
the fit half and hurts the check half does not generalise. The split hashes the problem text,
so all solutions of one problem (StepMathBench has five) land in the same half, and it never
depends on row order.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from eval_sets.items import GoldItem

Half = Literal["fit", "check"]
HALVES: tuple[Half, ...] = ("fit", "check")
_SPACE = re.compile(r"\s+")


def problem_digest(problem: str) -> bytes:
    """A hash of the problem's text (spacing aside): every split by problem reads its bytes, so
    all solutions of one problem land on the same side."""
    return hashlib.sha1(_SPACE.sub(" ", problem).strip().encode("utf-8")).digest()


def half_of(problem: str) -> Half:
    """The half of a problem: the first byte of its digest, even for fit."""
    return "fit" if problem_digest(problem)[0] % 2 == 0 else "check"


def in_half(items: Sequence[GoldItem], half: Half) -> list[GoldItem]:
    """The items whose problem falls in `half`, in their order."""
    return [item for item in items if half_of(item.request.problem) == half]
