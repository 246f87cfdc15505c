"""The graph's typed state: a narrow input (the request) and the working state the nodes fill."""

from __future__ import annotations

import operator
from typing import Annotated, Literal, NamedTuple, NotRequired, TypedDict

from scoring.align import Alignment
from scoring.judge import AddressedPiece, CheckFailure, Evidence, ProblemMemory
from scoring.schema import GradeReport, GradeRequest, ProblemType
from scoring.score import TreeResult
from scoring.verdict import AnswerVerdict, DifficultyVerdict, FirstErrorGuess, StepVerdict


def merge_dicts(left: dict[str, float], right: dict[str, float]) -> dict[str, float]:
    """Reducer for per-node timings written by parallel branches."""
    return {**left, **right}


class ChunkVerdicts(NamedTuple):
    """Verdicts for steps `first`..`first + len(verdicts) - 1` (1-based), from one chunk call."""

    first: int
    verdicts: list[StepVerdict | None]
    by_llm: bool


class InputState(TypedDict):
    request: GradeRequest
    # this owner's memory of the problem (docs/architecture.md 4.12), looked up by the caller
    memory: NotRequired[ProblemMemory | None]


class GradeState(InputState, total=False):
    """Filled once, read by every node that needs it: `prepare` decides `use_llm` and the
    `reference_steps`, and cuts the text addressed to the grader out of the request (`request`
    is then the solution as graded, `addressed` the pieces cut, `graded_text` the solution's
    text as graded); `calibrate_difficulty` decides `evaluate_process` (False for a problem
    the difficulty module rates simple: no step judging, the answer alone scores)."""

    use_llm: bool
    addressed: tuple[AddressedPiece, ...]
    graded_text: str
    language: str
    problem_type: ProblemType
    answer: AnswerVerdict
    reference_steps: list[str]
    steps: list[str]
    difficulty: DifficultyVerdict | None
    evaluate_process: bool
    alignment: Alignment | None
    problem_similarity: list[float] | None
    verdicts: list[StepVerdict]
    first_error: FirstErrorGuess | None  # the most likely first error, a best guess
    llm_verdicts: list[StepVerdict] | None
    evidence: Evidence
    chunks: Annotated[list[ChunkVerdicts], operator.add]
    judged_by: Literal["offline", "llm"]
    tree: TreeResult
    report: GradeReport
    warnings: Annotated[list[str], operator.add]
    node_ms: Annotated[dict[str, float], merge_dicts]
    degraded: Annotated[bool, operator.or_]
    check_failures: Annotated[
        list[CheckFailure], operator.add
    ]  # contained failures (`scoring.judge.guard`)


class OutputState(TypedDict):
    report: GradeReport
    node_ms: dict[str, float]


class ChunkState(TypedDict):
    """What `score_chunk` receives through `Send`: the working state and its span of steps."""

    state: GradeState
    span: tuple[int, int]
