"""`python -m eval_sets.calibrate.uncertainty --data ../shared/data [--out FILE] [--cache FILE] [--llm-seeds S ...]`

`python -m eval_sets.calibrate` runs this after fitting the step model (`refit`); this entry
point refits the statistics alone on the step model already in the calibration file. Grades
StepMathBench dev, offline and in LLM mode, fits the score-interval model of
`scoring.score.interval` on its FIT half (`eval_sets.calibrate.conformal`) and reports on
both halves (`eval_sets.calibrate.uncertainty_report`).

Every item is graded on the human segmentation (`solution_steps`) with its reference answer, so
that step P(wrong) lines up with the human step labels: offline, and in LLM mode against the
label fake (human labels with seeded misses and false alarms, `LLM_MISS` / `LLM_FALSE_ALARM`)
once per seed of `LLM_SEEDS`, for the LLM-mode cells.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, Literal

from eval_sets.calibrate.conformal import Graded, fit_model
from eval_sets.calibrate.labelled import IN_SAMPLE_READINGS
from eval_sets.calibrate.uncertainty_report import cell_tables, report_tables
from eval_sets.halves import half_of
from eval_sets.loaders.rows import as_text, read_records
from eval_sets.loaders.stepmath import request_fields
from eval_sets.runner.tables import Table, to_markdown
from scoring.judge import DEFAULT_PATH, Calibration, load_calibration
from scoring.schema import GradeReport, GradeRequest
from scoring.score import (
    SECTION,
    UncertaintyError,
    UncertaintyModel,
    features_of,
    parse_human_label,
    uncertainty_of,
)

LLM_SEEDS = (0, 1, 2)  # label-fake seeds pooled for the LLM-mode cells
LLM_MISS = 0.3  # the label fake's reliability the LLM-mode cells are fitted at: the defaults of
LLM_FALSE_ALARM = 0.1  # STEPGRADE_LLM_SENSITIVITY (1 - miss) and STEPGRADE_LLM_FALSE_ALARM
# What judged the LLM-mode grades, as the fitted statistics record it (`meta["llm"]`).
LABEL_FAKE: dict[str, object] = {
    "miss": LLM_MISS,
    "false_alarm": LLM_FALSE_ALARM,
    "judge": "label fake (eval_sets/fakes/label_server.py), human labels with seeded misses "
    "and false alarms",
}


def grade_stepmath(
    path: Path,
    cache: Path | None,
    calibration: Calibration,
    *,
    own_steps: bool = False,
    llm_seed: int | None = None,
) -> list[Graded]:
    """Grade every StepMathBench dev item with `calibration`'s step model (or read the reports
    cached under the same calibration version and mode): offline, or with `llm_seed` in LLM
    mode against the label fake of that seed (misses `LLM_MISS` of the wrong steps, calls
    `LLM_FALSE_ALARM` of the right ones wrong), the decision layer told that reliability.

    `own_steps`: grade the free text on the grader's own segmentation, as the benchmark does
    (no step labels then: they belong to the human steps); to check the fitted model transfers.
    """
    tag = "offline" if llm_seed is None else f"llm{llm_seed}"
    reports: dict[str, dict[str, object]] = {}
    others: list[str] = []  # cached records of other versions or modes, kept
    if cache is not None and cache.is_file():
        for line in cache.read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            if (
                record.get("calibration") == calibration.version
                and record.get("tag", "offline") == tag
            ):
                reports[record["uid"]] = record["report"]
            else:
                others.append(line)
    rows = [row for _, row in read_records(path)]
    missing = [row for row in rows if str(row["uid"]) not in reports]
    if missing:
        reports.update(_grade(missing, calibration, own_steps, llm_seed, rows))
        if cache is not None:
            cache.write_text(
                "".join(line + "\n" for line in others)
                + "".join(
                    json.dumps(
                        {"uid": k, "calibration": calibration.version, "tag": tag, "report": v},
                        ensure_ascii=False,
                    )
                    + "\n"
                    for k, v in reports.items()
                ),
                encoding="utf-8",
            )
    graded = []
    for row in rows:
        report = GradeReport.model_validate(reports[str(row["uid"])])
        labels = [parse_human_label(s) for s in row["gold_step_score"]]
        wrong: tuple[bool | None, ...] = tuple(lab == "incorrect" for lab in labels)
        p_wrong = tuple(s.p_wrong for s in report.steps)
        if own_steps or len(p_wrong) != len(wrong):  # steps not the humans': no step labels
            wrong = (None,) * len(p_wrong)
        uid = str(row["uid"]) if llm_seed is None else f"{row['uid']}#llm{llm_seed}"
        graded.append(
            Graded(
                uid,
                as_text(row["question"]),
                half_of(as_text(row["question"])),
                int(row["gold_score"]),
                wrong,
                p_wrong,
                report.language,
                features_of(report),
                _failed(row),
            )
        )
    return graded


def _failed(row: dict[str, Any]) -> bool | None:
    """Below the pass mark by StepMathBench's binary gold score, where the row has one."""
    binary = row.get("gold_score_01")
    return None if binary is None else int(binary) == 0


def _grade(
    missing: Sequence[dict[str, Any]],
    calibration: Calibration,
    own_steps: bool,
    llm_seed: int | None,
    rows: Sequence[dict[str, Any]],
) -> dict[str, dict[str, object]]:
    """The reports of `missing`, graded offline or against the label fake of `llm_seed`
    (served in-process on 127.0.0.1 from all `rows`)."""
    # Only when grading: the cached path needs no graph.
    from agent.context import Context
    from agent.grader import Grader
    from scoring.judge import JudgeConfig, Reliability

    def grade_all(grader: Grader, mode: Literal["offline", "llm"]) -> dict[str, dict[str, object]]:
        out: dict[str, dict[str, object]] = {}
        for row in missing:
            request = GradeRequest(**request_fields(row, human_steps=not own_steps), mode=mode)
            out[str(row["uid"])] = grader.grade(request).model_dump(mode="json")
        return out

    if llm_seed is None:
        return grade_all(
            Grader(
                Context(
                    judge=JudgeConfig(calibration=calibration),
                    uncertainty=None,
                    answer_left_out=IN_SAMPLE_READINGS,
                )
            ),
            "offline",
        )
    from agent.llm.client import LlmClient
    from agent.llm.config import LlmConfig
    from eval_sets.fakes.label_oracle import ErrorRates, LabelOracle
    from eval_sets.fakes.openai_server import FakeOpenAI

    oracle = LabelOracle(rows, ErrorRates(LLM_MISS, LLM_FALSE_ALARM, llm_seed))
    with FakeOpenAI(oracle) as server:
        judge = JudgeConfig(
            calibration=calibration, reliability=Reliability(1.0 - LLM_MISS, LLM_FALSE_ALARM)
        )
        client = LlmClient(
            LlmConfig(base_url=server.base_url, model="label-fake", api_key="not-needed")
        )
        return grade_all(
            Grader(
                Context(
                    judge=judge,
                    uncertainty=None,
                    llm=client,
                    llm_model="label-fake",
                    answer_left_out=IN_SAMPLE_READINGS,
                )
            ),
            "llm",
        )


def refit(
    data: Path,
    calibration: Calibration,
    cache: Path | None = None,
    *,
    check_only: bool = False,
    own_steps: bool = False,
    llm_seeds: Sequence[int] = LLM_SEEDS,
) -> tuple[UncertaintyModel, list[Table]]:
    """Grade StepMathBench dev with `calibration` offline and, per seed of `llm_seeds`, in LLM
    mode against the label fake; fit the statistics on the fit half (or read the calibration's
    own with `check_only`) and the tables of both halves. The features (the score, P(wrong))
    come from the step model, so this runs after it is fitted."""
    path = data / "stepmathbench_dev.jsonl"
    if not path.is_file():
        raise FileNotFoundError(f"uncertainty: {path} not found")
    graded = grade_stepmath(path, cache, calibration, own_steps=own_steps)
    by_llm: list[Graded] = []
    if not own_steps:
        for seed in llm_seeds:
            by_llm += grade_stepmath(path, cache, calibration, llm_seed=seed)
    plain = fit_model([*graded, *by_llm], weighted=False, llm_judge=LABEL_FAKE)
    shipped = uncertainty_of(calibration) if check_only or own_steps else None
    if (check_only or own_steps) and shipped is None:
        raise UncertaintyError(f"calibration {calibration.version} has no uncertainty statistics")
    model = shipped or fit_model([*graded, *by_llm], llm_judge=LABEL_FAKE)
    tables = report_tables(graded, model, plain)
    if by_llm:
        tables += report_tables(
            by_llm,
            model,
            plain,
            f"LLM mode, label fake miss {LLM_MISS:g} "
            f"false alarm {LLM_FALSE_ALARM:g}, seeds {' '.join(map(str, llm_seeds))} pooled",
        )
    tables += cell_tables(model)
    return model, tables


def main(argv: Sequence[str] | None = None) -> int:
    """The uncertainty statistics alone, on the step model of the calibration in `--out`
    (`python -m eval_sets.calibrate` refits both, in order)."""
    parser = argparse.ArgumentParser(
        prog="python -m eval_sets.calibrate.uncertainty",
        description=__doc__.split("\n\n")[1] if __doc__ else None,
    )
    parser.add_argument(
        "--data", type=Path, required=True, help="directory with stepmathbench_dev.jsonl"
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=DEFAULT_PATH,
        help="calibration file to read the step model from and write the "
        "statistics into (its other sections are kept)",
    )
    parser.add_argument(
        "--cache",
        type=Path,
        default=None,
        help="JSON lines of graded reports to reuse (keep it outside the repository)",
    )
    parser.add_argument("--check-only", action="store_true", help="report the shipped statistics")
    parser.add_argument(
        "--llm-seeds",
        type=int,
        nargs="*",
        default=list(LLM_SEEDS),
        help="label-fake seeds graded in LLM mode for the LLM-mode cells "
        "(none: offline cells only)",
    )
    parser.add_argument(
        "--own-steps",
        action="store_true",
        help="grade the free text on the grader's own segmentation (implies "
        "--check-only: the fit is on the human segmentation)",
    )
    args = parser.parse_args(argv)
    try:
        calibration = load_calibration(args.out)
        model, tables = refit(
            args.data,
            calibration,
            args.cache,
            check_only=args.check_only,
            own_steps=args.own_steps,
            llm_seeds=args.llm_seeds,
        )
    except (FileNotFoundError, ValueError) as err:  # CalibrationError, UncertaintyError
        print(f"uncertainty: {err}", file=sys.stderr)
        return 2
    for table in tables:
        print(to_markdown(table))
    if not (args.check_only or args.own_steps):
        updated = with_uncertainty(calibration, model)
        args.out.write_text(
            json.dumps(updated.to_json(), indent=1, sort_keys=True) + "\n", encoding="utf-8"
        )
        print(f"wrote {args.out} (version {updated.version})")
    return 0


def with_uncertainty(calibration: Calibration, model: UncertaintyModel) -> Calibration:
    """The calibration with these statistics as its `uncertainty` section, versioned anew."""
    sections = {**calibration.sections, SECTION: model.to_json()}
    return replace(
        calibration, version=calibration_version(calibration, sections), sections=sections
    )


def calibration_version(calibration: Calibration, sections: dict[str, object]) -> str:
    """The format and a digest of everything fitted: the step models, the kinds and the
    sections (so a refit of any part names a new calibration)."""
    body = {**calibration.to_json(), **sections}
    body.pop("version"), body.pop("meta")
    digest = hashlib.sha1(json.dumps(body, sort_keys=True).encode()).hexdigest()[:10]
    return f"{calibration.version.split('-')[0]}-{digest}"


if __name__ == "__main__":
    raise SystemExit(main())
