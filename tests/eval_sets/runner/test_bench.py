"""`stepgrade bench grade --half fit|check`: one half's problems only, on either engine."""

from __future__ import annotations

import json

import pytest

from eval_sets.halves import half_of
from eval_sets.runner import bench
from eval_sets.runner.run import RunStats
from server.cli import main
from tests.eval_sets.conftest import STEPMATH, write_lines

# Hand-written problems, two solutions each (a problem's solutions must share its half).
PROBLEMS = [f"计算 ${a}+{b}$。" for a, b in [(2, 3), (4, 5), (6, 7), (1, 8), (9, 9), (3, 4)]]


@pytest.fixture
def data(tmp_path):
    rows = []
    for p, problem in enumerate(PROBLEMS):
        for s in range(2):
            rows.append(
                json.dumps(
                    {**STEPMATH, "uid": f"p{p}-s{s}", "question": problem}, ensure_ascii=False
                )
            )
    return write_lines(tmp_path, rows)


def _ids(half: str) -> list[str]:
    return [
        f"p{p}-s{s}"
        for p, problem in enumerate(PROBLEMS)
        if half_of(problem) == half
        for s in range(2)
    ]


def _graded(out) -> list[str]:
    return [json.loads(line)["id"] for line in (out / "results.jsonl").read_text().splitlines()]


def _args(data, out, *extra: str) -> list[str]:
    return [
        "bench",
        "grade",
        "--dataset",
        "stepmath",
        "--path",
        str(data),
        "--out",
        str(out),
        "--no-progress",
        *extra,
    ]


def test_the_problems_fall_in_both_halves() -> None:
    assert _ids("fit") and _ids("check")  # else the tests below could not tell the halves apart


@pytest.mark.parametrize("half", ["fit", "check"])
def test_a_half_grades_its_problems_only(tmp_path, data, half, capsys) -> None:
    out = tmp_path / half
    assert main(_args(data, out, "--half", half)) == 0
    assert sorted(_graded(out)) == sorted(_ids(half))
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert summary["tables"]["overview"]["rows"]["items"]["value"] == len(_ids(half))
    assert json.loads((out / "run.json").read_text())["half"] == half


def test_limit_counts_the_items_of_the_half(tmp_path, data) -> None:
    out = tmp_path / "o"
    assert main(_args(data, out, "--half", "check", "--limit", "3")) == 0
    assert _graded(out) == _ids("check")[:3]


def test_another_half_in_the_same_folder_is_refused(tmp_path, data, capsys) -> None:
    out = tmp_path / "o"
    assert main(_args(data, out, "--half", "fit", "--limit", "1")) == 0
    capsys.readouterr()
    assert main(_args(data, out, "--half", "check")) == 2
    err = capsys.readouterr().err
    assert "fit half" in err and "check half" in err and "Traceback" not in err


def test_an_unknown_half_is_a_usage_error(tmp_path, data, capsys) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(_args(data, tmp_path / "o", "--half", "both"))
    assert exit_.value.code == 2 and "invalid choice: 'both'" in capsys.readouterr().err


def test_the_ray_engine_gets_the_same_half(tmp_path, data, monkeypatch) -> None:
    """The half is chosen before the engine: Ray is handed exactly the half's items."""
    handed: list[str] = []

    def fake_ray(items, store, config, recipe, options) -> RunStats:
        handed.extend(item.id for item in items)
        return RunStats(total=len(items), resumed=0, graded=0, failed=0, wall_s=0.0)

    monkeypatch.setattr(bench, "run_on_ray", fake_ray)
    assert main(_args(data, tmp_path / "o", "--half", "fit", "--engine", "ray")) == 0
    assert handed == _ids("fit")


def test_a_half_on_a_real_ray_matches_the_local_engine(tmp_path, data, capsys) -> None:
    """A Ray of its own (1 actor): the same half's items, the same results as the local run."""
    from eval_sets.runner.compare import differences

    base = ["--half", "check", "--answer-timeout", "30"]
    assert main(_args(data, tmp_path / "local", *base)) == 0
    assert main(_args(data, tmp_path / "ray", *base, "--engine", "ray", "--actors", "1")) == 0
    assert "(ray engine)" in capsys.readouterr().err
    assert sorted(_graded(tmp_path / "ray")) == sorted(_ids("check"))
    assert differences(tmp_path / "local", tmp_path / "ray") == []
