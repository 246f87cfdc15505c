"""A grade's central 80% score interval: conformal prediction over cells of grades that err alike.

The interval is locally weighted, group-conditional ("Mondrian") split conformal prediction
(Vovk, Gammerman & Shafer 2005, *Algorithmic Learning in a Random World*, ch. 4; Lei, G'Sell,
Rinaldo, Tibshirani & Wasserman 2018, "Distribution-free predictive inference for regression",
JASA, sections 2 and 5.2), with out-of-fold residuals (the CV+ idea of Barber, Candes, Ramdas &
Tibshirani 2021, "Predictive inference with the jackknife+"). Per cell of grades that err alike
(answer right, answer wrong, no verdict, proof, open-ended), a fitted model gives:
- a point prediction of the human score, `intercept + slope * score`: a wrong answer's own score
  says little about its partial credit, so the slope may be near zero and the interval is then
  centred on what humans give such solutions, not on the score;
- a spread, `spread0 + spread1 * |score - prediction|`: the further the grade sits from what the
  cell's humans give, the less it is to be trusted;
- the conformal quantiles `q_lo`, `q_hi` of the normalised residuals (human - prediction) / spread.
The interval is [prediction + q_lo * spread, prediction + q_hi * spread], rounded inward to
integers (human scores are integers), widened to contain the score itself, clipped to 0..10.
Widening and integer human scores make the interval cover more than its nominal level (a right
answer's [10, 10] covers nearly every human score), so each cell's quantiles are taken at a
nominal level `Cell.nominal` chosen on the fit half: the levels at which the finished integer
intervals cover 80% of the fit half's grades POOLED out of fold, each cell kept at or above the
level at which it alone covers a floor (75%). Cells that cannot cover less (right answers) are
thus offset by the others; the coverage is then marginal, as in split conformal prediction
(Lei et al. 2018, section 2), and no longer group-conditional at 80% as a Mondrian predictor
fitted per cell would be (Vovk 2012, "Conditional validity of inductive conformal
predictors"): per cell, only the floor is targeted. Nothing assumes the steps err
independently: the model reads whole-grade features and their measured residuals.

Cells are kept per mode: grades whose steps a model judged (LLM mode, not degraded) have cells
of their own (`UncertaintyModel.llm_cells`), fitted on grades made against a model of a stated
reliability; a model of another reliability needs a refit.

Everything here is pure; the fitted statistics are read once (`load_uncertainty`, the section
`uncertainty` of the calibration file, fitted by `python -m eval_sets.calibrate` after the step
model) and passed in. The review flags that read the interval are in `scoring.score.uncertainty`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal, get_args

from scoring.judge.calibration import Calibration, CalibrationError
from scoring.judge.load import DEFAULT_PATH, load_calibration
from scoring.score.features import GradeFeatures, answer_unchecked, steps_against_answer

SECTION = "uncertainty"  # the calibration file's section that holds these statistics
UNCERTAINTY_FORMAT = 2


CellName = Literal["right", "wrong", "no_verdict", "proof", "open_ended", "unverified", "all"]
CELL_NAMES: tuple[CellName, ...] = get_args(CellName)
# A cell too small for its quantiles falls back along this chain (the last always exists).
FALLBACK: dict[CellName, tuple[CellName, ...]] = {
    "right": ("right", "all"),
    "wrong": ("wrong", "all"),
    "no_verdict": ("no_verdict", "all"),
    "proof": ("proof", "unverified", "all"),
    "open_ended": ("open_ended", "unverified", "all"),
    "unverified": ("unverified", "all"),
    "all": ("all",),
}


MIN_ROUTE_PRECISION = 0.9  # an answer decided by a less precise reading asks for a look


class UncertaintyError(ValueError):
    """The fitted statistics are missing, malformed or inconsistent."""


@dataclass(frozen=True)
class Cell:
    """One Mondrian cell's fitted statistics (see the module docstring)."""

    n: int
    intercept: float
    slope: float
    spread0: float
    spread1: float
    q_lo: float
    q_hi: float
    nominal: float = 0.8  # the quantiles' level, chosen so the integer intervals cover 80%

    def __post_init__(self) -> None:
        values = (self.intercept, self.slope, self.spread0, self.spread1, self.q_lo, self.q_hi)
        if not all(math.isfinite(v) for v in values):
            raise UncertaintyError("cell statistics must be finite")
        if self.n < 1:
            raise UncertaintyError(f"a cell needs at least one grade, got n={self.n}")
        if self.spread0 <= 0.0 or self.spread1 < 0.0:
            raise UncertaintyError("spread0 must be > 0 and spread1 >= 0")
        if self.q_lo > self.q_hi:
            raise UncertaintyError(f"q_lo {self.q_lo} is above q_hi {self.q_hi}")
        if not 0.0 < self.nominal < 1.0:
            raise UncertaintyError(f"nominal level must be in (0, 1), got {self.nominal}")

    def predict(self, score: float) -> float:
        """The cell's point prediction of the human score for this score."""
        return self.intercept + self.slope * score

    def spread(self, score: float) -> float:
        """How far this cell's human scores stray at this score (the residual scale)."""
        return self.spread0 + self.spread1 * abs(score - self.predict(score))


@dataclass(frozen=True)
class UncertaintyModel:
    """Fitted on the fit half by `eval_sets.calibrate.uncertainty`; read with `load_uncertainty`.

    `cells` are fitted on offline grades; `llm_cells` on grades whose steps a model judged (LLM
    mode, not degraded), made against a model of the reliability in `meta["llm"]`: they hold for
    a model of about that reliability only, and a measured one (`stepgrade bench
    calibrate-llm`) calls for a refit. Without `llm_cells`, LLM grades use the offline cells.
    `max_width`: an interval wider than this is flagged `wide_interval`.
    `min_route_precision`: an answer verdict whose reading is less precise than this is flagged.
    """

    version: str
    coverage: float
    cells: Mapping[str, Cell]
    max_width: int
    min_route_precision: float = MIN_ROUTE_PRECISION
    meta: Mapping[str, Any] = field(default_factory=dict, compare=False, hash=False)
    llm_cells: Mapping[str, Cell] = field(default_factory=dict)
    # offline grades made against a problem's memory (`GradeFeatures.memory`), fitted on the
    # memory benchmark's fit-half grades; without them such grades use `cells`
    memory_cells: Mapping[str, Cell] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not 0.0 < self.coverage < 1.0:
            raise UncertaintyError(f"coverage must be in (0, 1), got {self.coverage}")
        if "all" not in self.cells:
            raise UncertaintyError("the statistics need the pooled cell 'all'")
        if self.llm_cells and "all" not in self.llm_cells:
            raise UncertaintyError("the LLM-mode statistics need the pooled cell 'all'")
        if self.memory_cells and "all" not in self.memory_cells:
            raise UncertaintyError("the memory statistics need the pooled cell 'all'")
        unknown = (set(self.cells) | set(self.llm_cells) | set(self.memory_cells)) - set(CELL_NAMES)
        if unknown:
            raise UncertaintyError(f"unknown cells {sorted(unknown)}; known: {list(CELL_NAMES)}")
        if not 0 <= self.max_width <= 10:
            raise UncertaintyError(f"max_width must be 0..10, got {self.max_width}")

    def __hash__(self) -> int:
        return hash((self.version, self.coverage, self.max_width, self.min_route_precision))

    def cell(self, name: CellName, model_judged: bool = False, memory: bool = False) -> Cell:
        """The statistics for a cell, or for its nearest parent that was fitted: among the
        LLM-mode cells for a grade whose steps a model judged, when there are any; among the
        memory cells for an offline grade made against a problem's memory, when there are any."""
        cells = self.cells
        if model_judged and self.llm_cells:
            cells = self.llm_cells
        elif memory and not model_judged and self.memory_cells:
            cells = self.memory_cells
        for candidate in FALLBACK[name]:
            if candidate in cells:
                return cells[candidate]
        raise AssertionError("unreachable: 'all' is checked on construction")

    def to_json(self) -> dict[str, Any]:
        """The statistics as the JSON that `from_json` reads back."""
        return {
            "format": UNCERTAINTY_FORMAT,
            "version": self.version,
            "coverage": self.coverage,
            "max_width": self.max_width,
            "min_route_precision": self.min_route_precision,
            "cells": {k: vars(v) for k, v in self.cells.items()},
            "llm_cells": {k: vars(v) for k, v in self.llm_cells.items()},
            "memory_cells": {k: vars(v) for k, v in self.memory_cells.items()},
            "meta": dict(self.meta),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> UncertaintyModel:
        """Statistics from JSON; malformed or foreign input raises UncertaintyError with the reason."""
        try:
            if data.get("format") != UNCERTAINTY_FORMAT:
                raise UncertaintyError(
                    f"uncertainty format {data.get('format')!r} is not "
                    f"{UNCERTAINTY_FORMAT}; refit with python -m "
                    "eval_sets.calibrate"
                )
            cells = {str(k): Cell(**v) for k, v in data["cells"].items()}
            llm_cells = {str(k): Cell(**v) for k, v in data.get("llm_cells", {}).items()}
            memory_cells = {str(k): Cell(**v) for k, v in data.get("memory_cells", {}).items()}
            return cls(
                str(data["version"]),
                float(data["coverage"]),
                cells,
                int(data["max_width"]),
                float(data.get("min_route_precision", MIN_ROUTE_PRECISION)),
                dict(data.get("meta", {})),
                llm_cells,
                memory_cells,
            )
        except UncertaintyError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError) as err:
            raise UncertaintyError(f"uncertainty statistics are malformed: {err!r}") from None


def uncertainty_of(calibration: Calibration) -> UncertaintyModel | None:
    """The statistics fitted with this calibration (its `uncertainty` section); None when it
    has none (a hand-written calibration): grades then carry no interval."""
    data = calibration.section(SECTION)
    if data is None:
        return None
    if not isinstance(data, dict):
        raise UncertaintyError(f"the calibration's {SECTION!r} section is not a JSON object")
    return UncertaintyModel.from_json(data)


@lru_cache(maxsize=4)
def load_uncertainty(path: Path = DEFAULT_PATH) -> UncertaintyModel:
    """The statistics in the calibration file at `path` (the shipped one by default), read
    once per path; a file without them, or a bad one, raises UncertaintyError."""
    try:
        model = uncertainty_of(load_calibration(path))
    except CalibrationError as err:
        raise UncertaintyError(f"cannot read uncertainty statistics: {err}") from None
    if model is None:
        raise UncertaintyError(
            f"calibration file {path} has no {SECTION!r} section; refit with "
            "python -m eval_sets.calibrate"
        )
    return model


def cell_of(features: GradeFeatures) -> CellName:
    """The Mondrian cell: grades whose errors are alike. Proofs and open-ended solutions are
    cells of their own whatever their answer verdict, since their score rests on the steps."""
    if features.problem_type != "calculation":
        return features.problem_type
    return {"right": "right", "wrong": "wrong", "none": "no_verdict"}[features.verdict]  # type: ignore[return-value]


def score_interval(features: GradeFeatures, model: UncertaintyModel) -> tuple[int, int]:
    """The central interval [lo, hi] (integers within 0..10 holding the score and the expected
    score: the report's point estimates never contradict its interval).

    It reaches 10 where the answer may be right whatever the steps say: a grade whose steps are
    labelled against its right answer (`steps_against_answer`) spans both readings, and an
    answer nobody checked (`answer_unchecked`) may be right, which no cell has seen (the fit
    half's calculations all have a reference): humans give a right answer's solution 10."""
    cell = model.cell(cell_of(features), features.step_logic_checked, features.memory)
    score = features.score
    return finish_interval(
        features,
        integer_interval(score, cell.predict(score), cell.spread(score), cell.q_lo, cell.q_hi),
    )


def finish_interval(features: GradeFeatures, interval: tuple[int, int]) -> tuple[int, int]:
    """A cell's integer interval as the report gives it: widened to hold the expected score,
    and to 10 where the answer may be right whatever the steps say (`score_interval`). The fit
    reads its coverage through this too, so that the levels it chooses are those shipped."""
    lo, hi = interval
    if features.score_expected is not None:
        lo = min(lo, math.floor(features.score_expected + 1e-9))
        hi = max(hi, math.ceil(features.score_expected - 1e-9))
    could_be_right = steps_against_answer(features) or answer_unchecked(features)
    return (lo, 10) if could_be_right else (lo, hi)


def integer_interval(
    score: int, centre: float, spread: float, q_lo: float, q_hi: float
) -> tuple[int, int]:
    """[centre + q_lo * spread, centre + q_hi * spread] as integers holding the score, in 0..10.

    Human scores are integers: h >= x iff h >= ceil(x), h <= x iff h <= floor(x), so rounding
    inward keeps the conformal coverage and drops up to a point of width."""
    lo = math.ceil(centre + q_lo * spread - 1e-9)
    hi = math.floor(centre + q_hi * spread + 1e-9)
    return max(0, min(lo, score)), min(10, max(hi, score))
