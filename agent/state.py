"""The graph's typed state: a narrow input (the request) and the working state the nodes fill."""

from __future__ import annotations

import operator
from typing import Annotated, Literal, TypedDict

from scoring.align import Alignment
from scoring.schema import GradeReport, GradeRequest, ProblemType
from scoring.tree import TreeResult
from scoring.verdict import AnswerVerdict, DifficultyVerdict, StepVerdict


def merge_dicts(left: dict[str, float], right: dict[str, float]) -> dict[str, float]:
    """Reducer for per-node timings written by parallel branches."""
    return {**left, **right}


class InputState(TypedDict):
    request: GradeRequest


class GradeState(InputState, total=False):
    language: str
    problem_type: ProblemType
    answer: AnswerVerdict
    steps: list[str]
    difficulty: DifficultyVerdict | None
    alignment: Alignment | None
    verdicts: list[StepVerdict]
    judged_by: Literal["offline", "llm"]
    tree: TreeResult
    report: GradeReport
    warnings: Annotated[list[str], operator.add]
    node_ms: Annotated[dict[str, float], merge_dicts]


class OutputState(TypedDict):
    report: GradeReport
    node_ms: dict[str, float]
