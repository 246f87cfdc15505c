"""The precision measurement of the calculation finding, on small hand-written data files."""

from __future__ import annotations

import json
from pathlib import Path

from eval_sets.studies.check_precision import count, half_of, main, step_rows


def _write(path: Path, rows: list[dict]) -> None:
    path.write_text(
        "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8"
    )


def _data(tmp_path: Path) -> Path:
    _write(
        tmp_path / "stepmathbench_dev.jsonl",
        [
            {
                "question": "Q1",
                "gold_step": ["(1) 3 + 4 = 7", "(2) 7 \\times 2 = 15", "(3) 所以答案是 15"],
                "gold_step_score": ["1", "0", "1(0)"],
                "type": "Calculation",
            },
        ],
    )
    _write(
        tmp_path / "processbench_dev.jsonl",
        [
            {
                "id": "gsm8k-1",
                "problem": "Q2",
                "steps": ["2 + 2 = 4", "4 * 3 = 13", "13 - 1 = 12"],
                "label": 1,
                "final_answer_correct": False,
            },
            {
                "id": "math-2",
                "problem": "Q3",
                "steps": ["5 - 1 = 4"],
                "label": -1,
                "final_answer_correct": True,
            },
        ],
    )
    _write(
        tmp_path / "perturbation_dev.jsonl",
        [
            {
                "rid": 7,
                "question": "Q4",
                "ground_truth_answer": "8",
                "reference_steps": ["2 + 2 = 4", "4 * 2 = 8"],
                "hypothesis_steps": ["2 + 2 = 4", "4 * 2 = 9"],
                "error_type": "random number",
                "tags": 1,
            },
            {
                "rid": 7,
                "question": "Q4",
                "ground_truth_answer": "8",
                "reference_steps": ["2 + 2 = 4", "4 * 2 = 8"],
                "hypothesis_steps": ["2 + 2 = 4", "2 + 2 = 4"],
                "error_type": "repeat step",
                "tags": 0,
            },
        ],
    )
    _write(
        tmp_path / "mr_math_invalid_dev.jsonl",
        [
            {
                "question": "Q5",
                "model_output_step_format": [["1 + 1 = 2"], ["2 + 1 = 4"]],
                "model_output_solution_correctness": "wrong",
                "model_output_solution_first_error_step": "2",
            },
        ],
    )
    return tmp_path


def test_rows_carry_the_labels_each_set_gives(tmp_path: Path) -> None:
    rows = list(step_rows(_data(tmp_path)))
    by_set = {(r.set, r.subset): r for r in rows}
    stepmath = by_set[("stepmath", "calculation")]
    assert stepmath.steps[0] == "3 + 4 = 7"  # "(n) " numbering stripped
    assert stepmath.labels == ("correct", "incorrect", "meaningless")
    assert by_set[("processbench", "gsm8k")].labels == ("correct", "incorrect", None)
    assert by_set[("processbench", "math")].labels == ("correct",)
    assert by_set[("perturbation", "original")].labels == ("correct", "correct")
    assert by_set[("perturbation", "random number")].labels == (None, "incorrect")
    assert ("perturbation", "repeat step") not in by_set  # redundant, not wrong
    assert by_set[("mr_math_invalid", "")].labels == ("correct", "incorrect")


def test_the_split_keeps_a_problem_in_one_half() -> None:
    assert half_of("Find x.") == half_of("  Find   x. ")
    halves = {half_of(f"problem {i}") for i in range(40)}
    assert halves == {"fit", "check"}


def test_precision_counts_fired_steps_against_the_labels(tmp_path: Path) -> None:
    tallies = count(step_rows(_data(tmp_path)))
    pb = [
        t
        for (name, _, kind), t in tallies.items()
        if (name, kind) == ("processbench", "calculation")
    ]
    assert sum(t.steps for t in pb) == 3 and sum(t.wrong for t in pb) == 1
    # 4 * 3 = 13 fires; 13 - 1 = 12 after it is unlabelled and not counted
    assert sum(t.fired for t in pb) == 1 and sum(t.fired_wrong for t in pb) == 1
    sm = tallies[("stepmath", half_of("Q1"), "calculation")]
    assert (sm.steps, sm.wrong, sm.fired, sm.fired_wrong) == (3, 1, 1, 1)
    assert sm.precision == 1.0 and sm.recall == 1.0
    random = tallies[("perturbation:random number", half_of("Q4"), "calculation")]
    assert (random.steps, random.fired_wrong) == (1, 1)


def test_cli_prints_a_table_and_refuses_a_folder_without_data(tmp_path: Path, capsys) -> None:
    assert main(["--data", str(_data(tmp_path))]) == 0
    out = capsys.readouterr().out
    assert "## calculation" in out and "precision" in out and "processbench" in out
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main(["--data", str(empty)]) == 2
    assert "no development set" in capsys.readouterr().err
