"""Client authentication: `X-API-Key` when keys are configured, compared in constant time.

The dependencies are coroutines (nothing in them blocks): FastAPI runs a plain function
dependency in a worker thread, a thread hop each per request.
"""

from __future__ import annotations

import hashlib
import hmac
from typing import Annotated

from fastapi import Depends, Request
from fastapi.security import APIKeyHeader

from server.core.errors import ApiError

api_key_header = APIKeyHeader(
    name="X-API-Key", auto_error=False, description="Required when STEPGRADE_API_KEYS is set."
)


async def require_api_key(
    request: Request, key: Annotated[str | None, Depends(api_key_header)]
) -> None:
    """401 unless `key` matches a configured key; open when no keys are configured."""
    keys = request.app.state.settings.api_keys
    if not keys:
        return
    given = (key or "").encode()
    # Compare against every key (no early exit), so timing reveals neither key nor position.
    matched = False
    for secret in keys:
        matched |= hmac.compare_digest(given, secret.get_secret_value().encode())
    if not matched:
        raise ApiError(
            401,
            "unauthorized",
            "missing or invalid X-API-Key header",
            "X-API-Key",
            headers={"WWW-Authenticate": "APIKey"},
        )


DEFAULT_OWNER = "default"  # every grade's owner when no keys are configured


def owner_id(key: str) -> str:
    """The store's name for a key's owner: a hash, so no stored row or log carries a key."""
    return hashlib.sha256(key.encode()).hexdigest()


async def get_owner(request: Request, key: Annotated[str | None, Depends(api_key_header)]) -> str:
    """The caller's owner id; routes check the key itself with `require_api_key`."""
    if not request.app.state.settings.api_keys:
        return DEFAULT_OWNER
    return owner_id(key or "")
