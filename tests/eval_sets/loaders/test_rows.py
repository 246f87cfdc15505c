"""One broken row is one failed item; a file that is not the data set at all is a usage error."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from eval_sets.bundled import bundled_path
from eval_sets.registry import DatasetError, read_dataset
from scoring.schema import GradeRequest
from server.cli import main


def write_lines(folder: Path, lines: list[str], name: str = "data.jsonl") -> Path:
    path = folder / name
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def _empty_solutions_are_accepted() -> bool:
    """An empty solution is graded (score 0 and a warning); where the
    request schema does not accept one, such a row cannot be built and is a failed item instead."""
    try:
        GradeRequest(problem="p", solution="")
    except ValueError:
        return False
    return True


def test_bad_rows_are_failed_items_and_the_others_are_read(broken_stepmath) -> None:
    loaded = read_dataset("stepmath", broken_stepmath)
    failed = {r.key: r.reason for r in loaded.failed}
    assert "data.jsonl:2" in failed and "not valid JSON" in failed["data.jsonl:2"]
    assert "missing field(s) gold_score" in failed["data.jsonl:3"]
    ids = [i.id for i in loaded.items]
    assert ids[0] == "good-1" and ids[-1] == "good-2"
    if _empty_solutions_are_accepted():
        assert (
            "empty" in ids
            and next(i for i in loaded.items if i.id == "empty").request.solution == ""
        )
    else:
        assert "solution" in failed["data.jsonl:4"] and "empty" not in ids


def test_bench_grade_records_bad_rows_and_goes_on(tmp_path, capsys, broken_stepmath) -> None:
    out = tmp_path / "out"
    code = main(
        [
            "bench",
            "grade",
            "--dataset",
            "stepmath",
            "--path",
            str(broken_stepmath),
            "--out",
            str(out),
            "--no-progress",
        ]
    )
    assert code == 1  # some rows failed, as `stepgrade grade` exits on a bad line
    rows = {r["id"]: r for r in map(json.loads, (out / "results.jsonl").read_text().splitlines())}
    assert rows["good-1"]["report"]["score"] == 10 and rows["good-2"]["error"] is None
    assert (
        rows["data.jsonl:2"]["request"] is None
        and "not valid JSON" in rows["data.jsonl:2"]["error"]
    )
    assert "gold_score" in rows["data.jsonl:3"]["error"]
    if _empty_solutions_are_accepted():
        empty = rows["empty"]["report"]
        assert empty["score"] == 0 and empty["meta"]["warnings"]
        failed = 2
    else:
        assert "solution" in rows["data.jsonl:4"]["error"]
        failed = 3
    summary = json.loads((out / "summary.json").read_text())
    overview = summary["tables"]["overview"]["rows"]
    assert overview["items"]["value"] == 5 and overview["failed"]["value"] == failed
    assert "not valid JSON" in summary["tables"]["failures"]["rows"]["data.jsonl:2"]["reason"]
    err = capsys.readouterr().err
    assert f"5 items, 0 resumed, {5 - failed} graded now, {failed} failed" in err
    assert f"stepgrade bench: {failed} of 5 items failed" in err
    # A rerun retries the failed rows (they fail again) and keeps the graded ones.
    assert (
        main(
            [
                "bench",
                "grade",
                "--dataset",
                "stepmath",
                "--path",
                str(tmp_path / "data.jsonl"),
                "--out",
                str(out),
                "--no-progress",
            ]
        )
        == 1
    )
    ids = [json.loads(x)["id"] for x in (out / "results.jsonl").read_text().splitlines()]
    assert len(ids) == len(set(ids)) == 5


def test_an_item_the_grader_raises_on_is_a_failed_item(tmp_path, monkeypatch, capsys) -> None:
    from agent.grader import Grader

    real = Grader.agrade

    async def flaky(self, request):  # type: ignore[no-untyped-def]
        if "rectangle" in request.problem:
            raise OverflowError("int too large to convert to float")
        return await real(self, request)

    monkeypatch.setattr(Grader, "agrade", flaky)
    out = tmp_path / "out"
    assert (
        main(
            [
                "bench",
                "grade",
                "--dataset",
                "mr_math_invalid",
                "--path",
                str(bundled_path("mr_math_invalid")),
                "--out",
                str(out),
                "--no-progress",
            ]
        )
        == 1
    )
    rows = {r["id"]: r for r in map(json.loads, (out / "results.jsonl").read_text().splitlines())}
    assert rows["mr-invalid-3"]["error"] == "OverflowError: int too large to convert to float"
    assert all(rows[i]["report"] for i in ("mr-invalid-1", "mr-invalid-2", "mr-invalid-4"))
    assert "4 items, 0 resumed, 4 graded now, 1 failed" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        (["just some text", "more text"], "no row could be read as stepmath (2 tried)"),
        (
            [json.dumps({"problem": "p", "steps": ["a"]})] * 3,
            "missing field(s) question, model_output",
        ),
    ],
)
def test_a_file_that_is_not_the_set_is_a_usage_error(tmp_path, capsys, lines, message) -> None:
    code = main(
        [
            "bench",
            "grade",
            "--dataset",
            "stepmath",
            "--path",
            str(write_lines(tmp_path, lines)),
            "--out",
            str(tmp_path / "o"),
            "--no-progress",
        ]
    )
    err = capsys.readouterr().err
    assert code == 2 and message in err and "Traceback" not in err


def test_limit_counts_failed_rows_but_reads_on_to_find_a_good_one(
    tmp_path, broken_stepmath
) -> None:
    path = broken_stepmath
    assert [i.id for i in read_dataset("stepmath", path, limit=2).items] == ["good-1"]
    lines = path.read_text(encoding="utf-8").splitlines()
    bad_first = write_lines(tmp_path, [lines[1], lines[2], lines[0]], "bad_first.jsonl")
    loaded = read_dataset("stepmath", bad_first, limit=1)
    assert loaded.items == [] and [r.key for r in loaded.failed] == ["bad_first.jsonl:1"]


def test_duplicate_ids_fail_the_later_rows_only(tmp_path, stepmath_row) -> None:
    row = json.dumps({**stepmath_row, "uid": "same"}, ensure_ascii=False)
    loaded = read_dataset("stepmath", write_lines(tmp_path, [row, row, row]))
    assert [i.id for i in loaded.items] == ["same"]
    assert [r.key for r in loaded.failed] == ["same#2", "same#3"]
    assert "duplicate item id 'same'" in loaded.failed[0].reason


@pytest.mark.parametrize(
    "kind",
    [
        "stepmath",
        "processbench",
        "perturbation",
        "mr_math_invalid",
        "mr_math_redundant",
        "prm800k",
        "gsm8k",
        "math",
    ],
)
def test_every_loader_reads_past_a_broken_row(tmp_path, kind) -> None:
    good = bundled_path(kind).read_text(encoding="utf-8").splitlines()
    path = write_lines(tmp_path, [good[0], json.dumps({"unrelated": 1}), "[1, 2]", *good[1:]])
    loaded = read_dataset(kind, path)
    assert [r.key for r in loaded.failed] == ["data.jsonl:2", "data.jsonl:3"]
    assert "expected a JSON object, got list" in loaded.failed[1].reason
    assert len(loaded.items) == len(read_dataset(kind, bundled_path(kind)).items)


def test_a_broken_file_in_a_math_folder_fails_alone(tmp_path) -> None:
    (tmp_path / "algebra").mkdir()
    (tmp_path / "algebra" / "1.json").write_text(
        json.dumps(
            {
                "problem": "Solve $x+1=2$.",
                "solution": "$x=\\boxed{1}$",
                "level": "Level 1",
                "type": "Algebra",
            }
        ),
        encoding="utf-8",
    )
    (tmp_path / "algebra" / "2.json").write_text("{oops", encoding="utf-8")
    loaded = read_dataset("math", tmp_path)
    assert [i.id for i in loaded.items] == ["math-algebra/1.json"]
    assert loaded.failed[0].key.endswith(":algebra/2.json")
    assert "not a JSON object" in loaded.failed[0].reason


def test_a_folder_of_nothing_readable_is_a_usage_error(tmp_path) -> None:
    (tmp_path / "a.json").write_text("[]", encoding="utf-8")
    with pytest.raises(DatasetError, match="no row could be read as math"):
        read_dataset("math", tmp_path)


def test_load_dataset_stays_strict_for_tools_that_need_every_row(broken_stepmath) -> None:
    from eval_sets.loaders.rows import read_records
    from eval_sets.registry import load_dataset

    with pytest.raises(DatasetError, match="data.jsonl:2: not valid JSON"):
        load_dataset("stepmath", broken_stepmath)
    with pytest.raises(DatasetError, match="data.jsonl:2: not valid JSON"):
        list(read_records(broken_stepmath))
