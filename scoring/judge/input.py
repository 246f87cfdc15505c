"""What the offline judge reads: one solution, its problem, the answer check and the alignment."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scoring.align.realign import Alignment
from scoring.judge.memory.model import ProblemMemory
from scoring.schema import ProblemType
from scoring.verdict import AnswerVerdict


@dataclass(frozen=True)
class JudgeInput:
    """Everything the checks may read, in one value, so a check's signature never changes
    when another check needs more."""

    problem: str
    steps: Sequence[str]
    problem_type: ProblemType
    answer: AnswerVerdict
    alignment: Alignment | None = None
    reference_steps: Sequence[str] = ()
    format_module: bool = False
    problem_similarity: Sequence[float] | None = None
    language: str = "en"
    memory: ProblemMemory | None = None  # what corrections of this problem taught (4.12)
