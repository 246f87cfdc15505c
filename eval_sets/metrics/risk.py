"""How far a grade's own uncertainty can be trusted: interval coverage, selective risk, step ECE.

Shared by the benchmark runner (`eval_sets.runner.risk`) and the interval fit's report
(`eval_sets.calibrate.uncertainty_report`), so that both report the same figures the same way.
- coverage: the share of human scores inside their [lo, hi] interval, and the mean width hi - lo;
- Corr x100 and MAE of the grades kept: selective prediction's risk at a coverage (Geifman &
  El-Yaniv 2017, "Selective classification for deep neural networks", NeurIPS, risk-coverage
  curve);
- expected calibration error over equal-width bins (Naeini, Cooper & Hauskrecht 2015, "Obtaining
  well calibrated probabilities using Bayesian binning", AAAI; Guo et al. 2017, ICML, Eq. 3).

Undefined values (no items, a constant series) are NaN here, since these figures are formatted
with f-strings where NaN prints as "nan".
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from eval_sets.metrics.bootstrap import DRAWS, LEVEL, percentile_range


def coverage_of(intervals: Sequence[tuple[int, int]], humans: Sequence[int]) -> tuple[float, float]:
    """(share of human scores inside their interval, mean width hi - lo)."""
    if not intervals:
        return math.nan, math.nan
    inside = sum(lo <= h <= hi for (lo, hi), h in zip(intervals, humans, strict=True))
    return inside / len(intervals), sum(hi - lo for lo, hi in intervals) / len(intervals)


def corr_mae(pairs: Sequence[tuple[float, float]]) -> tuple[float, float]:
    """Pearson correlation x100 and mean absolute error of (grade, human) pairs; the
    correlation is undefined (nan) below two pairs or for a constant side, the error for none."""
    if not pairs:
        return math.nan, math.nan
    xs, ys = [p[0] for p in pairs], [p[1] for p in pairs]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    sxy = sum((x - mx) * (y - my) for x, y in pairs)
    sxx, syy = sum((x - mx) ** 2 for x in xs), sum((y - my) ** 2 for y in ys)
    corr = 100 * sxy / math.sqrt(sxx * syy) if sxx > 0 and syy > 0 else math.nan
    return corr, sum(abs(x - y) for x, y in pairs) / len(pairs)


ReliabilityRow = tuple[str, int, float, float]


def weighted_ece(triples: Sequence[tuple[float, bool, float]], bins: int = 10) -> float:
    """The expected calibration error of (P(wrong), wrong, weight) triples: each step counts by
    its weight (a solution's, when a set is re-weighted to another mix of problems); NaN for
    no weight."""
    total = sum(w for _, _, w in triples)
    if total <= 0:
        return math.nan
    weight, mass_p, mass_wrong = [0.0] * bins, [0.0] * bins, [0.0] * bins
    for p, wrong, w in triples:
        b = min(int(p * bins), bins - 1)
        weight[b] += w
        mass_p[b] += w * p
        mass_wrong[b] += w * wrong
    return sum(abs(mass_p[b] - mass_wrong[b]) for b in range(bins) if weight[b]) / total


def reliability(
    pairs: Sequence[tuple[float, bool]], bins: int = 10
) -> tuple[float, list[ReliabilityRow]]:
    """Expected calibration error of P(wrong) against wrong/right labels over `bins` equal-width
    bins (1.0 falls in the last), and the table (bin, steps, mean P(wrong), wrong rate) of the
    bins that hold a step. NaN and no rows for no pairs."""
    if not pairs:
        return math.nan, []
    count, total_p, total_wrong = [0] * bins, [0.0] * bins, [0] * bins
    for p, wrong in pairs:
        if not 0.0 <= p <= 1.0:
            raise ValueError(f"a P(wrong) must be in [0, 1], got {p}")
        b = min(int(p * bins), bins - 1)
        if p < b / bins:  # p * bins rounded up across a bin edge
            b -= 1
        elif b + 1 < bins and p >= (b + 1) / bins:
            b += 1
        count[b] += 1
        total_p[b] += p
        total_wrong[b] += wrong
    rows: list[ReliabilityRow] = []
    ece = 0.0
    for b in range(bins):
        if not count[b]:
            continue
        mean_p, rate = total_p[b] / count[b], total_wrong[b] / count[b]
        ece += count[b] / len(pairs) * abs(mean_p - rate)
        rows.append((f"{b / bins:.1f}-{(b + 1) / bins:.1f}", count[b], mean_p, rate))
    return ece, rows


def consistency_ece(
    p_wrong: Sequence[float],
    bins: int = 10,
    *,
    draws: int = DRAWS,
    level: float = LEVEL,
    seed: int = 0,
) -> tuple[float, float, float]:
    """The ECE a perfectly calibrated P(wrong) would read on these steps: each step's label
    drawn wrong with its own probability, `draws` times (consistency resampling: Broecker &
    Smith 2007, "Increasing the reliability of reliability diagrams", Weather and Forecasting
    22, section 4). Returns (median, low, high) of the `level` range. Finite steps in a bin
    make even a calibrated P(wrong) read an ECE above 0; an ECE above this range is
    miscalibration on these steps, not the steps' own noise. The draws are independent per
    step, so the range leaves out how steps of one solution err together: that is the cluster
    bootstrap's part (`eval_sets.metrics.bootstrap`)."""
    if not p_wrong:
        return math.nan, math.nan, math.nan
    rng = random.Random(seed)
    values = sorted(
        reliability([(p, rng.random() < p) for p in p_wrong], bins)[0] for _ in range(draws)
    )
    return values[(draws - 1) // 2], *percentile_range(values, level)


@dataclass(frozen=True)
class RiskPoint:
    """The grades whose interval is at most `width` wide: their share and their MAE."""

    width: int
    kept: int
    coverage: float
    mae: float


def risk_coverage(widths: Sequence[int], errors: Sequence[float]) -> list[RiskPoint]:
    """The risk-coverage curve when grades are kept narrowest interval first.

    One point per distinct width w: every grade of width <= w is kept, so the curve does not
    depend on how grades of equal width would be ordered. `errors` are |score - human|.
    """
    if len(widths) != len(errors):
        raise ValueError(f"widths and errors lengths differ ({len(widths)} vs {len(errors)})")
    points: list[RiskPoint] = []
    for w in sorted(set(widths)):
        kept = [e for width, e in zip(widths, errors, strict=True) if width <= w]
        points.append(RiskPoint(w, len(kept), len(kept) / len(widths), sum(kept) / len(kept)))
    return points
