"""Service and CLI settings from the environment (prefix STEPGRADE_), read once at start-up."""

from __future__ import annotations

from pydantic import SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="STEPGRADE_", env_file=".env", extra="ignore")

    host: str = "127.0.0.1"
    port: int = 8000
    llm_base_url: str | None = None
    llm_model: str | None = None
    llm_api_key: SecretStr | None = None
    llm_timeout: float = 60.0
    embedding_model: str | None = None
    preload_embedding: bool = True
    answer_timeout: float = 2.0
    request_timeout: float = 30.0
    log_level: str = "info"

    @property
    def llm_configured(self) -> bool:
        return bool(self.llm_base_url and self.llm_model)
