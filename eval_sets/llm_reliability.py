"""`stepgrade bench calibrate-llm`: measure what a model's step labels are worth, per language.

It grades a labelled set in LLM mode against the configured endpoint (STEPGRADE_LLM_BASE_URL,
STEPGRADE_LLM_MODEL, ...; on the fit half by default), and compares the model's own label of
each step (`StepReport.model_label`, before the checks' evidence was weighed) with the human one:
- StepMathBench (per-step human labels): a step labelled incorrect is wrong, one labelled correct
  is right; a meaningless step (right in itself, built on a wrong one) is neither and is not
  counted, and neither is any step of a solution whose segmentation differs from the humans';
- first-error sets (MR-MATH invalid, ProcessBench): steps before the first error are right, the
  first error is wrong, later steps are unlabelled (ReasonEval's protocol).
The model "says wrong" when its label is `incorrect`, as the decision layer reads it
(`scoring.judge.decide.labels.decide`); a step whose model call failed is not counted.

Per language (the report's): sensitivity = caught / wrong, false alarm = alarms / right,
Jeffreys-smoothed (k + 1/2) / (n + 1) so that 0 of 0, 0 of n or n of n still gives a rate inside
(0, 1), with 95% Wilson intervals of the raw counts. They are written under the calibration
file's `llm_reliability` section, keyed by the model name (`update_calibration`), which the
service reads for the configured model (`agent.build.reliabilities`).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import tempfile
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path

from eval_sets.halves import Half
from eval_sets.runner.store import ItemResult
from scoring.judge import DEFAULT_PATH, LLM_SECTION, Calibration, CalibrationError, LlmRates

Z95 = 1.959964


@dataclass
class Counts:
    """Human-wrong steps and how many the model caught; human-right ones and its false alarms."""

    wrong: int = 0
    caught: int = 0
    right: int = 0
    alarms: int = 0

    def add(self, human_wrong: bool, says_wrong: bool) -> None:
        """Count one step: human-wrong (caught or not), or human-right (a false alarm or not)."""
        if human_wrong:
            self.wrong += 1
            self.caught += says_wrong
        else:
            self.right += 1
            self.alarms += says_wrong


def jeffreys(k: int, n: int) -> float:
    """(k + 1/2) / (n + 1): the posterior mean of a rate under the Jeffreys Beta(1/2, 1/2)
    prior; strictly inside (0, 1) for every count, 1/2 when nothing was seen."""
    return (k + 0.5) / (n + 1.0)


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of k successes in n (Wilson 1927, JASA 22: 209-212); (0, 1)
    for n = 0."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def step_pairs(result: ItemResult) -> list[tuple[bool, bool]]:
    """(human says wrong, model says wrong) for each counted step of one graded item."""
    report, gold = result.report, result.gold
    if report is None:
        return []
    said = [None if s.model_label is None else s.model_label == "incorrect" for s in report.steps]
    humans: list[bool | None]
    if gold.step_labels is not None:
        if len(gold.step_labels) != len(said):
            return []
        humans = [
            True if h == "incorrect" else False if h == "correct" else None
            for h in gold.step_labels
        ]
    elif gold.process_correct is not None:
        given = result.request.solution_steps if result.request is not None else None
        if given is None or len(given) != len(said):
            return []
        first = gold.first_error
        humans = [
            False if first is None or i < first else True if i == first else None
            for i in range(1, len(said) + 1)
        ]
    else:
        return []
    return [(h, m) for h, m in zip(humans, said, strict=True) if h is not None and m is not None]


def measure(results: Iterable[ItemResult]) -> dict[str, Counts]:
    """Counts per language (the report's) over the graded items."""
    out: dict[str, Counts] = defaultdict(Counts)
    for result in results:
        pairs = step_pairs(result)
        if pairs and result.report is not None:
            counts = out[result.report.language]
            for human, model in pairs:
                counts.add(human, model)
    return dict(out)


def rates_of(counts: Counts, source: str) -> LlmRates:
    """The smoothed rates and Wilson intervals of `counts`."""
    return LlmRates(
        counts.wrong,
        counts.caught,
        counts.right,
        counts.alarms,
        jeffreys(counts.caught, counts.wrong),
        jeffreys(counts.alarms, counts.right),
        tuple(round(x, 4) for x in wilson(counts.caught, counts.wrong)),  # type: ignore[arg-type]
        tuple(round(x, 4) for x in wilson(counts.alarms, counts.right)),  # type: ignore[arg-type]
        source,
    )


def update_calibration(source: Path, out: Path, model: str, rates: Mapping[str, LlmRates]) -> None:
    """Write `source` to `out` with `model`'s measured rates in the `llm_reliability` section.

    Everything else in the file is kept as it is (another model's rates, and `model`'s rates in
    a language not measured now, too); the result is checked to load before it is written, and
    written atomically.

    Raises:
        CalibrationError: `source` cannot be read, or the result would not load.
    """
    try:
        data = json.loads(source.read_text(encoding="utf-8"))
    except (OSError, ValueError) as err:
        raise CalibrationError(f"cannot read calibration file {source}: {err}") from None
    if not isinstance(data, dict):
        raise CalibrationError(f"calibration file {source} is not a JSON object")
    section = data.setdefault(LLM_SECTION, {})
    section.setdefault(model, {}).update({lang: asdict(r) for lang, r in rates.items()})
    Calibration.from_json(data)
    text = json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(out.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(out)


def table(rates: Mapping[str, LlmRates]) -> str:
    """The rates per language as a Markdown table, with their 95% Wilson intervals."""
    header = (
        "| language | wrong steps | caught | sensitivity [95% Wilson] | right steps | "
        "false alarms | false alarm [95% Wilson] |"
    )
    lines = [header, "|---|---:|---:|---|---:|---:|---|"]
    for lang, r in sorted(rates.items()):
        s_lo, s_hi = r.sensitivity_interval
        f_lo, f_hi = r.false_alarm_interval
        lines.append(
            f"| {lang} | {r.wrong} | {r.caught} | {r.sensitivity:.3f} [{s_lo:.3f}, "
            f"{s_hi:.3f}] | {r.right} | {r.alarms} | {r.false_alarm:.3f} [{f_lo:.3f}, "
            f"{f_hi:.3f}] |"
        )
    return "\n".join(lines)


def _paths(args: argparse.Namespace) -> tuple[Path, Path]:
    """(the calibration to start from, the file to write)."""
    start = Path(args.calibration or os.environ.get("STEPGRADE_CALIBRATION") or DEFAULT_PATH)
    if args.in_place:
        if args.out:
            raise ValueError("give --out or --in-place, not both")
        return start, start
    out = Path(args.out or "calibration.json")
    if out.resolve() == DEFAULT_PATH.resolve():
        raise ValueError(
            f"--out names the shipped calibration {DEFAULT_PATH}; pass --in-place "
            "(with --calibration naming it) to overwrite it on purpose"
        )
    # An existing --out accumulates: another model's or another language's rates stay.
    return (out if out.is_file() else start), out


def calibrate_llm(args: argparse.Namespace) -> int:
    """The `stepgrade bench calibrate-llm` command (see the module docstring)."""
    endpoint = {
        "STEPGRADE_LLM_BASE_URL": args.base_url or os.environ.get("STEPGRADE_LLM_BASE_URL"),
        "STEPGRADE_LLM_MODEL": args.model or os.environ.get("STEPGRADE_LLM_MODEL"),
    }
    model = endpoint["STEPGRADE_LLM_MODEL"]
    if not model or not endpoint["STEPGRADE_LLM_BASE_URL"]:
        raise ValueError(
            "calibrate-llm needs a model endpoint: --base-url and --model (or "
            "STEPGRADE_LLM_BASE_URL and STEPGRADE_LLM_MODEL)"
        )
    with environment(endpoint):
        return _calibrate_llm(args, model)


@contextmanager
def environment(values: Mapping[str, str | None]) -> Iterator[None]:
    """The grading runs read the endpoint from the environment: set it for the run only, so that
    a caller in the same process (a test, a notebook) keeps its own."""
    before = {name: os.environ.get(name) for name in values}
    os.environ.update({k: v for k, v in values.items() if v is not None})
    try:
        yield
    finally:
        for name, value in before.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def _calibrate_llm(args: argparse.Namespace, model: str) -> int:
    """Grade, measure and write: `calibrate_llm` with the endpoint in the environment."""
    from eval_sets.registry import DatasetError, get_loader
    from eval_sets.runner.bench import BenchSpec, Recipe, grade_items, select
    from eval_sets.runner.run import RunConfig
    from eval_sets.runner.store import ResultStore

    source, out = _paths(args)
    half: Half | None = None if args.half == "all" else args.half
    loaded = select(
        args.dataset, Path(args.path), limit=args.limit, subsets=args.subsets, half=half
    )
    if not loaded.items:
        raise DatasetError(f"{args.path}: no items selected (check --half and --limit)")
    work = Path(args.work) if args.work else Path(tempfile.mkdtemp(prefix="calibrate-llm-"))
    try:
        version = get_loader(args.dataset).version
        BenchSpec.check(
            work, BenchSpec(args.dataset, str(Path(args.path).resolve()), "llm", version, half)
        )
        store = ResultStore.open(work)
        config = RunConfig(
            mode="llm",
            concurrency=args.concurrency,
            timeout=args.timeout,
            progress=not args.no_progress,
        )
        grade_items(loaded.items, [], store, config, Recipe("llm", work, args.answer_timeout))
        results = [store.done[i.id] for i in loaded.items if i.id in store.done]
    finally:
        if not args.work:
            shutil.rmtree(work, ignore_errors=True)
    graded = sum(r.report is not None for r in results)
    counts = measure(results)
    if not counts:
        raise ValueError(
            f"no step of the {graded} graded item(s) could be compared: the model "
            "gave no labels, or its steps differ from the human ones"
        )
    where = f"{args.dataset}, {args.half} half, {graded} items"
    rates = {lang: rates_of(c, where) for lang, c in counts.items()}
    update_calibration(source, out, model, rates)
    print(f"{model} on {where} (Jeffreys-smoothed rates, 95% Wilson intervals of the counts):")
    print(table(rates))
    print(f"wrote {out} (section {LLM_SECTION}.{model})")
    return 0
