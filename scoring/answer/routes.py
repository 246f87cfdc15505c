"""Answer routes: the readings grouped by how they decide, and each group's measured precision.

An answer verdict is decided by one reading (`scoring.answer.compare`); the readings fall into a
few routes that err alike:

- `exact_value`: the same text, or two numbers (plain, clock times, base-n numerals) or two
  residue classes read exactly and compared by value;
- `rounding`: a decimal that rounds an exact value, numbers within a rounded computation's
  tolerance, or a unit off in the place the problem asks for;
- `units`: any reading applied to the values `restate` read (the answer without its unit or
  variable name, or the answer a sentence states), an angle in degrees against the same
  angle in radians (`angle_units`), and amounts of time or money in other units (`amount`);
- `parts`: lists, tuples, matrices and multi-part answers compared part by part;
- `text`: verdict words, option letters and multiple-select sets of them (`option_set`);
- `math_verify`: math-verify decided, or a reading of its worker equated two formulas it parsed
  (`antiderivative`: two antiderivatives a constant apart; `positive_values`: two formulas that
  agree on the positive reals; `solution_set`: an interval and a condition on one variable that
  are one set of reals; `scoring.answer.worker`).

A route's precision is the share of its verdicts (equal or not) that agreed with human graders,
measured on the fit half of the labelled answer pairs and of the development solutions by
`stepgrade study answer_agreement --write-routes scoring/answer/routes.json ...` and read once
from that file (`scoring.answer.load`). A route measured on fewer than `MIN_CASES` fit verdicts
(the firings a finding kind needs before it may decide) takes `DEFAULT_PRECISION`, a coin toss,
below the threshold on purpose: a route not measured warns (and asks for review), it does not
decide.

A verdict decides step labels only when its route's precision reaches `DECIDE_PRECISION`; below
it the verdict is reported and warns (`scoring.answer.verdict`). The threshold is stricter than
the judge's 0.5 for a finding kind (`eval_sets.calibrate.fit.MIN_PRECISION`): the answer findings
carry the largest weights of the calibration, fitted on all routes pooled, so a route must be
about as reliable as the pool it borrows its weight from; 0.8 keeps the odds of a right verdict
at 4:1 or better, the least a label that moves a whole score should rest on.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, get_args

from scoring.schema import AnswerRoute

ROUTES_FORMAT = 1
ROUTES: tuple[AnswerRoute, ...] = get_args(AnswerRoute)
DECIDE_PRECISION = 0.8
MIN_CASES = 5  # as many as a finding kind needs to decide (eval_sets.calibrate.fit.MIN_FIRES)
DEFAULT_PRECISION = 0.5

ROUTE_OF_READING: dict[str, AnswerRoute] = {
    "same_text": "exact_value",
    "plain_number": "exact_value",
    "clock_time": "exact_value",
    "base_number": "exact_value",
    "congruence": "exact_value",
    "approximation": "rounding",
    "rounded_computation": "rounding",
    "stated_precision": "rounding",
    "matrix": "parts",
    "multi_part": "parts",
    "worded_parts": "parts",
    "yes_no": "text",
    "choice_letter": "text",
    "option_set": "text",
    "angle_units": "units",
    "amount": "units",
    "math_verify": "math_verify",
    "antiderivative": "math_verify",
    "positive_values": "math_verify",
    "solution_set": "math_verify",
}


class RoutesError(ValueError):
    """The route statistics are missing or malformed."""


def route_of(reading: str, restated: bool = False) -> AnswerRoute | None:
    """The route of a reading (module docstring); None for no reading ("", `empty`)."""
    route = ROUTE_OF_READING.get(reading)
    if route is None:
        return None
    return "units" if restated and reading != "same_text" else route


@dataclass(frozen=True)
class RouteStats:
    """One route on the fit half: `cases` verdicts, `agree` of them as the human's."""

    cases: int
    agree: int

    @property
    def precision(self) -> float:
        """The measured precision, or `DEFAULT_PRECISION` below `MIN_CASES` verdicts."""
        return self.agree / self.cases if self.cases >= MIN_CASES else DEFAULT_PRECISION


@dataclass(frozen=True)
class Routes:
    """The measured routes, as written by `eval_sets.studies.answer_agreement --write-routes`."""

    stats: dict[AnswerRoute, RouteStats]
    meta: dict[str, Any]

    def precision(self, route: AnswerRoute | None) -> float | None:
        """The route's precision; None for no route, the default for a route not measured."""
        if route is None:
            return None
        stats = self.stats.get(route)
        return DEFAULT_PRECISION if stats is None else round(stats.precision, 4)

    def decides(self, route: AnswerRoute | None) -> bool:
        """Whether a verdict of this route may decide a step label (module docstring)."""
        precision = self.precision(route)
        return precision is None or precision >= DECIDE_PRECISION

    def to_json(self) -> dict[str, Any]:
        """The measured precisions as the JSON that `from_json` reads back."""
        return {
            "format": ROUTES_FORMAT,
            "decide_precision": DECIDE_PRECISION,
            "min_cases": MIN_CASES,
            "default_precision": DEFAULT_PRECISION,
            "routes": {
                r: {"cases": s.cases, "agree": s.agree, "precision": round(s.precision, 4)}
                for r, s in self.stats.items()
            },
            "meta": self.meta,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Routes:
        """Precisions from JSON; a foreign format or an unknown route raises RoutesError."""
        try:
            if data.get("format") != ROUTES_FORMAT:
                raise RoutesError(f"routes format {data.get('format')!r} is not {ROUTES_FORMAT}")
            stats: dict[AnswerRoute, RouteStats] = {}
            for name, row in data["routes"].items():
                if name not in ROUTES:
                    raise RoutesError(f"unknown route {name!r}; known: {list(ROUTES)}")
                cases, agree = int(row["cases"]), int(row["agree"])
                if not 0 <= agree <= cases:
                    raise RoutesError(f"route {name}: agree {agree} outside 0..{cases}")
                stats[name] = RouteStats(cases, agree)
            return cls(stats, dict(data.get("meta", {})))
        except RoutesError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError) as err:
            raise RoutesError(f"route statistics are malformed: {err!r}") from None
