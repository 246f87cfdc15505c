"""`stepgrade bench ...` end to end on the bundled sets: outputs, bad input, fit-hazard."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from eval_sets.bundled import bundled_path
from server.cli import main


def test_bench_grade_writes_every_output(tmp_path, capsys) -> None:
    out = tmp_path / "run"
    code = main(
        [
            "bench",
            "grade",
            "--dataset",
            "stepmath",
            "--path",
            str(bundled_path("stepmath")),
            "--out",
            str(out),
            "--no-progress",
        ]
    )
    assert code == 0
    printed = capsys.readouterr().out
    assert "StepMathAgent metrics" in printed and "overall" in printed
    lines = (out / "results.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(lines) == 5
    first = json.loads(lines[0])
    assert {"id", "gold", "request", "report", "error", "timings"} <= first.keys()
    assert first["gold"]["score"] == 10 and first["report"]["score"] in range(11)
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    overall = summary["tables"]["stepmath"]["rows"]["overall"]
    assert overall["n"] == 5 and overall["AvgS gold"] == pytest.approx((10 + 0 + 4 + 10 + 3) / 5)
    assert "| type | n | AvgS |" in (out / "summary.md").read_text(encoding="utf-8")
    tex = (out / "summary.tex").read_text(encoding="utf-8")
    assert r"\toprule" in tex and r"\midrule" in tex and r"\bottomrule" in tex
    for name in ("quadrants.png", "predicted_vs_gold.png", "per_type.png"):
        assert (out / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_rerun_resumes_without_regrading(tmp_path, capsys) -> None:
    args = [
        "bench",
        "grade",
        "--dataset",
        "mr_math_invalid",
        "--path",
        str(bundled_path("mr_math_invalid")),
        "--out",
        str(tmp_path),
        "--no-progress",
    ]
    assert main([*args, "--limit", "2"]) == 0
    assert main(args) == 0
    err = capsys.readouterr().err
    assert "4 items, 2 resumed, 2 graded now" in err
    ids = [json.loads(x)["id"] for x in (tmp_path / "results.jsonl").read_text().splitlines()]
    assert sorted(ids) == ["mr-invalid-1", "mr-invalid-2", "mr-invalid-3", "mr-invalid-4"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--dataset", "nope", "--path", "x.jsonl"], "unknown dataset kind 'nope'"),
        (["--dataset", "stepmath", "--path", "/no/such.jsonl"], "no such file"),
        (["--dataset", "stepmath", "--path", "BUNDLED_PERT"], "missing field(s) model_output"),
        (["--dataset", "stepmath", "--path", "BUNDLED", "--subsets", "essay"], "no items selected"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(tmp_path, capsys, argv, message) -> None:
    argv = [
        a.replace("BUNDLED_PERT", str(bundled_path("perturbation"))).replace(
            "BUNDLED", str(bundled_path("stepmath"))
        )
        for a in argv
    ]
    code = main(["bench", "grade", *argv, "--out", str(tmp_path / "o"), "--no-progress"])
    err = capsys.readouterr().err
    assert code == 2
    assert message in err and "Traceback" not in err
    assert err.startswith("stepgrade bench: ")


def test_out_dir_of_another_run_is_refused(tmp_path, capsys) -> None:
    base = ["bench", "grade", "--out", str(tmp_path), "--no-progress", "--limit", "1"]
    assert (
        main(
            [*base, "--dataset", "mr_math_invalid", "--path", str(bundled_path("mr_math_invalid"))]
        )
        == 0
    )
    code = main([*base, "--dataset", "stepmath", "--path", str(bundled_path("stepmath"))])
    assert code == 2
    assert "holds a run of mr_math_invalid v1" in capsys.readouterr().err


def test_fit_hazard_by_hand(capsys) -> None:
    # bundled stepmath: (steps, first error) = (3, None) (3, 1) (4, 3) (3, None) (3, 2)
    # h1 = 1/5; h2 = 1/4 (items 1, 3, 4, 5 at risk); h3 = 1/3 (items 1, 3, 4); h4: nobody at risk
    code = main(
        [
            "bench",
            "fit-hazard",
            "--dataset",
            "stepmath",
            "--path",
            str(bundled_path("stepmath")),
            "--max-step",
            "4",
            "--json",
        ]
    )
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    assert data == {"dataset": "stepmath", "solutions": 5, "hazard": [0.2, 0.25, 0.333, 0.0]}


def test_bench_list(capsys) -> None:
    assert main(["bench", "list"]) == 0
    names = [line.split()[0] for line in capsys.readouterr().out.splitlines()]
    assert {
        "stepmath",
        "mr_math_invalid",
        "mr_math_redundant",
        "perturbation",
        "processbench",
        "prm800k",
        "gsm8k",
        "math",
    } <= set(names)


def test_usage_errors_exit_2(capsys) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["bench", "grade", "--dataset", "stepmath"])
    assert exc.value.code == 2


def test_data_file_path_must_be_readable(tmp_path: Path, capsys) -> None:
    bad = tmp_path / "bin.jsonl"
    bad.write_bytes(b"\xff\xfe\x00")
    code = main(["bench", "fit-hazard", "--dataset", "stepmath", "--path", str(bad)])
    assert code == 2 and "not UTF-8" in capsys.readouterr().err
