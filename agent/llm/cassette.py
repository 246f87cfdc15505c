"""Record and replay model answers at the HTTP layer (`STEPGRADE_LLM_RECORD` / `_REPLAY`).

A cassette is one JSON file per distinct request, named by a hash of the method, path and the
canonical JSON body (model, messages, schema, temperature). Replaying a prompt that changed misses
the cassette and fails loudly, which is the point: a team can pin a model's answers in CI and see
every prompt change as a failing (then re-recorded) test.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import httpx


class CassetteMissError(httpx.TransportError):
    """Replay mode met a request that was never recorded."""


def cassette_key(request: httpx.Request) -> str:
    """Stable name for a request: the body's JSON re-serialised with sorted keys, then hashed."""
    body = request.content or b""
    try:
        canonical = json.dumps(json.loads(body), sort_keys=True, ensure_ascii=False).encode()
    except ValueError:
        canonical = body
    digest = hashlib.sha256(request.method.encode() + b" " + request.url.path.encode() + b"\n")
    digest.update(canonical)
    return digest.hexdigest()[:32]


class CassetteTransport(httpx.BaseTransport, httpx.AsyncBaseTransport):
    """Wraps a real transport; replays when `replay_dir` has the answer, records into `record_dir`."""

    def __init__(
        self,
        *,
        record_dir: Path | None,
        replay_dir: Path | None,
        inner: httpx.BaseTransport,
        ainner: httpx.AsyncBaseTransport,
    ) -> None:
        self.record_dir = record_dir
        self.replay_dir = replay_dir
        self.inner = inner
        self.ainner = ainner

    def _replay(self, request: httpx.Request) -> httpx.Response | None:
        if self.replay_dir is None:
            return None
        path = self.replay_dir / f"{cassette_key(request)}.json"
        if not path.is_file():
            if self.record_dir is None:
                raise CassetteMissError(f"no cassette {path.name} in {self.replay_dir}", request=request)
            return None
        saved = json.loads(path.read_text(encoding="utf-8"))
        return httpx.Response(saved["status"], json=saved["body"], request=request)

    def _record(self, request: httpx.Request, response: httpx.Response) -> None:
        if self.record_dir is None or response.status_code != 200:
            return
        self.record_dir.mkdir(parents=True, exist_ok=True)
        request_body = json.loads(request.content or b"null")
        saved = {"status": response.status_code, "request": request_body, "body": response.json()}
        path = self.record_dir / f"{cassette_key(request)}.json"
        path.write_text(json.dumps(saved, ensure_ascii=False, indent=1), encoding="utf-8")

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        replayed = self._replay(request)
        if replayed is not None:
            return replayed
        response = self.inner.handle_request(request)
        response.read()
        self._record(request, response)
        return response

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        replayed = self._replay(request)
        if replayed is not None:
            return replayed
        response = await self.ainner.handle_async_request(request)
        await response.aread()
        self._record(request, response)
        return response

    def close(self) -> None:
        self.inner.close()

    async def aclose(self) -> None:
        await self.ainner.aclose()
