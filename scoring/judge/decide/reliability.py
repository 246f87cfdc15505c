"""A model's step label as one more source of evidence, worth what the model is worth.

A judge that catches a share `sensitivity` of wrong steps and calls a share `false_alarm` of
right steps wrong says "wrong" with likelihood ratio sensitivity / false_alarm and "right" with
(1 - sensitivity) / (1 - false_alarm). The defaults describe a realistic LLM judge (it misses
about 30% of wrong steps and calls about 10% of right ones wrong); a user who measured their
model sets their own.
"""

from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True)
class Reliability:
    sensitivity: float = 0.7
    false_alarm: float = 0.1

    def __post_init__(self) -> None:
        if not (0.0 < self.false_alarm < self.sensitivity < 1.0):
            raise ValueError("reliability needs 0 < false_alarm < sensitivity < 1, got "
                             f"sensitivity {self.sensitivity}, false_alarm {self.false_alarm}")

    def log_likelihood_ratio(self, says_wrong: bool) -> float:
        if says_wrong:
            return math.log(self.sensitivity / self.false_alarm)
        return math.log((1.0 - self.sensitivity) / (1.0 - self.false_alarm))


RELIABILITY = Reliability()
