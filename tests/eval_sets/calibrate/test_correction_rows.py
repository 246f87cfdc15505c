"""Reading teachers' corrected grades from an export line, a file or a service, and the split of
their problems into the held-back fifth and the folds."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest
import respx

from agent.grader import Grader
from eval_sets.calibrate.correction_rows import (
    CV_FOLDS,
    CorrectionsError,
    fetch_export,
    fold,
    held_back,
    parse_line,
    read_lines,
    read_source,
)
from scoring.schema import GradeRequest

REQUEST = GradeRequest(
    problem="Compute 2 + 3, then double it.",
    solution_steps=["2 + 3 = 5.", "5 * 2 = 12.", "So the answer is 12."],
    reference_answer="10",
    problem_type="calculation",
)


@pytest.fixture(scope="module")
def report() -> dict:
    return Grader().grade(REQUEST).model_dump(mode="json")


def line(report: dict, labels: list[str], score: int | None = None, **extra) -> str:
    record = {"grade_id": "g-1", "problem": REQUEST.problem, "report": report, "labels": labels}
    return json.dumps({**record, "score": score, **extra})


def test_a_corrected_grade_is_read_with_its_checks_rerun(report) -> None:
    got = parse_line(line(report, ["correct", "incorrect", "incorrect"], score=4), 3)
    assert got.grade_id == "g-1" and got.labels == ("correct", "incorrect", "incorrect")
    assert got.problem == REQUEST.problem and got.language == "en"
    assert got.observed.inp.steps == tuple(REQUEST.solution_steps)
    assert got.observed.solution.wrong == (False, True, True)
    assert got.human_score() == 4


def test_without_a_score_the_teachers_labels_give_eq1(report) -> None:
    got = parse_line(line(report, ["correct", "correct", "correct"]))
    assert got.score is None and got.human_score() == 10


def test_a_step_left_as_text_to_the_grader_is_not_learnt_from(report) -> None:
    got = parse_line(line(report, ["correct", "not_math", "incorrect"]))
    assert got.labels == ("correct", "incorrect")
    assert got.observed.inp.steps == ("2 + 3 = 5.", "So the answer is 12.")


def test_the_problem_may_come_from_the_request(report) -> None:
    record = json.loads(line(report, ["correct"] * 3))
    del record["problem"]
    record["request"] = {"problem": "Another problem."}
    assert parse_line(json.dumps(record)).problem == "Another problem."


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda r: "{not json", "line 7 is not JSON"),
        (lambda r: "[1]", "line 7 is not a JSON object"),
        (lambda r: json.dumps({"labels": []}), "line 7 is not a corrected grade"),
        (lambda r: line(r, ["right"] * 3), "line 7: labels must be a list of"),
        (lambda r: line(r, ["correct"]), "line 7: 1 labels for 3 steps"),
        (lambda r: line(r, ["correct"] * 3, score=11), "line 7: score must be an integer 0-10"),
        (lambda r: line(r, ["correct"] * 3, score="9"), "line 7: score must be an integer 0-10"),
    ],
)
def test_a_bad_line_is_refused_by_its_number(report, make, message) -> None:
    with pytest.raises(CorrectionsError, match=message):
        parse_line(make(report), 7)


def test_lines_are_read_in_order_and_an_empty_export_is_refused(report) -> None:
    good = line(report, ["correct"] * 3)
    assert [c.grade_id for c in read_lines([good, "  ", good])] == ["g-1", "g-1"]
    with pytest.raises(CorrectionsError, match="the export is empty"):
        read_lines(["", "\n"])
    with pytest.raises(CorrectionsError, match="line 2 is not JSON"):
        read_lines([good, "{"])


def test_a_file_is_read_and_a_missing_one_named(report, tmp_path: Path) -> None:
    path = tmp_path / "export.jsonl"
    path.write_text(line(report, ["correct"] * 3) + "\n", encoding="utf-8")
    assert len(read_source(str(path), None)) == 1
    with pytest.raises(CorrectionsError, match="cannot read .*absent.jsonl: No such file"):
        read_source(str(tmp_path / "absent.jsonl"), None)


@respx.mock
def test_the_export_is_fetched_with_the_key_from_the_export_route(report) -> None:
    route = respx.get("http://grader.test/grades/export").mock(
        return_value=httpx.Response(200, text=line(report, ["correct"] * 3) + "\n")
    )
    assert len(read_source("http://grader.test/", "k-1")) == 1
    sent = route.calls.last.request
    assert sent.url.params["corrected"] == "true" and sent.headers["X-API-Key"] == "k-1"
    assert fetch_export("http://grader.test/grades/export", None) == [line(report, ["correct"] * 3)]
    assert "X-API-Key" not in route.calls.last.request.headers


@respx.mock
@pytest.mark.parametrize(
    ("response", "message"),
    [
        (httpx.Response(401), "refused the API key \\(HTTP 401\\)"),
        (httpx.Response(503, text="busy"), "answered HTTP 503: busy"),
        (httpx.ConnectError("refused"), "cannot reach http://grader.test/grades/export"),
    ],
)
def test_a_service_that_refuses_or_cannot_be_reached_is_named(response, message) -> None:
    route = respx.get("http://grader.test/grades/export")
    if isinstance(response, Exception):
        route.mock(side_effect=response)
    else:
        route.mock(return_value=response)
    with pytest.raises(CorrectionsError, match=message):
        fetch_export("http://grader.test", "k", timeout=1.0)


def test_the_split_is_by_problem_and_stable() -> None:
    problems = [f"Compute {i} + {i}." for i in range(200)]
    held = [p for p in problems if held_back(p)]
    assert 20 <= len(held) <= 60  # about one in five
    folds = {fold(p) for p in problems}
    assert folds == set(range(CV_FOLDS))
    assert fold("Compute 1 + 1.") == fold("Compute 1 + 1.")
    assert {fold(p, folds=2) for p in problems} == {0, 1}
