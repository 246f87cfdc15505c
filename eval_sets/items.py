"""What a loader yields: a GradeRequest to grade and the gold labels to compare it with, or, for
a row it cannot read, a `RowError` that the runner records as a failed item.

One frozen `Gold` type for every data set keeps the runner generic: each loader fills the fields
its data carries and leaves the others `None`.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from scoring.schema import GradeRequest


@dataclass(frozen=True)
class Gold:
    """Gold labels of one item; step indices are 1-based throughout.

    StepMathBench: `score` (0-10), `score_01`, `step_labels` (correct / incorrect / meaningless per
    human step). MR-MATH invalid, ProcessBench, PRM800K: `process_correct`, `first_error` (None when
    no step is wrong), `answer_correct`. MR-MATH redundant: `step_redundant`. PRM800K:
    `step_ratings` (-1/0/+1). Perturbation: `is_perturbed`, `perturbed_step`, `error_type`, `rid`.
    `subset` is what `--subsets` filters on (problem type, error type, MATH subject, ...).
    """

    subset: str | None = None
    score: int | None = None
    score_01: int | None = None
    step_labels: tuple[str, ...] | None = None
    process_correct: bool | None = None
    first_error: int | None = None
    answer_correct: bool | None = None
    step_redundant: tuple[bool, ...] | None = None
    step_ratings: tuple[int, ...] | None = None
    is_perturbed: bool | None = None
    perturbed_step: int | None = None
    error_type: str | None = None
    rid: str | None = None
    level: int | None = None

    def to_json(self) -> dict[str, Any]:
        """The set fields only, for results.jsonl."""
        return {
            k: (list(v) if isinstance(v, tuple) else v)
            for k, v in asdict(self).items()
            if v is not None
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Gold:
        """The gold `to_json` wrote, its lists back as tuples."""
        fields: dict[str, Any] = {
            k: (tuple(v) if isinstance(v, list) else v) for k, v in data.items()
        }
        return cls(**fields)


@dataclass(frozen=True)
class GoldItem:
    """One benchmark item: a stable `id` (the resume key), the request, and its gold labels."""

    id: str
    request: GradeRequest
    gold: Gold

    def to_json(self) -> dict[str, Any]:
        """A plain-JSON form, to send an item to another process (a Ray actor)."""
        return {
            "id": self.id,
            "request": self.request.model_dump(mode="json"),
            "gold": self.gold.to_json(),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GoldItem:
        """The item `to_json` wrote, as a Ray actor receives it."""
        return cls(
            id=data["id"],
            request=GradeRequest.model_validate(data["request"]),
            gold=Gold.from_json(data["gold"]),
        )


@dataclass(frozen=True)
class RowError:
    """A row its loader could not turn into an item (bad JSON, a missing or malformed field).

    One such row must not refuse the whole file: the runner records it as a failed item with
    `reason` (which names the file, the line and the field) and grades the other rows. `key` is
    its stable resume id, `<file name>:<line>`.
    """

    key: str
    reason: str
