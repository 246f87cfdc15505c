"""Hazard-aware chain score (HCRS, ReasoningMath-Plus), as reconstructed in docs/architecture.md 4.8.

The paper's exact formulas are not public; this is our documented reconstruction, with every
constant in `HcrsConfig` so a user can change it: early first errors cost more than late ones,
a solution much shorter or longer than the gold skeleton pays a format penalty.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

# First-error hazard h(k), k = 1..12, fitted on StepMathBench's human step labels (docs/architecture.md 4.8).
DEFAULT_HAZARD: tuple[float, ...] = (
    0.108,
    0.139,
    0.124,
    0.121,
    0.123,
    0.090,
    0.062,
    0.073,
    0.099,
    0.098,
    0.000,
    0.050,
)


@dataclass(frozen=True)
class HcrsConfig:
    """Constants of the reconstruction; the defaults are docs/architecture.md 4.8's."""

    alpha: float = 4.0
    eta: float = 1.5
    omega: float = 5.0
    c_haz: float = 5.0
    process_weight: float = 0.7
    lucky_guess_max: float = 3.0
    hazard: tuple[float, ...] = DEFAULT_HAZARD


@dataclass(frozen=True)
class HcrsScore:
    """The HCRS score with its parts, so the report can show why it is what it is."""

    score: float
    base: float
    format_penalty: float
    hazard_penalty: float
    first_error: int | None


def format_penalty(n_steps: int, skeleton_len: int | None, config: HcrsConfig) -> float:
    """P_fmt = min(α, α·κ·|N-L|/max(N,L)); κ = η when the solution is shorter than the skeleton."""
    if not skeleton_len or n_steps == 0:
        return 0.0
    kappa = config.eta if n_steps < skeleton_len else 1.0
    ratio = abs(n_steps - skeleton_len) / max(n_steps, skeleton_len)
    return min(config.alpha, config.alpha * kappa * ratio)


def cumulative_hazard(t: int, hazard: Sequence[float]) -> float:
    """H(t) = Σ_{k<=t} h(k); steps past the table add nothing."""
    return float(sum(hazard[: max(t, 0)]))


def hazard_penalty(first_error: int | None, config: HcrsConfig) -> float:
    """P_haz = min(C_haz, ω·(1 - H(t*-1)/H_max)): an error at step 1 costs ω, a late one little."""
    if first_error is None:
        return 0.0
    h_max = cumulative_hazard(len(config.hazard), config.hazard)
    if h_max <= 0:
        return min(config.c_haz, config.omega)
    survived = cumulative_hazard(first_error - 1, config.hazard) / h_max
    return min(config.c_haz, config.omega * (1.0 - survived))


def base_score(points: Sequence[float]) -> float:
    """base = 10·Σy_i/N (0 for no steps): HCRS before its penalties."""
    return 10.0 * sum(points) / len(points) if points else 0.0


def hcrs_score(
    points: Sequence[float],
    first_error: int | None,
    skeleton_len: int | None = None,
    config: HcrsConfig = HcrsConfig(),
) -> HcrsScore:
    """S_HCRS = clip(base - P_fmt - P_haz, 0, 10) with base = 10·Σy_i/N.

    Args:
        points: y_i in {0, 1} per step.
        first_error: t*, the 1-based index of the first incorrect step, or None.
        skeleton_len: L, the gold skeleton's length (None: no format penalty).
        config: the constants.
    """
    n = len(points)
    base = base_score(points)
    p_fmt = format_penalty(n, skeleton_len, config)
    p_haz = hazard_penalty(first_error, config)
    score = min(10.0, max(0.0, base - p_fmt - p_haz))
    return HcrsScore(score, base, p_fmt, p_haz, first_error)


def holistic_score(
    hcrs: float, answer_correct: bool | None, config: HcrsConfig = HcrsConfig()
) -> float:
    """holistic = 0.7·S_HCRS + 0.3·10·[answer correct]."""
    w = config.process_weight
    return w * hcrs + (1.0 - w) * 10.0 * float(bool(answer_correct))


def is_lucky_guess(
    hcrs: float, answer_correct: bool | None, config: HcrsConfig = HcrsConfig()
) -> bool:
    """A right answer reached by a broken process: S_HCRS <= 3 and the answer correct."""
    return bool(answer_correct) and hcrs <= config.lucky_guess_max


def fit_hazard(
    first_errors: Sequence[tuple[int, int | None]], max_step: int = 12
) -> tuple[float, ...]:
    """Refit the discrete first-error hazard from labelled solutions.

    h(k) = (solutions whose first error is at step k) / (solutions still error-free entering
    step k, i.e. with at least k steps and no error before k).

    Args:
        first_errors: per solution, (number of steps, 1-based first error step or None).
        max_step: how many steps to tabulate.
    """
    table = []
    for k in range(1, max_step + 1):
        at_risk = sum(1 for n, t in first_errors if n >= k and (t is None or t >= k))
        failed = sum(1 for _, t in first_errors if t == k)
        table.append(round(failed / at_risk, 3) if at_risk else 0.0)
    return tuple(table)
