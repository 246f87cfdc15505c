"""The measured worth of every kind of evidence, read from the calibration file.

`eval_sets.calibrate` writes `calibration.json` (statistics only: counts, precisions, likelihood
ratios, fitted log-odds weights and thresholds; no data rows) from labelled development sets.
There is one step model per language, because the labelled sets of each language were labelled
in their own way; a language without a model of its own uses the default one. Each model carries
a post-hoc recalibration of its reported probability (`Platt`): one map per problem type, or the
language's one map for every type when that keeps held-out steps better calibrated. The judge
reads the file once per process (`scoring.judge.load`, the one module here that reads it).

The file may hold top-level sections this module does not read (the uncertainty statistics, a
model's measured reliability): they are kept in `Calibration.sections`, so that one file,
swapped by `STEPGRADE_CALIBRATION`, carries everything fitted together.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from typing import Any, Literal, cast, get_args

from scoring.judge.findings import FINDING_KINDS, MEMORY_KINDS, FindingKind

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
DecisionRule = Literal["threshold", "expected"]
# The recalibration key of a language's own map, for a problem type without enough steps.
ANY_TYPE = "any"
# The prefixes of a recalibration key for steps in one state (`state:fails`) and for the steps
# of one group of grades (`group:answer_wrong`, `scoring.judge.decide.features.grade_group`).
STATE_KEY = "state:"
GROUP_KEY = "group:"


def recalibration_keys(
    problem_type: str, state: str | None = None, group: str | None = None
) -> list[str]:
    """The maps a step may read, the most specific first (`StepModel.recalibrated`)."""
    keys = []
    if group and state:
        keys.append(f"{GROUP_KEY}{group}|{STATE_KEY}{state}")
    if group:
        keys.append(f"{GROUP_KEY}{group}")
    if state:
        keys.append(f"{STATE_KEY}{state}")
    return [*keys, problem_type, ANY_TYPE]


# Top-level keys of the file that `Calibration` itself reads; any other is a kept section.
OWN_KEYS = frozenset({"version", "models", "kinds", "meta"})


@dataclass(frozen=True)
class Platt:
    """A post-hoc recalibration of a step's log-odds: `slope * log_odds + intercept`.

    Platt scaling (Platt 1999, "Probabilistic outputs for support vector machines", Eq. 1),
    fitted on out-of-fold log-odds of the fit half so that it corrects what the step model
    gets wrong on steps it was not fit on (it is over-confident, and its share of wrong steps
    per problem type drifts). A positive slope keeps the order of the steps, so rankings
    (AUC) and the labels, which read the raw posterior, do not move.
    """

    slope: float = 1.0
    intercept: float = 0.0
    steps: int = 0  # labelled steps it was fitted on

    def __post_init__(self) -> None:
        if not (math.isfinite(self.slope) and math.isfinite(self.intercept)) or self.slope <= 0:
            raise CalibrationError(f"a recalibration needs a finite slope > 0, got {self.slope}")

    def __call__(self, log_odds: float) -> float:
        """The recalibrated log-odds."""
        return self.slope * log_odds + self.intercept


@dataclass(frozen=True)
class StepModel:
    """Log-odds weights of P(step wrong) by feature name, the label threshold on it, and how
    offline labels are decided."""

    weights: dict[str, float]
    threshold: float
    # (low, high) of a continuous feature on the data the weights were fit on: a value outside
    # is read as the nearest end, never extrapolated.
    ranges: dict[str, tuple[float, float]] = field(default_factory=dict)
    decision: DecisionRule = "threshold"
    lenience: float = 0.0  # points, for the "expected" decision
    # Post-hoc recalibration of the reported P(wrong) by problem type (`ANY_TYPE`: the
    # language's own, for a type without a map); none: the log-odds as they are.
    recalibration: dict[str, Platt] = field(default_factory=dict)
    # P(the final answer is right) among the calculations with a verdict this language's model
    # was fit on, set when it saw too few graded without a reference to fit their prior: such a
    # calculation then reads the mixture over the verdict (`decide.posterior`).
    verdict_prior: float | None = None
    # Weights of the offline difficulty estimate (`scoring.steps.difficulty`), a feature of the
    # prior; none: the feature is left out.
    difficulty: dict[str, float] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not 0.0 < self.threshold < 1.0:
            raise CalibrationError(f"threshold must be in (0, 1), got {self.threshold}")
        if not all(math.isfinite(w) for w in (*self.weights.values(), *self.difficulty.values())):
            raise CalibrationError("weights must be finite")
        if not all(
            math.isfinite(a) and math.isfinite(b) and a <= b for a, b in self.ranges.values()
        ):
            raise CalibrationError("ranges must be finite (low, high) pairs")
        if self.verdict_prior is not None and not 0.0 < self.verdict_prior < 1.0:
            raise CalibrationError(f"verdict_prior must be in (0, 1), got {self.verdict_prior}")
        if not 0.0 <= self.lenience <= 10.0:
            raise CalibrationError(f"lenience must be in [0, 10] points, got {self.lenience}")
        if self.decision not in get_args(DecisionRule):
            raise CalibrationError(
                f"decision must be one of {get_args(DecisionRule)}, got {self.decision!r}"
            )

    def log_odds(self, features: dict[str, float]) -> float:
        """The step's log-odds of being wrong; features are clipped to their measured range,
        so a value never seen in calibration cannot dominate."""
        total = 0.0
        for name, value in features.items():
            if name in self.ranges:
                low, high = self.ranges[name]
                value = min(max(value, low), high)
            total += self.weights.get(name, 0.0) * value
        return total

    def recalibrated(
        self, log_odds: float, problem_type: str, state: str | None = None, group: str | None = None
    ) -> float:
        """The reported log-odds through the most specific map there is: the grade group's
        for steps in this state (`group:<group>|state:<state>`), the group's (`group:<group>`),
        the state's (`state:<state>`: what the checks established), the problem type's, the
        language's (`any`); else as is."""
        for key in recalibration_keys(problem_type, state, group):
            if (platt := self.recalibration.get(key)) is not None:
                return platt(log_odds)
        return log_odds


# The calibration file's section of measured LLM reliabilities: model name -> language -> rates.
LLM_SECTION = "llm_reliability"
# The section of the kinds read against a problem's memory, measured by the memory benchmark
# (`stepgrade study memory_sim --fit`) on solutions of corrected problems.
MEMORY_SECTION = "memory"


def _memory_kinds(data: dict[str, Any]) -> dict[FindingKind, KindStats]:
    section = data.get(MEMORY_SECTION) or {}
    return {k: KindStats(**v) for k, v in (section.get("kinds") or {}).items() if k in MEMORY_KINDS}


@dataclass(frozen=True)
class LlmRates:
    """A model's step labels against human ones in one language, as `stepgrade bench
    calibrate-llm` measured them on the fit half of a labelled set.

    `caught` of `wrong` human-wrong steps the model labelled incorrect; `alarms` of `right`
    human-right steps it labelled incorrect. The rates are Jeffreys-smoothed, (k + 1/2) / (n + 1)
    (the posterior mean under a Beta(1/2, 1/2) prior; Brown, Cai & DasGupta 2001, "Interval
    estimation for a binomial proportion", Statistical Science 16(2)), so that no count, not
    even 0 of 0, gives a rate of exactly 0 or 1, which would make one label infinite evidence.
    The intervals are 95% Wilson score intervals of the raw counts (Wilson 1927, JASA 22).
    """

    wrong: int
    caught: int
    right: int
    alarms: int
    sensitivity: float
    false_alarm: float
    sensitivity_interval: tuple[float, float] = (0.0, 1.0)
    false_alarm_interval: tuple[float, float] = (0.0, 1.0)
    source: str = ""  # the data set, half and items it was measured on

    def __post_init__(self) -> None:
        if not (0 <= self.caught <= self.wrong and 0 <= self.alarms <= self.right):
            raise CalibrationError(
                f"LLM reliability counts are inconsistent: caught "
                f"{self.caught} of {self.wrong}, alarms {self.alarms} of "
                f"{self.right}"
            )
        if not (0.0 < self.sensitivity < 1.0 and 0.0 < self.false_alarm < 1.0):
            raise CalibrationError(
                "LLM reliability rates must be in (0, 1) (smoothed), got "
                f"{self.sensitivity}, {self.false_alarm}"
            )


def _llm_rates(data: dict[str, Any]) -> dict[str, dict[str, LlmRates]]:
    section = data.get(LLM_SECTION) or {}
    return {
        str(model): {
            str(lang): LlmRates(
                int(r["wrong"]),
                int(r["caught"]),
                int(r["right"]),
                int(r["alarms"]),
                float(r["sensitivity"]),
                float(r["false_alarm"]),
                cast(
                    tuple[float, float],
                    tuple(map(float, r.get("sensitivity_interval", (0.0, 1.0)))),
                ),
                cast(
                    tuple[float, float],
                    tuple(map(float, r.get("false_alarm_interval", (0.0, 1.0)))),
                ),
                str(r.get("source", "")),
            )
            for lang, r in by_language.items()
        }
        for model, by_language in section.items()
    }


@dataclass(frozen=True)
class Calibration:
    """The measured weights, per language, and the statistics of each finding kind: what the
    decision reads instead of constants written into the checks."""

    version: str
    models: dict[str, StepModel]
    kinds: dict[FindingKind, KindStats] = field(default_factory=dict)
    meta: dict[str, Any] = field(default_factory=dict, compare=False)
    # Top-level sections fitted elsewhere (e.g. "uncertainty"), kept as read and written back.
    sections: dict[str, Any] = field(default_factory=dict, compare=False)
    # model name -> language -> measured rates (`stepgrade bench calibrate-llm`)
    llm_rates: dict[str, dict[str, LlmRates]] = field(default_factory=dict, compare=False)
    # the memory kinds' statistics, read from their own section (which stays in `sections`)
    memory_kinds: dict[FindingKind, KindStats] = field(default_factory=dict, compare=False)

    def __hash__(self) -> int:
        return hash(self.version)

    def model(self, language: str) -> StepModel:
        """The model for `language`, or the default one for a language never calibrated."""
        return self.models.get(language) or self.models[DEFAULT_LANGUAGE]

    def stats(self, kind: FindingKind) -> KindStats | None:
        """What was measured of `kind`: a memory kind in its own section, any other in `kinds`."""
        return self.memory_kinds.get(kind) if kind in MEMORY_KINDS else self.kinds.get(kind)

    def decisive(self, kind: FindingKind) -> bool:
        """Whether findings of `kind` may change a label, or only warn."""
        stats = self.stats(kind)
        return stats is not None and stats.decisive

    def section(self, name: str) -> Any:
        """A kept top-level section of the file (None when the file has none by that name)."""
        return self.sections.get(name)

    def to_json(self) -> dict[str, Any]:
        """The calibration as the JSON file `from_json` reads back (kept sections included)."""
        out = {
            **self.sections,
            "version": self.version,
            "models": {lang: asdict(m) for lang, m in self.models.items()},
            "kinds": {k: asdict(s) for k, s in self.kinds.items()},
            "meta": self.meta,
        }
        if self.llm_rates:
            out[LLM_SECTION] = {
                model: {lang: asdict(r) for lang, r in by.items()}
                for model, by in self.llm_rates.items()
            }
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Calibration:
        """Read a calibration file; a malformed one is a `CalibrationError`, not a crash later."""
        try:
            models = {
                str(lang): StepModel(
                    {str(k): float(v) for k, v in m["weights"].items()},
                    float(m["threshold"]),
                    {str(k): (float(a), float(b)) for k, (a, b) in m.get("ranges", {}).items()},
                    cast(DecisionRule, str(m.get("decision", "threshold"))),
                    float(m.get("lenience", 0.0)),
                    {
                        str(t): Platt(
                            float(c["slope"]), float(c["intercept"]), int(c.get("steps", 0))
                        )
                        for t, c in m.get("recalibration", {}).items()
                    },
                    None if m.get("verdict_prior") is None else float(m["verdict_prior"]),
                    {str(k): float(v) for k, v in m.get("difficulty", {}).items()},
                )
                for lang, m in data["models"].items()
            }
            kinds = {k: KindStats(**v) for k, v in data["kinds"].items() if k in FINDING_KINDS}
            llm_rates = _llm_rates(data)
            memory_kinds = _memory_kinds(data)
        except (KeyError, TypeError, ValueError, AttributeError) as err:
            raise CalibrationError(f"calibration data is malformed: {err}") from None
        if DEFAULT_LANGUAGE not in models:
            raise CalibrationError(f"calibration needs a model for {DEFAULT_LANGUAGE!r}")
        sections = {str(k): v for k, v in data.items() if k not in OWN_KEYS | {LLM_SECTION}}
        return cls(
            str(data.get("version", "")),
            models,
            kinds,
            dict(data.get("meta", {})),
            sections,
            llm_rates,
            memory_kinds,
        )
