"""`direct_parse` builds what sympy's `parse_expr` builds for the converter's code, or declines."""

from __future__ import annotations

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.parse.direct_parse import direct_parse
from scoring.parse.mathparse import namespace, parse_math, sympy_parse, to_python

NAMES = frozenset({"x", "y", "a_1", "T"})


def _same(code: str, names: frozenset[str] = NAMES) -> sympy.Basic:
    direct = direct_parse(code, names, namespace())
    assert direct is not None, code
    reference = sympy_parse(code, names)
    assert reference is not None and sympy.srepr(direct) == sympy.srepr(reference), code
    return direct


@pytest.mark.parametrize(
    "code",
    [
        "1+(-81)",
        "2*3+2",
        "((1)/(3))*36",
        "(-2)/(160-2*x)",
        "x-y-T",
        "x/y/T",
        "-x**(2)",
        "-(x+1)",
        "+x",
        "x**(2)+4*x+4+y**(2)-10*y+25",
        "Rational(45,10)/100",
        "sqrt(((1)/(4)))",
        "sin(45*pi/180)",
        "Abs(a_1)+Abs(x)",
        "2**(x**(2))*5**(x**(2))",
        "1.50*2",
        ".5+2.",
        "0",
        "factorial(5)/(factorial(2)*factorial(3))",
        "floor(7/2)",
        "log(x)-log(y)",
        "x*(y*(T*2))",
    ],
)
def test_the_converters_code_reads_as_sympy_reads_it(code):
    _same(code)


def test_a_difference_and_a_quotient_keep_their_unevaluated_shape():
    assert sympy.srepr(_same("7-2")) == "Add(Integer(7), Mul(Integer(-1), Integer(2)))"
    assert sympy.srepr(_same("6/3")) == "Mul(Integer(6), Pow(Integer(3), Integer(-1)))"
    assert len(_same("1+2+3-4").args) == 4  # one flat sum, as the transformer writes it


@pytest.mark.parametrize(
    "code",
    [
        "x(2)",  # a symbol called: sympy reads a product
        "7%3",
        "7//2",
        "f(x)",
        "Symbol('x')",
        "sqrt(x, evaluate=True)",
        "Add(1,2)",
        "1_000",
        "0x1F",
        "2j",
        "1e5",
        "x if y else T",
        "[1,2]",
        "lambda: 1",
        "(1,2)",
        "q+1",
        "sqrt",
    ],
)
def test_what_it_does_not_read_is_left_to_sympy(code):
    assert direct_parse(code, NAMES, namespace()) is None


def test_parse_math_reads_latex_as_sympy_reads_its_conversion():
    for text in (
        "\\frac{1}{2} + 3",
        "2 \\times (5 - 1)^2",
        "\\sqrt{16} - x",
        "3.5\\%",
        "a_1 - 2(b + 1)",
    ):
        code, names = to_python(text)
        expr = parse_math(text)
        assert expr is not None and sympy.srepr(expr) == sympy.srepr(sympy_parse(code, names))


_LEAVES = st.sampled_from(
    ["0", "1", "2", "7", "12", "30", "1.5", ".5", "2.", "0.25", "x", "y", "a_1", "T", "pi", "w"]
)
_CODE = st.recursive(
    _LEAVES,
    lambda inner: st.one_of(
        st.tuples(inner, st.sampled_from(["+", "-", "*", "/", "**"]), inner).map(
            lambda t: f"{t[0]}{t[1]}{t[2]}"
        ),
        st.tuples(inner, st.sampled_from(["+", "-", "*", "/", "**"]), inner).map(
            lambda t: f"({t[0]}){t[1]}({t[2]})"
        ),
        inner.map(lambda a: f"-{a}"),
        inner.map(lambda a: f"-({a})"),
        st.tuples(st.sampled_from(["sqrt", "Abs", "sin", "log", "exp", "floor"]), inner).map(
            lambda t: f"{t[0]}({t[1]})"
        ),
        st.tuples(st.integers(1, 20), st.integers(1, 20)).map(lambda t: f"Rational({t[0]},{t[1]})"),
    ),
    max_leaves=6,
)


@settings(max_examples=300, deadline=None, derandomize=True, database=None)
@given(_CODE)
def test_generated_expressions_read_as_sympy_reads_them(code):
    direct = direct_parse(code, NAMES, namespace())
    if "w" in code:  # a name nobody declared: left to sympy
        assert direct is None
        return
    reference = sympy_parse(code, NAMES)
    assert direct is not None and reference is not None
    assert sympy.srepr(direct) == sympy.srepr(reference)
