"""The LLM gate wraps a real chat model (fake OpenAI-compatible server, real HTTP): every call
holds a slot, so no more than the gate's size reach the endpoint at once."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager

from langchain_core.messages import HumanMessage

from agent.build import make_grader
from agent.llm.config import LlmConfig
from agent.llm.factory import make_chat_model
from agent.settings import GradingSettings
from eval_sets.fakes.openai_server import ARITHMETIC_SLIP_ANSWERS, FakeOpenAI
from eval_sets.runner.llm_gate import gate_grader, gated
from example_requests import load_example


class CountingGate:
    """At most `size` holders at once (threads or one event loop), counting what it saw."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._sync = threading.BoundedSemaphore(size)
        self._async = asyncio.Semaphore(size)
        self.granted = 0

    @contextmanager
    def hold(self) -> Iterator[None]:
        with self._sync:
            self.granted += 1
            yield

    @asynccontextmanager
    async def ahold(self) -> AsyncIterator[None]:
        async with self._async:
            self.granted += 1
            yield


class Endpoint:
    """An oracle that takes a while and records how many requests it serves at once."""

    def __init__(self, answers: dict[str, dict], delay: float = 0.2) -> None:
        self.answers, self.delay = answers, delay
        self.lock = threading.Lock()
        self.now = self.peak = 0

    def __call__(self, operation: str, prompt: str) -> dict | None:
        with self.lock:
            self.now += 1
            self.peak = max(self.peak, self.now)
        time.sleep(self.delay)
        with self.lock:
            self.now -= 1
        return self.answers.get(operation, {"text": "hello"})


def test_gated_model_keeps_requests_under_the_cap() -> None:
    endpoint, gate = Endpoint({}), CountingGate(2)
    with FakeOpenAI(endpoint) as server:
        model = gated(
            make_chat_model(
                LlmConfig(base_url=server.base_url, model="m", max_retries=0, timeout=10)
            ),
            gate,
        )

        async def many() -> list:
            return await asyncio.gather(*(model.ainvoke([HumanMessage(f"q{i}")]) for i in range(6)))

        answers = asyncio.run(many())
        assert [a.content for a in answers] == ['{"text": "hello"}'] * 6
        assert endpoint.peak == 2 and gate.granted == 6
        assert (
            model.bind(max_tokens=50).invoke([HumanMessage("sync")]).content == '{"text": "hello"}'
        )
        assert (
            server.requests[-1].get("max_tokens", server.requests[-1].get("max_completion_tokens"))
            == 50
            and gate.granted == 7
        )
        tool = {"type": "function", "function": {"name": "difficulty", "parameters": {}}}
        model.bind_tools([tool], tool_choice="difficulty").invoke([HumanMessage("tool")])
        assert server.requests[-1]["tools"][0]["function"]["name"] == "difficulty"
        assert gate.granted == 8


def test_a_gated_grader_sends_every_call_through_the_gate() -> None:
    endpoint, gate = Endpoint(ARITHMETIC_SLIP_ANSWERS, delay=0.0), CountingGate(1)
    with FakeOpenAI(endpoint) as server:
        settings = GradingSettings(
            llm_base_url=server.base_url, llm_model="fake", llm_max_retries=0
        )
        grader = gate_grader(make_grader(settings), gate)
        request = load_example("arithmetic_slip").model_copy(update={"mode": "llm"})
        report = asyncio.run(grader.agrade(request))
    assert report.meta.mode == "llm" and not report.meta.degraded
    assert report.meta.llm_calls == len(server.requests) == gate.granted >= 2
    assert [s.label for s in report.steps] == ["incorrect", "meaningless", "incorrect"]
