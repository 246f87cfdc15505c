"""`stepgrade study segment_agreement`: the segmenter's step counts against human ones, both
splittings, worked by hand."""

from __future__ import annotations

import json
from pathlib import Path

from eval_sets.studies.segment_agreement import main

TEXT = "First, 2 + 3 = 5. Then 5 * 2 = 10.\nSo the answer is 10."  # 3 sentences on 2 lines


def write(path: Path, rows: list[dict | str]) -> Path:
    lines = [r if isinstance(r, str) else json.dumps(r) for r in rows]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_exact_share_and_mean_difference_for_each_splitting(tmp_path, capsys) -> None:
    stepmath = write(
        tmp_path / "s.jsonl",
        [
            {"model_output": TEXT, "gold_step": ["a", "b", "c"]},  # sentences 3 = 3; lines 2
            {"model_output": TEXT, "gold_step": ["a", "b"]},  # sentences 3 (off 1); lines 2 = 2
            {"model_output": TEXT},  # no human steps: skipped
            {"model_output": None, "gold_step": ["a"]},  # no text: skipped
        ],
    )
    mr_math = write(
        tmp_path / "m.jsonl", [{"model_output": TEXT, "model_output_step_format": ["x"]}]
    )
    assert main([str(stepmath), str(mr_math)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split() for line in lines] == [
        ["s.jsonl", "sentences", "items", "2", "exact", "0.50", "mean", "|diff|", "0.50"],
        ["s.jsonl", "lines", "items", "2", "exact", "0.50", "mean", "|diff|", "0.50"],
        ["m.jsonl", "sentences", "items", "1", "exact", "0.00", "mean", "|diff|", "2.00"],
        ["m.jsonl", "lines", "items", "1", "exact", "0.00", "mean", "|diff|", "1.00"],
    ]


def test_a_file_without_usable_rows_exits_2(tmp_path, capsys) -> None:
    path = write(tmp_path / "s.jsonl", [{"model_output": TEXT}])
    assert main([str(path)]) == 2
    assert capsys.readouterr().err.strip() == (
        f"segment_agreement: {path}: no rows with model_output and human steps"
    )


def test_a_missing_file_exits_2(tmp_path, capsys) -> None:
    assert main([str(tmp_path / "absent.jsonl")]) == 2
    assert "segment_agreement: no such file" in capsys.readouterr().err


def test_a_line_that_is_not_a_json_object_exits_2(tmp_path, capsys) -> None:
    path = write(tmp_path / "s.jsonl", [{"model_output": TEXT, "gold_step": ["a"]}, "{broken"])
    assert main([str(path)]) == 2
    assert capsys.readouterr().err.startswith(f"segment_agreement: {path}:2: ")
    write(path, ["[1, 2]"])
    assert main([str(path)]) == 2
    assert capsys.readouterr().err.startswith(f"segment_agreement: {path}:1: ")
