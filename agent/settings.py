"""What building a grader takes from the environment (prefix STEPGRADE_): the LLM endpoint and
its limits, the embedding model, the answer check. The service's settings extend these."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from pydantic import Field, SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from agent.llm.config import METHODS, StreamSetting
from scoring.schema import ScoringPolicy, StructuredMethod


def comma_separated(value: object) -> object:
    """An environment variable's `a, b,,c` as ["a", "b", "c"]; other values unchanged."""
    if isinstance(value, str):
        return [item.strip() for item in value.split(",") if item.strip()]
    return value


class GradingSettings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="STEPGRADE_", env_file=".env", extra="ignore")

    llm_base_url: str | None = None
    llm_model: str | None = None
    llm_api_key: SecretStr | None = None
    llm_timeout: float = Field(default=30.0, gt=0)
    llm_max_retries: int = Field(default=2, ge=0)
    llm_budget: float = Field(default=60.0, gt=0)
    llm_methods: Annotated[list[StructuredMethod], NoDecode] = Field(
        default_factory=lambda: list(METHODS), min_length=1
    )
    llm_reason_tokens: int = Field(default=64, gt=0)
    llm_max_tokens: int = Field(default=4096, gt=0)
    llm_stream: StreamSetting = "auto"
    llm_record: Path | None = None
    llm_replay: Path | None = None
    embedding_model: str | None = None
    answer_timeout: float = Field(default=2.0, gt=0)
    # How a step built on an earlier error counts when a request does not say: `stepmath` (no
    # point, StepMathAgent Eq. 1) or `follow_through` (its own credit, error carried forward).
    scoring_policy: ScoringPolicy = "stepmath"
    # The offline judge's evidence model (python -m eval_sets.calibrate writes one) and what a
    # model's step label is worth against it: the share of wrong steps it catches and of right
    # steps it calls wrong. Unset, they come from the calibration's measured section for the
    # configured model (`stepgrade bench calibrate-llm`), else the assumed 0.7 / 0.1; set, they
    # win over any measurement.
    calibration: Path | None = None
    llm_sensitivity: float | None = None
    llm_false_alarm: float | None = None

    @field_validator("llm_methods", mode="before")
    @classmethod
    def _split_methods(cls, value: object) -> object:
        """`STEPGRADE_LLM_METHODS=function_calling,json_schema`: comma-separated, in order."""
        return comma_separated(value)

    @model_validator(mode="after")
    def _one_answer_folder(self) -> GradingSettings:
        record, replay = self.llm_record, self.llm_replay
        if record is not None and replay is not None and record.resolve() != replay.resolve():
            raise ValueError(
                "STEPGRADE_LLM_RECORD and STEPGRADE_LLM_REPLAY name different "
                "folders: set one, or both to the same folder (a cache)"
            )
        return self

    @property
    def llm_configured(self) -> bool:
        """Whether an endpoint and a model are both set, which LLM mode needs."""
        return bool(self.llm_base_url and self.llm_model)
