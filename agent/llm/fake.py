"""An in-process chat model that answers from a script: `make_chat_model`'s double for tests.

`ScriptedChatModel` is a `BaseChatOpenAI` whose generation never leaves the process: LangChain's
`with_structured_output` binds it exactly as it binds the real model (a `response_format` for
json_schema and JSON mode, a forced tool for function_calling), and each call takes the next
reply of a shared `ChatScript`, shaped the way the bound method reads it. The grader's parsing,
negotiation, records and fallbacks run unchanged above it; only the HTTP transport is absent, so
tests of the transport itself (time-outs, retries, streaming, what reaches the wire) stay on
respx or the 127.0.0.1 fake server (`eval_sets/fakes/openai_server.py`).
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from langchain_core.callbacks import AsyncCallbackManagerForLLMRun, CallbackManagerForLLMRun
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_openai.chat_models.base import BaseChatOpenAI

from agent.llm.client import LlmClient
from agent.llm.config import LlmConfig
from scoring.schema import StructuredMethod

# A reply: a JSON object (sent as the method expects it), or raw text (sent as it is, to show
# how the grader takes a reply that is not the JSON asked for).
Reply = Mapping[str, Any] | str
# (operation, prompt) -> the reply (None: none known), for scripts that answer by what was asked.
Responder = Callable[[str, str], Reply | None]

_NAMED_SCHEMA = re.compile(r"JSON schema named '(\w+)'")
_TOKEN = re.compile(r"\w+|[^\w\s]")


class NoReply(RuntimeError):
    """A call the script has no reply for (past its last reply, or one its responder does not
    know): raised by the model, so that a grade degrades naming it in its warnings."""


@dataclass(frozen=True)
class ScriptedCall:
    """One call the model received: what was asked, by which method, and the prompt."""

    operation: str
    method: StructuredMethod
    prompt: str
    max_tokens: int | None


@dataclass
class ChatScript:
    """The replies, in the order calls take them (or a responder), and the calls received.

    Shared by the models of every event loop a client runs on, so the order holds across loops.
    """

    replies: list[Reply] | Responder
    calls: list[ScriptedCall] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def take(self, call: ScriptedCall) -> Reply:
        """Record `call` and return its reply."""
        with self._lock:
            self.calls.append(call)
            if not callable(self.replies):
                if len(self.calls) > len(self.replies):
                    raise NoReply(
                        f"call {len(self.calls)} ({call.operation}) has no reply: "
                        f"the script holds {len(self.replies)}"
                    )
                return self.replies[len(self.calls) - 1]
        reply = self.replies(call.operation, call.prompt)  # outside the lock: it may be slow
        if reply is None:
            raise NoReply(f"the responder has no reply for {call.operation}")
        return reply


def requested(kwargs: Mapping[str, Any], prompt: str) -> tuple[str, StructuredMethod]:
    """The operation and method a structured call was bound with (its `response_format` or
    forced tool; JSON mode names its schema in the prompt)."""
    fmt = kwargs.get("response_format") or {}
    if isinstance(fmt, Mapping) and fmt.get("type") == "json_schema":
        return str(fmt["json_schema"]["name"]), "json_schema"
    tools = kwargs.get("tools") or []
    if tools:
        return str(tools[0]["function"]["name"]), "function_calling"
    match = _NAMED_SCHEMA.search(prompt)
    return (match.group(1) if match else "unknown"), "json_mode"


def _prompt(messages: Iterable[BaseMessage]) -> str:
    return "\n".join(
        m.content if isinstance(m.content, str) else json.dumps(m.content) for m in messages
    )


def _tokens(text: str) -> int:
    return len(_TOKEN.findall(text))


def answer_message(
    reply: Reply, operation: str, method: StructuredMethod, prompt_tokens: int
) -> AIMessage:
    """`reply` as the chat-completions API would return it for `method`: a tool call's
    arguments for function_calling, the message's content otherwise, with token counts."""
    text = reply if isinstance(reply, str) else json.dumps(reply, ensure_ascii=False)
    used = _tokens(text)
    usage = {
        "input_tokens": prompt_tokens,
        "output_tokens": used,
        "total_tokens": prompt_tokens + used,
    }
    if method != "function_calling":
        return AIMessage(
            content=text, usage_metadata=usage, response_metadata={"finish_reason": "stop"}
        )
    try:
        args = json.loads(text)
    except json.JSONDecodeError:
        args = None
    if isinstance(args, dict):
        calls: dict[str, Any] = {
            "tool_calls": [{"name": operation, "args": args, "id": "call_1", "type": "tool_call"}]
        }
    else:
        calls = {
            "invalid_tool_calls": [
                {
                    "name": operation,
                    "args": text,
                    "id": "call_1",
                    "error": None,
                    "type": "invalid_tool_call",
                }
            ]
        }
    return AIMessage(
        content="", usage_metadata=usage, response_metadata={"finish_reason": "tool_calls"}, **calls
    )


class ScriptedChatModel(BaseChatOpenAI):
    """A chat model on the chat-completions API's shape that answers from `script`, in process."""

    script: Any  # a ChatScript (pydantic field: the model is a pydantic object)
    disable_streaming: bool = True  # `astream` answers whole, from `_agenerate`

    @property
    def _llm_type(self) -> str:
        return "scripted-chat"

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        prompt = _prompt(messages)
        operation, method = requested(kwargs, prompt)
        limit = kwargs.get("max_tokens", kwargs.get("max_completion_tokens"))
        reply = self.script.take(ScriptedCall(operation, method, prompt, limit))
        return ChatResult(
            generations=[
                ChatGeneration(message=answer_message(reply, operation, method, _tokens(prompt)))
            ]
        )

    async def _agenerate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: AsyncCallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        return self._generate(messages, stop=stop, **kwargs)


FAKE_CONFIG = LlmConfig(base_url="http://127.0.0.1:9/v1", model="scripted", stream=False)


def scripted_client(script: ChatScript, config: LlmConfig = FAKE_CONFIG) -> LlmClient:
    """An `LlmClient` whose every call is answered by `script`, in process.

    Streaming is off (`stream=False`): the client never asks the endpoint what server it is.
    """
    config = replace(config, stream=False)
    return LlmClient(
        config,
        chat_model=lambda: ScriptedChatModel(
            model=config.model,
            api_key="scripted",  # type: ignore[arg-type]
            base_url=config.base_url,
            temperature=config.temperature,
            max_retries=0,
            script=script,
        ),
    )
