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
from collections.abc import Callable
from typing import Any, Literal

import openai
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from pydantic import ValidationError

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

    def _send(self, method: Method, operation: str, messages: list[BaseMessage]) -> BaseMessage:
        schema = strict_json_schema(operation)
        if method == "json_schema":
            fmt = {"type": "json_schema", "json_schema": {"name": operation, "schema": schema, "strict": True}}
            return self.model.invoke(messages, response_format=fmt)
        if method == "function_calling":
            tool = {"type": "function", "function": {"name": operation, "parameters": schema}}
            return self.model.bind_tools([tool], tool_choice=operation).invoke(messages)
        hint = (
            f"\n\nAnswer with one JSON object only (no prose, no code fence) that matches this "
            f"JSON schema named {operation!r}:\n{json.dumps(schema, ensure_ascii=False)}"
        )
        first = messages[0]
        return self.model.invoke([HumanMessage(str(first.content) + hint), *messages[1:]])

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

    def _timed(self, method: Method, operation: str, messages: list[BaseMessage],
               records: list[CallRecord]) -> BaseMessage:
        start = time.perf_counter()
        try:
            message = self._send(method, operation, messages)
        except openai.LengthFinishReasonError as err:
            # The SDK refuses to hand over a truncated json_schema answer; keep it for the repair.
            message = _truncated(err.completion)
        except openai.OpenAIError:
            records.append(CallRecord(operation, method, 0, 0, _ms(start), False))
            raise
        except _UNREADABLE as err:  # e.g. a 200 with an HTML body: the SDK fails while reading it
            records.append(CallRecord(operation, method, 0, 0, _ms(start), False))
            raise LlmError(operation, f"unreadable reply ({type(err).__name__}: {err})"[:300],
                           records) from err
        prompt, completion = _usage(message)
        records.append(CallRecord(operation, method, prompt, completion, _ms(start), True))
        return message

    def call(self, operation: str, prompt: str, check: Check | None = None) -> Result[Any]:
        """Ask for `operation`'s schema; `check` adds semantic problems (e.g. wrong step count)."""
        records: list[CallRecord] = []
        rejected: list[str] = []
        for method in self._order():
            messages: list[BaseMessage] = [HumanMessage(prompt)]
            try:
                message = self._timed(method, operation, messages, records)
            except (openai.BadRequestError, openai.UnprocessableEntityError) as err:
                rejected.append(f"{method} rejected ({err.status_code})")
                continue
            except openai.OpenAIError as err:
                raise LlmError(operation, _describe(err), records) from err
            value, problems = self._parse(method, operation, message, check)
            if value is None:
                repair = _repair_message(problems)
                messages += [AIMessage(_raw_text(method, message)[:4000]), HumanMessage(repair)]
                try:
                    message = self._timed(method, operation, messages, records)
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


def _truncated(completion: Any) -> AIMessage:
    usage = completion.usage
    content = completion.choices[0].message.content or "" if completion.choices else ""
    return AIMessage(
        content=content,
        response_metadata={"finish_reason": "length"},
        usage_metadata={
            "input_tokens": usage.prompt_tokens if usage else 0,
            "output_tokens": usage.completion_tokens if usage else 0,
            "total_tokens": usage.total_tokens if usage else 0,
        },
    )


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
