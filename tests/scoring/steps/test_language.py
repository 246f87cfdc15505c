"""Language detection: CJK share of the prose outside math."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scoring.steps.language import detect_language


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The area of the square is $s^2 = 16$, so each side is 4.", "en"),
        ("设正方形边长为 $s$，则面积 $s^2 = 16$，所以边长为 4。", "zh"),
        ("$x^2 + 2x + 1 = 0 \\Rightarrow x = -1$", "en"),
        ("\\[ \\int_0^1 x\\,dx = \\frac{1}{2} \\]", "en"),
        ("", "en"),
        ("42", "en"),
        ("由 Cauchy-Schwarz 不等式，对任意 vectors 都有 $|a \\cdot b| \\le |a||b|$。", "zh"),
        ("We use the Chinese remainder theorem (中国剩余定理) to combine the congruences.", "en"),
        (
            "解题过程：\n{{e}^{y}}+xy=e 对 x 求导：{{e}^{y}}{{y}^{\\prime }}+y+x{{y}^{\\prime }}=0",
            "zh",
        ),
        ("最终答案：【1】", "zh"),
        ("Final Answer: The final answer is $\\boxed{5}$.", "en"),
    ],
)
def test_detect_language(text: str, expected: str) -> None:
    assert detect_language(text) == expected


def test_math_is_ignored() -> None:
    """Chinese inside `\\text{}` in math must not make an English solution Chinese."""
    assert detect_language("So the total is $5\\text{元} + 3\\text{元} = 8\\text{元}$.") == "en"


def test_threshold_is_adjustable() -> None:
    text = "We use the Chinese remainder theorem (中国剩余定理) to combine the congruences."
    assert detect_language(text) == "en"
    assert detect_language(text, threshold=0.05) == "zh"


def test_dev_sets(shared_data: Path) -> None:
    """MR-MATH is English; StepMathBench Chinese but for a few English answers (measured 5/200)."""

    def outputs(name: str) -> list[str]:
        with (shared_data / name).open(encoding="utf-8") as handle:
            return [json.loads(line)["model_output"] for line in handle]

    assert {detect_language(t) for t in outputs("mr_math_invalid_dev.jsonl")} == {"en"}
    zh = [detect_language(t) == "zh" for t in outputs("stepmathbench_dev.jsonl")]
    assert sum(zh) >= 0.95 * len(zh)
