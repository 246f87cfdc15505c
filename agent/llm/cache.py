"""Model answers kept on disk (`STEPGRADE_LLM_RECORD`) and replayed (`STEPGRADE_LLM_REPLAY`).

This is LangChain's own answer cache (`BaseCache`, consulted by the chat model before every
call), with one JSON file per answer, written as soon as the answer arrives so that a killed
benchmark run keeps everything it was told. langchain-core ships only an in-memory cache; the
SQLite one lives in langchain-community, whose dependencies (SQLAlchemy, aiohttp, requests,
langchain-classic) outweigh these lines. vcrpy does not fit either: it patches every httpx
transport of the process while a cassette is open and writes the cassette only when it closes.

The key is the messages and the request's parameters (model, temperature, schema or tools,
`max_tokens`), not the endpoint's URL or time-outs: answers recorded against a server replay
without one.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import httpx2
from langchain_core.caches import RETURN_VAL_TYPE, BaseCache
from langchain_core.messages import message_to_dict, messages_from_dict
from langchain_core.outputs import ChatGeneration

from agent.llm.langchain_adapter import replay_key


class AnswerCache(BaseCache):
    """One file per answer under `directory`."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        directory.mkdir(parents=True, exist_ok=True)

    def path(self, prompt: str, llm_string: str) -> Path:
        # `llm_string` lists the request's parameters (model, temperature, schema or tools, the
        # answer's ceiling), not the client's URL or time-outs. What differs between OpenAI's
        # API and the other servers (the ceiling's name, the schema's length bounds) does not
        # change the question, so answers recorded from one replay for the other.
        """The file for one request: a digest of the prompt and the endpoint-neutral parameters."""
        request = replay_key(llm_string)
        digest = hashlib.sha256(f"{prompt}\n{request}".encode()).hexdigest()
        return self.directory / f"{digest[:32]}.json"

    def lookup(self, prompt: str, llm_string: str) -> RETURN_VAL_TYPE | None:
        """The recorded answer for the request, if any (LangChain's cache interface)."""
        file = self.path(prompt, llm_string)
        if not file.is_file():
            return None
        saved = json.loads(file.read_text(encoding="utf-8"))
        return [ChatGeneration(message=m) for m in messages_from_dict(saved["messages"])]

    def update(self, prompt: str, llm_string: str, return_val: RETURN_VAL_TYPE) -> None:
        """Record the answer at once, so that a killed run keeps it."""
        messages = [message_to_dict(g.message) for g in return_val if isinstance(g, ChatGeneration)]
        if not messages:
            return
        file = self.path(prompt, llm_string)
        partial = file.with_suffix(".tmp")
        partial.write_text(json.dumps({"messages": messages}, ensure_ascii=False), encoding="utf-8")
        partial.replace(file)

    def clear(self, **kwargs: Any) -> None:
        """Forget every recorded answer."""
        for file in self.directory.glob("*.json"):
            file.unlink()


def replay_transport(directory: Path) -> httpx2.MockTransport:
    """The network of a replay-only client: every request is one that was never recorded.

    A 400 (not an exception) so that the method negotiation moves on to the next method, which
    may be the one the answers were recorded with.
    """

    def refuse(request: httpx2.Request) -> httpx2.Response:
        message = f"no recorded answer for this request in {directory} (STEPGRADE_LLM_REPLAY)"
        return httpx2.Response(400, json={"error": {"message": message, "type": "replay_miss"}})

    return httpx2.MockTransport(refuse)
