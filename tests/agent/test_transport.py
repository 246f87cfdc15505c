"""The sharded LLM transport: the connection limit holds across shards, and one transport serves
sync calls and successive event loops (the CLI runner calls `asyncio.run` once per batch)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from typing import Self

import httpx
import pytest

from agent.llm.transport import ShardedTransport, _shard_sizes

pytestmark = pytest.mark.timeout(60)


class CountingServer:
    """HTTP/1.1 keep-alive server on 127.0.0.1 that answers after `delay` and counts connections."""

    def __init__(self, delay: float) -> None:
        self.delay = delay
        self.open = self.peak = self.accepted = 0
        self.loop = asyncio.new_event_loop()
        self.ready = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.open += 1
        self.accepted += 1
        self.peak = max(self.peak, self.open)
        try:
            while head := await reader.readuntil(b"\r\n\r\n"):
                length = next((int(line.split(b":")[1]) for line in head.split(b"\r\n")
                               if line.lower().startswith(b"content-length:")), 0)
                await reader.readexactly(length)
                await asyncio.sleep(self.delay)
                writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError, asyncio.CancelledError):
            pass
        finally:
            self.open -= 1
            writer.close()

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.server = self.loop.run_until_complete(asyncio.start_server(self._handle, "127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.server.sockets[0].getsockname()[1]}/"
        self.ready.set()
        self.loop.run_forever()

    def __enter__(self) -> Self:
        self.thread.start()
        self.ready.wait(5)
        return self

    async def _shutdown(self) -> None:
        self.server.close()
        tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def __exit__(self, *exc: object) -> None:
        asyncio.run_coroutine_threadsafe(self._shutdown(), self.loop).result(5)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)
        self.loop.close()


@pytest.fixture
def server() -> Iterator[CountingServer]:
    with CountingServer(delay=0.05) as s:
        yield s


def test_shards_add_up_to_the_limit():
    assert _shard_sizes(20, 8) == [8, 8, 4]
    assert _shard_sizes(16, 8) == [8, 8]
    assert _shard_sizes(0, 8) == [1]


def test_concurrent_calls_stay_within_max_connections(server):
    transport = ShardedTransport(6, shard_size=4)

    async def burst() -> list[int]:
        async with httpx.AsyncClient(transport=transport, timeout=10) as client:
            replies = await asyncio.gather(*(client.post(server.url, content=b"{}") for _ in range(24)))
        return [r.status_code for r in replies]

    assert asyncio.run(burst()) == [200] * 24
    assert server.peak <= 6
    assert server.accepted <= 6  # connections are reused, not reopened per call


def test_one_transport_serves_sync_calls_and_successive_event_loops(server):
    transport = ShardedTransport(4, shard_size=2)

    async def one() -> int:
        # No aclose: the previous loop's idle connections are left behind, as a runner leaves them.
        reply = await httpx.AsyncClient(transport=transport, timeout=10).get(server.url)
        return reply.status_code

    assert [asyncio.run(one()) for _ in range(3)] == [200, 200, 200]
    with httpx.Client(transport=transport, timeout=10) as client:
        assert client.get(server.url).text == "ok"
