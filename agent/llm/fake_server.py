"""A fake OpenAI-compatible chat server on 127.0.0.1, the fake beside the chat-model factory.

It speaks just enough of `POST /v1/chat/completions` for stepgrade's three structured-output
methods (json_schema, a forced tool call, plain JSON) and asks an `Oracle` what to answer. Tests
and demos use it to drive the real HTTP path without a model; token counts are an approximation
(one token per CJK character, word or punctuation mark) since no tokenizer files ship offline.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Self

# (operation, prompt) -> the JSON object to answer, or None for HTTP 404 "no answer known".
Oracle = Callable[[str, str], dict[str, Any] | None]

_TOKEN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]|\w+|[^\w\s]")


def count_tokens(text: str) -> int:
    """Rough token count (cl100k-like for English, one per Chinese character)."""
    return len(_TOKEN.findall(text))


ARITHMETIC_SLIP_STEPS = [
    "The bakery sells $47 + 58 = 95$ muffins in total.",
    "It takes in $95 \\times 3 = 285$ dollars.",
    "So the bakery takes in $\\boxed{285}$ dollars.",
]
ARITHMETIC_SLIP_JUDGED = [
    {"index": 1, "label": "incorrect", "reason": "47 + 58 = 105, not 95", "depends_on": [],
     "reference_steps": [], "error_categories": ["calculation"]},
    {"index": 2, "label": "meaningless", "reason": "uses the wrong total", "depends_on": [1],
     "reference_steps": [], "error_categories": []},
    {"index": 3, "label": "incorrect", "reason": "285 is not 315", "depends_on": [2],
     "reference_steps": [], "error_categories": ["final_answer"]},
]
# What a model answers for the bundled `arithmetic_slip` example: shared by the LLM tests and
# the service's fault-injection fake.
ARITHMETIC_SLIP_ANSWERS: dict[str, dict[str, Any]] = {
    "difficulty": {"level": 2, "process_evaluation_needed": True, "problem_type": "calculation",
                   "reason": "two quantities combined, then a product"},
    "segmentation": {"steps": ARITHMETIC_SLIP_STEPS},
    "step_judgement": {"steps": ARITHMETIC_SLIP_JUDGED},
    "fused_judgement": {"steps": [{"text": t, **{k: v for k, v in j.items() if k != "index"}}
                                  for t, j in zip(ARITHMETIC_SLIP_STEPS, ARITHMETIC_SLIP_JUDGED, strict=True)]},
    "answer_judgement": {"correct": False, "reason": "285 differs from 315"},
}



def requested_operation(body: dict[str, Any]) -> tuple[str, str]:
    """Which schema was asked for, and by which method."""
    fmt = body.get("response_format") or {}
    if fmt.get("type") == "json_schema":
        return fmt["json_schema"]["name"], "json_schema"
    tools = body.get("tools") or []
    if tools:
        return tools[0]["function"]["name"], "function_calling"
    match = re.search(r"JSON schema named '(\w+)'", _prompt(body))
    return (match.group(1) if match else "unknown"), "json_text"


def _prompt(body: dict[str, Any]) -> str:
    parts = []
    for message in body.get("messages", []):
        content = message.get("content") or ""
        parts.append(content if isinstance(content, str) else json.dumps(content))
    return "\n".join(parts)


def completion(body: dict[str, Any], answer: dict[str, Any], method: str, operation: str) -> dict[str, Any]:
    """An OpenAI chat.completion carrying `answer` the way `method` expects it."""
    text = json.dumps(answer, ensure_ascii=False)
    message: dict[str, Any] = {"role": "assistant", "content": text}
    finish = "stop"
    if method == "function_calling":
        call = {"id": "call_1", "type": "function", "function": {"name": operation, "arguments": text}}
        message = {"role": "assistant", "content": None, "tool_calls": [call]}
        finish = "tool_calls"
    prompt_tokens = count_tokens(_prompt(body))
    completion_tokens = count_tokens(text)
    return {
        "id": "chatcmpl-fake",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": body.get("model", "fake"),
        "choices": [{"index": 0, "message": message, "finish_reason": finish}],
        "usage": {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens,
        },
    }


class FakeOpenAI:
    """`with FakeOpenAI(oracle) as server:` then point the client at `server.base_url`.

    `delay` (seconds) holds every answer back, to play a model that never answers in time;
    `requests` keeps every request body for assertions.
    """

    def __init__(self, oracle: Oracle, *, delay: float = 0.0) -> None:
        self.oracle = oracle
        self.delay = delay
        self.requests: list[dict[str, Any]] = []
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}/v1"

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:
                return

            def _send(self, status: int, payload: dict[str, Any]) -> None:
                data = json.dumps(payload, ensure_ascii=False).encode()
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    return

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", "0"))
                body = json.loads(self.rfile.read(length) or b"{}")
                fake.requests.append(body)
                if not self.path.endswith("/chat/completions"):
                    self._send(404, {"error": {"message": f"no route {self.path}"}})
                    return
                if fake.delay:
                    time.sleep(fake.delay)
                operation, method = requested_operation(body)
                answer = fake.oracle(operation, _prompt(body))
                if answer is None:
                    self._send(404, {"error": {"message": f"oracle has no answer for {operation}"}})
                    return
                self._send(200, completion(body, answer, method, operation))

        return Handler

    def __enter__(self) -> Self:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
