"""Service and CLI settings from the environment (prefix STEPGRADE_), read once at start-up.

The grading part (LLM endpoint and limits, embedding model, answer check) is
`agent.settings.GradingSettings`; this adds what only the service needs.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import NoDecode

from agent.settings import GradingSettings, comma_separated

OFFLINE_REQUEST_TIMEOUT = 30.0


class Settings(GradingSettings):
    host: str = "127.0.0.1"
    port: int = 8000
    preload_embedding: bool = True
    # None: room for the LLM budget and the offline fallback (LLM configured), else 30 s.
    request_timeout: float | None = Field(default=None, gt=0)
    log_level: str = "info"
    # Service limits and access; see .env.example.
    api_keys: Annotated[list[SecretStr], NoDecode] = Field(default_factory=list)
    max_concurrency: int = 64
    batch_max_items: int = 32
    max_body_bytes: int = 4 * 1024 * 1024
    body_timeout: float = Field(default=10.0, gt=0)  # seconds to receive a request's whole body
    offline_fallback_budget: float = Field(default=8.0, gt=0)
    ready_timeout: float = 2.0
    ready_cache: float = Field(default=30.0, ge=0)
    preload_answer_worker: bool = True
    log_json: bool = True
    workers: int = 1  # `stepgrade serve` processes; each loads its own models
    # The grade store: every grade kept, for the review queue and recalibration.
    store: Literal["on", "off"] = "on"
    database_url: str | None = None  # None: an SQLite file in data_dir
    data_dir: Path = Path("data")
    retention_days: float | None = Field(default=None, gt=0)  # None: keep grades forever

    @field_validator("api_keys", mode="before")
    @classmethod
    def _split_keys(cls, value: object) -> object:
        """`STEPGRADE_API_KEYS=key1,key2`: comma-separated keys, blanks dropped."""
        return comma_separated(value)

    @property
    def store_url(self) -> str | None:
        """The grade store's SQLAlchemy URL, or None when the service keeps nothing."""
        if self.store == "off":
            return None
        if self.database_url:
            return self.database_url
        return f"sqlite:///{(self.data_dir / 'stepgrade.db').resolve()}"

    @property
    def request_seconds(self) -> float:
        """The per-request deadline (`STEPGRADE_REQUEST_TIMEOUT`, or what the budgets need)."""
        if self.request_timeout is not None:
            return self.request_timeout
        if self.llm_configured or self.llm_replay is not None:
            return self.llm_budget + self.offline_fallback_budget
        return OFFLINE_REQUEST_TIMEOUT

    @property
    def fallback_reserve(self) -> float:
        """Seconds of the request kept for the offline grade after the LLM's time ran out."""
        return min(self.offline_fallback_budget, self.request_seconds / 2)

    @property
    def service_llm_budget(self) -> float:
        """The LLM deadline of one request's grade: the LLM budget, cut to leave the fallback
        reserve inside the request deadline."""
        return min(self.llm_budget, self.request_seconds - self.fallback_reserve)
