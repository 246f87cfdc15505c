"""The settings as documented: the README's configuration table is generated from the code, every
setting is described, and `.env.example` names the same settings with the same defaults."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from server.core.settings import Settings
from server.core.settings_doc import (
    BEGIN,
    DESCRIPTIONS,
    END,
    PREFIX,
    defaults,
    env_value,
    spliced,
    table,
)

REPO = Path(__file__).resolve().parents[2]
ENV_LINE = re.compile(r"^(#\s*)?(STEPGRADE_[A-Z0-9_]+)=(.*)$")


def test_the_readme_table_is_the_generated_one() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert readme.count(BEGIN) == 1 and readme.count(END) == 1
    assert spliced(readme) == readme, (
        "the README's configuration table is stale: python -m server.core.settings_doc --write README.md"
    )


def test_every_setting_is_described_and_nothing_else() -> None:
    assert set(DESCRIPTIONS) == set(Settings.model_fields)
    assert "not described" not in table()


def test_env_example_names_every_setting_with_its_default() -> None:
    named: dict[str, tuple[bool, str]] = {}
    for line in (REPO / ".env.example").read_text(encoding="utf-8").splitlines():
        match = ENV_LINE.match(line)
        if match:
            named[match.group(2)] = (match.group(1) is None, match.group(3))
    assert set(named) == set(defaults()), "settings and .env.example disagree"
    for name, (set_here, value) in named.items():
        if set_here:  # a line that sets a value shows the default
            assert value == defaults()[name], (
                f"{name}={value} in .env.example, default {defaults()[name]}"
            )
        else:  # a commented example is a value the setting accepts
            Settings(_env_file=None, **{name.removeprefix(PREFIX).lower(): value})


def test_defaults_are_written_as_the_environment_reads_them() -> None:
    assert env_value(None) == "unset" and env_value([]) == "unset"
    assert env_value(True) == "true" and env_value(2.0) == "2" and env_value(0.5) == "0.5"
    assert env_value(["a", "b"]) == "a,b" and env_value(Path("data")) == "data"
    assert defaults()["STEPGRADE_LLM_METHODS"] == "json_schema,function_calling,json_mode"
    for name, value in defaults().items():  # each default, read back, is the default
        if value != "unset":
            field = name.removeprefix(PREFIX).lower()
            assert (
                getattr(Settings(_env_file=None, **{field: value}), field)
                == Settings(_env_file=None).model_dump()[field]
            )


def test_every_docs_page_and_section_named_in_the_repository_exists() -> None:
    """A reference such as `docs/llm.md, "Streaming"` names a page that exists and a phrase that
    page holds; a picture named is there too."""
    listed = (
        subprocess.run(
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            cwd=REPO,
            capture_output=True,
            check=True,
        )
        .stdout.decode()
        .split("\0")
    )
    broken = []
    for name in filter(None, listed):
        path = REPO / name
        if (
            path.suffix not in {".py", ".md", ".j2", ".toml", ".sh", ".js", ".html"}
            or not path.is_file()
        ):
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        for page, section in re.findall(r"(docs/[\w-]+\.(?:md|png))(?:,? \"([^\"]+)\")?", text):
            target = REPO / page
            if not target.is_file():
                broken.append(f"{name}: {page}")
            elif section and " ".join(section.split()) not in " ".join(
                target.read_text(encoding="utf-8").split()
            ):
                broken.append(f'{name}: {page}, "{section}"')
    assert not broken, "\n".join(broken)
