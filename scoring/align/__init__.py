"""ReAlign's alignment of solution steps to reference steps over sentence embeddings."""

from scoring.align.embed import EmbedConfig, Embedder, load_model, similarity_matrix
from scoring.align.realign import AlignConfig, Alignment, align, align_steps

__all__ = [
    "AlignConfig",
    "Alignment",
    "EmbedConfig",
    "Embedder",
    "align",
    "align_steps",
    "load_model",
    "similarity_matrix",
]
