"""A result table and its Markdown and LaTeX (booktabs) renderings."""

from __future__ import annotations

from dataclasses import dataclass, field

Cell = float | int | str | None


@dataclass(frozen=True)
class Table:
    """One table of the summary: a key for summary.json, a caption, column heads and rows."""

    key: str
    title: str
    columns: tuple[str, ...]
    rows: tuple[tuple[Cell, ...], ...]
    note: str = ""
    extra: dict[str, object] = field(default_factory=dict)

    def to_json(self) -> dict[str, object]:
        """Rows as {first cell: {column: value}}, the shape a script reading summary.json wants."""
        body = {str(row[0]): dict(zip(self.columns[1:], row[1:], strict=True)) for row in self.rows}
        out: dict[str, object] = {"title": self.title, "rows": body}
        if self.note:
            out["note"] = self.note
        out.update(self.extra)
        return out


def fmt(value: Cell, digits: int = 3) -> str:
    """A cell as text: `–` for None, booleans in lower case, floats to `digits` places."""
    if value is None:
        return "–"
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def to_markdown(table: Table) -> str:
    """The table in Markdown under a `###` heading, its note below."""
    lines = [f"### {table.title}", ""]
    lines.append("| " + " | ".join(table.columns) + " |")
    lines.append("|" + "|".join(["---"] + ["---:"] * (len(table.columns) - 1)) + "|")
    for row in table.rows:  # a "|" inside a cell (an error message) would split it
        lines.append("| " + " | ".join(fmt(c).replace("|", "\\|") for c in row) + " |")
    if table.note:
        lines += ["", table.note]
    return "\n".join(lines) + "\n"


_TEX_SPECIAL = {
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    "\\": r"\textbackslash{}",
    "–": "--",
}


def tex_escape(text: str) -> str:
    """`text` with LaTeX's special characters escaped."""
    return "".join(_TEX_SPECIAL.get(ch, ch) for ch in text)


def to_latex(table: Table) -> str:
    """A booktabs table (\\toprule, \\midrule, \\bottomrule); needs \\usepackage{booktabs}."""
    spec = "l" + "r" * (len(table.columns) - 1)
    lines = [
        r"\begin{table}[ht]",
        r"\centering",
        f"\\caption{{{tex_escape(table.title)}}}",
        f"\\label{{tab:{table.key}}}",
        f"\\begin{{tabular}}{{{spec}}}",
        r"\toprule",
        " & ".join(tex_escape(c) for c in table.columns) + r" \\",
        r"\midrule",
    ]
    for row in table.rows:
        lines.append(" & ".join(tex_escape(fmt(c)) for c in row) + r" \\")
    lines += [r"\bottomrule", r"\end{tabular}", r"\end{table}"]
    return "\n".join(lines) + "\n"
