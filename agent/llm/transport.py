"""HTTP transports for the LLM client: several small connection pools instead of one large one.

httpcore's pool scans all of its connections, and for each idle one counts the idle ones again,
every time it assigns or releases a request: the work grows with the square of the pool size. With
one pool of 256 connections and ~200 calls in flight (64 grades, three parallel calls each), a
busy service spent more CPU in that bookkeeping than in grading. Shards of 8 connections keep
each scan short; requests go round-robin over the shards.

Async pools are kept per event loop: a connection belongs to the loop that opened it, and one
grader may be used from successive `asyncio.run` calls (the CLI's runner, tests).
"""

from __future__ import annotations

import asyncio
import itertools
import threading
import weakref

import httpx

SHARD_SIZE = 8


def _limits(size: int) -> httpx.Limits:
    return httpx.Limits(max_connections=size, max_keepalive_connections=size)


def _shard_sizes(max_connections: int, shard_size: int) -> list[int]:
    """Sizes adding up to `max_connections`, none above `shard_size` (at least one shard)."""
    total = max(1, max_connections)
    full, rest = divmod(total, shard_size)
    return [shard_size] * full + ([rest] if rest else [])


class ShardedTransport(httpx.BaseTransport, httpx.AsyncBaseTransport):
    """`max_connections` in all, split into pools of at most `shard_size` connections."""

    def __init__(self, max_connections: int, shard_size: int = SHARD_SIZE) -> None:
        self.sizes = _shard_sizes(max_connections, shard_size)
        # One TLS context for every pool: each costs ~30 ms of CPU to load the CA bundle.
        self._tls = httpx.create_ssl_context()
        self._sync = [httpx.HTTPTransport(limits=_limits(n), verify=self._tls) for n in self.sizes]
        self._async: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, list[httpx.AsyncHTTPTransport]]
        self._async = weakref.WeakKeyDictionary()
        self._turn = itertools.count()
        self._lock = threading.Lock()

    def _next(self) -> int:
        with self._lock:
            return next(self._turn) % len(self.sizes)

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        return self._sync[self._next()].handle_request(request)

    def _pools(self) -> list[httpx.AsyncHTTPTransport]:
        loop = asyncio.get_running_loop()
        with self._lock:
            pools = self._async.get(loop)
            if pools is None:
                pools = [httpx.AsyncHTTPTransport(limits=_limits(n), verify=self._tls)
                         for n in self.sizes]
                self._async[loop] = pools
        return pools

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        return await self._pools()[self._next()].handle_async_request(request)

    def close(self) -> None:
        for pool in self._sync:
            pool.close()

    async def aclose(self) -> None:
        loop = asyncio.get_running_loop()
        for pool in self._async.pop(loop, []):
            await pool.aclose()
