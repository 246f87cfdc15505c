"""Problem memory (docs/architecture.md 4.12): what teachers' corrections taught about one
problem, as pure values, and how a new solution's steps are matched against it."""

from scoring.judge.memory.key import normalise_problem, problem_key
from scoring.judge.memory.model import ProblemMemory, RememberedSolution, RememberedStep

__all__ = [
    "ProblemMemory",
    "RememberedSolution",
    "RememberedStep",
    "normalise_problem",
    "problem_key",
]
