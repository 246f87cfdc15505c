import time

import pytest

from scoring.parse.mathspans import math_spans, strip_math


def test_every_kind_of_math_span():
    text = r"a $x$ b $$y$$ c \(z\) d \[w\] e \begin{cases}v\end{cases} f \$5 g"
    assert [text[s:e] for s, e in math_spans(text)] == [
        "$x$",
        "$$y$$",
        r"\(z\)",
        r"\[w\]",
        r"\begin{cases}v\end{cases}",
    ]
    assert strip_math(text, "#") == r"a # b # c # d # e # f \$5 g"


def test_inline_dollars_stay_on_their_line():
    text = "it costs $5\nand $x = 2$ here"
    assert [text[s:e] for s, e in math_spans(text)] == ["$x = 2$"]


def test_unclosed_delimiters_are_plain_text():
    assert math_spans(r"\( open \[ open $$ open") == []


@pytest.mark.parametrize(
    "text",
    [
        "\\( " * 100_000 + "$" * 100_000,
        "$a " * 200_000,
        "$1 " * 200_000 + "$",
        "\\begin{x}" * 50_000,
        "".join(f"\\begin{{e{chr(97 + i % 26)}{chr(97 + i // 26 % 26)}}}" for i in range(20_000)),
    ],
)
def test_adversarial_text_is_scanned_in_linear_time(text):
    start = time.monotonic()
    math_spans(text)
    strip_math(text)
    assert time.monotonic() - start < 2.0


@pytest.mark.parametrize(
    ("text", "spans"),
    [
        # currency: reading every `$` as a delimiter leaves one open or closes before a digit
        ("It costs $1.60 + $0.40 = $2.00 in total.", []),
        ("He pays $10 and gets $5 back.", []),
        ("It costs $5, and $x$ is the price.", ["$x$"]),
        ("$x$ costs $5 and $y$ costs $6 more", ["$x$", "$y$"]),
        # math: the delimiters pair up consistently, even when a formula starts with a digit
        ("$3$ apples and $4$ pears", ["$3$", "$4$"]),
        ("$5 + 3 = 8$ and $2 + 2 = 4$.", ["$5 + 3 = 8$", "$2 + 2 = 4$"]),
        ("So $1 + 1 = 2$.", ["$1 + 1 = 2$"]),
    ],
)
def test_dollar_before_a_digit_is_currency_when_pairing_says_so(text, spans):
    assert [text[s:e] for s, e in math_spans(text)] == spans
