"""`stepgrade study aggregation_check`: Eq. 1 over human step labels against the gold scores."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from eval_sets.studies.aggregation_check import main


def write(tmp_path: Path, rows: list[dict | str]) -> Path:
    path = tmp_path / "stepmath.jsonl"
    lines = [r if isinstance(r, str) else json.dumps(r) for r in rows]
    path.write_text("\n".join(lines) + "\n\n", encoding="utf-8")
    return path


def row(labels: list[str], kind: str, score: int, binary: int) -> dict:
    return {"gold_step_score": labels, "type": kind, "gold_score": score, "gold_score_01": binary}


def test_gold_scores_reproduced_exit_0(tmp_path, capsys) -> None:
    rows = [
        row(["1", "1"], "Calculation", 10, 1),
        row(["1", "0"], "Calculation", 6, 0),  # a wrong last step of two: 6 (Eq. 1)
        row(["1", "1(0)"], "Proof", 5, 0),  # a meaningless step
        row([" 1 ", "1"], "Open-ended", 10, 1),
    ]
    assert main([str(write(tmp_path, rows))]) == 0
    assert capsys.readouterr().out.strip() == (
        "items 4: gold_score reproduced 4/4, gold_score_01 4/4"
    )


def test_a_score_that_does_not_come_out_exits_1(tmp_path, capsys) -> None:
    rows = [row(["1", "0"], "Calculation", 7, 0), row(["1"], "Proof", 10, 0)]
    assert main([str(write(tmp_path, rows))]) == 1
    assert "gold_score reproduced 1/2, gold_score_01 1/2" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        (row(["x"], "Calculation", 0, 0), "line 2: unrecognised StepMathBench step label 'x'"),
        (row(["1"], "Essay", 10, 1), "line 2: 'Essay'"),
        ({"type": "Proof", "gold_score": 1, "gold_score_01": 0}, "line 2: 'gold_step_score'"),
        ({"gold_step_score": ["1"], "type": "Proof"}, "line 2: "),
        ("{not json", "line 2: "),
    ],
)
def test_a_bad_row_is_one_line_naming_it_and_exit_2(tmp_path, capsys, bad, message) -> None:
    path = write(tmp_path, [row(["1"], "Proof", 10, 1), bad])
    assert main([str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"aggregation_check: {message}") and err.count("\n") == 1


def test_a_missing_file_exits_2(tmp_path, capsys) -> None:
    assert main([str(tmp_path / "absent.jsonl")]) == 2
    assert "aggregation_check: no such file" in capsys.readouterr().err
