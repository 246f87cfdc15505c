"""Deterministic, pure grading functions: no LLM, no HTTP, no files (docs/architecture.md, 1)."""

from scoring.align import align
from scoring.answer import check_answer, extract_answer, is_equivalent
from scoring.judge import judge_steps
from scoring.score import build_tree, fuse, hcrs_score, score_solution, stepmath_score
from scoring.steps import segment_steps

__all__ = [
    "align",
    "build_tree",
    "check_answer",
    "extract_answer",
    "fuse",
    "hcrs_score",
    "is_equivalent",
    "judge_steps",
    "score_solution",
    "segment_steps",
    "stepmath_score",
]
