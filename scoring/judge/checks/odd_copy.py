"""Restatements that differ from every other copy in one number or one operator.

Solutions copy expressions: from the problem into the first steps, from one step into the next.
When a copy differs from the others in a single number or operator ("the multiples of 7 between
100 and 175" where the problem and the other steps say 200, `3s^g` where the next step has
`3s+g`), the odd copy is most likely the changed one (ReasonEval's "random number" / "random
operation"). Legitimate variation exists (cases tried one by one: "divide 35 by 2", "divide 49
by 2"), so a copy is only called odd when
- its window of `WINDOW` tokens occurs in no other text of the solution (problem included),
- all the other texts that agree with it except at that token agree with each other (one
  alternative, not a family of cases), and at least `MIN_SUPPORT` texts do,
- a changed number occurs nowhere else in the problem or the solution.
Soft evidence: it lowers validity, it never labels a step incorrect.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from scoring.judge.findings import Finding
from scoring.judge.input import JudgeInput
from scoring.parse.lexicon import DECIMAL, NUMBER, latex, without_thousands_separators

WINDOW = 5
MIN_SUPPORT = 2
MIN_CONTEXT = 6  # tokens the odd copy shares with another copy: a copy, not a similar sentence
SIGNS = frozenset({"+", "-"})
OPERATORS = ("-", "+", "*", "/", "^")  # what `_OPERATOR` reads as an operator token
MAX_TOKENS = 4_000  # per text: bounds the work on very long steps
MAX_TOTAL_TOKENS = 20_000  # per solution: beyond this nothing is decided (~0.15 s at the limit)

_TOKEN = re.compile(DECIMAL + r"|[A-Za-z]+|" + latex.COMMAND + r"|[-+*/^=<>()]")
_OPERATOR = re.compile(r"[-+*/^]")
_TIMES = latex.latex_commands(("cdot", "times"))
# Layout between tokens; a thin space is one only before a non-letter (`\,x` is left as written).
_SPACING = latex.latex_commands((*latex.DELIMITER_PAIR, *latex.WIDE_SPACES, "[,;:!]"))


@dataclass(frozen=True)
class OddCopy:
    """A window of step `step` (0-based) whose token `found` the other copies write `expected`."""

    step: int
    window: str
    found: str
    expected: str
    support: int

    @property
    def detail(self) -> str:
        """What the finding says, for a person reading the report."""
        return (
            f'writes {self.found} in "{self.window}" where {self.support} other places '
            f"write {self.expected}"
        )


def _tokens(text: str) -> list[str]:
    text = without_thousands_separators(_SPACING.sub(" ", _TIMES.sub("*", text)))
    return [m.group().lower() for m in _TOKEN.finditer(text)][:MAX_TOKENS]


def _kind(token: str) -> str | None:
    if NUMBER.fullmatch(token):
        return "number"
    if _OPERATOR.fullmatch(token):
        return "operator"
    return None


def _context(a: list[str], at: int, b: list[str], start: int, p: int, window: int) -> int:
    """How many tokens around `a[at]` agree with the copy in `b` whose window starts at `start`
    (the differing token itself included)."""
    left, k = 0, start - 1
    while k >= 0 and at - p + (k - start) >= 0 and a[at - p + (k - start)] == b[k]:
        left, k = left + 1, k - 1
    right, k = 0, start + window
    while k < len(b) and at - p + (k - start) < len(a) and a[at - p + (k - start)] == b[k]:
        right, k = right + 1, k + 1
    return window + left + right


def odd_copies(problem: str, steps: Sequence[str], window: int = WINDOW) -> list[list[OddCopy]]:
    """Per step, its copies that differ from all other copies in one number or operator.

    The other copies of a window at an operator are looked up directly (four other operators);
    those at a number come from an index of the windows with that number masked, built only for
    the masked windows a step's own number can be odd in: most windows never need one."""
    texts = [_tokens(problem), *(_tokens(s) for s in steps)]
    if sum(len(t) for t in texts) > MAX_TOTAL_TOKENS:
        return [[] for _ in steps]
    kinds: dict[str, str | None] = {}  # each distinct token is classified once
    starts: dict[tuple[str, ...], dict[int, int]] = defaultdict(dict)  # window -> text -> start
    numbers: dict[str, set[int]] = defaultdict(set)
    for i, toks in enumerate(texts):
        for tok in toks:
            if tok not in kinds:
                kinds[tok] = _kind(tok)
            if kinds[tok] == "number":
                numbers[tok].add(i)
        for k in range(len(toks) - window + 1):
            starts[tuple(toks[k : k + window])].setdefault(i, k)
    only_in: dict[int, list[tuple[str, ...]]] = defaultdict(list)  # text -> its unique windows
    for w, where in starts.items():
        if len(where) == 1:
            only_in[next(iter(where))].append(w)
    masked = _number_index(starts, kinds, _odd_number_keys(only_in, kinds, numbers, len(texts)))
    result: list[list[OddCopy]] = []
    for i in range(1, len(texts)):
        found: dict[str, OddCopy] = {}
        for w in sorted(only_in[i]):
            for p, tok in enumerate(w):
                kind = kinds[tok]
                if kind is None or tok in found or (kind == "number" and numbers[tok] != {i}):
                    continue
                if kind == "operator":
                    alike = {
                        v: set(starts[copy])
                        for v in OPERATORS
                        if (copy := w[:p] + (v,) + w[p + 1 :]) in starts
                    }
                else:
                    alike = masked.get((p, w[:p] + ("",) + w[p + 1 :]), {})
                others = {
                    v: ids - {i}
                    for v, ids in alike.items()
                    if v != tok and kinds[v] == kind and ids - {i}
                }
                if len(others) != 1:
                    continue
                ((expected, ids),) = others.items()
                if {tok, expected} == SIGNS or len(ids) < MIN_SUPPORT:
                    continue
                copy = w[:p] + (expected,) + w[p + 1 :]
                at = starts[w][i] + p
                context = max(
                    _context(texts[i], at, texts[j], starts[copy][j], p, window) for j in ids
                )
                if context >= MIN_CONTEXT:
                    found[tok] = OddCopy(i - 1, " ".join(w), tok, expected, len(ids))
        result.append(list(found.values()))
    return result


MaskedKey = tuple[int, tuple[str, ...]]  # a window with the token at this position blanked


def _odd_number_keys(
    only_in: dict[int, list[tuple[str, ...]]],
    kinds: dict[str, str | None],
    numbers: dict[str, set[int]],
    n_texts: int,
) -> set[MaskedKey]:
    """The masked windows at which a step's window holds a number found nowhere else."""
    keys: set[MaskedKey] = set()
    for i in range(1, n_texts):
        for w in only_in[i]:
            for p, tok in enumerate(w):
                if kinds[tok] == "number" and numbers[tok] == {i}:
                    keys.add((p, w[:p] + ("",) + w[p + 1 :]))
    return keys


def _number_index(
    starts: dict[tuple[str, ...], dict[int, int]],
    kinds: dict[str, str | None],
    keys: set[MaskedKey],
) -> dict[MaskedKey, dict[str, set[int]]]:
    """For each of `keys`, the numbers every window written so holds there, and in which texts."""
    index: dict[MaskedKey, dict[str, set[int]]] = {}
    if not keys:
        return index
    positions = {p for p, _ in keys}
    for w, where in starts.items():
        for p in positions:
            tok = w[p]
            if kinds[tok] != "number":
                continue
            key = (p, w[:p] + ("",) + w[p + 1 :])
            if key in keys:
                index.setdefault(key, {}).setdefault(tok, set()).update(where)
    return index


def find_odd_copies(inp: JudgeInput) -> list[Finding]:
    """An `odd_copy` finding for each step holding a copy that differs from the others."""
    return [
        Finding("odd_copy", i, copies[0].detail)
        for i, copies in enumerate(odd_copies(inp.problem, inp.steps))
        if copies
    ]
