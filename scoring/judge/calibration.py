"""The measured worth of every kind of evidence, read from the calibration file.

`eval_sets.calibrate` writes `calibration.json` (statistics only: counts, precisions, likelihood
ratios, fitted log-odds weights and thresholds; no data rows) from labelled development sets.
There is one step model per language, because the labelled sets of each language were labelled
in their own way; a language without a model of its own uses the default one. The judge reads
the file once per process.
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal, get_args

from scoring.judge.findings import FINDING_KINDS, FindingKind

DEFAULT_PATH = Path(__file__).with_name("calibration.json")
DEFAULT_LANGUAGE = "en"


class CalibrationError(ValueError):
    """The calibration file is missing, unreadable or malformed."""


@dataclass(frozen=True)
class KindStats:
    """How a finding kind fared on the fit half: it fired on `wrong` steps and on `right` ones.

    `precision` is the share of its firings it was right about (wrong steps for an error kind,
    right steps for a support kind); `likelihood_ratio` is P(fires | wrong) / P(fires | right).
    A kind is `decisive` when its precision is high enough on enough firings to move a label;
    otherwise it only warns: it still lowers validity, but no label changes because of it.
    """

    wrong: int
    right: int
    precision: float | None
    likelihood_ratio: float | None
    decisive: bool


# How an offline grade turns the steps' P(wrong) into labels: each step on the threshold, or
# the most likely steps until Eq. 1 on the labels is closest to its expectation plus a lenience
# in points (`scoring.judge.decide.expected`). The calibration chooses per language on the fit
# half.
Decision = Literal["threshold", "expected"]


@dataclass(frozen=True)
class StepModel:
    """Log-odds weights of P(step wrong) by feature name, the label threshold on it, and how
    offline labels are decided."""

    weights: dict[str, float]
    threshold: float
    # (low, high) of a continuous feature on the data the weights were fit on: a value outside
    # is read as the nearest end, never extrapolated.
    ranges: dict[str, tuple[float, float]] = field(default_factory=dict)
    decision: Decision = "threshold"
    lenience: float = 0.0  # points, for the "expected" decision

    def __post_init__(self) -> None:
        if not 0.0 < self.threshold < 1.0:
            raise CalibrationError(f"threshold must be in (0, 1), got {self.threshold}")
        if not all(math.isfinite(w) for w in self.weights.values()):
            raise CalibrationError("weights must be finite")
        if not all(math.isfinite(a) and math.isfinite(b) and a <= b
                   for a, b in self.ranges.values()):
            raise CalibrationError("ranges must be finite (low, high) pairs")
        if not 0.0 <= self.lenience <= 10.0:
            raise CalibrationError(f"lenience must be in [0, 10] points, got {self.lenience}")
        if self.decision not in get_args(Decision):
            raise CalibrationError(f"decision must be one of {get_args(Decision)}, "
                                   f"got {self.decision!r}")

    def log_odds(self, features: dict[str, float]) -> float:
        total = 0.0
        for name, value in features.items():
            if name in self.ranges:
                low, high = self.ranges[name]
                value = min(max(value, low), high)
            total += self.weights.get(name, 0.0) * value
        return total


@dataclass(frozen=True)
class Calibration:
    version: str
    models: dict[str, StepModel]
    kinds: dict[FindingKind, KindStats] = field(default_factory=dict)
    meta: dict[str, Any] = field(default_factory=dict, compare=False)

    def __hash__(self) -> int:
        return hash(self.version)

    def model(self, language: str) -> StepModel:
        return self.models.get(language) or self.models[DEFAULT_LANGUAGE]

    def decisive(self, kind: FindingKind) -> bool:
        stats = self.kinds.get(kind)
        return stats is not None and stats.decisive

    def to_json(self) -> dict[str, Any]:
        return {
            "version": self.version,
            "models": {lang: asdict(m) for lang, m in self.models.items()},
            "kinds": {k: asdict(s) for k, s in self.kinds.items()},
            "meta": self.meta,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Calibration:
        try:
            models = {str(lang): StepModel(
                {str(k): float(v) for k, v in m["weights"].items()}, float(m["threshold"]),
                {str(k): (float(a), float(b)) for k, (a, b) in m.get("ranges", {}).items()},
                str(m.get("decision", "threshold")), float(m.get("lenience", 0.0)))
                      for lang, m in data["models"].items()}
            kinds = {k: KindStats(**v) for k, v in data["kinds"].items() if k in FINDING_KINDS}
        except (KeyError, TypeError, ValueError, AttributeError) as err:
            raise CalibrationError(f"calibration data is malformed: {err}") from None
        if DEFAULT_LANGUAGE not in models:
            raise CalibrationError(f"calibration needs a model for {DEFAULT_LANGUAGE!r}")
        return cls(str(data.get("version", "")), models, kinds, dict(data.get("meta", {})))


@lru_cache(maxsize=4)
def load_calibration(path: Path = DEFAULT_PATH) -> Calibration:
    """The calibration in `path` (the shipped file by default), read once per process."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as err:
        raise CalibrationError(f"cannot read calibration file {path}: {err}") from None
    return Calibration.from_json(data)
