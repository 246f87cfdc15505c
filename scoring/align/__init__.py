"""ReAlign's alignment of solution steps to reference steps over sentence embeddings."""

from scoring.align.embed import similarity_matrix
from scoring.align.realign import align, align_steps

__all__ = ["align", "align_steps", "similarity_matrix"]
