"""Solution sets written as intervals or as inequalities: `(-\\infty, 1) \\cup (2, +\\infty)` and
`x < 1 或 x > 2` are one answer.

A range asked for ("求 a 的取值范围", "for which x ...") is answered either way, and human graders
accept both; math-verify parses both but compares an interval with a relation as different
things. Read here, in the math-verify worker (sympy is loaded there): an answer is a set of reals
when math-verify reads it as an interval, a union of intervals or `x \\in S`, or when it is a
condition on one variable: linear inequalities (chained ones too; an answer states its range
solved, and sympy may take minutes to solve a polynomial one) joined by "or" / 或 (a union) and
by "and" / 且 (an intersection), optionally inside set-builder braces `\\{x \\mid ...\\}`. The
connectives are read from the text, since math-verify reads "x > 1 and x < 3" and "x > 1 or
x < 3" as the same set of two relations. Two answers are equal when both are such sets, at least
one is written as a condition, both conditions name the same variable, and the sets are equal;
equalities (`x = 2`) are not conditions here: they are values, and math-verify's.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from scoring.parse.lexicon import UNESCAPED_DOLLAR, joiners, relations

_SET_BUILDER = re.compile(r"^\\?\{\s*([A-Za-z])\s*(?:\||\\mid)\s*(.+?)\s*\\?\}$", re.DOTALL)
_OR = re.compile(
    r"\s*(?:\\text\s*\{\s*(?:"
    + joiners.joiner_alternatives(joiners.UNION_IN_TEXT)
    + r")\s*\}|"
    + joiners.joiner_alternatives(joiners.UNION)
    + r")\s*"
)
_AND = re.compile(
    r"\s*(?:\\text\s*\{\s*(?:"
    + joiners.joiner_alternatives(joiners.INTERSECTION_IN_TEXT)
    + r")\s*\}|"
    + joiners.joiner_alternatives(joiners.INTERSECTION)
    + r")\s*"
)
_RELATION = relations.relation_pattern(relations.SOLUTION_SET_INEQUALITY)

Parse = Callable[[str], list[Any]]


def condition_set(text: str, parse: Parse) -> tuple[Any, frozenset[Any]] | None:
    """(the set of reals, the variables it was stated in) that a condition `text` describes;
    None when `text` is not a condition on one variable (module docstring). `parse` is
    math-verify's, applied to one inequality at a time."""
    import sympy

    text = UNESCAPED_DOLLAR.sub(" ", text).strip()  # `x<1$ 或 $x>2`: math spans around the words
    variables: set[Any] = set()
    if m := _SET_BUILDER.match(text):
        text = m.group(2)
    if not _RELATION.search(text):
        return None
    union: Any = sympy.EmptySet
    for alternative in _OR.split(text):
        meet: Any = sympy.Reals
        for atom in _AND.split(alternative):
            found = _relation_set(atom.strip(" ,，;；"), parse)
            if found is None:
                return None
            meet = meet.intersect(found[0])
            variables |= found[1]
        union = union.union(meet)
    return (union, frozenset(variables)) if len(variables) == 1 else None


def _relation_set(atom: str, parse: Parse) -> tuple[Any, set[Any]] | None:
    """The set one inequality (or chain of them) in one variable holds on, and its variable."""
    import sympy

    values = parse(f"${atom}$") if atom else []
    relation = values[0] if values else None
    inequality = (
        sympy.core.relational.StrictLessThan,
        sympy.core.relational.LessThan,
        sympy.core.relational.StrictGreaterThan,
        sympy.core.relational.GreaterThan,
    )
    if not (
        isinstance(relation, inequality)
        or (
            isinstance(relation, sympy.And)
            and all(isinstance(a, inequality) for a in relation.args)
        )
    ):
        return None
    symbols = relation.free_symbols
    if len(symbols) != 1:
        return None
    parts = relation.args if isinstance(relation, sympy.And) else (relation,)
    if not all(_linear(r.lhs - r.rhs, next(iter(symbols))) for r in parts):
        return None
    try:
        return relation.as_set(), set(symbols)
    except (NotImplementedError, TypeError, ValueError):
        return None


def _linear(expr: Any, symbol: Any) -> bool:
    """Whether `expr` is linear in `symbol` (degree 0 or 1) with real coefficients, as a range
    solved for its variable is (`2 \\le a`, `x > \\frac{1}{2}`)."""
    import sympy

    try:
        poly = sympy.Poly(expr, symbol)
    except sympy.PolynomialError:
        return False
    return poly.degree() <= 1 and all(c.is_real for c in poly.coeffs())


def written_set(values: list[Any]) -> Any | None:
    """The set of reals math-verify read an answer as: an interval, a union of them, or the set
    of `x \\in S`; None for anything else."""
    import sympy

    value = values[0] if values else None
    if isinstance(value, sympy.Eq) and isinstance(value.rhs, sympy.Set):
        value = value.rhs
    if isinstance(value, (sympy.Interval, sympy.Union)):
        return value
    return None


def same_solution_set(
    gold: tuple[str, list[Any]], pred: tuple[str, list[Any]], parse: Parse
) -> bool:
    """Whether two answers, each an interval or a condition (text, math-verify's reading of
    it), are the same set of reals, at least one of them a condition."""
    sides = []
    for text, values in (gold, pred):
        condition = condition_set(text, parse)
        sides.append(condition if condition is not None else (written_set(values), None))
    (a, a_vars), (b, b_vars) = sides
    if a is None or b is None or (a_vars is None and b_vars is None):
        return False
    if a_vars is not None and b_vars is not None and a_vars != b_vars:
        return False
    return bool(a.symmetric_difference(b).is_empty)
