"""Structured output that survives real servers: json_schema -> function calling -> plain JSON.

Order of trust (ECOSYSTEM.md): OpenAI, vLLM and Ollama >= 0.5 enforce `response_format`
json_schema; servers that reject it (HTTP 400/422) get a forced tool call; servers that reject
tools get the schema in the prompt and a reply parsed as JSON. Whatever the method, the reply is
validated with pydantic plus the operation's own checks; one repair turn shows the model its
errors; after that the operation fails loudly (`LlmError`) and the node degrades to its offline
twin. A reply is never read as a minimum score (the failure peers report for OpenAI evals,
Prometheus and DeepEval).
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Callable, Generator
from dataclasses import dataclass
from typing import Any, Literal

import openai
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from pydantic import ValidationError

from agent.llm.drive import adrive, drive
from agent.llm.records import CallRecord, LlmError, Result
from agent.llm.schemas import SCHEMAS, strict_json_schema

Method = Literal["json_schema", "function_calling", "json_text"]
METHODS: tuple[Method, ...] = ("json_schema", "function_calling", "json_text")
Check = Callable[[Any], list[str]]

_FENCE = re.compile(r"^```(?:json)?\s*|\s*```$", re.MULTILINE)


_UNREADABLE = (AttributeError, TypeError, KeyError, ValueError)


def _usage(message: BaseMessage) -> tuple[int, int]:
    usage = getattr(message, "usage_metadata", None) or {}
    return int(usage.get("input_tokens", 0)), int(usage.get("output_tokens", 0))


def _raw_text(method: Method, message: BaseMessage) -> str:
    """What the model actually said, whichever channel it used."""
    if method == "function_calling" and isinstance(message, AIMessage):
        if message.tool_calls:
            return json.dumps(message.tool_calls[0]["args"], ensure_ascii=False)
        if message.invalid_tool_calls:
            return str(message.invalid_tool_calls[0].get("args") or "")
    content = message.content
    return content if isinstance(content, str) else json.dumps(content)


def _json_in(text: str) -> str:
    """Plain-JSON replies often come fenced or with a sentence around the object."""
    text = _FENCE.sub("", text.strip()).strip()
    start, end = text.find("{"), text.rfind("}")
    return text[start : end + 1] if start != -1 and end > start else text


def _problems_of(err: ValidationError) -> list[str]:
    return [
        f"{'.'.join(str(p) for p in e['loc']) or '(root)'}: {e['msg']}"
        for e in err.errors(include_url=False)
    ][:12]


@dataclass(frozen=True)
class Turn:
    """One round trip to make: the method, the conversation so far, where to record it."""

    method: Method
    operation: str
    messages: list[BaseMessage]
    records: list[CallRecord]


class StructuredLlm:
    """Structured calls on one chat model; remembers which method the server accepted."""

    def __init__(self, model: BaseChatModel, methods: tuple[Method, ...] = METHODS) -> None:
        self.model = model
        self.methods = methods
        self._accepted: Method | None = None
        self._lock = threading.Lock()

    def _order(self) -> list[Method]:
        with self._lock:
            first = self._accepted
        return [first, *(m for m in self.methods if m != first)] if first else list(self.methods)

    def _request(self, turn: Turn) -> tuple[Any, list[BaseMessage], dict[str, Any]]:
        """(runnable, input, kwargs) of one round trip; the sync and async paths share it."""
        method, operation, messages = turn.method, turn.operation, turn.messages
        schema = strict_json_schema(operation)
        if method == "json_schema":
            # Sent as a raw body field: the SDK's typed `response_format` walks the whole schema
            # on every call (~3 ms of CPU) and its `parse` path adds a second model conversion.
            fmt = {"type": "json_schema", "json_schema": {"name": operation, "schema": schema, "strict": True}}
            return self.model, messages, {"extra_body": {"response_format": fmt}}
        if method == "function_calling":
            tool = {"type": "function", "function": {"name": operation, "parameters": schema}}
            return self.model.bind_tools([tool], tool_choice=operation), messages, {}
        hint = (
            f"\n\nAnswer with one JSON object only (no prose, no code fence) that matches this "
            f"JSON schema named {operation!r}:\n{json.dumps(schema, ensure_ascii=False)}"
        )
        first = messages[0]
        return self.model, [HumanMessage(str(first.content) + hint), *messages[1:]], {}

    def _parse(self, method: Method, operation: str, message: BaseMessage, check: Check | None) -> tuple[Any, list[str]]:
        text = _raw_text(method, message)
        problems: list[str] = []
        if message.response_metadata.get("finish_reason") == "length":
            problems.append("the answer was cut off (finish_reason=length): answer more briefly")
        try:
            value = SCHEMAS[operation].model_validate_json(_json_in(text))
        except ValidationError as err:
            return None, problems + _problems_of(err)
        problems += check(value) if check else []
        return (None if problems else value), problems

    def _send(self, turn: Turn) -> BaseMessage:
        runnable, messages, kwargs = self._request(turn)
        start = time.perf_counter()
        try:
            message = runnable.invoke(messages, **kwargs)
        except Exception as err:  # noqa: BLE001 - recorded, then re-raised by _failed
            return _failed(turn, err, start)
        return _answered(turn, message, start)

    async def _asend(self, turn: Turn) -> BaseMessage:
        runnable, messages, kwargs = self._request(turn)
        start = time.perf_counter()
        try:
            message = await runnable.ainvoke(messages, **kwargs)
        except Exception as err:  # noqa: BLE001 - recorded, then re-raised by _failed
            return _failed(turn, err, start)
        return _answered(turn, message, start)

    def _conversation(self, operation: str, prompt: str, check: Check | None) -> Generator[Turn, BaseMessage, Result[Any]]:
        """The protocol of one structured call, whatever carries the round trips."""
        records: list[CallRecord] = []
        rejected: list[str] = []
        for method in self._order():
            messages: list[BaseMessage] = [HumanMessage(prompt)]
            try:
                message = yield Turn(method, operation, messages, records)
            except (openai.BadRequestError, openai.UnprocessableEntityError) as err:
                rejected.append(f"{method} rejected ({err.status_code})")
                continue
            except openai.OpenAIError as err:
                raise LlmError(operation, _describe(err), records) from err
            value, problems = self._parse(method, operation, message, check)
            if value is None:
                repair = _repair_message(problems)
                messages = [*messages, AIMessage(_raw_text(method, message)[:4000]), HumanMessage(repair)]
                try:
                    message = yield Turn(method, operation, messages, records)
                except openai.OpenAIError as err:
                    raise LlmError(operation, _describe(err), records) from err
                value, problems = self._parse(method, operation, message, check)
                if value is None:
                    raise LlmError(
                        operation, "invalid output after one repair: " + "; ".join(problems), records
                    )
            with self._lock:
                self._accepted = method
            return Result(value, records)
        raise LlmError(operation, "no structured-output method accepted: " + ", ".join(rejected), records)

    def call(self, operation: str, prompt: str, check: Check | None = None) -> Result[Any]:
        """Ask for `operation`'s schema; `check` adds semantic problems (e.g. wrong step count)."""
        return drive(self._conversation(operation, prompt, check), self._send)

    async def acall(self, operation: str, prompt: str, check: Check | None = None) -> Result[Any]:
        """`call` on the event loop, through the async HTTP client (no thread per call)."""
        return await adrive(self._conversation(operation, prompt, check), self._asend)


def _answered(turn: Turn, message: BaseMessage, start: float) -> BaseMessage:
    prompt, completion = _usage(message)
    turn.records.append(CallRecord(turn.operation, turn.method, prompt, completion, _ms(start), True))
    return message


def _failed(turn: Turn, err: Exception, start: float) -> BaseMessage:
    """A failed round trip is recorded, and re-raised for the conversation to handle."""
    turn.records.append(CallRecord(turn.operation, turn.method, 0, 0, _ms(start), False))
    if isinstance(err, _UNREADABLE):  # e.g. a 200 with an HTML body: the SDK fails while reading it
        raise LlmError(turn.operation, f"unreadable reply ({type(err).__name__}: {err})"[:300],
                       turn.records) from err
    raise err


def _repair_message(problems: list[str]) -> str:
    listed = "\n".join(f"- {p}" for p in problems)
    return (
        "Your previous answer could not be used:\n"
        f"{listed}\n"
        "Answer again with the complete JSON object, corrected, and nothing else."
    )


def _describe(err: openai.OpenAIError) -> str:
    if isinstance(err, openai.APITimeoutError):
        return "the model did not answer in time"
    if isinstance(err, openai.APIStatusError):
        return f"HTTP {err.status_code} from the model endpoint"
    if isinstance(err, openai.APIConnectionError):
        return f"cannot reach the model endpoint ({_root_cause(err)})"
    return str(err)


def _root_cause(err: BaseException) -> BaseException:
    seen = err
    while (nxt := seen.__cause__ or seen.__context__) is not None and nxt is not seen:
        seen = nxt
    return seen


def _ms(start: float) -> float:
    return round((time.perf_counter() - start) * 1000.0, 3)
