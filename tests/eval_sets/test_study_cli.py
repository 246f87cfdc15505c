"""Studies registered by name and run through `stepgrade study` (eval_sets/study_cli.py)."""

from __future__ import annotations

import argparse
import json
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

import eval_sets.studies
from eval_sets.plugins import STUDIES, register_study
from eval_sets.processes import stepgrade_command
from eval_sets.study_cli import StudyInputError, get_study, load_studies, run_study
from server.cli import main

# StepMathBench's row format, written for this test: two steps each, labels as the annotators
# write them. The last row's gold score is not what Eq. 1 gives its labels.
ROWS = [
    {"type": "Calculation", "gold_step_score": ["1", "1"], "gold_score": 10, "gold_score_01": 1},
    {"type": "Calculation", "gold_step_score": ["1", "0"], "gold_score": 6, "gold_score_01": 0},
    {"type": "Calculation", "gold_step_score": ["0", "1(0)"], "gold_score": 0, "gold_score_01": 0},
    {"type": "Calculation", "gold_step_score": ["1", "0"], "gold_score": 9, "gold_score_01": 0},
]


def _rows(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def _modules() -> set[str]:
    return {
        m.name
        for m in pkgutil.iter_modules(eval_sets.studies.__path__)
        if not m.name.startswith("_")
    }


def test_every_module_of_the_package_registers_one_study_of_its_name():
    assert set(load_studies()) == _modules()
    for name, spec in load_studies().items():
        assert spec.run.__module__ == f"eval_sets.studies.{name}"
        assert spec.description, f"{name}: its module docstring says what it measures"


def test_a_registered_study_runs_over_its_parsed_options_and_input_errors_exit_2(capsys):
    seen = []

    def add(parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--n", type=int, default=1)

    @register_study("a_test_study", arguments=add)
    def study(args: argparse.Namespace) -> int:
        seen.append(args.n)
        if args.n < 0:
            raise StudyInputError("--n must not be negative")
        return 0

    try:
        assert run_study("a_test_study", ["--n", "3"]) == 0
        assert seen == [3]
        assert run_study("a_test_study", ["--n", "-1"]) == 2
        assert capsys.readouterr().err.strip() == "a_test_study: --n must not be negative"
    finally:
        del STUDIES["a_test_study"]


def test_study_list_names_every_study(capsys):
    assert main(["study", "list"]) == 0
    listed = [line.split()[0] for line in capsys.readouterr().out.splitlines()]
    assert listed == sorted(_modules())
    assert "aggregation_check" in listed and "service_bench" in listed


def test_an_unknown_study_fails_clearly(capsys):
    assert main(["study", "no_such_study"]) == 2
    err = capsys.readouterr().err
    assert "unknown study 'no_such_study'" in err and "aggregation_check" in err
    with pytest.raises(StudyInputError, match="known: .*latency"):
        get_study("no_such_study")


def test_a_study_runs_end_to_end_through_stepgrade_study(tmp_path, capsys):
    good = _rows(tmp_path / "good.jsonl", ROWS[:3])
    assert main(["study", "aggregation_check", str(good)]) == 0
    assert capsys.readouterr().out.strip() == (
        "items 3: gold_score reproduced 3/3, gold_score_01 3/3"
    )
    mixed = _rows(tmp_path / "mixed.jsonl", ROWS)
    assert main(["study", "aggregation_check", str(mixed)]) == 1
    assert "gold_score reproduced 3/4, gold_score_01 4/4" in capsys.readouterr().out


def test_a_study_says_which_file_is_missing(tmp_path, capsys):
    assert main(["study", "aggregation_check", str(tmp_path / "absent.jsonl")]) == 2
    assert capsys.readouterr().err.strip() == (
        f"aggregation_check: no such file: {tmp_path / 'absent.jsonl'}"
    )


def test_a_studys_help_shows_its_own_options(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["study", "deployment_sim", "--help"])
    assert stop.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: stepgrade study deployment_sim")
    assert "--corrections" in out and "--splits" in out


def test_the_console_script_and_python_m_run_the_same_study(tmp_path):
    good = _rows(tmp_path / "good.jsonl", ROWS[:3])
    for command in (
        [*stepgrade_command(), "study", "aggregation_check", str(good)],
        [sys.executable, "-m", "eval_sets.studies.aggregation_check", str(good)],
    ):
        done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
        assert done.returncode == 0, done.stderr
        assert done.stdout.strip() == "items 3: gold_score reproduced 3/3, gold_score_01 3/3"


def test_study_help_imports_no_study():
    """`stepgrade study --help` builds the parser only: the studies, the grader and the
    registries are imported when a study runs."""
    script = (
        "import sys\nfrom server.cli import main\ntry:\n    main(['study', '--help'])\n"
        "except SystemExit:\n    pass\nheavy = ['eval_sets.studies', 'eval_sets.plugins', "
        "'agent.grader', 'scoring.schema', 'torch']\n"
        "print([m for m in heavy if m in sys.modules])"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=True
    )
    assert "usage: stepgrade study" in done.stdout
    assert done.stdout.strip().splitlines()[-1] == "[]"


def test_a_row_a_study_cannot_read_is_named_with_its_line(tmp_path, capsys):
    bad = _rows(tmp_path / "bad.jsonl", [ROWS[0], {**ROWS[1], "gold_step_score": ["1", "x"]}])
    assert main(["study", "aggregation_check", str(bad)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("aggregation_check: line 2: ") and "'x'" in err


@pytest.mark.parametrize("name", sorted(_modules()))
def test_every_studys_options_parse(name, capsys):
    with pytest.raises(SystemExit) as stop:
        run_study(name, ["--help"])
    assert stop.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith(f"usage: python -m eval_sets.studies.{name}")
    assert get_study(name).description.split()[0] in out
