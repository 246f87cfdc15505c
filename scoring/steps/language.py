"""Language of a solution, so Chinese and English texts get their own segmentation and prompts."""

from __future__ import annotations

from typing import Literal

from scoring.parse.lexicon import CJK_CHAR, latin_words
from scoring.parse.mathspans import strip_math


def _cjk_share(text: str) -> float:
    """CJK characters among the CJK characters and Latin word letters outside math (0.0 if none)."""
    prose = strip_math(text)
    cjk = len(CJK_CHAR.findall(prose))
    # Latin words of two or more letters, not LaTeX command names: single letters outside math are
    # variables ("设 x 为长"), and broken LaTeX left outside delimiters is mostly such letters.
    total = cjk + sum(len(word) for word in latin_words(2).findall(prose))
    return cjk / total if total else 0.0


def detect_language(text: str, threshold: float = 0.15) -> Literal["en", "zh"]:
    """`zh` when CJK makes up at least `threshold` of the prose letters; math-only text is `en`.

    Low, because one CJK character carries about as much as a short English word: a Chinese
    solution full of English terms ("由 Cauchy-Schwarz 不等式") scores about 0.4, while an English
    one quoting a Chinese name ("the Chinese remainder theorem (中国剩余定理)") stays near 0.1.
    """
    return "zh" if _cjk_share(text) >= threshold else "en"
