"""`stepgrade bench grade`: load, grade (resumably), summarise, write tables and figures."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Literal

from agent.context import Context
from agent.grader import Grader, LlmUnavailableError
from eval_sets.halves import Half, in_half
from eval_sets.items import GoldItem, RowError
from eval_sets.registry import DatasetError, Loaded, get_loader, read_dataset
from eval_sets.runner.figures import draw_all
from eval_sets.runner.llm_gate import Gate, gate_grader
from eval_sets.runner.ray_engine import RayOptions, run_on_ray
from eval_sets.runner.run import Prepare, RunConfig, RunStats, run_items
from eval_sets.runner.store import ItemResult, ResultStore
from eval_sets.runner.summary import summarise
from eval_sets.runner.tables import Table, fmt, to_latex, to_markdown
from scoring.schema import Mode

RUN_FILE = "run.json"
Engine = Literal["local", "ray"]
# Builds the `Prepare` step of a run (e.g. ask a model for the solution), its model calls gated.
PrepareFactory = Callable[[Gate | None], Prepare]


class RunMismatchError(ValueError):
    """The output folder holds a run of another data set or mode; resuming would mix them."""


@dataclass(frozen=True)
class BenchSpec:
    dataset: str
    path: str
    mode: Mode
    loader_version: str = "1"
    half: Half | None = None

    @classmethod
    def check(cls, out_dir: Path, spec: BenchSpec) -> None:
        """Write run.json on the first run; refuse to resume into a folder of a different run."""
        file = out_dir / RUN_FILE
        if file.exists():
            try:
                before = cls(**json.loads(file.read_text(encoding="utf-8")))
            except (ValueError, TypeError):
                before = None
            if before is not None and before != spec:
                raise RunMismatchError(
                    f"{out_dir} holds a run of {before.describe()}; use another --out for "
                    f"{spec.describe()}"
                )
        out_dir.mkdir(parents=True, exist_ok=True)
        file.write_text(json.dumps(asdict(spec), indent=2) + "\n", encoding="utf-8")

    def describe(self) -> str:
        """The run in words, for the message that refuses to resume into another run's folder."""
        half = f", {self.half} half" if self.half else ""
        return f"{self.dataset} v{self.loader_version} ({self.path}, mode {self.mode}{half})"


def make_bench_grader(mode: Mode, out_dir: Path, answer_timeout: float | None = None) -> Grader:
    """Offline: a plain Grader. LLM: the configured endpoint with a cassette cache in the out dir,
    so a rerun (or a resumed run) answers repeated prompts from disk instead of the model.
    `answer_timeout` (seconds per symbolic answer check) can be raised for reproducible runs on a
    busy machine, where a 2 s check may time out and leave the answer undecided."""
    if mode == "offline":
        return Grader(
            Context() if answer_timeout is None else Context(answer_timeout=answer_timeout)
        )
    from agent.build import make_grader
    from agent.settings import GradingSettings

    settings = GradingSettings()
    cache = out_dir / "llm_cache"
    cache.mkdir(parents=True, exist_ok=True)
    updates: dict[str, object] = {
        "llm_record": settings.llm_record or cache,
        "llm_replay": settings.llm_replay or cache,
    }
    if answer_timeout is not None:
        updates["answer_timeout"] = answer_timeout
    return make_grader(settings.model_copy(update=updates))


@dataclass(frozen=True)
class Recipe:
    """How to build the run's grader (and `bench generate`'s solution step) in any process: the
    local engine builds one here, each Ray actor its own, from this one (picklable) value."""

    mode: Mode
    out_dir: Path
    answer_timeout: float | None = None
    prepare: PrepareFactory | None = None

    def build(self, gate: Gate | None = None) -> tuple[Grader, Prepare | None]:
        """The grader and the prepare step, their model calls behind `gate` when one is given."""
        grader = make_bench_grader(self.mode, self.out_dir, self.answer_timeout)
        if self.mode == "llm" and not grader.llm_configured:
            raise LlmUnavailableError(
                "--mode llm needs STEPGRADE_LLM_BASE_URL and "
                "STEPGRADE_LLM_MODEL (an OpenAI-compatible endpoint)"
            )
        return gate_grader(grader, gate), None if self.prepare is None else self.prepare(gate)


def write_summary(out_dir: Path, dataset: str, tables: list[Table], figures: list[Path]) -> None:
    """Write the tables and the figures' names as summary.json, summary.md and summary.tex."""
    data = {
        "dataset": dataset,
        "tables": {t.key: t.to_json() for t in tables},
        "figures": [p.name for p in figures],
    }
    (out_dir / "summary.json").write_text(
        json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    md = [f"# stepgrade bench: {dataset}", ""] + [to_markdown(t) for t in tables]
    md += ["## Figures", ""] + [f"![{p.stem}]({p.name})" for p in figures]
    (out_dir / "summary.md").write_text("\n".join(md) + "\n", encoding="utf-8")
    tex = ["% stepgrade bench summary; needs \\usepackage{booktabs}"] + [
        to_latex(t) for t in tables
    ]
    (out_dir / "summary.tex").write_text("\n".join(tex), encoding="utf-8")


def print_tables(tables: list[Table]) -> None:
    """Print each table under its title in aligned plain-text columns."""
    for table in tables:
        print(f"\n{table.title}")
        widths = [
            max(len(c), *(len(fmt(r[i])) for r in table.rows)) for i, c in enumerate(table.columns)
        ]
        print("  ".join(c.ljust(w) for c, w in zip(table.columns, widths, strict=True)))
        for row in table.rows:
            print("  ".join(fmt(v).ljust(w) for v, w in zip(row, widths, strict=True)))


def report_run(
    loaded: Loaded,
    store: ResultStore,
    out_dir: Path,
    dataset: str,
    cut: float,
    wall_s: float | None,
) -> list[Table]:
    """Summarise the selected items from the store (every line, this run's and earlier ones)."""
    ids = [i.id for i in loaded.items] + [r.key for r in loaded.failed]
    results: list[ItemResult] = [store.done[i] for i in ids if i in store.done]
    tables = summarise(results, cut=cut, wall_s=wall_s)
    figures = draw_all(results, out_dir)
    write_summary(out_dir, dataset, tables, figures)
    return tables


def grade_items(
    items: Sequence[GoldItem],
    rows: Sequence[RowError],
    store: ResultStore,
    config: RunConfig,
    recipe: Recipe,
    engine: Engine = "local",
    ray: RayOptions | None = None,
) -> RunStats:
    """Record the unreadable rows as failed items, then grade the items on `engine`."""
    for row in rows:
        store.append(ItemResult.unreadable(row))
    if engine == "ray":
        stats = run_on_ray(items, store, config, recipe, ray or RayOptions())
    else:
        grader, prepare = recipe.build()
        stats = run_items(grader, items, store, config, prepare)
    return replace(stats, total=stats.total + len(rows), failed=stats.failed + len(rows))


def select(
    dataset: str,
    path: Path,
    *,
    limit: int | None = None,
    subsets: list[str] | None = None,
    half: Half | None = None,
) -> Loaded:
    """The run's items: `subsets`, then `half` (by problem, eval_sets/halves.py), then the first
    `limit`. Rows that cannot be read belong to no half: every half's run reports them."""
    if half is None:
        return read_dataset(dataset, path, limit=limit, subsets=subsets)
    loaded = read_dataset(dataset, path, subsets=subsets)
    return Loaded(in_half(loaded.items, half)[:limit], loaded.failed)


def bench_grade(
    dataset: str,
    path: Path,
    out_dir: Path,
    *,
    mode: Mode = "offline",
    limit: int | None = None,
    subsets: list[str] | None = None,
    concurrency: int | None = None,
    timeout: float | None = 120.0,
    cut: float = 0.5,
    progress: bool = True,
    answer_timeout: float | None = None,
    engine: Engine = "local",
    ray: RayOptions | None = None,
    half: Half | None = None,
) -> RunStats:
    """The `stepgrade bench grade` command: select the items, grade them (resuming in `out_dir`)
    and report; the run's counts."""
    version = get_loader(dataset).version
    loaded = select(dataset, path, limit=limit, subsets=subsets, half=half)
    if not loaded.items:
        raise DatasetError(f"{path}: no items selected (check --subsets, --half and --limit)")
    BenchSpec.check(out_dir, BenchSpec(dataset, str(Path(path).resolve()), mode, version, half))
    store = ResultStore.open(out_dir)
    config = RunConfig(
        mode=mode,
        concurrency=concurrency or (4 if mode != "offline" else 1),
        timeout=timeout,
        progress=progress,
    )
    start = time.perf_counter()
    stats = grade_items(
        loaded.items,
        loaded.failed,
        store,
        config,
        Recipe(mode, out_dir, answer_timeout),
        engine,
        ray,
    )
    tables = report_run(
        loaded, store, out_dir, f"{dataset} v{version}", cut, time.perf_counter() - start
    )
    print(
        f"{dataset}: {stats.total} items, {stats.resumed} resumed, {stats.graded} graded now, "
        f"{stats.failed} failed, {stats.wall_s:.1f} s ({engine} engine)",
        file=sys.stderr,
    )
    print_tables(tables)
    print(f"\nwrote {out_dir}/results.jsonl, summary.json, summary.md, summary.tex and figures")
    return stats
