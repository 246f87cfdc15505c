"""The report figures as PNG, drawn on matplotlib `Figure` objects with the Agg canvas.

No pyplot: no global state, no display, safe beside other threads.

Each figure is drawn only when the results carry what it needs, and each has a title, axis labels
and a legend so that it reads on its own.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from collections.abc import Sequence
from pathlib import Path

from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from eval_sets.metrics import QUADRANTS, mean
from eval_sets.runner.graded import with_reports
from eval_sets.runner.risk import RiskCurve, risk_curves
from eval_sets.runner.store import ItemResult
from scoring.schema import GradeReport

COLOURS = {
    "robust": "#2a9d8f",
    "hallucination": "#e76f51",
    "lucky_guess": "#e9c46a",
    "failure": "#6c757d",
}


def _process_axis(report: GradeReport) -> float:
    """Alignment score when a reference was given, else the process (HCRS) score scaled to 0-1."""
    return report.alignment.score if report.alignment else report.hcrs.score / 10.0


def quadrant_scatter(reports: Sequence[GradeReport], path: Path, cut: float = 0.7) -> None:
    """Each solution's process (or alignment) score against its answer's verdict, coloured by
    quadrant, the `cut` drawn."""
    rng = random.Random(0)
    fig, ax = _figure((6, 4.5))
    for quadrant in QUADRANTS:
        pts = [r for r in reports if r.quadrant == quadrant]
        if pts:
            ax.scatter(
                [_process_axis(r) for r in pts],
                [float(bool(r.answer.correct)) + rng.uniform(-0.08, 0.08) for r in pts],
                s=18,
                alpha=0.7,
                color=COLOURS[quadrant],
                label=f"{quadrant.replace('_', ' ')} ({len(pts)})",
            )
    ax.axvline(cut, color="black", lw=0.8, ls="--")
    ax.set_yticks([0, 1], ["wrong answer", "correct answer"])
    with_ref = any(r.alignment for r in reports)
    ax.set_xlabel("alignment score S_align" if with_ref else "process score (HCRS / 10)")
    ax.set_title("Reasoning quadrants: process vs final answer")
    ax.legend(loc="center left", fontsize=8, title="quadrant (n)")
    _save(fig, path)


def divergence_histogram(reports: Sequence[GradeReport], path: Path) -> bool:
    """Where solutions leave the reference; False (nothing drawn) when no report is aligned."""
    steps = [r.alignment.divergence_step for r in reports if r.alignment]
    numeric = [s for s in steps if s is not None]
    if not steps:
        return False
    fig, ax = _figure((6, 4))
    counts = Counter(numeric)
    xs = sorted(counts)
    ax.bar(xs, [counts[x] for x in xs], color="#457b9d", label=f"diverging ({len(numeric)})")
    ax.set_xlabel("divergence step (1-based solution step)")
    ax.set_ylabel("solutions")
    ax.set_title(f"Where solutions leave the reference ({len(steps) - len(numeric)} never do)")
    ax.legend()
    _save(fig, path)
    return True


def alignment_heatmap(report: GradeReport, n_ref: int, path: Path, title: str) -> None:
    """Similarity of the aligned reference/solution groups (blank where nothing is aligned)."""
    assert report.alignment is not None
    n_sol = len(report.steps)
    grid = [[float("nan")] * n_sol for _ in range(max(n_ref, 1))]
    for pair in report.alignment.pairs:
        for i in pair.reference:
            for j in pair.solution:
                if 1 <= i <= n_ref and 1 <= j <= n_sol:
                    grid[i - 1][j - 1] = pair.similarity
    fig, ax = _figure((max(6, 0.5 * n_sol + 3), max(4, 0.4 * n_ref + 2.5)))
    image = ax.imshow(grid, vmin=0, vmax=1, cmap="viridis", aspect="auto")
    fig.colorbar(image, ax=ax, label="cosine similarity (blank: not aligned)")
    ax.set_xlabel("solution step")
    ax.set_ylabel("reference step")
    ax.set_xticks(range(n_sol), [str(j + 1) for j in range(n_sol)], fontsize=7)
    ax.set_yticks(range(n_ref), [str(i + 1) for i in range(n_ref)], fontsize=7)
    ax.set_title(f"{title}\nS_align {report.alignment.score:.2f}", fontsize=10)
    _save(fig, path)


def predicted_vs_gold(pairs: Sequence[tuple[int, int]], path: Path) -> None:
    """Predicted against gold 0-10 scores: a bubble per (gold, predicted) sized by its count."""
    counts = Counter(pairs)
    top = max(counts.values())
    fig, ax = _figure((5.5, 5))
    ax.scatter(
        [g for g, _ in counts],
        [p for _, p in counts],
        s=[30 + 400 * c / top for c in counts.values()],
        alpha=0.6,
        color="#457b9d",
    )
    for (g, p), c in counts.items():
        ax.annotate(str(c), (g, p), ha="center", va="center", fontsize=7)
    ax.scatter([], [], s=40, color="#457b9d", alpha=0.6, label="items (number = count)")
    ax.plot([0, 10], [0, 10], color="black", lw=0.8, ls="--", label="perfect agreement")
    ax.set_xlim(-0.7, 10.7)
    ax.set_ylim(-0.7, 10.7)
    ax.set_xlabel("gold score (human, 0-10)")
    ax.set_ylabel("predicted score (stepgrade, 0-10)")
    ax.set_title(f"Predicted vs gold score ({len(pairs)} items)")
    ax.legend(loc="lower right", fontsize=8)
    _save(fig, path)


def per_type_bars(
    groups: dict[str, tuple[float, float | None]], path: Path, ylabel: str, title: str
) -> None:
    """A bar per subset of its mean score, beside the gold mean when there is one."""
    names = sorted(groups)
    fig, ax = _figure((max(5, 1.2 * len(names) + 2), 4))
    xs = range(len(names))
    with_gold = any(groups[n][1] is not None for n in names)
    offset, width = (0.2, 0.4) if with_gold else (0.0, 0.6)
    ax.bar(
        [x - offset for x in xs],
        [groups[n][0] for n in names],
        width=width,
        label="stepgrade",
        color="#457b9d",
    )
    if with_gold:
        ax.bar(
            [x + offset for x in xs],
            [groups[n][1] or 0.0 for n in names],
            width=width,
            label="gold",
            color="#e9c46a",
        )
    ax.set_xticks(list(xs), [n.replace("_", " ") for n in names], rotation=20, fontsize=8)
    ax.set_ylim(0, 10.5)
    ax.set_ylabel(ylabel)
    ax.set_xlabel("subset")
    ax.set_title(title)
    ax.legend()
    _save(fig, path)


HALF_COLOURS = {"fit": "#457b9d", "check": "#e76f51"}


def risk_coverage_plot(curves: Sequence[RiskCurve], path: Path) -> None:
    """MAE of the grades kept, narrowest score interval first (one point per width cut-off,
    annotated with the width), per half; a star where keeping the grades not flagged lands."""
    fig, ax = _figure((6, 4.5))
    for curve in curves:
        colour = HALF_COLOURS[curve.half]
        xs = [p.coverage for p in curve.points]
        ax.plot(
            xs,
            [p.mae for p in curve.points],
            marker="o",
            ms=4,
            color=colour,
            label=f"{curve.half} half: kept by interval width",
        )
        for p in curve.points:
            ax.annotate(
                f"≤{p.width}",
                (p.coverage, p.mae),
                textcoords="offset points",
                xytext=(3, 4),
                fontsize=6,
                color=colour,
            )
        if curve.operating is not None:
            ax.scatter(
                [curve.operating[0]],
                [curve.operating[1]],
                marker="*",
                s=160,
                color=colour,
                edgecolors="black",
                zorder=3,
                label=f"{curve.half} half: needs_review not set "
                f"({100 * curve.operating[0]:.0f}%, MAE {curve.operating[1]:.2f})",
            )
    ax.set_xlim(0, 1.02)
    ax.set_ylim(bottom=0)
    ax.set_xlabel("share of grades kept (coverage)")
    ax.set_ylabel("MAE of the kept grades against human (0-10)")
    ax.set_title("Risk against coverage: grades kept narrowest interval first")
    ax.legend(loc="upper left", fontsize=7)
    _save(fig, path)


def _figure(size: tuple[float, float]) -> tuple[Figure, Axes]:
    fig = Figure(figsize=size)
    FigureCanvasAgg(fig)
    return fig, fig.subplots()


def _save(fig: Figure, path: Path) -> None:
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def draw_all(results: Sequence[ItemResult], out_dir: Path) -> list[Path]:
    """Every figure the results support; returns the files written."""
    done = [r for r in results if r.report is not None]
    reports = [r.report for r in done if r.report is not None]
    written: list[Path] = []
    if not reports:
        return written
    quadrant_scatter(reports, out_dir / "quadrants.png")
    written.append(out_dir / "quadrants.png")
    if divergence_histogram(reports, out_dir / "divergence.png"):
        written.append(out_dir / "divergence.png")
    aligned = [r for r in done if r.report and r.report.alignment]
    if aligned:

        def score(r: ItemResult) -> float:
            return r.report.alignment.score if r.report and r.report.alignment else 0.0

        cases = {"best": max(aligned, key=score), "worst": min(aligned, key=score)}
        hallucinated = [r for r in aligned if r.report and r.report.quadrant == "hallucination"]
        if hallucinated:
            cases["hallucination"] = max(hallucinated, key=score)
        for name, r in cases.items():
            n_ref = len((r.request.reference_steps if r.request else None) or []) or max(
                (i for p in r.report.alignment.pairs for i in p.reference),  # type: ignore[union-attr]
                default=1,
            )
            path = out_dir / f"heatmap_{name}.png"
            alignment_heatmap(r.report, n_ref, path, f"Reference alignment, {name} case ({r.id})")  # type: ignore[arg-type]
            written.append(path)
    scored = [(r.gold.score, r.report.score) for r in done if r.gold.score is not None and r.report]
    if scored:
        predicted_vs_gold(scored, out_dir / "predicted_vs_gold.png")
        written.append(out_dir / "predicted_vs_gold.png")
    curves = risk_curves(with_reports(results))
    if curves:
        risk_coverage_plot(curves, out_dir / "risk_coverage.png")
        written.append(out_dir / "risk_coverage.png")
    groups: dict[str, list[ItemResult]] = defaultdict(list)
    for r in done:
        groups[r.gold.subset or "all"].append(r)
    bars = {
        name: (
            mean([float(r.report.score) for r in rs if r.report]) or 0.0,
            mean([float(r.gold.score) for r in rs if r.gold.score is not None]),
        )
        for name, rs in groups.items()
    }
    has_gold = any(g is not None for _, g in bars.values())
    per_type_bars(
        bars,
        out_dir / "per_type.png",
        "mean score (0-10)",
        "Mean score per subset" + (": stepgrade vs gold" if has_gold else ""),
    )
    written.append(out_dir / "per_type.png")
    return written
