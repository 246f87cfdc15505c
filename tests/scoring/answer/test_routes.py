"""Answer routes: readings grouped, their measured precision loaded, weak routes only warn."""

import json

import pytest

from scoring.answer.compare import AnswerCheck, compare_answers
from scoring.answer.load import load_routes
from scoring.answer.readings import READINGS
from scoring.answer.routes import (
    DECIDE_PRECISION,
    DEFAULT_PRECISION,
    MIN_CASES,
    ROUTE_OF_READING,
    ROUTES,
    Routes,
    RoutesError,
    RouteStats,
    route_of,
)
from scoring.answer.verdict import answer_verdict, answer_warnings
from scoring.judge.checks.final_answer import find_final_answer
from scoring.judge.input import JudgeInput


def test_every_reading_has_a_route():
    names = {n for n, _ in READINGS} | {
        "same_text",
        "rounded_computation",
        "stated_precision",
        "math_verify",
    }
    assert names <= set(ROUTE_OF_READING)
    assert set(ROUTE_OF_READING.values()) <= set(ROUTES)


@pytest.mark.parametrize(
    ("reading", "restated", "route"),
    [
        ("same_text", False, "exact_value"),
        ("same_text", True, "exact_value"),
        ("plain_number", False, "exact_value"),
        ("plain_number", True, "units"),
        ("math_verify", True, "units"),
        ("approximation", False, "rounding"),
        ("stated_precision", False, "rounding"),
        ("matrix", False, "parts"),
        ("worded_parts", False, "parts"),
        ("choice_letter", False, "text"),
        ("math_verify", False, "math_verify"),
        ("empty", False, None),
        ("", False, None),
    ],
)
def test_route_of(reading, restated, route):
    assert route_of(reading, restated) == route


def test_an_equivalence_names_its_route():
    assert compare_answers("3", "3.0").route == "exact_value"
    assert compare_answers("3", "").route is None


def test_the_shipped_routes_load_and_are_statistics_only():
    routes = load_routes()
    assert set(routes.stats) <= set(ROUTES) and routes.stats
    for route, stats in routes.stats.items():
        assert 0 <= stats.agree <= stats.cases
        assert routes.precision(route) == pytest.approx(stats.precision, abs=1e-4)


def test_a_route_with_few_cases_takes_the_default_and_warns():
    routes = Routes(
        {
            "text": RouteStats(MIN_CASES - 1, MIN_CASES - 1),
            "parts": RouteStats(max(MIN_CASES, 20), max(MIN_CASES, 20) - 1),
        },
        {},
    )
    assert routes.precision("text") == DEFAULT_PRECISION < DECIDE_PRECISION
    assert not routes.decides("text")
    assert routes.precision("parts") >= 0.95 and routes.decides("parts")
    assert routes.precision("units") == DEFAULT_PRECISION  # never measured
    assert routes.precision(None) is None and routes.decides(None)


def test_routes_round_trip_and_reject_bad_files(tmp_path):
    routes = Routes({"math_verify": RouteStats(20, 15)}, {"pairs": 1})
    assert Routes.from_json(json.loads(json.dumps(routes.to_json()))) == routes
    for bad in (
        {"format": 9, "routes": {}},
        {"format": 1, "routes": {"nope": {}}},
        {"format": 1, "routes": {"text": {"cases": 1, "agree": 2}}},
        {"format": 1},
    ):
        with pytest.raises(RoutesError):
            Routes.from_json(bad)
    path = tmp_path / "r.json"
    path.write_text("[]", encoding="utf-8")
    with pytest.raises(RoutesError):
        load_routes(path)


WEAK = Routes({"math_verify": RouteStats(20, 10), "exact_value": RouteStats(20, 20)}, {})


def _inp(check: AnswerCheck, routes: Routes = WEAK, **changes) -> JudgeInput:
    from dataclasses import replace

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
