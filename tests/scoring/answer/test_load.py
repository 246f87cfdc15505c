"""Reading the answer routes' measured precision: the shipped file by default, any path in its
format, read once per path; a file that cannot be read is a `RoutesError`."""

import json

import pytest

from scoring.answer.load import DEFAULT_PATH, load_routes
from scoring.answer.routes import Routes, RoutesError, RouteStats


def test_the_default_is_the_shipped_file_read_once():
    assert DEFAULT_PATH.name == "routes.json" and DEFAULT_PATH.is_file()
    assert load_routes() is load_routes()
    assert load_routes(DEFAULT_PATH) == load_routes()


def test_another_path_in_the_same_format(tmp_path):
    routes = Routes({"math_verify": RouteStats(20, 18)}, {"pairs": 3})
    path = tmp_path / "routes.json"
    path.write_text(json.dumps(routes.to_json()), encoding="utf-8")
    assert load_routes(path) == routes


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "cannot read"),  # no file
        ("{not json", "cannot read"),
        ("[1, 2]", "not a JSON object"),
        ('{"format": 9, "routes": {}}', "format"),
    ],
)
def test_a_bad_file_is_refused(tmp_path, content, message):
    path = tmp_path / "routes.json"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    with pytest.raises(RoutesError, match=message):
        load_routes(path)


def test_the_shipped_file_is_read_once_however_it_is_named(monkeypatch):
    relative = DEFAULT_PATH.relative_to(DEFAULT_PATH.parents[2])
    monkeypatch.chdir(DEFAULT_PATH.parents[2])
    assert load_routes() is load_routes(DEFAULT_PATH) is load_routes(relative)
