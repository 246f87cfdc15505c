"""What the LLM client needs to know, as one frozen (hashable) value built from the settings."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from scoring.schema import StructuredMethod

METHODS: tuple[StructuredMethod, ...] = ("json_schema", "function_calling", "json_mode")
REPLAY_BASE_URL = "http://replay.invalid/v1"
# Servers known to run a non-streamed request on after its client has gone (`Server` header).
STREAM_FOR_SERVERS = ("llama.cpp",)
StreamSetting = bool | Literal["auto"]


@dataclass(frozen=True)
class LlmConfig:
    """An OpenAI-compatible chat endpoint and the limits every call to it runs under.

    Attributes:
        base_url: e.g. ``https://api.openai.com/v1`` or a local vLLM / llama.cpp / Ollama URL.
        model: the model name the endpoint serves.
        api_key: bearer key; local servers accept any string.
        timeout: seconds one HTTP request may take.
        max_retries: retries of one request on 429, 5xx and time-outs (the one retry layer:
            tenacity, jittered exponential back-off, honouring Retry-After; the SDK's are off).
        budget: seconds of LLM time one grade may use in all: its deadline. In-flight requests
            are cancelled there and the grade finishes with the offline twins.
        methods: structured-output methods in the order they are tried; the first one the
            endpoint honours is remembered and tried first from then on.
        reason_tokens: completion tokens allowed per free-text `reason` when sizing `max_tokens`.
        max_tokens: the most completion tokens any one request may ask for.
        temperature: 0 for reproducible grading.
        cache_dir: answers are stored here and answered from here (``STEPGRADE_LLM_RECORD``).
        replay_only: answer from `cache_dir` only, never the network (``STEPGRADE_LLM_REPLAY``).
        max_connections: the HTTP connection pool of one event loop.
        stream: ask for streamed answers (server-sent events, aggregated by LangChain), so that
            a cancelled request stops on the server: llama.cpp's server stops a streamed
            generation at the next token once its client is gone, but may run a non-streamed one
            on to its `max_tokens` (see `agent/llm/client.py`). Streaming costs client CPU per
            answer token (docs/llm.md, "Streaming"), so "auto" (the default) streams only to servers
            that need it: those whose `Server` header names one of `STREAM_FOR_SERVERS`, read
            once per endpoint from `GET /models` before the first request.
    """

    base_url: str
    model: str
    api_key: str = "not-needed"
    timeout: float = 30.0
    max_retries: int = 2
    budget: float = 60.0
    methods: tuple[StructuredMethod, ...] = METHODS
    reason_tokens: int = 64
    max_tokens: int = 4096
    temperature: float = 0.0
    cache_dir: Path | None = None
    replay_only: bool = False
    max_connections: int = 256
    stream: StreamSetting = "auto"
