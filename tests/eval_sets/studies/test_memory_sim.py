"""The memory benchmark end to end on a tiny hand-written set in StepMathBench's row format:
corrections go through the API, the other solutions are graded with and without memory."""

import json
from pathlib import Path

import pytest

from eval_sets.halves import half_of
from eval_sets.studies.memory_sim import figures, first_zero, main, run

# Two problems of five solutions each (the shape StepMathBench has), written for this test.
PROBLEMS = {
    "一个盒子里有6排鸡蛋，每排8个，打碎了5个，还剩多少个？": (
        "43",
        [
            (["6×8=48", "48-5=43"], ["1", "1"], 10),
            (["每排8个，6×8=48", "48-5=43"], ["1", "1"], 10),
            (["6×8=48个", "48-5=43个"], ["1", "1"], 10),
            (["6+8=14", "14-5=9"], ["0", "1(0)"], 0),  # true arithmetic, the wrong operation
            (["8×6=48", "48-5=43"], ["1", "1"], 10),
        ],
    ),
    "小明有12支铅笔，送出3支后又买了7支，现在有多少支？": (
        "16",
        [
            (["12-3=9", "9+7=16"], ["1", "1"], 10),
            (["12-3=9支", "9+7=16支"], ["1", "1"], 10),
            (["12+3=15", "15+7=22"], ["0", "1(0)"], 0),  # true arithmetic, the wrong operation
            (["送出后12-3=9", "9+7=16"], ["1", "1"], 10),
            (["12-3=9", "再买7支：9+7=16"], ["1", "1"], 10),
        ],
    ),
}


def write_set(folder: Path) -> None:
    rows = []
    for problem, (answer, solutions) in PROBLEMS.items():
        for n, (steps, labels, score) in enumerate(solutions):
            rows.append(
                {
                    "uid": f"{len(rows)}",
                    "id": f"p{len(rows)}",
                    "model": f"m{n}",
                    "question": problem,
                    "answers": answer,
                    "model_output": "\n".join(steps),
                    "gold_step": [f"({i + 1}) {s}" for i, s in enumerate(steps)],
                    "gold_step_score": labels,
                    "type": "Calculation",
                    "level": 1,
                    "category": [],
                    "gold_score": score,
                    "gold_score_01": int(score > 5),
                }
            )
    (folder / "stepmathbench_dev.jsonl").write_text(
        "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8"
    )


@pytest.fixture
def data(tmp_path: Path) -> Path:
    write_set(tmp_path)
    return tmp_path


def halves_used() -> list[str]:
    return sorted({half_of(p) for p in PROBLEMS})


def test_without_a_reference_the_accepted_answer_teaches_the_other_solutions(data, capsys):
    [(half, k, rows)] = run(
        data, halves_used()[:1], [1], no_reference=True, refit=False, calibration=None
    )
    assert k == 1 and rows and all(o.refit is None for o in rows)
    mine = [o for o in rows if half_of(o.problem) == half]
    assert len(mine) == 4 * sum(half_of(p) == half for p in PROBLEMS)  # one corrected a problem
    assert all(o.before["meta"]["memory"] is None for o in mine)
    assert all(o.after["meta"]["memory"]["solutions"] == 1 for o in mine)
    f = figures(mine)
    assert f.mae[1] < f.mae[0]  # the remembered answer decides the wrong ones
    assert "| all |" in capsys.readouterr().out


def test_the_command_line(data, capsys):
    assert main(["--data", str(data), "--half", halves_used()[0], "--k", "1", "--no-refit"]) == 0
    out = capsys.readouterr().out
    assert out.count("| all |") == 1 and "MAE without" in out
    assert main(["--data", str(data), "--k", "5"]) == 2
    assert "--k must be 1 to 4" in capsys.readouterr().err
    assert main(["--data", str(data / "nowhere")]) == 2


def test_first_error_reads_the_first_step_worth_nothing():
    assert first_zero(["correct", "redundant", "meaningless", "incorrect"]) == 2
    assert first_zero(["correct"]) is None
