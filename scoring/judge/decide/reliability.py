"""A model's step label as one more source of evidence, worth what the model is worth.

A judge that catches a share `sensitivity` of wrong steps and calls a share `false_alarm` of
right steps wrong says "wrong" with likelihood ratio sensitivity / false_alarm and "right" with
(1 - sensitivity) / (1 - false_alarm). The defaults describe a realistic LLM judge (it misses
about 30% of wrong steps and calls about 10% of right ones wrong): they are *assumed*, not
measured. `stepgrade bench calibrate-llm` measures a model's rates per language on a labelled
set and writes them into the calibration file (`scoring.judge.calibration.LlmRates`); a user
may also *set* them (STEPGRADE_LLM_SENSITIVITY / STEPGRADE_LLM_FALSE_ALARM). `source` says which,
so that a grade can say when it rests on an unmeasured model (`scoring.score.uncertainty`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

from scoring.judge.calibration import Calibration, LlmRates

# Where a reliability comes from: measured on a labelled set, set by the user, or the defaults.
ReliabilitySource = Literal["measured", "set", "assumed"]

# The smallest gap kept between the rates when a measured model is no better than chance
# (sensitivity <= false alarm): its label then moves the odds by almost nothing.
UNINFORMATIVE_GAP = 0.01


@dataclass(frozen=True)
class Reliability:
    """What a model's label is worth: how often it flags a wrong step (`sensitivity`) and
    a right one (`false_alarm`); `wrong` and `right` count the labelled steps behind a measured
    value (None otherwise)."""

    sensitivity: float = 0.7
    false_alarm: float = 0.1
    source: ReliabilitySource = "assumed"
    wrong: int | None = None
    right: int | None = None

    def __post_init__(self) -> None:
        if not (0.0 < self.false_alarm < self.sensitivity < 1.0):
            raise ValueError(
                "reliability needs 0 < false_alarm < sensitivity < 1, got "
                f"sensitivity {self.sensitivity}, false_alarm {self.false_alarm}"
            )

    @property
    def youden(self) -> float:
        """Youden's J = sensitivity - false alarm (Youden 1950, "Index for rating diagnostic
        tests", Cancer 3(1)): 0 for a label no better than a coin, 1 for a perfect one."""
        return self.sensitivity - self.false_alarm

    def log_likelihood_ratio(self, says_wrong: bool) -> float:
        """The evidence, in log-odds, of the model saying a step is wrong (or right)."""
        if says_wrong:
            return math.log(self.sensitivity / self.false_alarm)
        return math.log((1.0 - self.sensitivity) / (1.0 - self.false_alarm))


def informative(sensitivity: float, false_alarm: float) -> tuple[float, float]:
    """Rates that `Reliability` accepts: a measured model no better than chance (sensitivity
    <= false alarm) becomes one whose label is almost no evidence either way, rates
    `UNINFORMATIVE_GAP` apart around their mean, instead of a start-up error."""
    if false_alarm < sensitivity:
        return sensitivity, false_alarm
    mid = min(max((sensitivity + false_alarm) / 2.0, UNINFORMATIVE_GAP), 1.0 - UNINFORMATIVE_GAP)
    return mid + UNINFORMATIVE_GAP / 2.0, mid - UNINFORMATIVE_GAP / 2.0


def measured(rates: LlmRates) -> Reliability:
    """The decision layer's `Reliability` from measured rates (made informative if the model is
    no better than chance, see `informative`)."""
    sensitivity, false_alarm = informative(rates.sensitivity, rates.false_alarm)
    return Reliability(sensitivity, false_alarm, "measured", rates.wrong, rates.right)


def measured_reliability(calibration: Calibration, model: str) -> dict[str, Reliability]:
    """`model`'s measured reliability per language in `calibration` ({} if never measured)."""
    return {lang: measured(r) for lang, r in calibration.llm_rates.get(model, {}).items()}


RELIABILITY = Reliability()
