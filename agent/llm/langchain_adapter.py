"""Every use of LangChain beyond its public API, in one place, pinned by
`tests/agent/llm/test_langchain_adapter.py`.

A minor LangChain release may change any of these without notice; the pin test fails, saying
what changed, before the grader silently does something else. Each is here because the public
API was not enough:

- `WireChatOpenAI` overrides `BaseChatOpenAI._get_request_payload` to send the messages and the
  format fields (`response_format`, `tools`, `tool_choice`) as `extra_body`. The OpenAI SDK walks
  every typed parameter (the messages, the whole schema) before sending it, and sends a
  `json_schema` request through `parse`, which builds a second, typed copy of the completion;
  neither changes the JSON on the wire. The public alternative, binding `extra_body` when the
  call is built, changes the fields LangChain keys its answer cache on, so recorded answers would
  no longer replay; the payload hook runs after the cache key is taken. Figures: a `json_schema`
  call cost 3.5 ms of CPU, 2.6 ms with the format fields moved; moving the messages saves
  0.12 ms more a request.
- `WireChatOpenAI._agenerate` is the library's own chat-completions branch of `_agenerate` (the
  one a payload without `response_format` takes: the SDK's `create`, its errors translated by
  langchain-openai's handlers), except that the `ChatResult` is built on the event loop: the
  library hands `_create_chat_result` to a worker thread, a thread hop per call (four a grade)
  for a few tens of microseconds of work. Measured here: 0.28 ms of CPU a call sequentially
  through the hop. Anything else (the responses API, a payload that keeps `response_format`)
  goes to the library's `_agenerate` as it is.
- `split_structured` takes apart the `RunnableSequence` that `with_structured_output` returns:
  the model bound for the method (`first`) and its output parser (`last`), run apart so that
  the caller has the raw message, the parsed value or the parsing error. The public
  `include_raw=True` gives the same in five more runnables: 6.7 ms of CPU a call instead of
  3.6 ms, at four calls a grade most of the service's 20 ms budget. The refusal check LangChain
  puts between the two is skipped; `agent.llm.structured` reads the raw message itself.
- `replay_key` rewrites the `llm_string` LangChain hands its cache (a `repr` of the sorted
  request parameters): the answer's ceiling is named `max_completion_tokens` for OpenAI's API
  and `max_tokens` elsewhere, and only grammar-decoding servers get the schema's length bounds.
  Neither changes the question, so an answer recorded from one endpoint should replay for the
  other. `BaseCache` receives only that string; there is no public way to key it otherwise.
- `generate` / `agenerate` call a chat model's `_generate` / `_agenerate`, the hooks a custom
  `BaseChatModel` implements: a wrapper (`eval_sets.runner.llm_gate.GatedChatModel`) that holds a
  slot around the request has to delegate at that level. Going through the public `agenerate`
  would run the inner model's callbacks and answer cache a second time, inside the slot.
- `answers_json_schema_by_tools` states langchain-openai's rule for the models it will not send
  `json_schema` to (OpenAI's models without Structured Outputs: `gpt-3*`, `gpt-4`, `gpt-4-*`): it
  switches such a request to `function_calling` with only a warning, and a schema written for
  `json_schema` then fails inside LangChain. There is no public way to ask which method it will
  use, so the client leaves `json_schema` out of those models' ladder.
"""

from __future__ import annotations

import re
from typing import Any

import openai
from langchain_core.callbacks import AsyncCallbackManagerForLLMRun, CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel, LanguageModelInput
from langchain_core.messages import BaseMessage
from langchain_core.output_parsers import BaseOutputParser
from langchain_core.outputs import ChatResult
from langchain_core.runnables import Runnable, RunnableSequence
from langchain_openai.chat_models.base import (
    BaseChatOpenAI,
    _add_gateway_metadata,
    _handle_openai_api_error,
    _handle_openai_bad_request,
)


def answers_json_schema_by_tools(model_name: str) -> bool:
    """Whether langchain-openai turns a `json_schema` request for `model_name` into
    `function_calling` (its `with_structured_output` does so for OpenAI models that predate
    Structured Outputs)."""
    return model_name.startswith(("gpt-3", "gpt-4-")) or model_name == "gpt-4"


# The request fields that only need to reach the wire: the messages, and the format fields
# `with_structured_output` binds.
WIRE_FIELDS = ("messages", "response_format", "tools", "tool_choice")


class WireChatOpenAI(BaseChatOpenAI):
    """`BaseChatOpenAI` whose messages and format fields reach the request body as they are
    (`extra_body`).

    A finish at `max_tokens` then comes back as a completion, not `LengthFinishReasonError`;
    `agent.llm.structured` reads it. The JSON on the wire is unchanged: the SDK writes
    `extra_body` over the body it built, so the empty `messages` it was given is replaced.
    """

    def _get_request_payload(
        self, input_: LanguageModelInput, *, stop: list[str] | None = None, **kwargs: Any
    ) -> dict[str, Any]:
        payload: dict[str, Any] = super()._get_request_payload(input_, stop=stop, **kwargs)
        if "messages" not in payload:  # the responses API: not used here
            return payload
        wire = {name: payload.pop(name) for name in WIRE_FIELDS if name in payload}
        payload["extra_body"] = {**(payload.get("extra_body") or {}), **wire}
        payload["messages"] = []
        return payload

    async def _agenerate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: AsyncCallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        """The library's chat-completions branch, its `ChatResult` built here rather than in a
        worker thread (see the module's note)."""
        payload = self._get_request_payload(messages, stop=stop, **kwargs)
        if "extra_body" not in payload or "response_format" in payload:  # not this class's path
            return await super()._agenerate(messages, stop=stop, run_manager=run_manager, **kwargs)
        raw_response = None
        try:
            raw_response = await self.async_client.with_raw_response.create(**payload)
            response = raw_response.parse()
        except openai.BadRequestError as err:
            _handle_openai_bad_request(err)
            raise
        except openai.APIError as err:
            _handle_openai_api_error(err)
            raise
        except Exception as err:
            if raw_response is not None and hasattr(raw_response, "http_response"):
                err.response = raw_response.http_response  # type: ignore[attr-defined]
            raise
        generation_info: dict[str, Any] = {}
        if self.include_response_headers and hasattr(raw_response, "headers"):
            generation_info = {"headers": dict(raw_response.headers)}
        _add_gateway_metadata(generation_info, raw_response)
        return self._create_chat_result(response, generation_info)


def request_payload(
    model: BaseChatOpenAI, messages: LanguageModelInput, **bound: Any
) -> dict[str, Any]:
    """The payload `model` hands the OpenAI SDK for `messages` with the `bound` fields.

    Tests compare it with what reached the wire.
    """
    payload: dict[str, Any] = model._get_request_payload(messages, **bound)
    return payload


def split_structured(
    runnable: Runnable[Any, Any],
) -> tuple[Runnable[Any, Any], BaseOutputParser[Any]]:
    """`with_structured_output`'s result (without `include_raw`) as the model bound for the
    method and the method's output parser.

    Raises:
        TypeError: LangChain no longer builds the call as `model | ... | parser`.
    """
    if not isinstance(runnable, RunnableSequence) or not isinstance(
        runnable.last, BaseOutputParser
    ):
        raise TypeError(
            f"with_structured_output returned {runnable!r}, not a sequence "
            "ending in an output parser (see agent/llm/langchain_adapter.py)"
        )
    return runnable.first, runnable.last


# The schema's length bounds as they appear in `llm_string` (a `repr` of the schema's dict).
ENDPOINT_FORM = re.compile(r", '(?:maxLength|maxItems|minItems|minimum|maximum)': \d+")


def replay_key(llm_string: str) -> str:
    """`llm_string` without what differs between OpenAI's API and the other servers: the
    ceiling's name and the schema's length bounds."""
    return ENDPOINT_FORM.sub("", llm_string.replace("'max_completion_tokens'", "'max_tokens'"))


def cache_key(model: BaseChatModel, **bound: Any) -> str:
    """The `llm_string` LangChain's answer cache receives for `model` with the `bound` fields.

    Tests check that `replay_key` reads it as expected.
    """
    return model._get_llm_string(**bound)


def llm_type(model: BaseChatModel) -> str:
    """The model's kind, as LangChain names it in traces (`_llm_type`)."""
    return model._llm_type


def generate(
    model: BaseChatModel,
    messages: list[BaseMessage],
    stop: list[str] | None,
    run_manager: CallbackManagerForLLMRun | None,
    **kwargs: Any,
) -> ChatResult:
    """`model`'s own generation, without its callbacks or cache (the caller's ran)."""
    return model._generate(messages, stop=stop, run_manager=run_manager, **kwargs)


async def agenerate(
    model: BaseChatModel,
    messages: list[BaseMessage],
    stop: list[str] | None,
    run_manager: AsyncCallbackManagerForLLMRun | None,
    **kwargs: Any,
) -> ChatResult:
    """`model`'s own asynchronous generation, without its callbacks or cache (the caller's ran)."""
    return await model._agenerate(messages, stop=stop, run_manager=run_manager, **kwargs)
