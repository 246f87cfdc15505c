"""LaTeX / plain-text arithmetic to sympy, refusing anything it cannot read safely (docs/architecture.md 4.7).

The converter whitelists tokens and emits explicit Python syntax, so `parse_expr` only ever sees
numbers, operators and names we put in its namespace: prose never becomes math by accident. Input
size and nesting are bounded *before* sympy is called, and expressions are parsed unevaluated
(`evaluate=False`), so `9^{9^{9^{9}}}` or `(10^6)!` cost nothing here; `scoring.parse.numeric` decides
later, with its own bounds, whether they can be evaluated.
"""

from __future__ import annotations

import re
from functools import lru_cache
from tokenize import TokenError
from types import MappingProxyType

import sympy
from sympy.parsing.sympy_parser import (
    convert_xor,
    implicit_multiplication_application,
    parse_expr,
    standard_transformations,
)

from scoring.parse.bases import with_plain_subscripts, with_prefixed_numerals
from scoring.parse.direct_parse import direct_parse
from scoring.parse.lexicon import (
    DECIMAL,
    DEGREE_MARK,
    ELLIPSIS,
    PERCENT_SIGN,
    SCIENTIFIC,
    latex,
    latex_roots,
    mixed_numbers,
    plain_fractions,
    without_thousands_separators,
)
from scoring.parse.names import NAME_TOKEN
from scoring.parse.units import UNIT_AFTER_NUMBER

MAX_CHARS = 300
MAX_DEPTH = 12
MAX_DIGITS = 30

_TRANSFORMS = (*standard_transformations, implicit_multiplication_application, convert_xor)

# What carries no value in a formula: sizing, style and spacing commands (`\left(`,
# `\displaystyle`, `\,`), an escaped dollar sign, an alignment `&` and a tie `~`.
_CLEAN = re.compile(
    r"\\(?:"
    + "|".join((*latex.SIZING, *latex.STYLES, *latex.THIN_SPACES, " "))
    + r")(?![A-Za-z])|\\\$|[&~]"
)
_UNICODE = str.maketrans(
    {
        "×": "*",
        "÷": "/",
        "−": "-",
        "·": "*",
        "⋅": "*",
        "（": "(",
        "）": ")",
        "²": "^2",
        "³": "^3",
        "％": "%",
    }
)


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_SCIENTIFIC = re.compile(r"(?<![\w.^{}\\])(?:" + SCIENTIFIC + r")(?![\d.])")
_E_NOTATION = re.compile(r"(" + DECIMAL + r")[eE]([-+]?\d+)")
_REPEATING = re.compile(r"(?<![\d.])(\d{1,12})\.(\d{2,40})\s*(?:" + ELLIPSIS + ")")
_DEGREE = re.compile(DEGREE_MARK)
_TRIG = "sin|cos|tan"  # the functions whose argument may be written in degrees
# `\cos 60^\circ`, `\sin(30°)`: a trigonometric function of a number of degrees, in radians
_TRIG_DEGREES = re.compile(
    r"(\\?(?:" + _TRIG + r"))\s*(\(|\{)?\s*(" + DECIMAL + r")\s*" + DEGREE_MARK + r"\s*"
    r"(?(2)[)}])"
)
_TOKEN = re.compile(
    r"(?P<name>"
    + NAME_TOKEN
    + r")|(?P<num>"
    + DECIMAL
    + r"|\.\d+)"
    + r"|(?P<cmd>"
    + latex.COMMAND
    + r"|\\[%{}|])|(?P<word>[A-Za-z]+)"
    r"|(?P<op>[-+*/^_()\[\]{}!|%])|(?P<ws>\s+)|(?P<bad>.)",
    re.DOTALL,
)
_FRACS = frozenset({r"\frac", r"\dfrac", r"\tfrac", r"\cfrac"})
_BINOMS = frozenset({r"\binom", r"\dbinom", r"\tbinom"})
_TIMES = frozenset({r"\cdot", r"\times", r"\ast"})
_FLOORS = {r"\lfloor": ("floor", r"\rfloor"), r"\lceil": ("ceiling", r"\rceil")}
_FUNCS = {
    "sin": "sin",
    "cos": "cos",
    "tan": "tan",
    "arcsin": "asin",
    "arccos": "acos",
    "arctan": "atan",
    "ln": "log",
    "exp": "exp",
    "sqrt": "sqrt",
}
# The words this reader reads in plain text: its functions and the constant pi.
PLAIN_WORDS = frozenset(_FUNCS) | {"pi"}
_GREEK = _words(
    "alpha beta gamma delta epsilon varepsilon theta vartheta lambda mu nu xi rho sigma tau phi "
    "varphi chi psi omega Gamma Delta Theta Lambda Sigma Phi Psi Omega"
)
_TWO_LETTER_WORDS = _words(
    "am an as at be by do go he if in is it me my no of on or so to up us we ok"
)

_PERCENT_OF = re.compile("(" + PERCENT_SIGN + r")\s*of\b")


class Refused(ValueError):
    """Raised internally when the text is not arithmetic we can read safely."""


def namespace() -> dict[str, object]:
    """The names a converted expression may use (a fresh dict: `parse_expr` may write to it)."""
    g: dict[str, object] = {
        "__builtins__": {},
        "Integer": sympy.Integer,
        "Float": sympy.Float,
        "Rational": sympy.Rational,
        "Symbol": sympy.Symbol,
        "Add": sympy.Add,
        "Mul": sympy.Mul,
        "Pow": sympy.Pow,
        "pi": sympy.pi,
        "sqrt": sympy.sqrt,
        "Abs": sympy.Abs,
        "factorial": lambda n: sympy.factorial(n, evaluate=False),
        "binomial": lambda n, k: sympy.binomial(n, k, evaluate=False),
        "floor": lambda x: sympy.floor(x, evaluate=False),
        "ceiling": lambda x: sympy.ceiling(x, evaluate=False),
    }
    for name in ("sin", "cos", "tan", "asin", "acos", "atan", "log", "exp"):
        g[name] = getattr(sympy, name)
    return g


class _Converter:
    """Token stream -> explicit Python expression text, with implicit multiplication made explicit."""

    def __init__(self, text: str) -> None:
        self.toks: list[tuple[str, str]] = []
        for m in _TOKEN.finditer(text):
            kind = m.lastgroup or "bad"
            if kind == "bad":
                raise Refused(f"unexpected character {m.group()!r}")
            if kind != "ws":
                self.toks.append((kind, m.group()))
        self.i = 0
        self.depth = 0
        self.names: set[str] = set()

    def _symbol(self, name: str) -> str:
        self.names.add(name)
        return name

    def _next(self) -> tuple[str, str] | None:
        if self.i >= len(self.toks):
            return None
        self.i += 1
        return self.toks[self.i - 1]

    def _peek(self) -> tuple[str, str] | None:
        return self.toks[self.i] if self.i < len(self.toks) else None

    def arg(self, split_digits: bool = True) -> str:
        """One command argument: a brace group, or a single token (`\\frac12` is 1/2)."""
        tok = self._next()
        if tok is None:
            raise Refused("missing argument")
        kind, val = tok
        if val == "{":
            return self.seq("}")
        if kind == "num" and split_digits and len(val) > 1:
            self.toks.insert(self.i, ("num", val[1:]))
            return val[0]
        if kind == "num":
            return _number(val)
        if kind == "name":
            return self._symbol(val)
        if kind == "word":
            if len(val) > 1:
                self.toks.insert(self.i, ("word", val[1:]))
            return self._symbol(val[0])
        if val == r"\pi":
            return "pi"
        raise Refused(f"unsupported argument {val!r}")

    def seq(self, closer: str | None) -> str:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise Refused("nested too deeply")
        out: list[str] = []
        end = False  # the last emitted piece ends an operand
        last_num = False

        def put(piece: str, is_num: bool = False) -> None:
            nonlocal end, last_num
            if end:
                if is_num and last_num:
                    raise Refused("two numbers side by side")
                out.append("*")
            out.append(piece)
            end, last_num = True, is_num

        while True:
            tok = self._next()
            if tok is None:
                if closer is not None:
                    raise Refused("unbalanced group")
                break
            kind, val = tok
            if closer is not None and val == closer and (closer != "|" or end):
                break
            if kind == "num":
                nxt = self._peek()
                if nxt is not None and nxt[1] == "_":
                    self.i += 1
                    put(_in_base(val, self.arg(split_digits=False)), is_num=True)
                else:
                    put(_number(val), is_num=True)
            elif kind == "name":
                put(self._symbol(val))
            elif kind == "word":
                self._word(val, put)
            elif kind == "cmd":
                self._command(val, put, out, last_num)
                if val in _TIMES or val == r"\div":
                    end = last_num = False
            elif val in "([{|":
                inner = self.seq({"(": ")", "[": "]", "{": "}", "|": "|"}[val])
                put(f"Abs({inner})" if val == "|" else f"({inner})")
            elif val in "+-*/":
                out.append(val)
                end = last_num = False
            elif val == "^":
                if not end:
                    raise Refused("exponent without base")
                out.append(f"**({self._exponent()})")
                last_num = False
            elif val == "!":
                nxt = self._peek()
                if not end or (nxt is not None and nxt[1] == "!"):
                    raise Refused("unsupported factorial")
                out.append("!")
                last_num = False
            elif val == "%":
                if not end:
                    raise Refused("stray percent sign")
                out.append("/100")
                last_num = False
            else:
                raise Refused(f"unsupported token {val!r}")
        self.depth -= 1
        if not out:
            raise Refused("empty expression")
        return "".join(out)

    def _exponent(self) -> str:
        tok = self._next()
        if tok is None:
            raise Refused("missing exponent")
        kind, val = tok
        if val == "{":
            return self.seq("}")
        if kind == "num":
            return _number(val)  # plain-text intent: 2^10 means 2 to the 10th
        if val == "-":
            return "-" + self._exponent()
        self.i -= 1
        return self.arg()

    def _word(self, val: str, put) -> None:  # type: ignore[no-untyped-def]
        if val in _FUNCS and (nxt := self._peek()) is not None and nxt[1] in "({":
            self.i += 1
            put(f"{_FUNCS[val]}({self.seq(')' if nxt[1] == '(' else '}')})")
            return
        # pi typed as plain text is the constant, not p times i; a step that names a quantity
        # pi ("let pi be the profit", pi = 7900) is told apart before (`scoring.parse.names`)
        if val == "pi":
            put("pi")
            return
        if len(val) > 2 or val.lower() in _TWO_LETTER_WORDS:
            raise Refused(f"word {val!r} is not math")
        for j, letter in enumerate(val):
            name = letter
            if j == len(val) - 1 and (nxt := self._peek()) is not None and nxt[1] == "_":
                self.i += 1
                sub = self.arg(split_digits=False)
                if not re.fullmatch(r"\w+", sub):
                    raise Refused("complex subscript")
                name = f"{letter}_{sub}"
            put(self._symbol(name))

    def _command(self, val: str, put, out: list[str], last_num: bool) -> None:  # type: ignore[no-untyped-def]
        name = val[1:]
        if val in _FRACS:
            start = self.i
            num, den = self.arg(), self.arg()
            if last_num and re.fullmatch(r"\d+", num) and re.fullmatch(r"\d+", den):
                raise Refused(f"mixed number near {self.toks[start - 1][1]!r}")
            put(f"(({num})/({den}))")
        elif val in _BINOMS:
            put(f"binomial({self.arg()},{self.arg()})")
        elif val == r"\sqrt":
            index = None
            if (nxt := self._peek()) is not None and nxt[1] == "[":
                self.i += 1
                index = self.seq("]")
            radicand = self.arg()
            put(f"sqrt({radicand})" if index is None else f"(({radicand})**(1/({index})))")
        elif val in _FLOORS:  # `\lfloor x \rfloor`, `\lceil x \rceil`: integer parts
            put(f"{_FLOORS[val][0]}({self.seq(_FLOORS[val][1])})")
        elif val in _TIMES:
            out.append("*")
        elif val == r"\div":
            out.append("/")
        elif val == r"\pi":
            put("pi")
        elif val == r"\%":
            out.append("/100")
        elif name in _GREEK:
            put(self._symbol(name))
        elif name in _FUNCS and (nxt := self._peek()) is not None and nxt[1] in "({":
            self.i += 1
            put(f"{_FUNCS[name]}({self.seq(')' if nxt[1] == '(' else '}')})")
        elif name == "log" and (nxt := self._peek()) is not None and nxt[1] == "_":
            self.i += 1
            base = self.arg(split_digits=False)
            put(f"(log({self.arg(split_digits=False)})/log({base}))")
        elif name == "lg":
            put(f"(log({self.arg(split_digits=False)})/log(10))")
        elif name in ("boxed", "mathbf", "textbf", "mathit"):
            put(f"({self.arg()})")
        elif name in ("text", "mathrm", "textrm", "mbox", "operatorname"):
            inner = self.arg(split_digits=False)
            if not re.fullmatch(r"[\d.()]+", inner):
                raise Refused("text inside math")
            put(f"({inner})", is_num=True)
        else:
            raise Refused(f"unsupported command {val}")


def _number(digits: str) -> str:
    if len(digits) > MAX_DIGITS:
        raise Refused("number too long")
    if "." not in digits:
        return digits
    whole, frac = digits.split(".")
    return f"Rational({int(whole or '0') * 10 ** len(frac) + int(frac)},{10 ** len(frac)})"


def _in_base(digits: str, base: str) -> str:
    if "." in digits or not base.isdigit() or not 2 <= int(base) <= 36:
        raise Refused("unsupported base subscript")
    try:
        return str(int(digits, int(base)))
    except ValueError as exc:
        raise Refused("digit out of range for base") from exc


def _repeating(m: re.Match[str]) -> str:
    """`0.181818...` -> 18/99, `6.5555...` -> 59/9: an elided decimal that shows its period."""
    whole, digits = m.group(1), m.group(2)
    for period in range(1, 7):
        for lead in range(4):
            block, rest = digits[lead : lead + period], digits[lead:]
            reps = len(rest) // period
            if len(block) == period and reps >= 2 and rest == block * reps:
                prefix = digits[:lead]
                den = 10**lead * (10**period - 1)
                num = int(whole) * den + int(prefix or "0") * (10**period - 1) + int(block)
                return f"({num}/{den})"
    return m.group()


def _one_number(m: re.Match[str]) -> str:
    """`2.5 \\times 10^{-3}` and `2.5e-3` are one number: `a / 2.5 \\times 10^3` divides by it."""
    if (e := _E_NOTATION.fullmatch(m.group())) is not None:
        return f"({e.group(1)}*10^{{{e.group(2)}}})"
    return f"({m.group()})"


def preclean(text: str) -> str:
    """Drop spacing and sizing commands, units after numbers and unicode operator variants;
    root signs are `\\sqrt` (`5√2`), mixed numbers are sums (`2 1/2`, `2½`).

    A repeating decimal written with an ellipsis becomes its exact fraction; numerals with a base
    prefix or subscript are read in their base (`scoring.parse.bases`).
    """
    text = _REPEATING.sub(_repeating, mixed_numbers(plain_fractions(latex_roots(text))))
    text = with_plain_subscripts(with_prefixed_numerals(text))
    text = _CLEAN.sub(" ", text.translate(_UNICODE))
    text = UNIT_AFTER_NUMBER.sub(" ", text)
    text = _SCIENTIFIC.sub(_one_number, text)
    text = without_thousands_separators(text)
    text = _PERCENT_OF.sub(r"\1 *", text)
    if not re.search(r"\\(?:" + _TRIG + r")|\b(?:" + _TRIG + r")\b", text):
        text = _DEGREE.sub("", text)
    else:
        text = _TRIG_DEGREES.sub(lambda m: f"{m.group(1)}({m.group(3)}*\\pi/180)", text)
    return text.strip()


# `direct_parse` only reads the names; `parse_expr` is given a fresh dict (it may write to it).
_READ_ONLY_NAMESPACE = MappingProxyType(namespace())


def to_python(text: str) -> tuple[str, frozenset[str]]:
    """Translate one side of a relation to explicit sympy syntax and its symbol names.

    Raises:
        Refused: the text is not arithmetic we can read safely.
    """
    if len(text) > MAX_CHARS:
        raise Refused("expression too long")
    cleaned = preclean(text)
    if not cleaned:
        raise Refused("empty expression")
    conv = _Converter(cleaned)
    return conv.seq(None), frozenset(conv.names)


_ERRORS = (
    Refused,
    SyntaxError,
    TypeError,
    ValueError,
    AttributeError,
    RecursionError,
    NameError,
    sympy.SympifyError,
    TokenError,
)
_INTEGER = re.compile(r"[1-9]\d*|0")


@lru_cache(maxsize=4096)
def parse_math(text: str) -> sympy.Basic | None:
    """Unevaluated sympy expression for `text`, or None when it is not arithmetic we can read."""
    try:
        code, names = to_python(text)
    except _ERRORS:
        return None
    return _parse_code(code, names)


@lru_cache(maxsize=4096)
def _parse_code(code: str, names: frozenset[str]) -> sympy.Basic | None:
    """`parse_expr` of converted code, kept per code: different texts convert to the same code
    (`12,000` and `12000`, `12 cm` and `12`), and sympy's parser costs more than the conversion.
    A bare integer, the commonest side, is read without it (the same `Integer`; `007` is not
    bare: sympy reads it as 0*7), and so is the code `direct_parse` builds the same objects for;
    `parse_expr` reads the rest."""
    if _INTEGER.fullmatch(code):
        return sympy.Integer(int(code))
    direct = direct_parse(code, names, _READ_ONLY_NAMESPACE)
    return direct if direct is not None else sympy_parse(code, names)


def sympy_parse(code: str, names: frozenset[str]) -> sympy.Basic | None:
    """sympy's own reading of converted code (`parse_expr`, unevaluated), None where it fails."""
    try:
        local = {name: sympy.Symbol(name) for name in names}
        expr = parse_expr(
            code,
            local_dict=local,
            global_dict=namespace(),
            transformations=_TRANSFORMS,
            evaluate=False,
        )
    except _ERRORS:
        return None
    return expr if isinstance(expr, sympy.Basic) else None
