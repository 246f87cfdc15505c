"""GSM8K: grade-school word problems; `answer` is a worked solution ending in `#### 42`.

Items grade the reference solution itself (a sanity run: everything should pass) and carry it as
`reference_solution`, which `bench generate` aligns model solutions against. Calculator
annotations `<<48/2=24>>` are removed.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from eval_sets.items import Gold, GoldItem, RowError
from eval_sets.loaders.rows import Row, as_text, bad, each_row, make_request, require
from eval_sets.plugins import register_loader

FIELDS = ("question", "answer")
_CALC = re.compile(r"<<[^<>]*>>")


def split_gsm8k(answer: str) -> tuple[str, str] | None:
    """(worked solution, final answer) from `... #### 42`, None without the marker."""
    if "####" not in answer:
        return None
    body, final = answer.rsplit("####", 1)
    return _CALC.sub("", body).strip(), final.strip().replace(",", "")


@register_loader("gsm8k", version="1")
def load_gsm8k(path: Path) -> Iterator[GoldItem | RowError]:
    """GSM8K JSON lines: question, answer (worked solution ending in `#### N`)."""

    def row_items(number: int, row: Row) -> Iterator[GoldItem]:
        require(path, number, row, FIELDS, "GSM8K")
        parts = split_gsm8k(as_text(row["answer"]))
        if parts is None:
            raise bad(path, number, "answer has no '#### <final answer>' line")
        body, final = parts
        solution = f"{body}\nThe answer is {final}." if body else f"The answer is {final}."
        request = make_request(
            path,
            number,
            problem=as_text(row["question"]),
            solution=solution,
            reference_answer=final,
            reference_solution=body or None,
            problem_type="calculation",
            language="en",
            mode="offline",
        )
        gold = Gold(
            subset=str(row.get("subset") or "gsm8k"), process_correct=True, answer_correct=True
        )
        yield GoldItem(id=f"gsm8k-{row.get('id', number)}", request=request, gold=gold)

    return each_row(path, row_items)
