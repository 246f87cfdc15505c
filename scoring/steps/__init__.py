"""From a solution's text to its steps, and what kind of solution it is: segmentation, language,
problem type and difficulty."""

from scoring.steps.difficulty import calibrate_difficulty
from scoring.steps.language import detect_language
from scoring.steps.problem_type import detect_problem_type
from scoring.steps.segment import segment_steps

__all__ = ["calibrate_difficulty", "detect_language", "detect_problem_type", "segment_steps"]
