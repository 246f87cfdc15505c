"""Run-scoped dependencies of the graph, read by nodes through `Runtime[Context]`."""

from __future__ import annotations

from dataclasses import dataclass, field

from scoring.align import AlignConfig
from scoring.difficulty import DifficultyConfig
from scoring.embed import EmbedConfig, Embedder
from scoring.fuse import FuseConfig
from scoring.judge import JudgeConfig

PROMPT_SET_VERSION = "offline-1"


@dataclass(frozen=True)
class Context:
    """Configuration of one grading run; `embedder` may be injected (tests, a shared model)."""

    embed: EmbedConfig = field(default_factory=EmbedConfig)
    align: AlignConfig = field(default_factory=AlignConfig)
    judge: JudgeConfig = field(default_factory=JudgeConfig)
    difficulty: DifficultyConfig = field(default_factory=DifficultyConfig)
    fuse: FuseConfig = field(default_factory=FuseConfig)
    embedder: Embedder | None = None
    answer_timeout: float = 2.0
