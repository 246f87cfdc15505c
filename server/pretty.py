"""A GradeReport as a readable table for the terminal (`stepgrade grade --pretty`)."""

from __future__ import annotations

import shutil
import textwrap

from scoring.schema import GradeReport

_MARK = {
    "correct": "✓",
    "incorrect": "✗",
    "meaningless": "~",
    "redundant": "=",
    "unchecked": "?",
    "not_math": "⚑",
}


def _clip(text: str, width: int) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: max(width - 1, 1)] + "…"


def _yes(flag: bool) -> str:
    return "yes" if flag else "no"


def _penalty(points: float) -> str:
    """A penalty as it is subtracted: `-1.50`, and `0.00` when nothing is (never `-0.00`)."""
    shown = f"{points:.2f}"
    return shown if float(shown) == 0 else f"-{shown}"


def _sureness(report: GradeReport, width: int) -> list[str]:
    """The score interval, the score under the other policy and, when the grade asks for it,
    why a person should look."""
    lines = [
        f"policy      {policy} {value.score}/10"
        for policy, value in report.scores.items()
        if policy != report.scoring_policy and value.score != report.score
    ]
    if report.score_interval is not None:
        lo, hi = report.score_interval
        lines.append(f"likely      {lo}-{hi} (80% interval)")
    if report.needs_review:
        reasons = "; ".join(r.message for r in report.review_reasons)
        lines += textwrap.wrap(f"REVIEW      {reasons}", width, subsequent_indent=" " * 12)
    return lines


def format_report(report: GradeReport, width: int | None = None) -> str:
    """A report as readable tables for a terminal (`stepgrade grade --pretty`)."""
    width = width or min(shutil.get_terminal_size((110, 20)).columns, 140)
    text_w = max(width - 40, 30)
    lines = [
        (
            f"score {report.score}/10 (raw {report.score_raw:.2f}, binary {report.score_binary})   "
            f"type {report.problem_type}   language {report.language}   mode {report.meta.mode}"
        ),
        *_sureness(report, width),
        *textwrap.wrap(f"summary     {report.summary}", width, subsequent_indent=" " * 12),
        "",
        f"{'#':>3}  {'label':<13} {'valid':>5}  step",
        f"{'-' * 3}  {'-' * 13} {'-' * 5}  {'-' * text_w}",
    ]
    for s in report.steps:
        lines.append(
            f"{s.index:>3}  {_MARK[s.label]} {s.label:<11} {s.validity:>5.2f}  {_clip(s.text, text_w)}"
        )
        deps = f" [uses {', '.join(map(str, s.depends_on))}]" if s.depends_on else ""
        reason = _clip(f"{s.reason}{deps}", text_w - 2)
        lines.append(f"{'':>3}  {'':<13} {'':>5}    ↳ {reason}")
    answer = report.answer
    verdict = {True: "correct", False: "wrong", None: "undecided"}[answer.correct]
    reference = " | ".join(answer.reference) or "(no reference)"
    hc = report.hcrs
    flags = f"lucky guess {_yes(report.lucky_guess)}   hallucination {_yes(report.hallucination)}"
    lines += [
        "",
        f"answer      {answer.extracted!s} vs {reference}: {verdict} ({answer.method})",
        f"error tree  {report.error_tree.formatted or '(no errors)'}",
        f"HCRS        {hc.score:.2f} (base {hc.base:.2f}, format {_penalty(hc.format_penalty)}, "
        + f"hazard {_penalty(hc.hazard_penalty)})",
        f"ReasonEval  validity {report.reasoneval.validity:.2f}, "
        + f"redundancy {report.reasoneval.redundancy:.2f}",
        f"holistic    {report.holistic:.2f}   quadrant {report.quadrant}   {flags}",
    ]
    if report.alignment is not None:
        al = report.alignment
        lines.append(
            f"alignment   {al.score:.2f}, divergence at step {al.divergence_step}, "
            f"insertions {al.insertions}, deletions {al.deletions}"
        )
    for warning in report.meta.warnings:
        lines += textwrap.wrap(f"warning     {warning}", width, subsequent_indent=" " * 12)
    lines.append(f"time        {report.meta.elapsed_ms:.0f} ms")
    return "\n".join(lines)
