"""The final answer: where a solution states it, and whether it equals the reference."""

from scoring.answer.compare import (
    AnswerCheck,
    Equivalence,
    check_answer,
    compare_answers,
    is_equivalent,
)
from scoring.answer.extract import extract_answer, find_answer, is_computation
from scoring.answer.readings import READINGS, Reading
from scoring.answer.routes import ROUTES, Routes, RouteStats
from scoring.answer.verdict import answer_verdict, answer_warnings, symbolic_verdict
from scoring.answer.worker import Outcome, default_verifier

__all__ = [
    "READINGS",
    "ROUTES",
    "AnswerCheck",
    "Equivalence",
    "Outcome",
    "Reading",
    "RouteStats",
    "Routes",
    "answer_verdict",
    "answer_warnings",
    "check_answer",
    "compare_answers",
    "default_verifier",
    "extract_answer",
    "find_answer",
    "is_computation",
    "is_equivalent",
    "symbolic_verdict",
]
