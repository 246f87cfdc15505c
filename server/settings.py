"""Service and CLI settings from the environment (prefix STEPGRADE_), read once at start-up."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from pydantic import SecretStr, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="STEPGRADE_", env_file=".env", extra="ignore")

    host: str = "127.0.0.1"
    port: int = 8000
    llm_base_url: str | None = None
    llm_model: str | None = None
    llm_api_key: SecretStr | None = None
    llm_timeout: float = 60.0
    llm_max_retries: int = 2
    llm_record: Path | None = None
    llm_replay: Path | None = None
    embedding_model: str | None = None
    # The offline judge's evidence model (python -m eval_sets.calibrate writes one) and what a
    # model's step label is worth against it: the share of wrong steps it catches and of right
    # steps it calls wrong.
    calibration: Path | None = None
    llm_sensitivity: float = 0.7
    llm_false_alarm: float = 0.1
    preload_embedding: bool = True
    answer_timeout: float = 2.0
    request_timeout: float = 30.0
    log_level: str = "info"
    # Service limits and access (issue 5); see .env.example.
    api_keys: Annotated[list[SecretStr], NoDecode] = []
    max_concurrency: int = 64
    batch_max_items: int = 32
    max_body_bytes: int = 4 * 1024 * 1024
    offline_fallback_budget: float = 8.0
    ready_timeout: float = 2.0
    preload_answer_worker: bool = True
    log_json: bool = True
    workers: int = 1  # `stepgrade serve` processes; each loads its own models

    @field_validator("api_keys", mode="before")
    @classmethod
    def _split_keys(cls, value: object) -> object:
        """`STEPGRADE_API_KEYS=key1,key2`: comma-separated keys, blanks dropped."""
        if isinstance(value, str):
            return [k.strip() for k in value.split(",") if k.strip()]
        return value

    @property
    def llm_configured(self) -> bool:
        return bool(self.llm_base_url and self.llm_model)
