"""What the LLM client needs to know, as one frozen (hashable) value built from Settings."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

REPLAY_BASE_URL = "http://cassette.invalid/v1"


@dataclass(frozen=True)
class LlmConfig:
    """An OpenAI-compatible chat endpoint.

    Attributes:
        base_url: e.g. ``https://api.openai.com/v1`` or a local vLLM / LM Studio / Ollama URL.
        model: the model name the endpoint serves.
        api_key: bearer key; local servers accept any string.
        timeout: seconds for every request (connect, read, write, pool).
        max_retries: the ONE retry layer for 408/409/429/5xx and timeouts (the OpenAI SDK's own,
            with backoff and Retry-After); nodes and tenacity add none on top.
        temperature: 0 for reproducible grading.
        record_dir: ``STEPGRADE_LLM_RECORD``: save every answer as a cassette here.
        replay_dir: ``STEPGRADE_LLM_REPLAY``: answer from cassettes here, never the network.
        max_connections: the HTTP connection pool per process (parallel calls beyond it queue).
    """

    base_url: str
    model: str
    api_key: str = "not-needed"
    timeout: float = 60.0
    max_retries: int = 2
    temperature: float = 0.0
    record_dir: Path | None = None
    replay_dir: Path | None = None
    max_connections: int = 256
