"""MATH (Hendrycks et al.): one JSON file per problem in subject folders, or one JSON lines file.

Each record has `problem`, `level` ("Level 3"), `type` ("Counting & Probability") and `solution`
with the answer in `\\boxed{}` (or an explicit `answer`, as in MATH-500). The subset is the subject
in snake case ("counting_and_probability", like the folder names). As with GSM8K, the reference
solution is graded as a sanity check and kept for `bench generate`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

from eval_sets.items import Gold, GoldItem, RowError
from eval_sets.loaders.rows import (
    Row,
    as_text,
    bad,
    each_row,
    make_request,
    require,
    row_error,
    scan_records,
)
from eval_sets.plugins import DatasetError, register_loader
from scoring.answer import extract_answer

FIELDS = ("problem", "solution")


def subject(name: str) -> str:
    """`Counting & Probability` and `counting_and_probability` both become the latter."""
    return re.sub(r"[\s\-]+", "_", name.strip().lower().replace("&", "and")).replace("__", "_")


def _records(path: Path) -> Iterator[tuple[str, Row | RowError]]:
    if path.is_dir():
        files = sorted(path.rglob("*.json"))
        if not files:
            raise DatasetError(f"{path}: no *.json problem files in this folder")
        for file in files:
            try:
                row = json.loads(file.read_text(encoding="utf-8"))
            except (json.JSONDecodeError, UnicodeDecodeError) as err:
                row = DatasetError(f"{file}: not a JSON object ({err})")
            key = file.relative_to(path).as_posix()
            if not isinstance(row, dict):
                error = (
                    row
                    if isinstance(row, DatasetError)
                    else DatasetError(f"{file}: expected a JSON object")
                )
                yield key, row_error(path, key, error)
                continue
            row.setdefault("type", file.parent.name)
            yield key, row
        return
    for number, row in scan_records(path):
        yield str(number if isinstance(row, RowError) else row.get("unique_id") or number), row


@register_loader("math", version="1")
def load_math(path: Path) -> Iterator[GoldItem | RowError]:
    """MATH problems: problem, solution with \\boxed{answer}, level, type (file per problem or JSONL)."""

    def row_items(key: str, row: Row) -> Iterator[GoldItem]:
        where = path / key if path.is_dir() else path
        number = 0 if path.is_dir() else int(key) if key.isdigit() else 0
        require(where, number, row, FIELDS, "MATH")
        solution = as_text(row["solution"])
        answer = as_text(row.get("answer")) or extract_answer(solution)
        if not answer:
            raise bad(
                where, number, "no answer: the solution has no \\boxed{} and no 'answer' field"
            )
        level = re.search(r"\d", as_text(row.get("level")))
        request = make_request(
            where,
            number,
            problem=as_text(row["problem"]),
            solution=solution,
            reference_answer=answer,
            reference_solution=solution,
            problem_type="calculation",
            language="en",
            mode="offline",
        )
        gold = Gold(
            subset=subject(as_text(row.get("type")) or "unknown"),
            process_correct=True,
            answer_correct=True,
            level=int(level.group()) if level else None,
        )
        yield GoldItem(id=f"math-{key}", request=request, gold=gold)

    return each_row(path, row_items, _records(path))
