"""A rewrite must not change the value: "that simplifies to", "expanding, we get", "becomes".

When a step announces that it rewrites an expression (simplify, expand, becomes, we get), the
expression before the cue and the one after it must be the same function of their variables. A
changed number or operator inside an algebraic rewrite (ReasonEval's "random number" and "random
operation" perturbations, Xia et al. 2024) breaks that, and the plain symbolic check cannot see
it because neither side is closed. Equality is tested numerically, Schwartz-Zippel style
(Schwartz 1980), by `scoring.parse.differ`: both sides are evaluated at a few fixed rational
points; identical functions agree everywhere, different ones almost never agree.

Only clear cases are decided: the rewritten text must be a whole expression (not "the numerator
simplifies to", "the first equation becomes"), relations are compared side by side only when one
side stays the same (then the other must too; a zero side allows a constant factor: an equation
`p = 0` may be scaled), and any failure to read or evaluate means "not decided".
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from scoring.parse.differ import differ, value_at
from scoring.parse.knowns import Equation, linear_row
from scoring.parse.lexicon import operators
from scoring.parse.mathparse import parse_math
from scoring.parse.mathstatements import Op, find_statements, split_chain

_CUE = re.compile(
    r"\b(?:simplifies|simplified|simplify|expands|expanded|reduces)\s+(?:further\s+)?(?:to|into)\b"
    r"|\b(?:simplifying|expanding|multiplying\s+out)(?:\s+(?:this|that|it|everything|further))?"
    r"\s*,?\s*(?:we|I|you)\s+(?:get|have|obtain)\b"
    r"|\b(?:simplify|rewrite|write)\s+(?:this|that|it|the\s+\w+)\s+(?:as|into|to)\b"
    r"|\b(?:that|this|which)\s+(?:is\s+equal\s+to|equals|gives(?:\s+us)?)\b",
    re.IGNORECASE,
)
_REWRITE_VERB = re.compile(r"simplif|expand|multiply|rewrit|write|reduce", re.IGNORECASE)
# What a rewrite acts on: an operation, a power, a fraction or a root.
_REWRITABLE = operators.operator_pattern(operators.REWRITABLE)
# What may stand between a rewritten statement, the cue and the result: nothing that names
# another object ("simplifying the numerator, we get").
_GLUE_AFTER = re.compile(r"^[\s:$\\\[(]*$")
_GLUE_BEFORE = re.compile(
    r"^[\s$.,;:\\\])]*(?:(?:which|this|that|it|and|so|then|further|now)[\s,]*)*$", re.IGNORECASE
)
_STEP_START = re.compile(
    r"^[\s\W]*(?:(?:and|so|then|now|which|this|that|it|further|we|I)[\s,]*)*$", re.IGNORECASE
)
_PART = re.compile(
    r"numerator|denominator|\bleft\b|\bright\b|\bfirst\b|\bsecond\b|\bthird\b|\blast\b|\bterms?\b"
    r"|\bfactors?\b|\bpart\b|coefficient|exponent|\beach\b|\bother\b|\bsquare root\b|\binside\b"
    r"|\bbracket|\bparenthes|\bnot\b|n't\b|\bif\b|\bcheck|\bwrong|\bmistake|\binstead",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class BrokenRewrite:
    """`after` is announced as a rewrite of `before` but is a different function."""

    before: str
    after: str
    detail: str


@dataclass(frozen=True)
class _Math:
    """A statement as its chain of sides and operators."""

    text: str
    sides: tuple[str, ...]
    ops: tuple[Op | None, ...]


def _statement(text: str) -> _Math | None:
    chain = split_chain(text)
    if not chain:
        return _Math(text, (text,), ())
    if any(op is None for _, op, _ in chain):
        return None
    sides = (chain[0][0], *(rhs for _, _, rhs in chain))
    return _Math(text, sides, tuple(op for _, op, _ in chain))


def _located(step: str) -> list[tuple[int, int, _Math]]:
    """The statements of a step with where they start and end (unplaceable ones left out)."""
    try:
        statements = find_statements(step)
    except (RecursionError, ValueError):
        return []
    out: list[tuple[int, int, _Math]] = []
    for st in statements:
        start = step.find(st.source)
        if start < 0:
            continue
        inner = max(st.source.find(st.text), 0)
        if (m := _statement(st.text)) is not None:
            out.append((start + inner, start + inner + len(st.text), m))
    return sorted(out, key=lambda x: x[0])


def _closing(step: str, statements: list[tuple[int, int, _Math]]) -> _Math | None:
    """The statement a step ends with (only punctuation after it)."""
    if not statements:
        return None
    _, end, math = statements[-1]
    return math if re.fullmatch(r"[\s$.,;:\\\])]*", step[end:]) else None


def _linear_mismatch(bl: str, br: str, al: str, ar: str) -> bool:
    """Two linear equations in the same unknowns that are not multiples of each other."""
    first, second = linear_row(Equation(bl, br)), linear_row(Equation(al, ar))
    if first is None or second is None or first[0].keys() != second[0].keys():
        return False
    (ca, ka), (cb, kb) = first, second
    pivot = next(iter(sorted(ca)))
    factor = cb[pivot] / ca[pivot]
    return any(cb[v] != factor * c for v, c in ca.items()) or kb != factor * ka


def _not_a_multiple(bl: str, br: str, al: str, ar: str) -> bool:
    """A linear equation in several unknowns, restated: only a multiple of it says the same.

    (One unknown is left to `scoring.judge.checks.step_consequence`, which compares roots.)
    """
    premise = linear_row(Equation(bl, br))
    if premise is None or len(premise[0]) < 2:
        return False
    ea, eb = parse_math(al), parse_math(ar)
    if ea is None or eb is None:
        return False
    if {s.name for s in ea.free_symbols | eb.free_symbols} != premise[0].keys():
        return False
    return differ(f"({bl})-({br})", f"({al})-({ar})", scaled=True) is True


def _is_zero(side: str) -> bool:
    expr = parse_math(side)
    return expr is not None and not expr.free_symbols and value_at(expr, {}) == 0


def _symbols(m: _Math) -> set[str] | None:
    names: set[str] = set()
    for side in m.sides:
        expr = parse_math(side)
        if expr is None:
            return None
        names |= {s.name for s in expr.free_symbols}
    return names


def _compare(before: _Math, after: _Math, may_cancel: bool = True) -> str | None:
    """Why `after` is not a rewrite of `before`, or None when it is or we cannot tell.

    A rewrite may cancel variables but not bring new ones: that is a substitution
    ("7n = 143p + 5 gives 49m + 21 = 143p + 5" with n = 7m + 3), which is not judged here.
    After "gives" or "equals" (`may_cancel` False) a lost variable may just as well have been
    given a value ("the area is $\\pi r^2$, which equals $25\\pi$"), so the variables must stay.
    """
    mine, theirs = _symbols(after), _symbols(before)
    if mine is None or theirs is None or not mine <= theirs or (not may_cancel and mine != theirs):
        return None
    if not before.ops and not after.ops:
        return (
            f"{after.text} is not equal to {before.text}"
            if differ(before.sides[0], after.sides[0])
            else None
        )
    if not after.ops or not before.ops:
        expr, rel = (after, before) if not after.ops else (before, after)
        sides = [
            side
            for side in dict.fromkeys((rel.sides[0], rel.sides[-1]))
            if _operative(_Math(side, (side,), ()))
        ]  # `x = 2` names a value: nothing to rewrite
        verdicts = [differ(expr.sides[0], side) for side in sides]
        if verdicts and all(v is True for v in verdicts):
            return f"{after.text} is not equal to {before.text}"
        return None
    if (set(before.ops) != {"="} or set(after.ops) != {"="}) and (
        before.ops[-1] != after.ops[-1] or len(before.ops) != 1 or len(after.ops) != 1
    ):
        return None
    (bl, br), (al, ar) = (before.sides[0], before.sides[-1]), (after.sides[0], after.sides[-1])
    if (
        before.ops[-1] == "="
        and after.ops[-1] == "="
        and (_linear_mismatch(bl, br, al, ar) or _not_a_multiple(bl, br, al, ar))
    ):
        return f"{after.text} is not equivalent to {before.text}"
    for same_b, same_a, other_b, other_a in ((bl, al, br, ar), (br, ar, bl, al)):
        if differ(same_b, same_a) is False:
            changed = differ(other_b, other_a, scaled=_is_zero(same_b))
            if changed:
                return f"{after.text} does not follow from {before.text}: {other_a} differs from {other_b}"
            return None
    return None


def broken_rewrites(step: str, previous_step: str = "") -> list[BrokenRewrite]:
    """Announced rewrites in `step` whose result differs from what they rewrite. Never raises."""
    try:
        return _broken(step, previous_step)
    except (RecursionError, ValueError, TypeError, AttributeError):
        return []


def _operative(m: _Math) -> bool:
    """Has something to rewrite: an operator or a relation, not a bare name or number."""
    return bool(m.ops) or bool(_REWRITABLE.search(m.text))


def _broken(step: str, previous_step: str) -> list[BrokenRewrite]:
    cues = list(_CUE.finditer(step))
    if not cues or _PART.search(step):
        return []
    mine = _located(step)
    found: list[BrokenRewrite] = []
    for cue in cues[:4]:
        after = next(((pos, m) for pos, _, m in mine if pos >= cue.end()), None)
        if after is None or not _GLUE_AFTER.match(step[cue.end() : after[0]]):
            continue
        earlier = [(end, m) for _, end, m in mine if end <= cue.start()]
        before: _Math | None = None
        if earlier and _GLUE_BEFORE.match(step[earlier[-1][0] : cue.start()]):
            before = earlier[-1][1]
        elif not earlier and previous_step and _STEP_START.match(step[: cue.start()]):
            before = _closing(previous_step, _located(previous_step))
        if before is None or not _operative(before):
            continue
        detail = _compare(
            before, after[1], may_cancel=_REWRITE_VERB.search(cue.group()) is not None
        )
        if detail is not None:
            found.append(BrokenRewrite(before.text, after[1].text, detail))
            break
    return found
