"""A summary table as JSON, Markdown and LaTeX."""

from __future__ import annotations

import pytest

from eval_sets.runner.tables import Table, fmt, tex_escape, to_latex, to_markdown

TABLE = Table(
    key="agree",
    title="Agreement & error_rate",
    columns=("set", "n", "F1"),
    rows=(("fit", 12, 0.5), ("check", 3, None)),
    note="n counts problems.",
    extra={"command": "stepgrade bench grade"},
)


@pytest.mark.parametrize(
    ("value", "text"),
    [(None, "–"), (True, "true"), (False, "false"), (3, "3"), (0.12345, "0.123"), ("x", "x")],
)
def test_fmt(value, text) -> None:
    assert fmt(value) == text


def test_fmt_digits() -> None:
    assert fmt(2 / 3, digits=1) == "0.7"


def test_json_rows_are_keyed_by_their_first_cell() -> None:
    assert TABLE.to_json() == {
        "title": "Agreement & error_rate",
        "rows": {"fit": {"n": 12, "F1": 0.5}, "check": {"n": 3, "F1": None}},
        "note": "n counts problems.",
        "command": "stepgrade bench grade",
    }
    assert "note" not in Table("k", "t", ("a",), ()).to_json()


def test_markdown_heading_alignment_and_note() -> None:
    assert to_markdown(TABLE) == (
        "### Agreement & error_rate\n\n"
        "| set | n | F1 |\n"
        "|---|---:|---:|\n"
        "| fit | 12 | 0.500 |\n"
        "| check | 3 | – |\n\n"
        "n counts problems.\n"
    )


def test_a_pipe_in_a_cell_does_not_split_it() -> None:
    table = Table("f", "Failures", ("id", "reason"), (("a", "x | y"),))
    assert "| a | x \\| y |" in to_markdown(table)


def test_tex_escape() -> None:
    assert tex_escape("50% of a_b & {c} $d #1 ~ ^ \\ –") == (
        r"50\% of a\_b \& \{c\} \$d \#1 \textasciitilde{} \textasciicircum{} \textbackslash{} --"
    )


def test_latex_is_a_booktabs_table() -> None:
    tex = to_latex(TABLE)
    assert tex.startswith("\\begin{table}[ht]\n\\centering\n")
    assert "\\caption{Agreement \\& error\\_rate}" in tex and "\\label{tab:agree}" in tex
    assert "\\begin{tabular}{lrr}" in tex
    assert "fit & 12 & 0.500 \\\\" in tex and "check & 3 & -- \\\\" in tex
    assert tex.index("\\toprule") < tex.index("\\midrule") < tex.index("\\bottomrule")
