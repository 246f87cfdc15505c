"""Answers made of several values: lists of solutions, tuples, vectors and matrices.

- A bare list ("1, 2", "x = 1 or x = 2", "3；4", "2、3", several boxes joined) is a set of
  solutions: order does not matter, every value on one side must be on the other.
- A tuple or bracketed list is ordered; compared with a bare list it is read in order (a tuple
  written without its parentheses), and `(1,2)` never equals `[1,2]` (an interval).
- Named values ("x = 1, y = 2") are matched by name when both sides name them, in order otherwise.
- A matrix is its grid of entries, however it is typeset (pmatrix, bmatrix, array, spacing): a
  different shape, or a cell left empty, is unequal; a one-row or one-column matrix is the vector
  of its entries, and a transposed tuple `(2, 4)^T` is one too. Entries are compared one by one
  (`cells_equal`): numbers by value (`1/2` is `0.5`), any other entry by its text without spacing;
  two numbers that differ make the matrices unequal, an entry read neither way leaves the pair to
  math-verify.
- An answer enumerated by the problem's question marks ("(1) 3 (2) 4", "①是 ②5";
  `scoring.parse.enumeration`) is ordered: part k answers question k.
- A multi-part answer that mixes verdict words with values ("是，3", "No; 2, 5") is compared part
  by part in order (`compare_worded_parts`): a verdict word equals a word of the same polarity
  (是 / 对 / yes, 不是 / 否 / no), a value equals the same value. Human graders accept the parts
  written with other separators and synonyms; a part that differs makes the answers unequal.

Every function here decides only from values it can read exactly (`scoring.answer.readings.numbers`) and
returns None otherwise, leaving the pair to math-verify.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from scoring.answer.clean import bare, normalise, too_long
from scoring.answer.readings.numbers import Value, numeric_value, read_quantity, values_equal
from scoring.answer.readings.words import yes_no
from scoring.parse.enumeration import enumerated_parts
from scoring.parse.lexicon import CJK, joiners

_OPEN, _CLOSE = "([{", ")]}"
_STRONG_SEPARATOR = re.compile(r"\s*[;；]\s*")
_WEAK_SEPARATOR = re.compile(
    r"\s*[,，、]?\s*(?:"
    + joiners.joiner_alternatives(joiners.PARTS)
    + r")\s*|(?<=\S)\s*[,，、]\s*",
    re.IGNORECASE,
)
_LHS = re.compile(r"^([^=<>]{1,40}?)\s*=\s*(?!=)")
_NAME = re.compile(r"^[A-Za-z](?:_\w+|_\([\w,]+\)|\^\(?\w+\)?|')*(?:\([a-z](?:,[a-z])*\))?$")
_CJK_LABEL = re.compile(r"^\s*([" + CJK + r"]{1,4}?)(?:有|是|为|共)?\s*([-+−]?\d.*?)\s*$")
_MATRIX = re.compile(
    r"\\begin\{(pmatrix|bmatrix|Bmatrix|matrix|smallmatrix|array)\}(?:\{[^{}]*\})?(.*?)\\end\{\1\}",
    re.DOTALL,
)
_TRANSPOSE = re.compile(r"\^\s*(?:\{\s*(?:T|\\top)\s*\}|T|\\top)\s*$")
_PM = re.compile(r"\\pm|±")


@dataclass(frozen=True)
class Parts:
    """An answer as values: `ordered` for tuples, vectors and values named by distinct variables
    (x, y, z); `names` when each value is named (x_1 and x_2 name roots of one variable: a set)."""

    values: tuple[str, ...]
    ordered: bool
    brackets: str = ""
    names: tuple[str, ...] = ()


def _depth_split(text: str, separator: re.Pattern[str]) -> list[str]:
    """`text` cut at separators outside any brackets or braces."""
    pieces, depth, start, i = [], 0, 0, 0
    while i < len(text):
        ch = text[i]
        if ch in _OPEN:
            depth += 1
        elif ch in _CLOSE:
            depth = max(0, depth - 1)
        elif depth == 0 and (m := separator.match(text, i)) and m.end() > i:
            pieces.append(text[start:i])
            start = i = m.end()
            continue
        i += 1
    pieces.append(text[start:])
    return [p.strip() for p in pieces]


def _enclosed(text: str) -> tuple[str, str] | None:
    """(brackets, inside) when one pair of brackets encloses the whole text."""
    text = text.strip()
    if text.startswith("\\{") and text.endswith("\\}"):
        return "{}", text[2:-2]
    if len(text) < 2 or text[0] not in _OPEN or text[-1] not in _CLOSE:
        return None
    depth = 0
    for i, ch in enumerate(text):
        depth += ch in _OPEN
        depth -= ch in _CLOSE
        if depth == 0 and i < len(text) - 1:
            return None
    return text[0] + text[-1], text[1:-1]


def _expand_pm(values: list[str]) -> list[str]:
    """`1 \\pm \\sqrt{2}` is the two values `1 + \\sqrt{2}` and `1 - \\sqrt{2}`."""
    out: list[str] = []
    for value in values:
        if len(_PM.findall(value)) == 1:
            out += [_PM.sub("+", value), _PM.sub("-", value)]
        else:
            out.append(value)
    return out


def name_of(value: str) -> tuple[str, str]:
    """(`x_1`, `3`) for `x_1 = 3`: a variable, indexed variable or function of variables set
    equal to a value; (`鸡`, `6只`) for `鸡6只` or `鸡有6只`: a quantity a Chinese word names, as
    a multi-part answer labels its parts; ("", value) when the left side is anything else."""
    if (m := _CJK_LABEL.match(value)) is not None and read_quantity(m.group(2)) is not None:
        return m.group(1), m.group(2)
    m = _LHS.match(value)
    if m is None:
        return "", value
    name = re.sub(r"[\s{}]", "", m.group(1))
    return (name, value[m.end() :].strip()) if _NAME.match(name) else ("", value)


def _unbrace(text: str, times: int = 3) -> str:
    """`{{(2, 4)}}` -> `(2, 4)`: grouping braces around the whole text carry nothing."""
    for _ in range(times):
        if not (text.startswith("{") and _enclosed(text) == ("{}", text[1:-1])):
            break
        text = text[1:-1].strip()
    return text


def _as_vector(text: str) -> str:
    """`{{(2.0, 4.0)}^{T}}` -> `(2.0, 4.0)`: a transposed tuple is the vector of its entries."""
    return _unbrace(_TRANSPOSE.sub("", _unbrace(text)))


def _unknowns(names: Sequence[str]) -> set[str]:
    """The unknowns the names stand for: `x_1`, `x_2` and `x'` are values of `x`."""
    return {re.split(r"[_(^']", n, maxsplit=1)[0] for n in names}


def _named(values: list[str]) -> tuple[list[str], list[str]]:
    pairs = [name_of(v) for v in values]
    return [v for _, v in pairs], [n for n, _ in pairs]


def read_parts(text: str) -> Parts | None:
    """The values of a multi-value answer, or None for a single value.

    A comma between digits in groups of three is a thousands separator, not a list.
    """
    if too_long(text):
        return None
    written = bare(text)
    if read_quantity(written) is not None or "\\boxed" in written:
        return None  # one number; several boxes are math-verify's to join
    if (enumerated := enumerated_parts(written)) is not None:
        values, names = _named(enumerated)
        distinct = all(names) and len(set(names)) == len(names)
        return Parts(tuple(values), True, "", tuple(names) if distinct else ())
    name, value = name_of(written)
    written = _as_vector(value if name and _enclosed(_as_vector(value)) else written)
    enclosed = _enclosed(written)
    inside = enclosed[1] if enclosed else written
    pieces = [p for p in _depth_split(inside, _STRONG_SEPARATOR) if p]
    if len(pieces) < 2:
        pieces = [p for p in _depth_split(inside, _WEAK_SEPARATOR) if p]
    values, names = _named(pieces)
    values = _expand_pm(values)
    if enclosed is None and len(values) < 2:
        return None
    if enclosed is not None and enclosed[0] != "{}":
        return Parts(tuple(values), True, enclosed[0])
    named = len(values) == len(names) and all(names) and len(set(names)) == len(names)
    if not named:
        return Parts(tuple(values), False, "{}" if enclosed else "")
    return Parts(tuple(values), len(_unknowns(names)) == len(names), "", tuple(names))


def matrix_entries(text: str) -> list[list[str]] | None:
    """The rows of cells of the one matrix an answer states (`A = \\begin{pmatrix}...`), or None."""
    if too_long(text):
        return None
    found = _MATRIX.findall(text)
    if len(found) != 1:
        return None
    body = found[0][1].replace("\\hline", "")
    rows = re.split(r"\\\\", body)
    while rows and not rows[-1].strip():
        rows.pop()
    return [[c.strip() for c in row.split("&")] for row in rows]


def one_unknown_set(text: str) -> bool:
    """The text gives one unknown several values (`x = 2 or x = -2`, `x_1 = 3, x_2 = -1`): a
    solution set, whose values are not answers one by one."""
    if too_long(text):
        return False
    pieces = [p for p in _depth_split(bare(text), _WEAK_SEPARATOR) if p]
    values, names = _named(pieces)
    return len(values) >= 2 and all(names) and len(_unknowns(names)) == 1


def _values(items: Sequence[str]) -> list[Value] | None:
    out = []
    for item in items:
        value = numeric_value(item)
        if value is None:
            return None
        out.append(value)
    return out


def _same_set(gold: list[Value], pred: list[Value]) -> bool:
    """Every value on each side equals one on the other (a repeated root counts once)."""
    return all(any(values_equal(g, p) for p in pred) for g in gold) and all(
        any(values_equal(g, p) for g in gold) for p in pred
    )


def _in_order(gold: Sequence[str], pred: Sequence[str]) -> bool | None:
    g, p = _values(gold), _values(pred)
    if g is None or p is None:
        return None
    return len(g) == len(p) and all(values_equal(a, b) for a, b in zip(g, p, strict=True))


def cell_equal(gold: str, pred: str) -> bool | None:
    """One entry against another: verdict words by polarity, numbers by value, anything else
    equal when its text without spacing is; None when that is all it can say about a pair that
    is not equal as text (an expression may be written many ways)."""
    g_word, p_word = yes_no(gold), yes_no(pred)
    if g_word is not None or p_word is not None:
        if g_word is not None and p_word is not None:
            return g_word == p_word
        return False if numeric_value(pred if g_word is not None else gold) is not None else None
    g, p = numeric_value(gold), numeric_value(pred)
    if g is not None and p is not None:
        return values_equal(g, p)
    return True if normalise(bare(gold)) == normalise(bare(pred)) else None


def cells_equal(gold: Sequence[str], pred: Sequence[str]) -> bool | None:
    """Entries in order: False when the counts differ or one pair is decided unequal, True when
    every pair is decided equal, None otherwise."""
    if len(gold) != len(pred):
        return False
    verdicts = [cell_equal(g, p) for g, p in zip(gold, pred, strict=True)]
    if False in verdicts:
        return False
    return True if all(verdicts) else None


def compare_worded_parts(gold: str, pred: str) -> bool | None:
    """Two multi-part answers of which at least one part is a verdict word and every other part
    a number, compared in order part by part (module docstring); None for anything else, so a
    verdict followed by its explanation ("Yes, as 3 > 2") is left to the verdict reading."""
    g, p = worded_parts(gold), worded_parts(pred)
    return None if g is None or p is None else cells_equal(g, p)


def worded_parts(text: str) -> tuple[str, ...] | None:
    """The parts of a multi-part answer of verdict words and numbers, at least one a word
    ("是，3"), or None."""
    parts = read_parts(text)
    if parts is None or len(parts.values) < 2 or parts.names:
        return None
    words = [yes_no(v) is not None for v in parts.values]
    if not any(words) or not all(
        w or numeric_value(v) is not None for w, v in zip(words, parts.values, strict=True)
    ):
        return None
    return parts.values


def compare_parts(gold: str, pred: str) -> bool | None:
    """Two multi-value answers by the rules in the module docstring; None unless every value on
    both sides is a number read exactly, or a list is set against a single number."""
    g, p = read_parts(gold), read_parts(pred)
    if g is None and p is None:
        return None
    if g is None or p is None:
        many = g or p
        assert many is not None
        single, values = numeric_value(gold if g is None else pred), _values(many.values)
        if single is None or values is None:
            return None
        if len(values) != 1:
            return False  # several solutions against one
        return values_equal(single, values[0]) if g is None else values_equal(values[0], single)
    if g.names and p.names and g.ordered and set(g.names) == set(p.names):
        by_name = dict(zip(p.names, p.values, strict=True))
        return _in_order(g.values, [by_name[n] for n in g.names])
    if g.brackets and p.brackets and g.brackets != p.brackets:
        return None  # a tuple, an interval and a set are different things: math-verify's call
    if g.ordered or p.ordered:
        if not (g.ordered and p.ordered) and "{}" in (g.brackets, p.brackets):
            return None
        return _in_order(g.values, p.values)
    gv, pv = _values(g.values), _values(p.values)
    if gv is None or pv is None:
        return None
    return _same_set(gv, pv)


def compare_matrices(gold: str, pred: str) -> bool | None:
    """Matrices entry by entry; a vector against a tuple or list of the same entries in order."""
    g, p = matrix_entries(gold), matrix_entries(pred)
    if g is None and p is None:
        return None
    if g is not None and p is not None:
        if [len(r) for r in g] != [len(r) for r in p]:
            return False
        cells = [(a, b) for ra, rb in zip(g, p, strict=True) for a, b in zip(ra, rb, strict=True)]
        if any(bool(a) != bool(b) for a, b in cells):
            return False
        return cells_equal([a for a, _ in cells], [b for _, b in cells])
    grid, other = (g, pred) if g is not None else (p, gold)
    assert grid is not None
    if min(len(grid), max(len(r) for r in grid)) != 1:
        return None
    vector = [c for row in grid for c in row]
    parts = read_parts(other)
    if parts is None or not parts.ordered or parts.names:
        return None
    pair = (vector, list(parts.values)) if g is not None else (list(parts.values), vector)
    return True if _in_order(*pair) else None
