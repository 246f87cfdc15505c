"""The configuration table: one line per setting with its environment default, and the README
splice that keeps what is between the markers only."""

from __future__ import annotations

from pathlib import Path

from server.core.settings import Settings
from server.core.settings_doc import (
    BEGIN,
    DESCRIPTIONS,
    END,
    defaults,
    env_value,
    main,
    spliced,
    table,
)


def test_defaults_are_written_as_the_environment_writes_them():
    assert [env_value(v) for v in (None, [], True, ["a", "b"], 2.0, 0.25, 8)] == [
        "unset",
        "unset",
        "true",
        "a,b",
        "2",
        "0.25",
        "8",
    ]
    assert env_value(Path("data")) == "data"


def test_every_setting_is_described_and_has_a_line():
    assert set(DESCRIPTIONS) == set(Settings.model_fields)
    lines = table().splitlines()
    assert len(lines) == 2 + len(Settings.model_fields)
    assert "| `STEPGRADE_PORT` | `8000` |" in table()
    assert defaults()["STEPGRADE_API_KEYS"] == "unset"
    assert "not described" not in table()


def test_splicing_replaces_only_what_is_between_the_markers(tmp_path):
    readme = f"intro\n{BEGIN}\nold table\n{END}\noutro\n"
    out = spliced(readme)
    assert out.startswith(f"intro\n{BEGIN}\n| setting |") and out.endswith(f"{END}\noutro\n")
    assert "old table" not in out and spliced(out) == out
    path = tmp_path / "README.md"
    path.write_text(readme, encoding="utf-8")
    assert main(["--write", str(path)]) == 0
    assert path.read_text(encoding="utf-8") == out


def test_without_arguments_the_table_is_printed(capsys):
    assert main([]) == 0
    assert capsys.readouterr().out.strip() == table()
