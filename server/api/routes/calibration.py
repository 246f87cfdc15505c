"""GET /calibration: the calibration the service grades with, and what it was checked on."""

from __future__ import annotations

from fastapi import APIRouter, Request

from server.services.calibration_info import CalibrationInfo, describe

router = APIRouter(tags=["health"])

# The documented answer (OpenAPI); a test checks that it is a valid CalibrationInfo.
EXAMPLE = {
    "version": "1-45e36df784",
    "source": "shipped",
    "fitted": "2026-11-27",
    "fitted_on": "natural sets, fit half (split by a hash of the problem text)",
    "languages": ["en", "zh"],
    "recalibration": "Platt scaling per language ...",
    "interval": {
        "version": "2-0a1b2c3d4e",
        "coverage": 0.8,
        "max_width": 5,
        "min_route_precision": 0.9,
        "method": "Mondrian locally weighted split conformal, out-of-fold residuals; ...",
        "fitted": "2026-11-27",
        "fitted_on": "StepMathBench dev, fit half, ...",
        "out_of_fold_coverage": {"pooled": 0.85, "proof": 0.85, "wrong": 0.78},
        "llm_cells": {"sensitivity": 0.7, "false_alarm": 0.1, "seeds": ["0", "1", "2"]},
    },
    "llm": {
        "model": "gpt-4o-mini",
        "reliability": {
            "sensitivity": 0.7,
            "false_alarm": 0.1,
            "source": "assumed",
            "wrong": None,
            "right": None,
            "sensitivity_interval": None,
            "false_alarm_interval": None,
            "measured_on": None,
        },
        "by_language": {
            "zh": {
                "sensitivity": 0.61,
                "false_alarm": 0.09,
                "source": "measured",
                "wrong": 130,
                "right": 860,
                "sensitivity_interval": [0.52, 0.69],
                "false_alarm_interval": [0.07, 0.11],
                "measured_on": "stepmath_steps, fit half",
            }
        },
    },
    "corrections": None,
}


@router.get(
    "/calibration",
    response_model=CalibrationInfo,
    responses={200: {"content": {"application/json": {"example": EXAMPLE}}}},
)
async def calibration(request: Request) -> CalibrationInfo:
    """The calibration's version (as in every report's `meta.versions.calibration`), when and on
    what it was fitted, the score interval's nominal coverage and its out-of-fold coverage on the
    fit half, the model's reliability in use (measured, set or assumed) when a model is
    configured, and the corrections a `stepgrade calibrate` refit was checked on. No grade or
    row is in it: only statistics."""
    state = request.app.state
    context = state.grader.context
    return describe(
        context.judge,
        context.interval_model,
        llm_model=context.llm_model if context.llm is not None else None,
        from_file=state.settings.calibration is not None,
    )
