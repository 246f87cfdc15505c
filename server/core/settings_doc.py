"""The configuration table: every STEPGRADE_* setting, its default and what it does.

`python -m server.core.settings_doc` prints the Markdown table that the README carries between its
`<!-- settings:begin -->` and `<!-- settings:end -->` markers. The names and defaults come from
`server.core.settings.Settings` itself; a test checks that the README's table is this one, that every
setting has a description here, and that `.env.example` names the same settings with the same
defaults, so none of the three can drift from the code.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

PREFIX = "STEPGRADE_"
BEGIN, END = "<!-- settings:begin -->", "<!-- settings:end -->"

DESCRIPTIONS: dict[str, str] = {
    "host": "interface `stepgrade serve` binds",
    "port": "port `stepgrade serve` listens on",
    "workers": "service processes; each loads its own models",
    "log_level": "log level (`debug`, `info`, `warning`, `error`)",
    "log_json": "logs as JSON lines on stderr, one per request, with its `X-Request-ID`",
    "llm_base_url": "an OpenAI-compatible endpoint (`.../v1`); unset: offline only",
    "llm_model": "the model name at that endpoint",
    "llm_api_key": "the endpoint's bearer key",
    "llm_budget": "seconds of LLM time one grade may use; then it finishes offline (`meta.degraded`)",
    "llm_timeout": "seconds one LLM request may take",
    "llm_max_retries": "retries of one request on 429, 5xx and time-outs",
    "llm_methods": "structured-output methods, in the order tried",
    "llm_reason_tokens": "completion tokens allowed per free-text reason",
    "llm_max_tokens": "the most completion tokens any request may ask for",
    "llm_stream": "streamed answers: `auto` (llama.cpp's server only), `true` or `false`",
    "llm_record": "folder: keep every model answer and answer repeats from it",
    "llm_replay": "folder: answer from kept answers only, with no endpoint",
    "llm_sensitivity": "share of wrong steps the model catches (unset: measured, else 0.7)",
    "llm_false_alarm": "share of right steps the model calls wrong (unset: measured, else 0.1)",
    "embedding_model": "sentence-transformers name or path (unset: the bundled all-MiniLM-L6-v2)",
    "preload_embedding": "load the embedding model at start-up, not at the first grade",
    "preload_answer_worker": "start the answer-comparison worker at start-up",
    "answer_timeout": "seconds one answer comparison may take (in its worker process)",
    "calibration": "calibration file to grade with (unset: the shipped one)",
    "scoring_policy": "a request's `scoring_policy` when it sets none: `stepmath` or `follow_through`",
    "api_keys": "comma-separated client keys; set, every `/grade*` and `/grades*` call needs `X-API-Key`",
    "max_concurrency": "grades running at once; more wait",
    "batch_max_items": "items per `/grade/batch`",
    "max_body_bytes": "largest request body (413 above it)",
    "body_timeout": "seconds to receive a request's whole body (408 after it)",
    "request_timeout": "per-request deadline, 504 past it (unset: budgets + fallback with an LLM, 30 without)",
    "offline_fallback_budget": "seconds kept for the offline grade after the LLM's time ran out",
    "ready_timeout": "seconds `/readyz` waits for the LLM endpoint",
    "ready_cache": "seconds a grade's LLM answer counts as the endpoint being ready",
    "store": "`off`: keep no grades (no review queue, no `meta.grade_id`)",
    "database_url": "SQLAlchemy URL of the grade store (unset: SQLite in the data folder)",
    "data_dir": "folder of the SQLite grade store",
    "retention_days": "delete grades older than this (unset: keep them all)",
}


def env_value(value: Any) -> str:
    """A default as it is written in the environment (`unset` for none)."""
    if value is None or value == []:
        return "unset"
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, list):
        return ",".join(str(v) for v in value)
    if isinstance(value, Path):
        return str(value)
    return f"{value:g}" if isinstance(value, float) else str(value)


def defaults() -> dict[str, str]:
    """Every setting's environment name and its default as written there."""
    from server.core.settings import Settings

    return {
        PREFIX + name.upper(): env_value(field.get_default(call_default_factory=True))
        for name, field in Settings.model_fields.items()
    }


def table() -> str:
    """The Markdown table of every setting: name, default, what it does."""
    from server.core.settings import Settings

    lines = ["| setting | default | what |", "|---|---|---|"]
    for name, field in Settings.model_fields.items():
        default = env_value(field.get_default(call_default_factory=True))
        shown = "unset" if default == "unset" else f"`{default}`"
        what = DESCRIPTIONS.get(name, "(not described: add it to server/core/settings_doc.py)")
        lines.append(f"| `{PREFIX}{name.upper()}` | {shown} | {what} |")
    return "\n".join(lines)


def spliced(readme: str) -> str:
    """`readme` with the text between the markers replaced by the current table."""
    head, _, rest = readme.partition(BEGIN)
    _, _, tail = rest.partition(END)
    return f"{head}{BEGIN}\n{table()}\n{END}{tail}"


def main(argv: list[str] | None = None) -> int:
    """Print the table; `--write README.md` puts it between that file's markers instead."""
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["--write"] and len(args) == 2:
        path = Path(args[1])
        path.write_text(spliced(path.read_text(encoding="utf-8")), encoding="utf-8")
        return 0
    print(table())
    return 0


if __name__ == "__main__":
    sys.exit(main())
