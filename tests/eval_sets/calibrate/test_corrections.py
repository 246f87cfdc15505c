"""Recalibration from teachers' corrections: the refit, the command's errors, and the loop
through a running service with an SQLite store (grade, correct, export, calibrate, restart)."""

from __future__ import annotations

import argparse
import json
import re
import subprocess
from pathlib import Path

import httpx
import pytest

from eval_sets.calibrate import corrections as C
from eval_sets.calibrate.correction_refit import refit_labels, refit_models
from eval_sets.calibrate.correction_rows import Corrected, held_back, read_lines
from eval_sets.cli import register_calibrate
from eval_sets.processes import free_port, start_service, stop, wait_ready
from scoring.judge.load import load_calibration

# Hand-written solutions: (problem, steps, reference answer, problem type).
SOLUTIONS = [
    ("计算 2 + 3 × 4 的值。", ["3 × 4 = 12", "2 + 12 = 14", "所以答案是 14"], "14", "calculation"),
    (
        "解方程 2x + 3 = 11。",
        ["2x = 11 - 3 = 8", "x = 8 / 2 = 4", "所以 x = 5"],
        "4",
        "calculation",
    ),
    (
        "求 1 + 2 + 3 + 4 的和。",
        ["1 + 2 = 3", "3 + 3 = 6", "6 + 4 = 11", "和为 11"],
        "10",
        "calculation",
    ),
    (
        "证明：对任意实数 a，a^2 ≥ 0。",
        ["若 a ≥ 0，则 a·a ≥ 0", "若 a < 0，则 a·a > 0", "所以 a^2 ≥ 0"],
        None,
        "proof",
    ),
]


def _request(problem: str, steps: list[str], reference: str | None, kind: str) -> dict:
    return {
        "problem": problem,
        "solution_steps": steps,
        "reference_answer": reference,
        "problem_type": kind,
        "language": "zh",
        "mode": "offline",
    }


@pytest.fixture(scope="module")
def reports() -> list[dict]:
    from agent.context import Context
    from agent.grader import Grader
    from scoring.schema import GradeRequest

    grader = Grader(Context())
    return [
        grader.grade(GradeRequest.model_validate(_request(*s))).model_dump(mode="json")
        for s in SOLUTIONS
    ]


def _line(report: dict, labels: list[str], score: int | None, n: int) -> str:
    return json.dumps(
        {
            "grade_id": f"g{n}",
            "problem": SOLUTIONS[n][0],
            "report": report,
            "labels": labels,
            "score": score,
        },
        ensure_ascii=False,
    )


def _all_wrong(reports: list[dict]) -> list[Corrected]:
    return read_lines(
        [_line(r, ["incorrect"] * len(r["steps"]), 0, n) for n, r in enumerate(reports)]
    )


def test_corrections_calling_every_step_wrong_raise_the_bias_more_with_more_weight(reports):
    corrected = _all_wrong(reports)
    model = load_calibration().model("zh")
    biases = [refit_labels(model, corrected, w).weights["bias"] for w in (0.0, 1.0, 16.0)]
    assert biases[0] == model.weights["bias"]
    assert biases[0] < biases[1] < biases[2]
    kept = refit_labels(model, corrected, 16.0)
    assert (kept.threshold, kept.decision, kept.recalibration) == (
        model.threshold,
        model.decision,
        model.recalibration,
    )


def test_the_score_refit_brings_the_scores_toward_the_teachers(reports):
    corrected = _all_wrong(reports)
    shipped = load_calibration()
    before = C.mae_of(shipped, corrected)
    after = C.mae_of(refit_models(shipped, corrected, 16.0), corrected)
    assert before > 0 and after < before
    assert refit_models(shipped, corrected, 0.0).models == shipped.models


def test_the_score_refit_shifts_the_level_of_the_corrected_group_alone(reports):
    """A teacher who marks the proof wrong moves the proofs' level, and no other group's."""
    proof = next(n for n, s in enumerate(SOLUTIONS) if s[3] == "proof")
    corrected = read_lines(
        [_line(reports[proof], ["incorrect"] * len(reports[proof]["steps"]), 0, proof)]
    )
    shipped = load_calibration()
    weights = refit_models(shipped, corrected, C.DEFAULT_WEIGHT).models["zh"].weights
    levels = {n: w for n, w in weights.items() if n.startswith("group:")}
    assert set(levels) == {"group:proof"} and levels["group:proof"] > 0
    assert not any(n.startswith("group:") for n in shipped.models["zh"].weights)


def test_recalibrate_keeps_other_models_and_sections_and_names_a_new_version(reports):
    shipped = load_calibration()
    result = C.recalibrate(shipped, _all_wrong(reports), 16.0)
    new = result.calibration
    assert new.version != shipped.version
    assert new.models["en"] == shipped.models["en"]
    assert new.kinds == shipped.kinds
    assert set(new.sections) == set(shipped.sections)
    assert new.meta["corrections"]["grades"] == len(reports)
    assert load_calibration(_write(new)).version == new.version  # a new file: read, not cached


def _write(calibration) -> Path:
    import tempfile

    path = Path(tempfile.mkdtemp()) / "c.json"
    path.write_text(C.to_text(calibration), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        (["{not json"], "line 1 is not JSON"),
        (['{"report": {}}'], "is not a corrected grade"),
        ([], "the export is empty"),
    ],
)
def test_bad_export_files_exit_2_with_a_message(tmp_path, capsys, lines, message):
    source = tmp_path / "export.jsonl"
    source.write_text("\n".join(lines), encoding="utf-8")
    assert C.main(["--corrections", str(source), "--out", str(tmp_path / "out.json")]) == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "out.json").exists()


def test_labels_that_do_not_match_the_steps_are_named(reports, tmp_path, capsys):
    source = tmp_path / "export.jsonl"
    source.write_text(_line(reports[0], ["correct"], 10, 0) + "\n", encoding="utf-8")
    assert C.main(["--corrections", str(source), "--out", str(tmp_path / "o.json")]) == 2
    assert "1 labels for 3 steps" in capsys.readouterr().err


def test_one_corrected_grade_is_measured_in_sample_and_says_so(reports, tmp_path, capsys):
    source = tmp_path / "export.jsonl"
    source.write_text(
        _line(reports[1], ["correct", "correct", "incorrect"], 7, 1) + "\n", encoding="utf-8"
    )
    assert C.main(["--corrections", str(source), "--out", str(tmp_path / "o.json")]) == 0
    printed = capsys.readouterr().out
    assert "too few problems to hold a fifth back" in printed and "held-back fifth" not in printed
    assert "nan" not in printed
    # one grade: its error is a figure, its correlation is not
    before = next(line for line in printed.splitlines() if line.strip().startswith("before"))
    assert "Corr –" in before and "MAE –" not in before


def test_a_held_back_fifth_of_several_problems_gets_an_interval(reports, tmp_path, capsys):
    # the same solutions under 30 problem texts, so the fifth holds back several problems
    lines, problems = [], []
    for k in range(30):
        n = k % len(reports)
        problem = f"{SOLUTIONS[n][0]} ({k})"
        problems.append(problem)
        lines.append(
            json.dumps(
                {
                    "grade_id": f"g{k}",
                    "problem": problem,
                    "report": reports[n],
                    "labels": ["incorrect"] * len(reports[n]["steps"]),
                    "score": 0,
                },
                ensure_ascii=False,
            )
        )
    held = [p for p in problems if held_back(p)]
    assert 2 <= len(held) < len(problems)
    source = tmp_path / "export.jsonl"
    source.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert C.main(["--corrections", str(source), "--out", str(tmp_path / "o.json")]) == 0
    captured = capsys.readouterr()
    printed = captured.out
    assert f"holding back {len(held)}" in printed
    # each phase is announced on stderr as it starts
    assert [line.split(": ", 1)[1] for line in captured.err.splitlines()] == [
        "read 30 corrected grades (their checks rerun)",
        f"refitting on {30 - len(held)} corrected grades and regrading {len(held)}",
        "refitting on all 30 corrected grades",
    ]
    # per group of grades, the held-back grades counted once each
    groups = next(x for x in printed.splitlines() if "MAE by group" in x)
    assert "proof (" in groups and "answer wrong (" in groups
    assert sum(int(n) for n in re.findall(r"\((\d+)\)", groups)) == len(held)
    line = next(x for x in printed.splitlines() if "MAE after - before" in x)
    assert f"the held-back grades' {len(held)} problems resampled" in line
    change, low, high = (float(x) for x in re.findall(r"[-+]\d+\.\d+", line)[:3])
    assert low <= change <= high
    # what the file was checked on is written into it, as printed
    measured = json.loads((tmp_path / "o.json").read_text(encoding="utf-8"))["meta"]["corrections"][
        "measured"
    ]
    assert measured["grades"] == len(held) and measured["on"] == "the held-back fifth, by problem"
    interval = measured["mae_change_interval"]
    assert (interval["low"], interval["high"]) == (low, high)
    assert interval["problems"] == len(held)
    assert sum(g["grades"] for g in measured["by_group"].values()) == len(held)


def test_missing_file_unreachable_url_and_bad_weight_exit_2(tmp_path, capsys):
    out = str(tmp_path / "o.json")
    assert C.main(["--corrections", str(tmp_path / "none.jsonl"), "--out", out]) == 2
    assert "cannot read" in capsys.readouterr().err
    url = f"http://127.0.0.1:{free_port()}"
    assert C.main(["--corrections", url, "--out", out, "--timeout", "2"]) == 2
    assert "cannot reach" in capsys.readouterr().err
    assert C.main(["--corrections", url, "--out", out, "--weight", "-1"]) == 2
    assert "--weight" in capsys.readouterr().err


def test_calibrate_registers_on_the_stepgrade_parser(tmp_path):
    parser = argparse.ArgumentParser()
    register_calibrate(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["calibrate", "--corrections", "x.jsonl", "--out", "o.json"])
    assert args.weight == str(C.DEFAULT_WEIGHT)
    args.weight = "-1"  # the registered command is the refit's own `run`, which checks it
    assert args.func(args) == 2
    text = (Path(__file__).parents[3] / "pyproject.toml").read_text(encoding="utf-8")
    assert 'calibrate = "eval_sets.cli:register_calibrate"' in text


def _serve(store: Path, calibration: Path | None, keys: str | None = None):
    port = free_port()
    env = {"STEPGRADE_DATA_DIR": str(store), "STEPGRADE_PRELOAD_EMBEDDING": "false"}
    if calibration is not None:
        env["STEPGRADE_CALIBRATION"] = str(calibration)
    if keys is not None:
        env["STEPGRADE_API_KEYS"] = keys
    process = start_service(
        None,
        port,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        drop=(
            "STEPGRADE_DATABASE_URL",
            "STEPGRADE_CALIBRATION",
            "STEPGRADE_API_KEYS",
            "STEPGRADE_STORE",
        ),
    )
    url = f"http://127.0.0.1:{port}"
    wait_ready(f"{url}/readyz", process)
    return process, url


@pytest.mark.timeout(280)
def test_grade_correct_export_calibrate_restart_names_the_new_version(tmp_path, capsys):
    out = tmp_path / "recalibrated.json"
    process, url = _serve(tmp_path / "store", None)
    try:
        with httpx.Client(timeout=60) as client:
            for n, solution in enumerate(SOLUTIONS):
                report = client.post(f"{url}/grade", json=_request(*solution)).json()
                labels = ["incorrect"] * len(report["steps"])
                client.post(
                    f"{url}/grades/{report['meta']['grade_id']}/corrections",
                    json={"step_labels": labels, "score": 0},
                ).raise_for_status()
                shipped_version = report["meta"]["versions"]["calibration"]
        assert C.main(["--corrections", url, "--out", str(out)]) == 0
    finally:
        stop(process)
    printed = capsys.readouterr().out
    measured = (
        "in sample"
        if all(not held_back(s[0]) for s in SOLUTIONS) or all(held_back(s[0]) for s in SOLUTIONS)
        else "held-back fifth"
    )
    assert measured in printed and f"version {json.loads(out.read_text())['version']}" in printed
    new_version = json.loads(out.read_text(encoding="utf-8"))["version"]
    assert new_version != shipped_version
    process, url = _serve(tmp_path / "store2", out)
    try:
        report = httpx.post(f"{url}/grade", json=_request(*SOLUTIONS[2]), timeout=60).json()
    finally:
        stop(process)
    assert report["meta"]["versions"]["calibration"] == new_version


@pytest.mark.timeout(200)
def test_a_bad_key_and_an_empty_export_exit_2(tmp_path, capsys):
    process, url = _serve(tmp_path / "store", None, keys="right-key")
    try:
        out = str(tmp_path / "o.json")
        assert C.main(["--corrections", url, "--out", out, "--api-key", "wrong"]) == 2
        assert "refused the API key" in capsys.readouterr().err
        assert C.main(["--corrections", url, "--out", out, "--api-key", "right-key"]) == 2
        assert "the export is empty" in capsys.readouterr().err
    finally:
        stop(process)
