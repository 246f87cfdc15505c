"""`--engine ray` usage errors: a clear message and exit 2, quickly, no traceback."""

from __future__ import annotations

import os
import socket
import sys

from eval_sets.bundled import bundled_path
from server.cli import main


def _grade(tmp_path, *extra: str) -> list[str]:
    return [
        "bench",
        "grade",
        "--dataset",
        "stepmath",
        "--path",
        str(bundled_path("stepmath")),
        "--out",
        str(tmp_path),
        "--engine",
        "ray",
        "--no-progress",
        *extra,
    ]


def test_an_address_nobody_listens_on_is_a_usage_error(tmp_path, capsys, monkeypatch) -> None:
    monkeypatch.setenv("RAY_AUTH_MODE", "token")  # connect() would set it; keep it in this test
    with socket.socket() as s:  # a free port, closed again: nothing listens there
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    code = main(_grade(tmp_path, "--address", f"127.0.0.1:{port}"))
    err = capsys.readouterr().err
    assert code == 2 and f"cannot connect to Ray at 127.0.0.1:{port}" in err
    assert "Traceback" not in err


def test_without_ray_installed_the_message_says_how_to_install_it(
    tmp_path, capsys, monkeypatch
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` now raises ImportError
    code = main(_grade(tmp_path))
    err = capsys.readouterr().err
    assert code == 2 and "pip install -e '.[ray]'" in err


def test_joining_an_address_turns_token_auth_on_as_ray_start_does(monkeypatch) -> None:
    from eval_sets.runner.ray_connect import token_auth_like_ray_start

    monkeypatch.setenv("RAY_AUTH_MODE", "placeholder")  # so that monkeypatch restores it after
    monkeypatch.delenv("RAY_AUTH_MODE")
    monkeypatch.setenv("RAY_AUTH_TOKEN", "secret")
    token_auth_like_ray_start()
    assert os.environ["RAY_AUTH_MODE"] == "token"
    monkeypatch.setenv("RAY_AUTH_MODE", "disabled")  # an explicit choice is kept
    token_auth_like_ray_start()
    assert os.environ["RAY_AUTH_MODE"] == "disabled"
