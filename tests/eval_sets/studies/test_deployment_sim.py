"""The simulated deployment's command line: what it refuses before any service starts."""

import pytest

from eval_sets.deployment_items import group
from eval_sets.studies.deployment_sim import main


def test_missing_data_is_a_message_and_exit_2(tmp_path, capsys):
    assert main(["--data", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("deployment_sim: no such file: ") and "stepmathbench_dev.jsonl" in err


def test_a_teacher_corrects_at_least_one_grade(tmp_path, capsys):
    with pytest.raises(SystemExit) as stop:
        main(["--data", str(tmp_path), "--corrections", "0"])
    assert stop.value.code == 2
    assert "argument --corrections: must be at least 1" in capsys.readouterr().err


def test_the_split_keeps_a_problem_in_one_group_and_changes_with_the_seed():
    problems = [f"problem {i}" for i in range(200)]
    first = [group(p, 0) for p in problems]
    assert first == [group(p, 0) for p in problems]
    assert {"A", "B"} == set(first)
    assert first != [group(p, 1) for p in problems]
