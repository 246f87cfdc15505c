"""What one owner's corrections taught about one problem: the solutions a teacher labelled, each
step accepted (the teacher's `correct` or `redundant`) or rejected (`incorrect`, or `meaningless`:
right in itself but built on an error, which humans score 0 all the same).

Built by the store from the latest correction of each corrected grade of the problem; the judge
reads it through `JudgeInput.memory`, and never learns whose it is.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

ACCEPTED_LABELS = frozenset({"correct", "redundant"})


@dataclass(frozen=True)
class RememberedStep:
    """One step of a corrected solution, with the teacher's label."""

    text: str
    label: str

    @property
    def accepted(self) -> bool:
        """The teacher let the step stand."""
        return self.label in ACCEPTED_LABELS


@dataclass(frozen=True)
class RememberedSolution:
    """A corrected solution: its steps as graded, the teacher's labels and note, and the final
    answer read from it (None when its final step was rejected or no answer was read)."""

    source: str  # the corrected grade's id
    steps: tuple[RememberedStep, ...]
    corrected_at: datetime
    answer: str | None = None
    note: str = ""

    @property
    def accepted_whole(self) -> bool:
        """Every step accepted: a complete worked reference."""
        return bool(self.steps) and all(s.accepted for s in self.steps)

    @property
    def accepted_steps(self) -> tuple[RememberedStep, ...]:
        """The steps the teacher accepted."""
        return tuple(s for s in self.steps if s.accepted)

    @property
    def mistakes(self) -> tuple[RememberedStep, ...]:
        """The steps the teacher rejected."""
        return tuple(s for s in self.steps if not s.accepted)


@dataclass(frozen=True)
class ProblemMemory:
    """Every corrected solution of one problem for one owner (oldest correction first)."""

    key: str
    solutions: tuple[RememberedSolution, ...]

    @property
    def accepted_solutions(self) -> tuple[RememberedSolution, ...]:
        """The solutions accepted as a whole: reference paths."""
        return tuple(s for s in self.solutions if s.accepted_whole)

    @property
    def mistakes(self) -> int:
        """How many rejected steps the memory holds."""
        return sum(len(s.mistakes) for s in self.solutions)

    @property
    def answers(self) -> tuple[str, ...]:
        """The final answers of the solutions whose final step the teacher accepted, each once."""
        return tuple(
            dict.fromkeys(
                s.answer for s in self.solutions if s.answer and s.steps and s.steps[-1].accepted
            )
        )

    @property
    def last_corrected(self) -> datetime | None:
        """When the latest correction in the memory was made."""
        return max((s.corrected_at for s in self.solutions), default=None)

    def __bool__(self) -> bool:
        return bool(self.solutions)
