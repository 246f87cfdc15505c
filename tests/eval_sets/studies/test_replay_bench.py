"""The replay study's figures on hand-made results: fused and model-alone F1, per half and all;
its table; its environment; and its bad input."""

from __future__ import annotations

import pytest

from agent.grader import Grader
from eval_sets.items import Gold
from eval_sets.runner.store import ItemResult
from eval_sets.studies.replay_bench import (
    f1_pair,
    figures_of,
    grading_env,
    main,
    model_first_error,
    to_markdown,
)
from scoring.schema import FirstErrorReport, GradeReport, GradeRequest

REQUEST = GradeRequest(
    problem="Compute 2 + 3, then double it, then add 1.",
    solution_steps=["2 + 3 = 5.", "5 * 2 = 10.", "10 + 1 = 11."],
    problem_type="calculation",
)
WORD = {"c": "correct", "i": "incorrect", "m": "meaningless", "-": None}


@pytest.fixture(scope="module")
def base() -> GradeReport:
    return Grader().grade(REQUEST)


def result(base: GradeReport, uid: str, gold: int | None, fused: int | None, model: str):
    """An item whose gold first error is `gold`, the fused best guess `fused`, and the model's
    own step labels `model` (one letter a step; `-` a step the model did not label)."""
    steps = [s.model_copy(update={"model_label": WORD[c]}) for s, c in zip(base.steps, model)]
    report = base.model_copy(
        update={
            "steps": steps,
            "likely_first_error": None
            if fused is None
            else FirstErrorReport(step=fused, probability=0.6),
        }
    )
    if fused is None:
        report = report.model_copy(
            update={"steps": [s.model_copy(update={"label": "correct"}) for s in steps]}
        )
    return ItemResult(
        id=uid,
        gold=Gold(first_error=gold, process_correct=gold is None),
        request=REQUEST,
        report=report,
    )


def test_the_model_alone_reads_its_first_bad_label(base) -> None:
    assert model_first_error(result(base, "a", 2, 2, "cmi").report) == 2
    assert model_first_error(result(base, "a", None, None, "ccc").report) is None


def test_f1_pair_by_hand(base) -> None:
    results = [
        result(base, "1", 2, 2, "cic"),  # both right
        result(base, "2", 3, 3, "ccc"),  # fused finds it, the model alone misses it
        result(base, "3", None, None, "icc"),  # model alone: a false alarm; fused: clean
        result(base, "4", None, None, "ccc"),  # both say clean
        result(base, "5", 2, 2, "c-c"),  # a step without a model label: left out of both
        ItemResult(id="6", gold=Gold(first_error=1), request=REQUEST, report=None, error="x"),
    ]
    f1 = f1_pair(results)
    # fused: errors 2/2, clean 2/2 -> 1.0; alone: errors 1/2, clean 1/2 -> 0.5
    assert f1 == {"fused": 1.0, "model alone": pytest.approx(0.5), "n": 4.0}


def test_figures_by_half_and_all_and_the_table(base) -> None:
    fit = [result(base, "1", 2, 2, "cic"), result(base, "2", None, None, "ccc")]
    check = [result(base, "3", 3, 3, "ccc")]
    figures = figures_of({"assumed": {"fit": fit, "check": check}})
    assert list(figures["assumed"]) == ["fit", "check", "all"]
    assert figures["assumed"]["fit"]["fused"] == 1.0
    assert figures["assumed"]["check"]["fused"] is None  # no correct solution: F1 undefined
    assert figures["assumed"]["all"]["n"] == 3.0
    assert figures["assumed"]["all"]["model alone"] == pytest.approx(2 * 0.5 / 1.5)
    md = to_markdown({"m": figures})
    assert md.splitlines()[0].startswith("| model | reliability | group | items |")
    assert "| m | assumed | fit | 2 | 100.0 | 100.0 | 0.0 |" in md
    assert "| m | assumed | check | 1 | – | – | – |" in md


def test_the_grading_env_drops_the_hand_set_reliability(monkeypatch, tmp_path) -> None:
    monkeypatch.setenv("STEPGRADE_LLM_SENSITIVITY", "0.9")
    monkeypatch.setenv("STEPGRADE_CALIBRATION", "/elsewhere.json")
    env = grading_env("http://127.0.0.1:9/v1", "m", None)
    assert env["STEPGRADE_LLM_BASE_URL"] == "http://127.0.0.1:9/v1"
    assert env["STEPGRADE_LLM_MODEL"] == "m"
    assert "STEPGRADE_LLM_SENSITIVITY" not in env and "STEPGRADE_CALIBRATION" not in env
    measured = grading_env("http://127.0.0.1:9/v1", "m", tmp_path / "c.json")
    assert measured["STEPGRADE_CALIBRATION"] == str(tmp_path / "c.json")


def test_a_missing_file_is_one_line_and_exit_2(tmp_path, capsys) -> None:
    data = tmp_path / "d.jsonl"
    data.write_text("{}\n", encoding="utf-8")
    argv = ["--data", str(data), "--out", str(tmp_path / "o"), "--model"]
    assert main([*argv, f"m={tmp_path / 'absent.jsonl'}"]) == 2
    assert (
        capsys.readouterr().err.strip()
        == f"replay_bench: no such file: {tmp_path / 'absent.jsonl'}"
    )
    assert not (tmp_path / "o").exists()


def test_a_model_without_its_verdicts_file_is_a_usage_error(tmp_path, capsys) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["--data", str(tmp_path), "--out", str(tmp_path), "--model", "gpt-4"])
    assert exit_.value.code == 2
    assert "expected NAME=VERDICTS.jsonl" in capsys.readouterr().err
