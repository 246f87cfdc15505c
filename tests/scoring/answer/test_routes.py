"""Answer routes: readings grouped, their measured precision loaded, weak routes only warn."""

import json

import pytest

from scoring.answer.compare import compare_answers
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
