"""`make bench-replay`: LLM mode against real models' own errors, does fusion help?

For each model, the replay fake (`eval_sets/fakes/replay_oracle.py`, a test double) answers
MR-MATH invalid's step judgements as the model did in its published verdicts. `stepgrade bench
grade --mode llm --half H` grades each half against it twice:
- `assumed`: the model's reliability is the assumed default (sensitivity 0.7, false alarm 0.1);
- `measured`: `stepgrade bench calibrate-llm` first measures the model's reliability on the fit
  half against the same fake, into a copy of the calibration, and the grades read it.
It prints ProcessBench's first-error F1 (`eval_sets.metrics.processbench`) of the fused labels
and of the model's own labels alone (`model_label`: the first step it called incorrect or
meaningless), on the fit half, the check half and both, and writes `replay.json` and
`replay.md` into `--out`. Nothing is tuned here: the check half is only reported.

    stepgrade study replay_bench --data PATH/mr_math_invalid_dev.jsonl --out DIR \
        --model gpt-4=PATH/mr_math_invalid_dev_gpt4.jsonl [--model NAME=VERDICTS ...]
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

from eval_sets.halves import HALVES
from eval_sets.metrics.processbench import processbench_score
from eval_sets.plugins import register_study
from eval_sets.processes import fake_model, llm_grading_env, stepgrade_command
from eval_sets.runner.store import ItemResult, ResultStore
from eval_sets.runner.summary import BAD, predicted_first_error
from eval_sets.study_cli import add_answer_timeout, add_data, add_out, require_file, run_study
from scoring.schema import GradeReport

READY_TIMEOUT_S = 60.0
SETTINGS = ("assumed", "measured")
GROUPS = (*HALVES, "all")
# setting -> group -> reading ("fused", "model alone") -> F1 (None when undefined)
Figures = dict[str, dict[str, dict[str, float | None]]]


def model_first_error(report: GradeReport) -> int | None:
    """The first step the model itself labelled incorrect or meaningless (1-based), else None."""
    return next((s.index for s in report.steps if s.model_label in BAD), None)


def f1_pair(results: Sequence[ItemResult]) -> dict[str, float | None]:
    """First-error F1 of the fused labels and of the model alone, on the items graded with a
    model label on every step (so that both readings count the same items)."""
    graded = [
        r
        for r in results
        if r.report is not None and all(s.model_label is not None for s in r.report.steps)
    ]
    gold = [r.gold.first_error for r in graded]
    fused = [predicted_first_error(r.report) for r in graded if r.report is not None]
    alone = [model_first_error(r.report) for r in graded if r.report is not None]
    return {
        "fused": processbench_score(fused, gold).f1,
        "model alone": processbench_score(alone, gold).f1,
        "n": float(len(graded)),
    }


def read_results(out: Path) -> list[ItemResult]:
    """The results of one run's folder, failed items kept (not dropped to be retried)."""
    return list(ResultStore.open(out, retry_errors=False).done.values())


def figures_of(runs: Mapping[str, Mapping[str, Sequence[ItemResult]]]) -> Figures:
    """setting -> half -> results, to setting -> group (each half, and all) -> F1s."""
    out: Figures = {}
    for setting, halves in runs.items():
        groups: dict[str, list[ItemResult]] = {h: list(halves.get(h, [])) for h in HALVES}
        groups["all"] = [r for h in HALVES for r in groups[h]]
        out[setting] = {g: f1_pair(results) for g, results in groups.items()}
    return out


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:.1f}"


def to_markdown(by_model: Mapping[str, Figures]) -> str:
    """The F1 table: a row per model, reliability setting and group; fused against model alone."""
    lines = [
        "| model | reliability | group | items | fused F1 | model alone F1 | fused - alone |",
        "|---|---|---|---:|---:|---:|---:|",
    ]
    for model, figures in by_model.items():
        for setting, groups in figures.items():
            for group, f in groups.items():
                fused, alone = f["fused"], f["model alone"]
                gain = None if fused is None or alone is None else fused - alone
                lines.append(
                    f"| {model} | {setting} | {group} | {int(f['n'] or 0)} | "
                    f"{_pct(fused)} | {_pct(alone)} | {_pct(gain)} |"
                )
    return "\n".join(lines) + "\n"


def grading_env(base_url: str, model: str, calibration: Path | None) -> dict[str, str]:
    """The grading environment: the replay endpoint, no cassette, no reliability set by hand
    (the point is to compare the assumed one with the measured one)."""
    env = llm_grading_env(
        base_url,
        model,
        drop=("STEPGRADE_LLM_SENSITIVITY", "STEPGRADE_LLM_FALSE_ALARM", "STEPGRADE_CALIBRATION"),
    )
    if calibration is not None:
        env["STEPGRADE_CALIBRATION"] = str(calibration)
    return env


def _run(cmd: list[str], env: dict[str, str], what: str) -> None:
    done = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, check=False)
    if done.returncode not in (0, 1):  # 1: some items failed; the summary lists them
        raise SystemExit(f"replay_bench: {what} exited with {done.returncode}")


def run_model(args: argparse.Namespace, model: str, verdicts: Path) -> Figures:
    """Serve the replay of `model`, grade both halves (assumed, then measured reliability)."""
    root = args.out / model
    runs: dict[str, dict[str, list[ItemResult]]] = {}
    with fake_model(
        "eval_sets.fakes.replay_oracle",
        ["--data", str(args.data), "--verdicts", str(verdicts)],
        "the replay fake",
        "replay_bench",
        READY_TIMEOUT_S,
    ) as base_url:
        calibration = root / "calibration.json"
        calibration.unlink(missing_ok=True)
        for setting in SETTINGS:
            if setting == "measured":
                print(f"replay_bench: {model}: calibrate-llm on the fit half", file=sys.stderr)
                _run(
                    [
                        *stepgrade_command(),
                        "bench",
                        "calibrate-llm",
                        "--dataset",
                        "mr_math_invalid",
                        "--path",
                        str(args.data),
                        "--half",
                        "fit",
                        "--out",
                        str(calibration),
                        "--answer-timeout",
                        str(args.answer_timeout),
                        "--no-progress",
                    ],
                    grading_env(base_url, model, None),
                    f"calibrate-llm ({model})",
                )
            runs[setting] = {}
            for half in HALVES:
                out = root / setting / half
                shutil.rmtree(out, ignore_errors=True)
                print(
                    f"replay_bench: {model}, {setting} reliability, {half} half -> {out}",
                    file=sys.stderr,
                )
                _run(
                    [
                        *stepgrade_command(),
                        "bench",
                        "grade",
                        "--dataset",
                        "mr_math_invalid",
                        "--path",
                        str(args.data),
                        "--mode",
                        "llm",
                        "--half",
                        half,
                        "--out",
                        str(out),
                        "--answer-timeout",
                        str(args.answer_timeout),
                        "--no-progress",
                    ],
                    grading_env(base_url, model, calibration if setting == "measured" else None),
                    f"stepgrade bench grade ({model}, {setting}, {half})",
                )
                runs[setting][half] = read_results(out)
    return figures_of(runs)


def _model_arg(text: str) -> tuple[str, Path]:
    name, sep, path = text.partition("=")
    if not sep or not name or not path:
        raise argparse.ArgumentTypeError("expected NAME=VERDICTS.jsonl")
    return name, Path(path)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The study's options."""
    add_data(parser, "MR-MATH invalid JSON lines", required=True)
    parser.add_argument(
        "--model",
        type=_model_arg,
        action="append",
        required=True,
        help="NAME=VERDICTS: a model's published verdicts on --data's rows",
    )
    add_out(parser)
    add_answer_timeout(parser)


@register_study("replay_bench", arguments=add_arguments)
def replay_bench(args: argparse.Namespace) -> int:
    """Run every `--model`, then print the F1 table and write replay.md and replay.json; 2 when a
    file is missing."""
    for path in [args.data, *(p for _, p in args.model)]:
        require_file(path)
    start = time.perf_counter()
    by_model = {name: run_model(args, name, path) for name, path in args.model}
    markdown = to_markdown(by_model)
    print("\nFirst-error F1 (ProcessBench) on MR-MATH invalid, replayed model verdicts:\n")
    print(markdown)
    print(f"{time.perf_counter() - start:.0f} s; runs in {args.out}/<model>/<reliability>/<half>/")
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "replay.md").write_text(markdown, encoding="utf-8")
    (args.out / "replay.json").write_text(json.dumps(by_model, indent=2) + "\n", encoding="utf-8")
    return 0


def main(argv: list[str] | None = None) -> int:
    """`python -m eval_sets.studies.replay_bench`: the study over this process's arguments."""
    return run_study("replay_bench", argv)


if __name__ == "__main__":
    raise SystemExit(main())
