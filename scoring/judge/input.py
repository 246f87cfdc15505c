"""What the offline judge reads: one solution, its problem, the answer check and the alignment."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scoring.align import Alignment
from scoring.schema import ProblemType
from scoring.verdict import AnswerVerdict


@dataclass(frozen=True)
class JudgeInput:
    problem: str
    steps: Sequence[str]
    problem_type: ProblemType
    answer: AnswerVerdict
    alignment: Alignment | None = None
    reference_steps: Sequence[str] = ()
    format_module: bool = False
    problem_similarity: Sequence[float] | None = None
    language: str = "en"
