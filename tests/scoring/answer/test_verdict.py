"""The answer verdict a judge reads: a route's measured precision decides whether it gives a
finding, and weak routes warn."""

from dataclasses import replace

from scoring.answer.compare import AnswerCheck
from scoring.answer.routes import Routes, RouteStats
from scoring.answer.verdict import answer_verdict, answer_warnings
from scoring.judge.checks.final_answer import find_final_answer
from scoring.judge.input import JudgeInput

WEAK = Routes({"math_verify": RouteStats(20, 10), "exact_value": RouteStats(20, 20)}, {})


def _inp(check: AnswerCheck, routes: Routes = WEAK, **changes) -> JudgeInput:
    verdict = replace(answer_verdict(check, ["x"], routes), **changes)
    return JudgeInput("p", ["a", "b = 3"], "calculation", verdict)


def test_a_weak_route_reports_its_verdict_but_gives_no_finding():
    check = AnswerCheck("y", False, True, "math_verify", route="math_verify")
    verdict = answer_verdict(check, ["x"], WEAK)
    assert (verdict.correct, verdict.route, verdict.route_precision) == (False, "math_verify", 0.5)
    assert not verdict.route_decides and verdict.deciding is None
    assert find_final_answer(_inp(check)) == []
    [warning] = answer_warnings(check, ["x"], 2.0, WEAK)
    assert "math_verify route" in warning and "decides no step label" in warning


def test_a_precise_route_decides():
    check = AnswerCheck("3", False, True, "plain_number", route="exact_value")
    [finding] = find_final_answer(_inp(check))
    assert finding.kind == "answer_wrong"
    assert answer_warnings(check, ["x"], 2.0, WEAK) == []


def test_a_models_verdict_still_decides_over_a_weak_route():
    check = AnswerCheck("y", False, True, "math_verify", route="math_verify")
    inp = _inp(check, llm=True)
    assert inp.answer.deciding is True
    assert [f.kind for f in find_final_answer(inp)] == ["answer_correct"]
