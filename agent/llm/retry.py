"""The one retry layer: tenacity around each request to the model (the SDK's retries are off).

Retried: 429, 408, 409, 5xx and time-outs or dropped connections, with jittered exponential
back-off; a `Retry-After` (or OpenAI's `retry-after-ms`) the server sends is waited at least.
Never retried: other 4xx, and a 5xx that says the structured-output method is not supported
(llama-cpp-python answers `json_schema` with HTTP 500): that is for the method negotiation.
A retry whose wait would end past the operation's deadline is not started; the deadline itself
cancels a wait in progress, so no retry starts after it.
"""

from __future__ import annotations

import asyncio
import email.utils
import re
import time

import openai
from tenacity import (
    AsyncRetrying,
    RetryCallState,
    retry_if_exception,
    stop_after_attempt,
    stop_before_delay,
    wait_random_exponential,
)
from tenacity.stop import stop_base

_BACKOFF = wait_random_exponential(multiplier=0.5, max=8.0)
_FORMAT = re.compile(
    r"response_format|json_schema|json_object|tool|function|grammar|not (?:be )?supported|"
    r"unsupported|not implemented|no recorded answer",
    re.IGNORECASE,
)
_CONTEXT = re.compile(r"context[ _](?:length|window)|maximum context|too long", re.IGNORECASE)


def not_supported(err: BaseException) -> bool:
    """The endpoint refuses the structured-output method rather than the request itself.

    Any 400 or 422 counts (servers word it every way), except a prompt over the context
    window, which no other method would fix; a 404, 405, 501 or 5xx counts when its message
    names the format, the tools or the schema.
    """
    if not isinstance(err, openai.APIStatusError):
        return False
    if err.status_code in (400, 422):
        return _CONTEXT.search(str(err)) is None
    return _FORMAT.search(str(err)) is not None


def transient(err: BaseException) -> bool:
    """Whether `err` may pass on retrying: connection failures, time-outs, 408/409/429 and 5xx."""
    if isinstance(err, openai.APIConnectionError):  # time-outs included
        return True
    if isinstance(err, openai.APIStatusError):
        retryable = err.status_code in (408, 409, 429) or err.status_code >= 500
        return retryable and not not_supported(err)
    return False


def retry_after(err: BaseException | None) -> float | None:
    """Seconds the server asked us to wait, if it said."""
    response = getattr(err, "response", None)
    if response is None:
        return None
    headers = response.headers
    if (ms := headers.get("retry-after-ms")) is not None:
        try:
            return float(ms) / 1000.0
        except ValueError:
            pass
    value = headers.get("retry-after")
    if value is None:
        return None
    try:
        return float(value)
    except ValueError:
        pass
    try:  # an HTTP date; anything else says nothing
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def _wait(state: RetryCallState) -> float:
    backoff = _BACKOFF(state)
    asked = retry_after(state.outcome.exception() if state.outcome else None)
    return backoff if asked is None else max(backoff, asked)


def retrying(max_retries: int, deadline: float | None) -> AsyncRetrying:
    """A tenacity controller for one request; `deadline` is event-loop time."""
    stop: stop_base = stop_after_attempt(1 + max(0, max_retries))
    if deadline is not None:
        stop = stop | stop_before_delay(max(0.0, deadline - asyncio.get_running_loop().time()))
    return AsyncRetrying(retry=retry_if_exception(transient), wait=_wait, stop=stop, reraise=True)
