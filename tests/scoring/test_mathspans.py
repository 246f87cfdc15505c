import time

import pytest

from scoring.mathspans import math_spans, strip_math


def test_every_kind_of_math_span():
    text = r"a $x$ b $$y$$ c \(z\) d \[w\] e \begin{cases}v\end{cases} f \$5 g"
    assert [text[s:e] for s, e in math_spans(text)] == [
        "$x$", "$$y$$", r"\(z\)", r"\[w\]", r"\begin{cases}v\end{cases}"]
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
        "\\begin{x}" * 50_000,
        "".join(f"\\begin{{e{chr(97 + i % 26)}{chr(97 + i // 26 % 26)}}}" for i in range(20_000)),
    ],
)
def test_adversarial_text_is_scanned_in_linear_time(text):
    start = time.monotonic()
    math_spans(text)
    strip_math(text)
    assert time.monotonic() - start < 2.0
