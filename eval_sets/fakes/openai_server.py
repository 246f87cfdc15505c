"""A test double: the fake OpenAI-compatible chat server for tests and `make bench` (beside respx, which mocks
single requests): a real HTTP server on 127.0.0.1 that answers like a model.

It speaks `POST /v1/chat/completions` for the three structured-output methods (json_schema, a
forced tool call, JSON mode with the schema in the prompt), whole or streamed (`"stream": true`:
server-sent chunks of a token each, the usage last when `stream_options.include_usage` asks for
it), and `GET /v1/models`; its `Server` header says uvicorn, or what `server` names (say
"llama.cpp", to be taken for one). What it answers comes from `answers` (an operation -> JSON mapping, or
a function of (operation, prompt)); it honours `max_tokens` (a longer answer is cut there,
finish_reason "length"); `latency` holds every answer back; `refuse` names methods it turns down
as llama-cpp-python does (HTTP 500); `fault` makes it misbehave: `429`, `500`, `malformed` (HTTP
200, prose instead of JSON), `garbage` (HTTP 200, an HTML page), `hang` (no answer until the
client gives up; streamed, the headers and a first chunk, then nothing) or `trickle` (streamed,
a space every 0.2 s and never an end); `fault_rate` draws one of the first five for that share
of the calls (seeded; `injected` counts them). It records every request (arrival time and body)
and every client that went away before its answer, so tests can check cancellation. An asyncio
app on uvicorn: hundreds of concurrent calls each take exactly `latency`, as a benchmark needs.

    python -m eval_sets.fakes.openai_server --port P [--latency L] [--reuse-port]
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import socket
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal, Self

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

Fault = Literal["none", "429", "500", "malformed", "garbage", "hang", "trickle"]
FAULTS: tuple[Fault, ...] = ("500", "429", "hang", "malformed", "garbage")
# (operation, prompt) -> the JSON object to answer, or None for HTTP 404 "no answer known".
Oracle = Callable[[str, str], dict[str, Any] | None]

_TOKEN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]|\w+|[^\w\s]")

ARITHMETIC_SLIP_STEPS = [
    "The bakery sells $47 + 58 = 95$ muffins in total.",
    "It takes in $95 \\times 3 = 285$ dollars.",
    "So the bakery takes in $\\boxed{285}$ dollars.",
]
ARITHMETIC_SLIP_JUDGED = [
    {
        "index": 1,
        "label": "incorrect",
        "reason": "47 + 58 = 105, not 95",
        "depends_on": [],
        "reference_steps": [],
        "error_categories": ["calculation"],
    },
    {
        "index": 2,
        "label": "meaningless",
        "reason": "uses the wrong total",
        "depends_on": [1],
        "reference_steps": [],
        "error_categories": [],
    },
    {
        "index": 3,
        "label": "incorrect",
        "reason": "285 is not 315",
        "depends_on": [2],
        "reference_steps": [],
        "error_categories": ["final_answer"],
    },
]
# What a model answers for the bundled `arithmetic_slip` example.
ARITHMETIC_SLIP_ANSWERS: dict[str, dict[str, Any]] = {
    "difficulty": {
        "level": 2,
        "process_evaluation_needed": True,
        "problem_type": "calculation",
        "reason": "two quantities combined, then a product",
    },
    "segmentation": {"steps": ARITHMETIC_SLIP_STEPS},
    "step_judgement": {"steps": ARITHMETIC_SLIP_JUDGED},
    "fused_judgement": {
        "steps": [
            {"text": t, **{k: v for k, v in j.items() if k != "index"}}
            for t, j in zip(ARITHMETIC_SLIP_STEPS, ARITHMETIC_SLIP_JUDGED, strict=True)
        ]
    },
    "answer_judgement": {"correct": False, "reason": "285 differs from 315"},
}
REFUSAL = (
    "Unsupported response_format type: json_schema. Use json_object with a schema, or a tool call."
)


def count_tokens(text: str) -> int:
    """Rough token count (one per word, punctuation mark or CJK character)."""
    return len(_TOKEN.findall(text))


def _cut(text: str, tokens: int) -> str:
    """`text` up to the end of its `tokens`-th token."""
    ends = [m.end() for m in _TOKEN.finditer(text)]
    return text if tokens >= len(ends) else text[: ends[tokens - 1]] if tokens > 0 else ""


def prompt_of(body: dict[str, Any]) -> str:
    """The request's messages as one text: what an oracle looks for its item in."""
    parts = []
    for message in body.get("messages", []):
        content = message.get("content") or ""
        parts.append(content if isinstance(content, str) else json.dumps(content))
    return "\n".join(parts)


def requested_operation(body: dict[str, Any]) -> tuple[str, str]:
    """Which schema was asked for, and by which method."""
    fmt = body.get("response_format") or {}
    if fmt.get("type") == "json_schema":
        return fmt["json_schema"]["name"], "json_schema"
    tools = body.get("tools") or []
    if tools:
        return tools[0]["function"]["name"], "function_calling"
    match = re.search(r"JSON schema named '(\w+)'", prompt_of(body))
    return (match.group(1) if match else "unknown"), "json_mode"


def completion(
    body: dict[str, Any], answer: dict[str, Any], method: str, operation: str
) -> dict[str, Any]:
    """An OpenAI chat.completion carrying `answer` the way `method` expects it, cut at the
    request's `max_tokens` if it is longer."""
    text = json.dumps(answer, ensure_ascii=False)
    limit = body.get("max_tokens")
    used = count_tokens(text)
    finish = "stop"
    if limit is not None and used > limit:
        text, used, finish = _cut(text, limit), limit, "length"
    message: dict[str, Any] = {"role": "assistant", "content": text}
    if method == "function_calling":
        call = {
            "id": "call_1",
            "type": "function",
            "function": {"name": operation, "arguments": text},
        }
        message = {"role": "assistant", "content": None, "tool_calls": [call]}
        finish = "tool_calls" if finish == "stop" else finish
    prompt_tokens = count_tokens(prompt_of(body))
    return {
        "id": "chatcmpl-fake",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": body.get("model", "fake"),
        "choices": [{"index": 0, "message": message, "finish_reason": finish}],
        "usage": {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": used,
            "total_tokens": prompt_tokens + used,
        },
    }


def streamed(body: dict[str, Any]) -> bool:
    """Whether the request asked for a streamed answer."""
    return bool(body.get("stream"))


def _pieces(text: str) -> list[str]:
    """`text` in token-sized pieces (each token with the white space before it), as a server
    streams it: one chunk per token."""
    ends = [m.end() for m in _TOKEN.finditer(text)] or [len(text)]
    ends[-1] = len(text)
    return [text[a:b] for a, b in zip([0, *ends], ends, strict=False) if b > a] or [text]


def chunks(body: dict[str, Any], payload: dict[str, Any]) -> list[dict[str, Any]]:
    """`payload` (a chat.completion) as the chat.completion.chunk objects a server streams:
    the role, then the content (or the tool call's arguments) a token a chunk, then the finish
    reason, then the usage when the request asked for it (`stream_options.include_usage`)."""
    choice = payload["choices"][0]
    message = choice["message"]
    base = {k: payload[k] for k in ("id", "created", "model")} | {"object": "chat.completion.chunk"}

    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        return {**base, "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}

    out = [chunk({"role": "assistant", "content": None if message.get("tool_calls") else ""})]
    if message.get("tool_calls"):
        call = message["tool_calls"][0]
        out.append(
            chunk(
                {
                    "tool_calls": [
                        {
                            "index": 0,
                            "id": call["id"],
                            "type": "function",
                            "function": {"name": call["function"]["name"], "arguments": ""},
                        }
                    ]
                }
            )
        )
        out += [
            chunk({"tool_calls": [{"index": 0, "function": {"arguments": piece}}]})
            for piece in _pieces(call["function"]["arguments"])
        ]
    else:
        out += [chunk({"content": piece}) for piece in _pieces(message.get("content") or "")]
    out.append(chunk({}, choice["finish_reason"]))
    if (body.get("stream_options") or {}).get("include_usage"):
        out.append({**base, "choices": [], "usage": payload["usage"]})
    return out


def sse(event: dict[str, Any] | None) -> bytes:
    """One server-sent event: a JSON chunk, or the stream's end (`[DONE]`) for None."""
    data = "[DONE]" if event is None else json.dumps(event, ensure_ascii=False)
    return f"data: {data}\n\n".encode()


def encoded(body: dict[str, Any], payload: dict[str, Any]) -> tuple[bytes, str]:
    """A completion as the request asked for it: (body, media type), streamed or whole."""
    if streamed(body):
        return b"".join(map(sse, [*chunks(body, payload), None])), "text/event-stream"
    return json.dumps(payload, ensure_ascii=False).encode(), "application/json"


@dataclass(frozen=True)
class Seen:
    """A request as the server saw it: when it arrived (time.monotonic()) and its body."""

    at: float
    body: dict[str, Any]


class FakeOpenAI:
    """`with FakeOpenAI(answers) as server:` then point a client at `server.base_url`.

    `fault`, `latency` and `refuse` may be changed while it runs.
    """

    def __init__(
        self,
        answers: Mapping[str, dict[str, Any]] | Oracle | None = None,
        *,
        latency: float = 0.0,
        fault: Fault = "none",
        refuse: frozenset[str] = frozenset(),
        port: int = 0,
        reuse_port: bool = False,
        fault_rate: float = 0.0,
        seed: int = 0,
        server: str | None = None,
    ) -> None:
        answers = ARITHMETIC_SLIP_ANSWERS if answers is None else answers
        self.oracle: Oracle = answers if callable(answers) else (lambda op, prompt: answers.get(op))
        self._lookup = not callable(answers)  # a mapping: answered at once, no worker thread
        self.latency = latency
        self.fault: Fault = fault
        self.refuse = refuse
        self.fault_rate = fault_rate
        self._rng = random.Random(seed)
        self.injected: dict[str, int] = dict.fromkeys(FAULTS, 0)
        self.seen: list[Seen] = []
        self.gone: list[float] = []  # when a client went away before its answer
        self.models_asked = 0
        self._sock = socket.socket()
        if reuse_port:  # several fake processes on one port: the kernel spreads the connections
            self._sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        self._sock.bind(("127.0.0.1", port))
        # Inherited by accepted connections: uvicorn writes headers and body separately, and
        # with Nagle on, the body waits ~40 ms for the client's delayed ACK on kept-alive calls.
        self._sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        app = Starlette(
            routes=[
                Route("/v1/chat/completions", self._chat, methods=["POST"]),
                Route("/v1/models", self._models, methods=["GET"]),
            ]
        )
        # Kept-alive connections live as long as on a real server (uvicorn's 5 s default makes
        # a client that reuses one race the server closing it).
        config = uvicorn.Config(
            app,
            log_level="error",
            access_log=False,
            lifespan="off",
            timeout_graceful_shutdown=1,
            backlog=2048,
            timeout_keep_alive=75,
            server_header=server is None,
            headers=[("server", server)] if server else None,
        )
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self.serve, daemon=True)

    @property
    def base_url(self) -> str:
        """The URL to point a client at (`http://127.0.0.1:PORT/v1`)."""
        host, port = self._sock.getsockname()[:2]
        return f"http://{host}:{port}/v1"

    @property
    def requests(self) -> list[dict[str, Any]]:
        """The bodies of the requests received so far, in order of arrival."""
        return [s.body for s in self.seen]

    def serve(self) -> None:
        """Serve in this thread until told to exit (`with` runs it in a thread of its own)."""
        asyncio.run(self.serve_async())

    async def serve_async(self) -> None:
        """Serve on the caller's event loop (`main` runs it on uvloop when installed)."""
        await self._server.serve(sockets=[self._sock])

    async def _models(self, _: Request) -> Response:
        self.models_asked += 1
        return JSONResponse({"object": "list", "data": [{"id": "fake-model", "object": "model"}]})

    async def _chat(self, request: Request) -> Response:
        arrived = time.monotonic()
        body = json.loads(await request.body() or b"{}")
        self.seen.append(Seen(arrived, body))  # one event loop: no lock needed
        operation, method = requested_operation(body)
        fault = self.fault
        if fault == "none" and self.fault_rate and self._rng.random() < self.fault_rate:
            fault = self._rng.choice(FAULTS)
            self.injected[fault] += 1
        if fault in ("hang", "trickle") and streamed(body):
            return _Stuck(self, body, TRICKLE if fault == "trickle" else None)
        if fault == "hang":
            await self._hold(request, float("inf"))
            return Response(status_code=503)
        if fault in ("429", "500"):
            error = {"error": {"message": f"injected {fault}", "type": "fault"}}
            return await self._after(request, arrived, JSONResponse(error, status_code=int(fault)))
        if fault == "garbage":
            page = Response(b"<html>upstream proxy error</html>", media_type="text/html")
            return await self._after(request, arrived, page)
        if method in self.refuse:
            error = {"error": {"message": REFUSAL, "type": "internal_server_error"}}
            return await self._after(request, arrived, JSONResponse(error, status_code=500))
        # In a thread: an oracle may take its time, and a server answers requests side by side.
        answer = (
            self.oracle(operation, "")
            if self._lookup
            else await asyncio.to_thread(self.oracle, operation, prompt_of(body))
        )
        if answer is None:
            error = {"error": {"message": f"no answer known for {operation}"}}
            return await self._after(request, arrived, JSONResponse(error, status_code=404))
        payload = completion(body, answer, method, operation)
        if fault == "malformed":
            payload["choices"][0]["message"] = {
                "role": "assistant",
                "content": "Sure! The steps look fine.",
            }
            payload["choices"][0]["finish_reason"] = "stop"
        content, media_type = encoded(body, payload)
        return await self._after(request, arrived, Response(content, media_type=media_type))

    async def _hold(self, request: Request, seconds: float) -> bool:
        """Wait `seconds` (at most an hour); True if the client went away meanwhile, its time
        recorded. (After the body, ASGI's `receive` returns only when the client goes.)"""
        gone = asyncio.ensure_future(request.receive())
        try:
            await asyncio.wait_for(asyncio.shield(gone), max(0.0, min(seconds, 3600.0)))
        except TimeoutError:
            return False
        finally:
            gone.cancel()
        if gone.result().get("type") != "http.disconnect":
            return False
        self.went_away()
        return True

    async def _after(self, request: Request, arrived: float, response: Response) -> Response:
        """Answer `latency` after the request arrived: the fake's own work is inside L."""
        if self.latency and await self._hold(request, arrived + self.latency - time.monotonic()):
            return Response(status_code=499)
        return response

    def went_away(self) -> None:
        """Record the time a client left before its answer (in `gone`)."""
        self.gone.append(time.monotonic())

    def __enter__(self) -> Self:
        self._thread.start()
        deadline = time.monotonic() + 10
        while not self._server.started and time.monotonic() < deadline:
            time.sleep(0.01)
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.should_exit = True
        self._thread.join(timeout=10)
        self._sock.close()


TRICKLE = 0.2  # seconds between the chunks of a `trickle` answer


class _Stuck(Response):
    """A streamed answer that never ends: the status, the headers and the first chunk (as
    llama-server sends them when a slot takes the request), then nothing (`hang`) or a space
    every `every` seconds (`trickle`: a model writing on and on), until the client goes away,
    whose time the server records."""

    def __init__(self, server: FakeOpenAI, body: dict[str, Any], every: float | None) -> None:
        self.server, self.every = server, every  # chunked: no content-length
        self.raw_headers = [(b"content-type", b"text/event-stream")]
        operation, method = requested_operation(body)
        first = chunks(body, completion(body, {}, method, operation))[0]
        self.first = sse(first)
        self.space = sse(
            {**first, "choices": [{"index": 0, "delta": {"content": " "}, "finish_reason": None}]}
        )

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        await send({"type": "http.response.start", "status": 200, "headers": self.raw_headers})
        await send({"type": "http.response.body", "body": self.first, "more_body": True})
        gone = asyncio.ensure_future(receive())
        while True:
            done, _ = await asyncio.wait([gone], timeout=self.every)
            if done and gone.result()["type"] == "http.disconnect":
                break
            if done:
                gone = asyncio.ensure_future(receive())
                continue
            try:
                await send({"type": "http.response.body", "body": self.space, "more_body": True})
            except OSError:
                break
        gone.cancel()
        self.server.went_away()


def main(argv: list[str] | None = None) -> int:
    """Serve until killed, in its own process (own GIL): the benchmark's model."""
    import argparse

    parser = argparse.ArgumentParser(description="fake OpenAI-compatible endpoint")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--latency", type=float, default=0.0)
    parser.add_argument("--fault", default="none", choices=list(Fault.__args__))  # type: ignore[attr-defined]
    parser.add_argument(
        "--reuse-port",
        action="store_true",
        help="share the port with other fake processes (SO_REUSEPORT)",
    )
    args = parser.parse_args(argv)
    server = FakeOpenAI(
        latency=args.latency, fault=args.fault, port=args.port, reuse_port=args.reuse_port
    )
    try:  # a process of its own (the benchmark's model): the C event loop when installed
        import uvloop
    except ImportError:
        server.serve()
    else:
        uvloop.run(server.serve_async())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
