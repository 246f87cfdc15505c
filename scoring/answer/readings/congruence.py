"""Answers that name a residue class: `p \\equiv 1 \\pmod{4}` in any of its notations.

A congruence is written `\\pmod{m}`, `(\\bmod m)`, `\\bmod m`, `(mod m)` or `模 m 余 r`, alone or
as the condition of a set (`\\{p \\mid p \\equiv 1 \\pmod 4\\}`), or as the numbers of an
arithmetic progression, `p = 4k + 1` with `k` an integer. math-verify reads none of these as a
congruence: it compares the notations' symbols and calls two ways of writing one class
different. Two answers that each state exactly one residue class (the variable's name aside, as
`drop_names` reads named values) are equal when the moduli are equal and the residues agree
modulo it, and different when the moduli are equal and the residues do not; classes of
different moduli are left to math-verify (`1 mod 2` is the union of `1 mod 4` and `3 mod 4`).
"""

from __future__ import annotations

import re

from scoring.answer.clean import bare, too_long
from scoring.parse.lexicon import latex

_INT = r"([+-]?\s*\d+)"
_MODULUS = r"(?:\\pmod\s*\{?\s*(\d+)\s*\}?|\(?\s*\\?(?:bmod|mod)\s*\{?\s*(\d+)\s*\}?\s*\)?)"
# `x \equiv r (mod m)` and its notations; `≡` or `\equiv`
_CONGRUENCE = re.compile(r"(?:\\equiv|≡)\s*" + _INT + r"\s*" + _MODULUS)
# 模 m 余 r / 除以 m 余 r
_WORDED = re.compile(r"(?:模|除以)\s*(\d+)\s*(?:的)?\s*余(?:数)?\s*(?:为|是)?\s*(\d+)")
# `p = 4k + 1`, `p = 4n - 3`: a letter, an integer times another letter, an integer
_PROGRESSION = re.compile(
    latex.NAME_START
    + r"([A-Za-z])\s*=\s*(\d+)\s*(?:\\cdot\s*|\*\s*)?([A-Za-z])(?![A-Za-z])\s*([+-])\s*(\d+)"
    r"(?![\d.A-Za-z])(?!\s*[*^/({\\])"
)


def residue_class(text: str, progressions: bool = True) -> tuple[int, int] | None:
    """(modulus, least non-negative residue) of the one residue class an answer states, or None
    when it states none, several, or a modulus below 2. `progressions`: read `p = 4k + 1` too."""
    flat = bare(text)
    found: set[tuple[int, int]] = set()
    for m in _CONGRUENCE.finditer(flat):
        residue, modulus = int(m.group(1).replace(" ", "")), int(m.group(2) or m.group(3))
        found.add((modulus, residue))
    for m in _WORDED.finditer(flat):
        found.add((int(m.group(1)), int(m.group(2))))
    for m in _PROGRESSION.finditer(flat) if progressions else ():
        if m.group(1) != m.group(3):
            found.add((int(m.group(2)), int(m.group(5)) * (1 if m.group(4) == "+" else -1)))
    classes = {(modulus, residue % modulus) for modulus, residue in found if modulus >= 2}
    return classes.pop() if len(classes) == 1 else None


def compare_congruences(gold: str, pred: str) -> bool | None:
    """Two residue classes of one modulus are equal when their residues agree modulo it.

    One side must write a congruence: `y = 2x + 3` against `y = 2x + 1` are two lines, not two
    progressions, so a progression is read only against a congruence.
    """
    if too_long(gold, pred):
        return None
    if residue_class(gold, False) is None and residue_class(pred, False) is None:
        return None
    g, p = residue_class(gold), residue_class(pred)
    if g is None or p is None or g[0] != p[0]:
        return None
    return g[1] == p[1]
