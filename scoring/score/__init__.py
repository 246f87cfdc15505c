"""From decided step labels to numbers: Eq. 1, HCRS, the Tree-of-Error, and the report."""

from scoring.score.addressed import NOT_MATH, splice_addressed
from scoring.score.features import GradeFeatures, ModelReliability, features_of
from scoring.score.fuse import FuseConfig, GradeInputs, fuse
from scoring.score.hcrs import HcrsConfig, fit_hazard, hcrs_score
from scoring.score.interval import (
    CELL_NAMES,
    FALLBACK,
    SECTION,
    UNCERTAINTY_FORMAT,
    Cell,
    CellName,
    UncertaintyError,
    UncertaintyModel,
    cell_of,
    finish_interval,
    integer_interval,
    uncertainty_of,
)
from scoring.score.stepmath import expected_score, parse_human_label, score_solution, stepmath_score
from scoring.score.tree import TreeResult, build_tree
from scoring.score.uncertainty import Review, assess

__all__ = [
    "CELL_NAMES",
    "FALLBACK",
    "NOT_MATH",
    "SECTION",
    "UNCERTAINTY_FORMAT",
    "Cell",
    "CellName",
    "FuseConfig",
    "GradeFeatures",
    "GradeInputs",
    "HcrsConfig",
    "ModelReliability",
    "Review",
    "TreeResult",
    "UncertaintyError",
    "UncertaintyModel",
    "assess",
    "build_tree",
    "cell_of",
    "expected_score",
    "features_of",
    "finish_interval",
    "fit_hazard",
    "fuse",
    "hcrs_score",
    "integer_interval",
    "parse_human_label",
    "score_solution",
    "splice_addressed",
    "stepmath_score",
    "uncertainty_of",
]
