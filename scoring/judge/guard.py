"""Containment of a failing check: one input that breaks one check must not break the grade.

A check that raises is dropped where it raised and the grade goes on without its evidence; the
failure is recorded under the check's name, so the report can say which check failed (a warning,
`meta.failed_checks`) instead of scoring silently as if the check had found nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class CheckFailure:
    """One call of a named check that raised; `step` is 1-based when the check was per step,
    `outcome` says what the grade did without it."""

    check: str
    error: str
    step: int | None = None
    outcome: str = "graded without it"


@dataclass
class Guard:
    """Runs named checks for one grade and collects the failures (one guard per grade).

    With `contain=False` a failing check raises as if unguarded (unit tests, direct callers).
    """

    contain: bool = True
    failures: list[CheckFailure] = field(default_factory=list)

    def run(
        self,
        check: str,
        fn: Callable[..., T],
        *args: object,
        default: T,
        step: int | None = None,
        **kwargs: object,
    ) -> T:
        """`fn(*args, **kwargs)`, or `default` (the check found nothing) when it raises."""
        try:
            return fn(*args, **kwargs)
        except Exception as err:  # containment is the point: recorded, not hidden
            if not self.contain:
                raise
            self.failures.append(CheckFailure(check, describe(err), step))
            return default


def failed_names(failures: list[CheckFailure]) -> list[str]:
    """The checks that failed, each once, sorted (stable across runs)."""
    return sorted({f.check for f in failures})


def failure_warnings(failures: list[CheckFailure]) -> list[str]:
    """`check X failed on steps 2, 5 (ValueError: ...); graded without it`, one per check."""
    by_check: dict[str, list[CheckFailure]] = {}
    for failure in failures:
        by_check.setdefault(failure.check, []).append(failure)
    warnings = []
    for check in sorted(by_check):
        group = by_check[check]
        steps = sorted({f.step for f in group if f.step is not None})
        where = f" on step{'s' if len(steps) > 1 else ''} {_spans(steps)}" if steps else ""
        warnings.append(f"check {check} failed{where} ({group[0].error}); {group[0].outcome}")
    return warnings


def _spans(steps: list[int], shown: int = 10) -> str:
    text = ", ".join(str(s) for s in steps[:shown])
    return f"{text} and {len(steps) - shown} more" if len(steps) > shown else text


def describe(err: BaseException, limit: int = 200) -> str:
    """`Type: message`, on one line and short: what a warning shows of an exception."""
    message = str(err).replace("\n", " ")
    if len(message) > limit:
        message = message[:limit] + "..."
    return f"{type(err).__name__}: {message}" if message else type(err).__name__
