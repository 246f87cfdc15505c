"""Empty solutions in the service: an empty solution is graded (not a 422), the same as the CLI
and the grader; a failed check is reported and counted in Prometheus, never a 5xx."""

from __future__ import annotations

import re

from scoring.judge.checks import CHECKS

from .conftest import service

GOOD = {"problem": "Compute 3 * 4.", "solution": "3 * 4 = 12", "reference_answer": "12"}


def _empty_report(report: dict, reference: bool) -> None:
    assert (report["score"], report["score_raw"], report["score_binary"]) == (0, 0.0, 0)
    assert report["steps"] == [] and report["error_tree"]["roots"] == []
    assert report["answer"]["extracted"] is None
    assert report["answer"]["correct"] is (False if reference else None)
    assert report["quadrant"] == "failure" and report["meta"]["mode"] == "offline"
    assert "empty solution: nothing to grade" in report["meta"]["warnings"]


def test_an_empty_solution_is_graded_zero_not_refused():
    with service() as client:
        for body, reference in (
            ({**GOOD, "solution": ""}, True),
            ({**GOOD, "solution": " \n\t"}, True),
            ({"problem": "p", "solution_steps": ["", "  "]}, False),
            ({"problem": "p", "solution_steps": []}, False),
        ):
            r = client.post("/grade", json=body)
            assert r.status_code == 200, r.text
            _empty_report(r.json(), reference)
        r = client.post("/grade/batch", json={"items": [{**GOOD, "solution": ""}, GOOD]})
        results = r.json()["results"]
        _empty_report(results[0]["report"], True)
        assert results[1]["report"]["score"] == 10 and r.json()["failed"] == 0


def test_a_request_without_any_solution_is_still_a_422():
    with service() as client:
        r = client.post("/grade", json={"problem": "p"})
        assert r.status_code == 422 and r.json()["error"]["code"] == "invalid_request"


def test_a_failed_check_is_reported_and_counted(monkeypatch):
    def boom(*_args, **_kwargs):
        raise OverflowError("integer division result too large for a float")

    monkeypatch.setitem(CHECKS, "derivation", boom)
    with service() as client:
        for _ in range(2):
            r = client.post("/grade", json=GOOD)
            assert r.status_code == 200
            assert r.json()["meta"]["failed_checks"] == ["judge.derivation"]
        metrics = client.get("/metrics").text
    found = re.search(r'stepgrade_failed_checks_total\{check="judge.derivation"\} (\S+)', metrics)
    assert found is not None and float(found.group(1)) == 2.0
