"""A fake OpenAI-compatible endpoint with fixed latency and injectable faults.

For the service's fault-injection tests and `make bench` (not used in production). It answers
`/v1/chat/completions` with canned JSON per structured operation, after `latency` seconds, or
misbehaves as told: `429`, `500`, `malformed` (HTTP 200, content that is not the JSON asked
for), `garbage` (HTTP 200, a body that is not JSON at all) or `hang` (never answers until
closed). Unlike the thread-per-connection `agent.llm.fake_server` it is an asyncio app on
uvicorn, so hundreds of concurrent calls each take exactly `latency` (a benchmark needs that).
"""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import time
from typing import Any, Literal, Self

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from agent.llm.fake_server import ARITHMETIC_SLIP_ANSWERS, completion, requested_operation

Fault = Literal["none", "429", "500", "malformed", "garbage", "hang"]

class FaultyLlm:
    """`with FaultyLlm(latency=0.2) as llm:` then point the grader at `llm.base_url`.

    `fault` may be changed while running; `calls` counts chat requests received.
    """

    def __init__(self, answers: dict[str, dict[str, Any]] | None = None, *,
                 latency: float = 0.0, fault: Fault = "none", port: int = 0,
                 reuse_port: bool = False) -> None:
        self.answers = answers or ARITHMETIC_SLIP_ANSWERS
        self.latency = latency
        self.fault: Fault = fault
        self.calls = 0
        self._sock = socket.socket()
        if reuse_port:  # several fake processes on one port: the kernel spreads the connections
            self._sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        self._sock.bind(("127.0.0.1", port))
        # Inherited by accepted connections: uvicorn writes headers and body separately, and
        # with Nagle on, the body waits ~40 ms for the client's delayed ACK on kept-alive calls.
        self._sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        app = Starlette(routes=[Route("/v1/chat/completions", self._chat, methods=["POST"]),
                                Route("/v1/models", self._models, methods=["GET"])])
        config = uvicorn.Config(app, log_level="error", access_log=False, lifespan="off",
                                timeout_graceful_shutdown=1, backlog=2048)
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._serve, daemon=True)

    @property
    def base_url(self) -> str:
        host, port = self._sock.getsockname()[:2]
        return f"http://{host}:{port}/v1"

    def _serve(self) -> None:
        asyncio.run(self._server.serve(sockets=[self._sock]))

    async def _models(self, _: Request) -> Response:
        return JSONResponse({"object": "list", "data": [{"id": "fake-model", "object": "model"}]})

    async def _chat(self, request: Request) -> Response:
        arrived = time.monotonic()
        body = json.loads(await request.body() or b"{}")
        self.calls += 1  # one event loop: no lock needed
        fault = self.fault
        if fault == "hang":
            while not self._server.should_exit:
                await asyncio.sleep(0.05)
            return Response(status_code=503)
        if fault in ("429", "500"):
            error = {"error": {"message": f"injected {fault}", "type": "fault"}}
            return await self._after_latency(arrived, JSONResponse(error, status_code=int(fault)))
        if fault == "garbage":
            garbage = Response(b"<html>upstream proxy error</html>", media_type="text/html")
            return await self._after_latency(arrived, garbage)
        operation, method = requested_operation(body)
        payload = completion(body, self.answers.get(operation, {}), method, operation)
        if fault == "malformed":
            payload["choices"][0]["message"] = {"role": "assistant",
                                                "content": "Sure! The steps look fine."}
        return await self._after_latency(arrived, JSONResponse(payload))

    async def _after_latency(self, arrived: float, response: Response) -> Response:
        """Answer `latency` after the request arrived: the fake's own work is inside L, not on top."""
        if self.latency:
            await asyncio.sleep(max(0.0, arrived + self.latency - time.monotonic()))
        return response

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


def main(argv: list[str] | None = None) -> int:
    """`python -m server.fake_llm --port P --latency L`: serve until killed (own process, own GIL)."""
    import argparse

    parser = argparse.ArgumentParser(description="fake OpenAI-compatible endpoint")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--latency", type=float, default=0.0)
    parser.add_argument("--fault", default="none", choices=list(Fault.__args__))
    parser.add_argument("--reuse-port", action="store_true",
                        help="share the port with other fake processes (SO_REUSEPORT)")
    args = parser.parse_args(argv)
    fake = FaultyLlm(latency=args.latency, fault=args.fault, port=args.port,
                     reuse_port=args.reuse_port)
    fake._serve()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
