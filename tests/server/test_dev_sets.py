"""Every development row, original and perturbed, grades through `stepgrade grade`.

Rows are read with the project's loaders and written as GradeRequest JSON lines (nothing from
the data is kept in the project). `make test` grades an even sample of each set;
`STEPGRADE_DEV_ROWS=all` (`make fuzz`) grades every row.
"""

from __future__ import annotations

import json
import os

import pytest

from eval_sets.registry import load_dataset
from server.cli import main

SETS = [
    ("stepmath", "stepmathbench_dev.jsonl"),
    ("processbench", "processbench_dev.jsonl"),
    ("perturbation", "perturbation_dev.jsonl"),
    ("mr_math_invalid", "mr_math_invalid_dev.jsonl"),
    ("mr_math_redundant", "mr_math_redundant_dev.jsonl"),
]
SAMPLE = 12  # rows per set in `make test`


def _rows(items: list) -> list:
    if os.environ.get("STEPGRADE_DEV_ROWS") == "all" or len(items) <= SAMPLE:
        return items
    step = len(items) / SAMPLE
    return [items[int(i * step)] for i in range(SAMPLE)]


@pytest.mark.timeout(3600)
@pytest.mark.parametrize(("kind", "name"), SETS)
def test_every_row_grades_without_a_failure(shared_data, tmp_path, capsys, kind, name):
    items = _rows(load_dataset(kind, shared_data / name))
    source, out = tmp_path / "requests.jsonl", tmp_path / "reports.jsonl"
    source.write_text(
        "".join(item.request.model_dump_json(exclude_defaults=True) + "\n" for item in items),
        encoding="utf-8",
    )
    assert main(["grade", str(source), "--mode", "offline", "--output", str(out)]) == 0
    assert "Traceback" not in capsys.readouterr().err
    reports = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert len(reports) == len(items)
    failed = {
        item.id: r["meta"]["failed_checks"]
        for item, r in zip(items, reports, strict=True)
        if r["meta"]["failed_checks"]
    }
    assert not failed, f"checks failed (contained, but each is a bug): {failed}"
