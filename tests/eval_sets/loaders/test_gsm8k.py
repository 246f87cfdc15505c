"""The GSM8K loader: the final answer line and the calculator notes."""

from __future__ import annotations

from eval_sets.bundled import bundled_path
from eval_sets.loaders.gsm8k import split_gsm8k
from eval_sets.registry import load_dataset


def test_gsm8k_strips_calculator_notes() -> None:
    assert split_gsm8k("a = <<2*3=6>>6\n#### 1,200") == ("a = 6", "1200")
    assert split_gsm8k("no marker") is None
    items = load_dataset("gsm8k", bundled_path("gsm8k"))
    assert items[0].request.reference_answer == "22"
    assert "<<" not in items[0].request.solution and items[0].request.reference_solution
