"""From a solution's text to its steps, and what kind of solution it is: segmentation, language,
problem type and difficulty."""

from scoring.steps.difficulty import (
    DIFFICULTY_FEATURES,
    DifficultyConfig,
    calibrate_difficulty,
    difficulty_features,
    estimate_difficulty,
)
from scoring.steps.language import detect_language
from scoring.steps.problem_type import detect_problem_type
from scoring.steps.segment import SegmentConfig, cap_steps, segment_steps

__all__ = [
    "DIFFICULTY_FEATURES",
    "DifficultyConfig",
    "SegmentConfig",
    "calibrate_difficulty",
    "cap_steps",
    "detect_language",
    "detect_problem_type",
    "difficulty_features",
    "estimate_difficulty",
    "segment_steps",
]
