"""The one I/O corner of `scoring/`: the math-verify worker processes (docs/architecture.md 4.7).

Everything else in `scoring/` is a pure function. Equivalence the readings of
`scoring.answer.readings` leave undecided goes to math-verify, which runs in worker processes
(`process`, run as `python -m scoring.answer.worker`) under a CPU budget and a memory cap, so
adversarial answers cannot hang or exhaust the caller; `pool` starts, feeds, restarts and closes
them. `scoring.answer.compare` takes any `Comparer`, so tests can pass a stand-in.
"""

from scoring.answer.worker.pool import (
    WORKER_READINGS,
    AnswerVerifier,
    Comparer,
    Outcome,
    VerifierPool,
    VerifyConfig,
    WorkerReading,
    default_verifier,
    verdict_of,
)

__all__ = [
    "WORKER_READINGS",
    "AnswerVerifier",
    "Comparer",
    "Outcome",
    "VerifierPool",
    "VerifyConfig",
    "WorkerReading",
    "default_verifier",
    "verdict_of",
]
