"""sympy's `parse_expr(code, evaluate=False)` for the explicit code `scoring.parse.mathparse`
writes, built straight from Python's own parser.

`parse_expr` tokenizes, runs its token transformations, rewrites the syntax tree
(`EvaluateFalseTransformer`), compiles and evaluates it: about half a millisecond a side, the
largest share of the offline checks' time. The converter already writes explicit syntax (every
product has its `*`, `^` is `**`), so on code made only of decimal numbers, known names, `+ - * /
**`, signs and calls of the namespace's functions, those transformations change nothing and the
same objects can be built from `ast.parse` directly, five times faster. They are built as the
transformer builds them: `a - b` is `Add(a, Mul(-1, b))`, `a / b` is `Mul(a, Pow(b, -1))`,
nested sums and products are flattened into one, the functions it names get `evaluate=False`,
and signs are applied evaluated. Anything else (an unknown name, a symbol called like a
function, `%`, a keyword, a number written another way) gives None: the caller then asks
`parse_expr`. The two are compared on generated expressions in
tests/scoring/parse/test_direct_parse.py.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Mapping
from dataclasses import dataclass

import sympy
from sympy.parsing.sympy_parser import EvaluateFalseTransformer

# Names whose calls `parse_expr` treats specially (flattening, string arguments): left to it.
_LEFT_TO_SYMPY = frozenset({"Add", "Mul", "Pow", "Symbol", "Integer", "Float", "__builtins__"})
_EVALUATE_FALSE = frozenset(EvaluateFalseTransformer.functions)
_CODE = re.compile(r"[\w.\s+\-*/(),]+")
_INTEGER = re.compile(r"[0-9]+")
_DECIMAL = re.compile(r"[0-9]*\.[0-9]*")


class Declined(Exception):
    """The code holds something this builder does not read the way `parse_expr` does."""


@dataclass(frozen=True)
class _Op:
    """A sum, product or power not built yet: the transformer flattens a sum inside a sum (a
    product inside a product) before anything is evaluated."""

    func: type[sympy.Basic]
    args: tuple[object, ...]


def _flat(args: tuple[object, ...], func: type[sympy.Basic]) -> tuple[object, ...]:
    out: list[object] = []
    for arg in args:
        if isinstance(arg, _Op) and arg.func is func:
            out.extend(_flat(arg.args, func))
        else:
            out.append(arg)
    return tuple(out)


def _built(x: object) -> object:
    if isinstance(x, _Op):
        return x.func(*(_built(a) for a in x.args), evaluate=False)
    return x


class _Builder:
    def __init__(self, code: str, names: frozenset[str], namespace: Mapping[str, object]) -> None:
        self.code, self.names, self.namespace = code, names, namespace

    def build(self, node: ast.AST) -> object:
        if isinstance(node, ast.Constant):
            return self._number(node)
        if isinstance(node, ast.Name):
            return self._name(node.id)
        if isinstance(node, ast.Call):
            return self._call(node)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            operand = _built(self.build(node.operand))
            return -operand if isinstance(node.op, ast.USub) else +operand  # type: ignore[operator]
        if isinstance(node, ast.BinOp):
            return self._binary(node)
        raise Declined

    def _number(self, node: ast.Constant) -> object:
        text = ast.get_source_segment(self.code, node) or ""
        if (
            isinstance(node.value, int)
            and not isinstance(node.value, bool)
            and _INTEGER.fullmatch(text)
        ):
            return sympy.Integer(text)
        if isinstance(node.value, float) and _DECIMAL.fullmatch(text):
            return sympy.Float(text)
        raise Declined

    def _name(self, name: str) -> object:
        if name in self.names:
            return sympy.Symbol(name)
        value = self.namespace.get(name)
        if value is None or name in _LEFT_TO_SYMPY or callable(value):
            raise Declined
        return value

    def _call(self, node: ast.Call) -> object:
        func = node.func
        if (
            node.keywords
            or not isinstance(func, ast.Name)
            or func.id in self.names
            or func.id in _LEFT_TO_SYMPY
            or any(isinstance(a, ast.Starred) for a in node.args)
        ):
            raise Declined
        function = self.namespace.get(func.id)
        if not callable(function):
            raise Declined
        args = [_built(self.build(a)) for a in node.args]
        if func.id in _EVALUATE_FALSE:
            return function(*args, evaluate=False)
        return function(*args)

    def _binary(self, node: ast.BinOp) -> object:
        right = self.build(node.right)
        left = self.build(node.left)
        op = node.op
        if isinstance(op, ast.Add):
            return _Op(sympy.Add, _flat((left, right), sympy.Add))
        if isinstance(op, ast.Sub):
            negated = _Op(sympy.Mul, (sympy.Integer(-1), right))
            return _Op(sympy.Add, _flat((left, negated), sympy.Add))
        if isinstance(op, ast.Mult):
            return _Op(sympy.Mul, _flat((left, right), sympy.Mul))
        if isinstance(op, ast.Div):
            inverse = _Op(sympy.Pow, (right, sympy.Integer(-1)))
            return _Op(sympy.Mul, _flat((left, inverse), sympy.Mul))
        if isinstance(op, ast.Pow):
            return _Op(sympy.Pow, (left, right))
        raise Declined


def direct_parse(
    code: str, names: frozenset[str], namespace: Mapping[str, object]
) -> sympy.Basic | None:
    """What `parse_expr(code, local_dict={n: Symbol(n)}, global_dict=namespace,
    evaluate=False)` returns, or None when this builder declines the code (then ask
    `parse_expr`)."""
    if not _CODE.fullmatch(code):
        return None
    try:
        tree = ast.parse(code, mode="eval")
        expr = _built(_Builder(code, names, namespace).build(tree.body))
    except (Declined, SyntaxError, ValueError, TypeError, RecursionError, MemoryError):
        return None
    return expr if isinstance(expr, sympy.Basic) else None
