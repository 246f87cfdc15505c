"""Offline segmentation: tables of real-looking solutions, invariants, speed, dev-data agreement."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest

from scoring.parse.mathspans import math_spans
from scoring.steps.segment import SegmentConfig, segment_steps

# Numbering the segmenter is expected to strip: a digit inside it is not mathematical content.
_LABELS = re.compile(
    r"(?m)(?:^[ \t]*(?:#+ *)?(?:\*\*)?|(?<=[。！？；]))[ \t]*"
    r"(?:Step *\d+|第\d+步|\d+[.)、](?!\d)|[(（]\d+[)）])"
)

CASES = [
    (
        "label_like_number_inside_display_math",
        "Take $x = 1$:\n\\[\n(2)^2 \\cdot 3 = 12\n\\]\n(2) Then we stop.",
        ["Take $x = 1$:\n\\[\n(2)^2 \\cdot 3 = 12\n\\]", "Then we stop."],
    ),
    (
        "numbered_en",
        "1. The area is $A = \\pi r^2$.\n2. With $r = 3$, $A = 9\\pi$.\n3. So $A \\approx 28.27$.",
        ["The area is $A = \\pi r^2$.", "With $r = 3$, $A = 9\\pi$.", "So $A \\approx 28.27$."],
    ),
    (
        "step_labels",
        "Step 1: Subtract 4 from both sides: $2x = 6$.\nStep 2. Divide by 2, so $x = 3$.",
        ["Subtract 4 from both sides: $2x = 6$.", "Divide by 2, so $x = 3$."],
    ),
    (
        "numbered_line_keeps_its_sentences",
        "1. We factor. Then $x^2 - 1 = (x-1)(x+1)$.\n2. The roots are $\\pm 1$.",
        ["We factor. Then $x^2 - 1 = (x-1)(x+1)$.", "The roots are $\\pm 1$."],
    ),
    (
        "markdown_headings",
        (
            "### Step 1: Find the slope\nThe slope is $m = \\frac{4-2}{3-1} = 1$.\n\n"
            "### Step 2: Find the intercept\nPlugging in, $b = 2 - 1 = 1$.\n\n"
            "**Final Answer:** $y = x + 1$"
        ),
        [
            "Find the slope\nThe slope is $m = \\frac{4-2}{3-1} = 1$.",
            "Find the intercept\nPlugging in, $b = 2 - 1 = 1$.",
            "**Final Answer:** $y = x + 1$",
        ],
    ),
    (
        "bold_step_headers",
        "**Step 1:** Expand $(a+b)^2 = a^2 + 2ab + b^2$.\n**Step 2:** Set $a = b = 1$ to get 4.",
        ["Expand $(a+b)^2 = a^2 + 2ab + b^2$.", "Set $a = b = 1$ to get 4."],
    ),
    (
        "bold_title_line",
        "**Case 1: x > 0**\nThen $|x| = x$ and the equation is $2x = 4$.",
        ["Case 1: x > 0\nThen $|x| = x$ and the equation is $2x = 4$."],
    ),
    (
        "prose_sentences",
        "We know that $a = 2$. Then $b = a + 3 = 5$. So the sum is 7.",
        ["We know that $a = 2$.", "Then $b = a + 3 = 5$.", "So the sum is 7."],
    ),
    (
        "decimals_and_abbreviations",
        (
            "The mean is 3.14 and the median is 2.5. "
            "Tools, e.g. Python, i.e. Numpy, agree (see Fig. 2). Hence the answer is 2.5."
        ),
        [
            "The mean is 3.14 and the median is 2.5.",
            "Tools, e.g. Python, i.e. Numpy, agree (see Fig. 2).",
            "Hence the answer is 2.5.",
        ],
    ),
    (
        "period_inside_inline_math",
        "Let $x = 1. A$ be given. Then $y = 2$.",
        ["Let $x = 1. A$ be given.", "Then $y = 2$."],
    ),
    (
        "display_after_colon",
        "Squaring both sides gives:\n\\[\nx^2 + 1 = 5. Hence\n\\]\nThen $x = 2$ since $x > 0$.",
        ["Squaring both sides gives:\n\\[\nx^2 + 1 = 5. Hence\n\\]", "Then $x = 2$ since $x > 0$."],
    ),
    (
        "display_after_full_sentence_stands_alone",
        "We expand the square.\n$$\n(x+1)^2 = x^2 + 2x + 1.\n$$\nThe middle term is $2x$.",
        ["We expand the square.", "$$\n(x+1)^2 = x^2 + 2x + 1.\n$$", "The middle term is $2x$."],
    ),
    (
        "display_finishes_open_sentence",
        "The equation of the sphere is given by\n$$x^2 + y^2 + z^2 = 4$$\nwhere 4 is $r^2$.",
        ["The equation of the sphere is given by\n$$x^2 + y^2 + z^2 = 4$$ where 4 is $r^2$."],
    ),
    (
        "aligned_block",
        (
            "Adding the equations:\n\\begin{aligned}\nx + y &= 3 \\\\\nx - y &= 1. \\\\\n2x &= 4\n"
            "\\end{aligned}\nSo $x = 2$."
        ),
        [
            (
                "Adding the equations:\n\\begin{aligned}\nx + y &= 3 \\\\\n"
                "x - y &= 1. \\\\\n2x &= 4\n\\end{aligned}"
            ),
            "So $x = 2$.",
        ],
    ),
    (
        "cases_inside_display",
        (
            "Define\n$$f(x) = \\begin{cases} 1. & x > 0 \\\\\n0 & x \\le 0 \\end{cases}$$\n"
            "Then $f(2) = 1$."
        ),
        [
            "Define\n$$f(x) = \\begin{cases} 1. & x > 0 \\\\\n0 & x \\le 0 \\end{cases}$$",
            "Then $f(2) = 1$.",
        ],
    ),
    (
        "align_star_env",
        "因此，我们有：\n\\begin{align*}\n\\|T\\| &\\geq \\|Tf\\| \\\\\n&=1\n\\end{align*}\n最终答案：\n【1】",
        [
            "因此，我们有：\n\\begin{align*}\n\\|T\\| &\\geq \\|Tf\\| \\\\\n&=1\n\\end{align*}",
            "最终答案：【1】",
        ],
    ),
    (
        "chinese_clauses",
        "设长为 $x$；则宽为 $x-2$。由题意 $x(x-2)=15$，解得 $x=5$！",
        ["设长为 $x$；", "则宽为 $x-2$。", "由题意 $x(x-2)=15$，解得 $x=5$！"],
    ),
    (
        "chinese_ascii_semicolon",
        "由 $a=1$;又 $b=2$,故 $a+b=3$。",
        ["由 $a=1$;", "又 $b=2$,故 $a+b=3$。"],
    ),
    (
        "chinese_step_words",
        "第一步：设 $x$ 为长。\n第2步：由面积得 $x(x-2)=15$。\n第三步，解得 $x=5$。",
        ["设 $x$ 为长。", "由面积得 $x(x-2)=15$。", "解得 $x=5$。"],
    ),
    (
        "fullwidth_numbering",
        "（1）由题意，\\(a_1 = 2\\)。（2）公比 \\(q = 3\\)，所以 \\(a_n = 2\\cdot 3^{n-1}\\)。",
        ["由题意，\\(a_1 = 2\\)。", "公比 \\(q = 3\\)，所以 \\(a_n = 2\\cdot 3^{n-1}\\)。"],
    ),
    (
        "stepmathbench_like",
        (
            "解题过程：\n【首先，由 \\(a_1 = 2\\) 且公比 \\(q = 3\\)，得 \\(a_n = 2\\cdot 3^{n-1}\\)。"
            "因此前 \\(n\\) 项和为：\n\\[\nS_n = \\frac{2(3^n - 1)}{3 - 1} = 3^n - 1.\n\\]\n"
            "验证：\\(S_1 = 2 = a_1\\)。】\n\n最终答案：\n【\\(3^n - 1\\)】"
        ),
        [
            "【首先，由 \\(a_1 = 2\\) 且公比 \\(q = 3\\)，得 \\(a_n = 2\\cdot 3^{n-1}\\)。",
            "因此前 \\(n\\) 项和为：\n\\[\nS_n = \\frac{2(3^n - 1)}{3 - 1} = 3^n - 1.\n\\]",
            "验证：\\(S_1 = 2 = a_1\\)。】",
            "最终答案：【\\(3^n - 1\\)】",
        ],
    ),
    (
        "answer_line_not_absorbed",
        "综上所述：\n最终答案：【24】",
        ["综上所述：", "最终答案：【24】"],
    ),
    (
        "bullets_and_circled",
        "- First term: $a_1 = 3$\n* Ratio: $r = 2$\n① 第三项为 $12$",
        ["First term: $a_1 = 3$", "Ratio: $r = 2$", "第三项为 $12$"],
    ),
    (
        "filler_dropped",
        (
            "Sure, here is the solution.\nLet's solve this step by step.\n"
            "$2x + 4 = 10$, so $x = 3$.\nI hope this helps!"
        ),
        ["$2x + 4 = 10$, so $x = 3$."],
    ),
    (
        "filler_with_math_kept",
        "Let's solve $2x = 6$ step by step.\nSo $x = 3$.",
        ["Let's solve $2x = 6$ step by step.", "So $x = 3$."],
    ),
    (
        "chinese_filler",
        "好的，下面我们来解答这道题。\n由 $3x = 12$ 得 $x = 4$。\n希望这对你有帮助！",
        ["由 $3x = 12$ 得 $x = 4$。"],
    ),
    (
        "interjection_prefix",
        "Okay, so the area is $6 \\times 4 = 24$.",
        ["so the area is $6 \\times 4 = 24$."],
    ),
    (
        "connective_merges_forward",
        "Therefore,\n$x = 3$.\n所以\n$y = 4$。",
        ["Therefore, $x = 3$.", "所以$y = 4$。"],
    ),
    (
        "punctuation_merges_back",
        "The answer is $5$\n.\n---\nNext, $6 = 2 \\cdot 3$.",
        ["The answer is $5$ .", "Next, $6 = 2 \\cdot 3$."],
    ),
    (
        "prm800k_answer",
        "So the sum is $9 + 9 = 18$.\n\n# Answer\n\n18",
        ["So the sum is $9 + 9 = 18$.", "# Answer 18"],
    ),
    (
        "bold_final_answer_alone",
        "Thus $x = 5$.\n**Final Answer:**\n$\\boxed{5}$",
        ["Thus $x = 5$.", "**Final Answer:** $\\boxed{5}$"],
    ),
    (
        "gsm8k_answer_echo",
        "She buys 3 packs of 6, so 18 eggs.\n#### 18",
        ["She buys 3 packs of 6, so 18 eggs.\n#### 18"],
    ),
]


def _digits(text: str) -> str:
    return "".join(c for c in text if "0" <= c <= "9")


@pytest.mark.parametrize(("text", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_segment_steps(text: str, expected: list[str]) -> None:
    assert segment_steps(text) == expected


@pytest.mark.parametrize("text", [c[1] for c in CASES], ids=[c[0] for c in CASES])
def test_no_math_is_lost(text: str) -> None:
    _assert_lossless(text, segment_steps(text))


def _without_labels(text: str) -> str:
    """The text minus step labels ("Step 2:", "(3)"); a "(2)" inside math is math, not a label."""
    spans = math_spans(text)
    return _LABELS.sub(
        lambda m: m.group(0) if any(a <= m.start() < b for a, b in spans) else "", text
    )


def _assert_lossless(text: str, steps: list[str]) -> None:
    assert all(s and s == s.strip() for s in steps)
    joined = "\n".join(steps)
    assert _digits(joined) == _digits(_without_labels(text))
    for start, end in math_spans(text):
        assert any(text[start:end] in s for s in steps), text[start:end]


@pytest.mark.parametrize("text", ["", "   ", "\n\n\t\n", "Sure! I hope this helps."])
def test_nothing_to_segment(text: str) -> None:
    assert segment_steps(text) == []


@pytest.mark.parametrize(
    ("text", "language", "expected"),
    [
        ("x = 1; y = 2", "en", ["x = 1; y = 2"]),
        ("x = 1; y = 2", "zh", ["x = 1;", "y = 2"]),
        ("We get $x=1$. Then y is 2.", "zh", ["We get $x=1$.", "Then y is 2."]),
    ],
)
def test_language_decides_ascii_semicolon(text: str, language: str, expected: list[str]) -> None:
    assert segment_steps(text, language) == expected  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("config", "expected"),
    [
        (SegmentConfig(), ["We know $a = 2$.", "Then $b = 5$.", "Finally $c = 7$."]),
        (
            SegmentConfig(split_sentences=False),
            ["We know $a = 2$. Then $b = 5$.", "Finally $c = 7$."],
        ),
    ],
)
def test_config_split_sentences(config: SegmentConfig, expected: list[str]) -> None:
    assert (
        segment_steps("We know $a = 2$. Then $b = 5$.\nFinally $c = 7$.", config=config) == expected
    )


def test_config_keep_numbered_lines_off_splits_numbered_sentences() -> None:
    text = "1. We factor. Then $x = 1$.\n2. Done, $y = 2$."
    config = SegmentConfig(keep_numbered_lines=False)
    assert segment_steps(text, config=config) == ["We factor.", "Then $x = 1$.", "Done, $y = 2$."]


def test_config_is_frozen_and_hashable() -> None:
    config = SegmentConfig(min_chars=2)
    with pytest.raises(AttributeError):
        config.min_chars = 3  # type: ignore[misc]
    assert hash(config) == hash(SegmentConfig(min_chars=2))


_LARGE = {
    "prose": "Step 1: We know $x = 3.5$. Then e.g. $y = 2x$. So y is 7! 由此得 $z=1$；故成立。\n\n",
    "display": "We get:\n\\[\nx^2 = 4. \\\\\ny = 2\n\\]\n\\begin{aligned} a &= 1 \\end{aligned}\n",
    "one_line": "Then $a_1 = 1$. So e.g. it works. ",
    "unclosed": "Cost is $5 and \\[ x \\( y \\begin{foo} z. Then ",
    "scraps": "【\n.\n】\nSo\n",
}


@pytest.mark.parametrize("kind", list(_LARGE))
def test_large_input_is_fast(kind: str) -> None:
    text = _LARGE[kind] * (200_000 // len(_LARGE[kind]))
    started = time.perf_counter()
    steps = segment_steps(text)
    assert time.perf_counter() - started < 3.0
    assert steps and _digits("".join(steps)) == _digits(_without_labels(text))


def _rows(path: Path) -> list[dict]:
    with path.open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle]


def _agreement(pairs: list[tuple[int, int]]) -> tuple[float, float]:
    exact = sum(a == b for a, b in pairs) / len(pairs)
    return exact, sum(abs(a - b) for a, b in pairs) / len(pairs)


def test_agreement_with_human_steps_mr_math(shared_data: Path) -> None:
    """MR-MATH writes one numbered step a line; measured: exact 1.00, mean |diff| 0.00."""
    rows = _rows(shared_data / "mr_math_invalid_dev.jsonl")
    pairs = [
        (len(segment_steps(r["model_output"])), len(r["model_output_step_format"])) for r in rows
    ]
    exact, mad = _agreement(pairs)
    assert exact >= 0.9 and mad <= 0.2


@pytest.mark.parametrize("name", ["stepmathbench_dev.jsonl", "mr_math_invalid_dev.jsonl"])
def test_dev_texts_are_segmented_losslessly(shared_data: Path, name: str) -> None:
    for row in _rows(shared_data / name):
        _assert_lossless(row["model_output"], segment_steps(row["model_output"]))
