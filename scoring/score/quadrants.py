"""ReAlign's quadrant taxonomy: a solution's process against its final answer.

A solution whose process scores at least the high-alignment cut (ReAlign's 0.7) and whose answer
is right is robust; a high process with a wrong answer is a hallucination; a right answer after a
low process a lucky guess; neither, a failure.
"""

from __future__ import annotations

from scoring.schema import Quadrant


def quadrant(process: float, answer_correct: bool, threshold: float) -> Quadrant:
    """ReAlign's taxonomy: high process x correct answer -> robust, and so on."""
    if process >= threshold:
        return "robust" if answer_correct else "hallucination"
    return "lucky_guess" if answer_correct else "failure"
