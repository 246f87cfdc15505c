"""The final answer: where a solution states it, and whether it equals the reference."""

from scoring.answer.compare import check_answer, compare_answers, is_equivalent
from scoring.answer.extract import extract_answer

__all__ = ["check_answer", "compare_answers", "extract_answer", "is_equivalent"]
