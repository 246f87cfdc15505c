"""From decided step labels to numbers: Eq. 1, HCRS, the Tree-of-Error, and the report."""

from scoring.score.fuse import fuse
from scoring.score.hcrs import hcrs_score
from scoring.score.stepmath import score_solution, stepmath_score
from scoring.score.tree import build_tree

__all__ = ["build_tree", "fuse", "hcrs_score", "score_solution", "stepmath_score"]
