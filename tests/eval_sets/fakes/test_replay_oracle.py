"""The replay fake answers as a model's published verdicts say, over HTTP; make bench-replay's
F1 of the fused labels and of the model alone on hand-made results."""

from __future__ import annotations

import json

import pytest

from eval_sets.bundled import bundled_path
from eval_sets.fakes.openai_server import FakeOpenAI
from eval_sets.fakes.replay_oracle import (
    ReplayOracle,
    Verdict,
    VerdictError,
    parse_verdict,
    read_verdicts,
    replayed_labels,
)
from eval_sets.registry import read_dataset
from eval_sets.runner.store import ItemResult
from eval_sets.studies.replay_bench import f1_pair, to_markdown
from server.cli import main


@pytest.mark.parametrize(
    ("row", "verdict"),
    [
        ({"correctness_pred": "correct", "error_step_pred": "N/A"}, Verdict(True, None)),
        ({"correctness_pred": "**Correct**", "error_step_pred": "N/A"}, Verdict(True, None)),
        ({"correctness_pred": "Wrong", "error_step_pred": "Step 4"}, Verdict(False, 4)),
        ({"correctness_pred": "wrong", "error_step_pred": "3."}, Verdict(False, 3)),
        ({"correctness_pred": "wrong", "error_step_pred": "N/A"}, Verdict(False, None)),
    ],
)
def test_published_verdicts_are_read_in_their_written_forms(row, verdict) -> None:
    assert parse_verdict(row) == verdict


def test_steps_before_the_named_step_are_correct_and_later_ones_depend_on_it() -> None:
    assert replayed_labels(Verdict(True, None), 3) == ["correct"] * 3
    assert replayed_labels(Verdict(False, 2), 4) == [
        "correct",
        "incorrect",
        "meaningless",
        "meaningless",
    ]
    # no step named, or one past the end: the last step
    assert replayed_labels(Verdict(False, None), 3) == ["correct", "correct", "incorrect"]
    assert replayed_labels(Verdict(False, 9), 2) == ["correct", "incorrect"]


def _verdicts(tmp_path, rows: list[dict]):
    path = tmp_path / "verdicts.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


VERDICTS = [
    {"id": 1, "correctness_pred": "Wrong", "error_step_pred": "Step 2"},
    {"id": 2, "correctness_pred": "correct", "error_step_pred": "N/A"},
    {"id": 3, "correctness_pred": "correct", "error_step_pred": "N/A"},
    {"id": 4, "correctness_pred": "wrong", "error_step_pred": "2"},
]


def test_a_missing_verdict_is_refused(tmp_path) -> None:
    items = read_dataset("mr_math_invalid", bundled_path("mr_math_invalid")).items
    with pytest.raises(VerdictError, match="no verdict"):
        ReplayOracle(items, read_verdicts(_verdicts(tmp_path, VERDICTS[:2])))


def test_llm_grades_carry_the_replayed_labels(tmp_path, monkeypatch, capsys) -> None:
    data = bundled_path("mr_math_invalid")
    items = read_dataset("mr_math_invalid", data).items
    oracle = ReplayOracle(items, read_verdicts(_verdicts(tmp_path, VERDICTS)))
    out = tmp_path / "run"
    with FakeOpenAI(oracle) as server:
        monkeypatch.setenv("STEPGRADE_LLM_BASE_URL", server.base_url)
        monkeypatch.setenv("STEPGRADE_LLM_MODEL", "replay-x")
        assert (
            main(
                [
                    "bench",
                    "grade",
                    "--dataset",
                    "mr_math_invalid",
                    "--path",
                    str(data),
                    "--out",
                    str(out),
                    "--mode",
                    "llm",
                    "--no-progress",
                ]
            )
            == 0
        ), capsys.readouterr().err
    rows = {r["id"]: r for r in map(json.loads, (out / "results.jsonl").read_text().splitlines())}
    labels = {k: [s["model_label"] for s in r["report"]["steps"]] for k, r in rows.items()}
    assert labels == {
        "mr-invalid-1": ["correct", "incorrect", "meaningless"],
        "mr-invalid-2": ["correct"] * 3,
        "mr-invalid-3": ["correct"] * 4,
        "mr-invalid-4": ["correct", "incorrect", "meaningless", "meaningless"],
    }
    results = [ItemResult.from_json(r) for r in rows.values()]
    f1 = f1_pair(results)
    # the model alone: item 4 found (1 of 2 wrong), item 1 a false alarm (1 of 2 correct) -> 0.5
    assert f1["model alone"] == pytest.approx(0.5) and f1["n"] == 4
    assert f1["fused"] is not None
    md = to_markdown({"m": {"assumed": {"all": f1}}})
    assert "| m | assumed | all | 4 |" in md
