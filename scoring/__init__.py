"""Deterministic, pure grading functions: no LLM, no HTTP, no files (DESIGN.md section 1)."""

from scoring.aggregate import score_solution, stepmath_score
from scoring.align import align
from scoring.answer import check_answer, extract_answer, is_equivalent
from scoring.fuse import fuse
from scoring.hcrs import hcrs_score
from scoring.judge import judge_steps
from scoring.segment import segment_steps
from scoring.tree import build_tree

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
