"""What the service grades with, and what that was checked on: the body of GET /calibration.

A report names its calibration's version (`meta.versions.calibration`) and says how sure it is
(`score_interval`, `needs_review`). Whether that 80% holds depends on what the file was fitted
and checked on: the interval's out-of-fold coverage, the reliability the LLM-mode cells assume,
whether the model's reliability in use was measured or assumed, and, after `stepgrade
calibrate`, how the refit did on the corrections held back. An operator reads it here rather
than in a file on the server.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from scoring.judge import JudgeConfig, LlmRates, Reliability
from scoring.score import UncertaintyModel


class ReliabilityInfo(BaseModel):
    sensitivity: float = Field(description="Share of wrong steps the model calls wrong.")
    false_alarm: float = Field(description="Share of right steps the model calls wrong.")
    source: Literal["measured", "set", "assumed"] = Field(
        description="measured by `stepgrade bench calibrate-llm`, set by STEPGRADE_LLM_*, or "
        "the assumed default"
    )
    wrong: int | None = Field(default=None, description="Labelled wrong steps it was measured on.")
    right: int | None = Field(default=None, description="Labelled right steps it was measured on.")
    sensitivity_interval: tuple[float, float] | None = Field(
        default=None, description="Measured: the interval `calibrate-llm` gives the rate."
    )
    false_alarm_interval: tuple[float, float] | None = None
    measured_on: str | None = Field(default=None, description="Measured: the set, half and items.")


class LlmInfo(BaseModel):
    model: str
    reliability: ReliabilityInfo = Field(description="Used for a language without its own.")
    by_language: dict[str, ReliabilityInfo] = Field(default_factory=dict)


class IntervalInfo(BaseModel):
    version: str
    coverage: float = Field(description="The nominal coverage of `score_interval`.")
    max_width: int = Field(description="A wider interval is flagged `wide_interval`.")
    min_route_precision: float = Field(
        description="An answer decided by a reading less precise than this is flagged."
    )
    method: str | None = None
    fitted: str | None = None
    fitted_on: str | None = None
    out_of_fold_coverage: dict[str, float] = Field(
        default_factory=dict,
        description="Offline cells, out of fold on the fit half: pooled and per cell.",
    )
    llm_cells: dict[str, Any] | None = Field(
        default=None,
        description="What the LLM-mode cells were fitted against (the judge and "
        "its reliability); None when the file has none.",
    )


class CalibrationInfo(BaseModel):
    version: str = Field(description="As in every report's `meta.versions.calibration`.")
    source: Literal["shipped", "file"] = Field(
        description="The file shipped with the package, or STEPGRADE_CALIBRATION."
    )
    fitted: str | None = None
    fitted_on: str | None = None
    languages: list[str] = Field(description="Languages with a step model of their own.")
    recalibration: str | None = Field(default=None, description="How step P(wrong) is mapped.")
    interval: IntervalInfo | None = Field(
        description="None: this calibration has no interval statistics; grades carry none."
    )
    llm: LlmInfo | None = Field(description="None: offline, no model configured.")
    corrections: dict[str, Any] | None = Field(
        default=None,
        description="Written by `stepgrade calibrate`: the corrections this file "
        "was refitted on and how it did on those held back.",
    )


def _reliability(r: Reliability, rates: LlmRates | None = None) -> ReliabilityInfo:
    """A reliability in use; with the rates it was measured as, their intervals and origin (a
    rate set by hand keeps neither: it is not the measured one)."""
    kept = rates if r.source == "measured" else None
    return ReliabilityInfo(
        sensitivity=r.sensitivity,
        false_alarm=r.false_alarm,
        source=r.source,
        wrong=r.wrong,
        right=r.right,
        sensitivity_interval=kept.sensitivity_interval if kept else None,
        false_alarm_interval=kept.false_alarm_interval if kept else None,
        measured_on=(kept.source or None) if kept else None,
    )


def _interval(model: UncertaintyModel) -> IntervalInfo:
    meta = dict(model.meta)
    llm = meta.get("llm")
    return IntervalInfo(
        version=model.version,
        coverage=model.coverage,
        max_width=model.max_width,
        min_route_precision=model.min_route_precision,
        method=meta.get("method"),
        fitted=meta.get("fitted"),
        fitted_on=meta.get("fitted_on"),
        out_of_fold_coverage=meta.get("out_of_fold_coverage") or {},
        llm_cells=dict(llm) if isinstance(llm, dict) and model.llm_cells else None,
    )


def describe(
    judge: JudgeConfig, interval: UncertaintyModel | None, *, llm_model: str | None, from_file: bool
) -> CalibrationInfo:
    """The calibration in use, its interval statistics, and the model's reliability when a
    model is configured (`llm_model`)."""
    calibration = judge.calibration
    meta = calibration.meta
    rates = calibration.llm_rates.get(llm_model or "", {})
    corrections = meta.get("corrections")
    return CalibrationInfo(
        version=calibration.version,
        source="file" if from_file else "shipped",
        fitted=meta.get("fitted"),
        fitted_on=meta.get("fitted_on"),
        languages=sorted(calibration.models),
        recalibration=meta.get("recalibration"),
        interval=_interval(interval) if interval is not None else None,
        llm=LlmInfo(
            model=llm_model,
            reliability=_reliability(judge.reliability),
            by_language={lang: _reliability(r, rates.get(lang)) for lang, r in judge.by_language},
        )
        if llm_model
        else None,
        corrections=corrections if isinstance(corrections, dict) else None,
    )
