"""The judge's decision: findings and a model's label in, step labels out, by one calibrated
model (docs/architecture.md 4.10); it never calls a check."""

from scoring.judge.decide.labels import DecideConfig, Decision, decide
from scoring.judge.decide.posterior import posteriors

__all__ = ["DecideConfig", "Decision", "decide", "posteriors"]
