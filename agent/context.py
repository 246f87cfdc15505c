"""Run-scoped dependencies of the graph, read by nodes through `Runtime[Context]`."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from agent.llm.records import LlmRun
from scoring.align import AlignConfig, EmbedConfig, Embedder
from scoring.judge import JudgeConfig
from scoring.score import FuseConfig, UncertaintyModel, uncertainty_of
from scoring.steps import DifficultyConfig

if TYPE_CHECKING:
    from agent.llm.client import LlmClient


@dataclass(frozen=True)
class Context:
    """Configuration of one grading run; `embedder` may be injected (tests, a shared model).

    `llm` is None unless an endpoint is configured: offline grading never builds a client.
    `llm_model` is only reported in `meta.versions`; `chunk_steps` is the most steps judged in
    one `step_judgement` call (longer solutions fan out in parallel parts). `run` belongs to one
    grade (the grader gives each grade its own): the LLM deadline and the record of every
    operation. `uncertainty` is the score interval's statistics: by default (`"calibration"`)
    those fitted with `judge.calibration`, read once when the context is built, so a context
    given another calibration grades with that calibration's interval too; None grades without
    an interval. Read it through `interval_model`. `answer_left_out` names answer readings that
    may not decide a verdict (`scoring.answer.compare`): none in service; the calibration grades
    the development set without the readings written from its own failures
    (`eval_sets.calibrate.labelled.IN_SAMPLE_READINGS`).
    """

    embed: EmbedConfig = field(default_factory=EmbedConfig)
    align: AlignConfig = field(default_factory=AlignConfig)
    judge: JudgeConfig = field(default_factory=JudgeConfig)
    difficulty: DifficultyConfig = field(default_factory=DifficultyConfig)
    fuse: FuseConfig = field(default_factory=FuseConfig)
    embedder: Embedder | None = None
    answer_timeout: float = 2.0
    llm: LlmClient | None = None
    llm_model: str = ""
    chunk_steps: int = 30
    run: LlmRun = field(default_factory=LlmRun)
    uncertainty: UncertaintyModel | None | Literal["calibration"] = "calibration"
    answer_left_out: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        if self.uncertainty == "calibration":
            object.__setattr__(self, "uncertainty", uncertainty_of(self.judge.calibration))

    @property
    def interval_model(self) -> UncertaintyModel | None:
        """The score interval's statistics (`uncertainty`, resolved when the context was built)."""
        return None if isinstance(self.uncertainty, str) else self.uncertainty
