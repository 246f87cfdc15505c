"""Generators of hostile text for the property tests: huge and tiny numbers, deep and unbalanced
LaTeX, CJK and other scripts, control characters, blank text, very long solutions.

`PROFILE` is the hypothesis settings every property test runs under: `ci` (bounded, derandomised:
`make test` never flakes on a new seed) unless `STEPGRADE_HYPOTHESIS_PROFILE=fuzz` selects the
long hunt of `make fuzz` (at least 10,000 examples per entry point, random seeds).
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st

_QUIET = [
    HealthCheck.too_slow,
    HealthCheck.data_too_large,
    HealthCheck.large_base_example,
    HealthCheck.filter_too_much,
]
# `ci` does not shrink a failure (on slow inputs that takes minutes): it reports it as found,
# with the blob to replay it; `make fuzz` shrinks.
settings.register_profile(
    "ci",
    max_examples=25,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=_QUIET,
    print_blob=True,
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
)
settings.register_profile(
    "fuzz", max_examples=10_000, deadline=None, suppress_health_check=_QUIET, print_blob=True
)
PROFILE_NAME = os.environ.get("STEPGRADE_HYPOTHESIS_PROFILE", "ci")
PROFILE = settings.get_profile(PROFILE_NAME)
# Lengths of the looping solutions: up to 10,000 steps in `make fuzz`, rarer the longer (the
# judge is linear, ~3 ms a step: 10,000 examples of 5,000 steps would take days); `make test`
# keeps them short (tests/property/test_sizes.py takes 10,000 steps through each entry point).
_FUZZ_SIZES = (
    (20,) * 400
    + (50,) * 300
    + (100,) * 200
    + (300,) * 60
    + (1000,) * 30
    + (3000,) * 8
    + (10_000,) * 2
)
LONG_SIZES = _FUZZ_SIZES if PROFILE_NAME == "fuzz" else (20, 50, 100)

NUMBERS = [
    "1" + "0" * 400,
    "10^{400}",
    "10^400",
    "1e400",
    "1e-400",
    "1E+400",
    "\\frac{1}{10^{400}}",
    "1/10^400",
    "10^{-400}",
    "9^{9^{9^{9}}}",
    "2^{2^{64}}",
    "(10^{400})!",
    "1000!",
    "10!!!!",
    "\\sqrt{10^{400}}",
    "\\sqrt{-1}",
    "0/0",
    "1/0",
    "\\frac{1}{0}",
    "\\infty",
    "-\\infty",
    "nan",
    "inf",
    "0.1" + "0" * 300 + "1",
    "-" + "9" * 500,
    "1,000,000,000,000",
    "3.14159265358979323846",
    "0.333...",
    "0.\\overline{3}",
    "1556_7",
    "0x1F",
    "1_000",
    "٣",
    "３",
    "½",
    "²",
    "1e",
    ".5.",
    "--5",
    "\\binom{10^{400}}{2}",
    "e^{10^{400}}",
    "\\log(0)",
    "\\sin(10^{400})",
    "10^{10^{10}}",
]
LATEX = [
    "\\frac{",
    "\\frac{1}{",
    "\\frac12",
    "}",
    "{",
    "\\left(",
    "\\right)",
    "\\left.",
    "\\begin{cases}",
    "\\end{cases}",
    "\\begin{align}",
    "\\end{matrix}",
    "$$",
    "$",
    "\\[",
    "\\]",
    "\\(",
    "\\)",
    "\\boxed{",
    "\\boxed{}",
    "\\fbox{",
    "\\sqrt[",
    "\\sqrt{",
    "^",
    "_",
    "^^",
    "\\\\",
    "&",
    "\\text{",
    "\\mathrm{",
    "\\cdot",
    "\\times",
    "\\div",
    "=",
    "==",
    "\\neq",
    "\\le",
    "\\geq",
    "\\approx",
    "\\pm",
    "\\dots",
    "...",
    "…",
    "%",
    "\\%",
    "°",
    "^{\\circ}",
    "\\binom{",
    "\\sum_{i=1}^{n}",
    "\\int_0^1",
    "\\lim_{x\\to 0}",
    "\\log_{2}",
    "\\sin",
    "\\pi",
    "e^{",
    "\\unknowncommand",
    "\\",
    "x",
    "y",
    "n",
    "f(x)",
    "=>",
    "\\Rightarrow",
    "\\therefore",
    "\\implies",
    "\\iff",
    "\\{",
    "\\}",
    "【",
    "】",
    "最终答案：【",
    "Final Answer:",
    "# Answer\n",
    "The answer is",
    "the answer is $",
    "Step 1:",
    "(a)",
    "1.",
    "第一步",
    "答案是",
    "####",
    "**Step**",
    "---",
    "Sure, here is",
]
SCRIPTS = [
    "解",
    "方程",
    "所以",
    "因此",
    "答案为",
    "。",
    "，",
    "；",
    "（",
    "）",
    "二",
    "十",
    "①",
    "平方",
    "Ответ",
    "ответ",
    "إجابة",
    "١٢",
    "שלום",
    "ऋण",
    "数学",
    "すうがく",
    "수학",
    "🙂",
    "🧮",
    "∑",
    "√",
    "≤",
    "≠",
    "×",
    "÷",
    "−",
    "·",
    "\u0301",
    "e\u0301",
    "ﬁ",
    "Å",
    "ß",
]
CONTROL = [
    "\x00",
    "\x01",
    "\x07",
    "\x08",
    "\x0b",
    "\x0c",
    "\x1b",
    "\x7f",
    "\u200b",
    "\u200e",
    "\u202e",
    "\ufeff",
    "\u2028",
    "\u2029",
    "\r",
    "\t",
    "\n",
    "\r\n",
    " ",
    "\u3000",
]
SEPARATORS = ["", " ", "\n", "\n\n", ". ", "。", "; ", ", ", "\\\\", " = ", "\t"]

# Any character but a lone surrogate (a GradeRequest refuses those: JSON cannot carry them back).
_CHAR = st.characters(blacklist_categories=("Cs",))


def _joined(parts: list[str], seps: list[str]) -> str:
    out = []
    for i, part in enumerate(parts):
        out.append(part)
        out.append(seps[i % len(seps)] if seps else "")
    return "".join(out)


numbers = st.one_of(
    st.sampled_from(NUMBERS),
    st.integers(min_value=-(10**450), max_value=10**450).map(str),
    st.fractions().map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.decimals(allow_nan=True, allow_infinity=True).map(str),
    st.integers(0, 420).map(lambda k: f"1e{k}"),
    st.integers(0, 420).map(lambda k: f"10^{{-{k}}}"),
)
relations = st.builds(
    lambda a, op, b, rel, c: f"{a} {op} {b} {rel} {c}",
    numbers,
    st.sampled_from(["+", "-", "\\times", "*", "/", "^", "\\cdot", ""]),
    numbers,
    st.sampled_from(["=", "<", ">", "\\le", "\\approx", "\\neq", "=", "="]),
    numbers,
)
nested = st.one_of(
    st.integers(1, 3000).map(lambda n: "{" * n + "x" + "}" * n),
    st.integers(1, 3000).map(lambda n: "{" * n),
    st.integers(1, 3000).map(lambda n: "}" * n),
    st.integers(1, 600).map(lambda n: "\\frac{1}{" * n + "2" + "}" * n),
    st.integers(1, 600).map(lambda n: "\\frac{1}{" * n),
    st.integers(1, 600).map(lambda n: "(" * n + "1" + ")" * n),
    st.integers(1, 600).map(lambda n: "\\sqrt{" * n + "2" + "}" * n),
    st.integers(1, 300).map(lambda n: "2^{" * n + "2" + "}" * n),
    st.integers(1, 500).map(lambda n: "$" * n),
    st.integers(1, 300).map(lambda n: "\\boxed{" * n + "1" + "}" * n),
    st.integers(1, 200).map(lambda n: "\\begin{cases}" * n),
)
fragment = st.one_of(
    st.sampled_from(LATEX),
    st.sampled_from(SCRIPTS),
    st.sampled_from(CONTROL),
    numbers,
    relations,
    nested,
    st.text(_CHAR, max_size=12),
    st.from_regex(r"[a-z]{1,8}( [a-z]{1,8}){0,6}", fullmatch=True),
)
texts = st.one_of(
    st.builds(
        _joined, st.lists(fragment, max_size=25), st.lists(st.sampled_from(SEPARATORS), max_size=4)
    ),
    st.sampled_from(["", " ", "\n", "\t\n  ", "\u3000", "\u200b"]),
    st.text(_CHAR, max_size=200),
)


def _long(step: str, n: int) -> list[str]:
    """`n` steps made from one, each with its own number: a solution that loops."""
    return [f"{step} {i}" for i in range(n)]


steps = st.one_of(
    st.lists(texts, max_size=20),
    st.builds(_long, texts, st.sampled_from(LONG_SIZES)),
)
solutions = st.one_of(texts, steps.map("\n".join))
