"""Joining a Ray cluster, or starting one here, for the Ray engine; and what actors inherit.

`ray.init` on an address nobody answers waits for many minutes, and a client of a cluster with
token authentication is refused unless it turns that on as the head did: both are handled here,
so that a wrong `--address` is a clear usage error within seconds.
"""

from __future__ import annotations

import logging
import os
import socket
from pathlib import Path
from typing import Any

# Variables every actor must see as the driver does (LLM endpoint, models offline, ...).
FORWARDED_ENV = ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE", "HF_HOME")
FORWARDED_PREFIX = "STEPGRADE_"
CONNECT_TIMEOUT = 10.0  # seconds to reach a head node's port
TOKEN_FILE = Path("~/.ray/auth_token")  # where `ray start` keeps the cluster's token


def import_ray() -> Any:
    """The `ray` module, or a ValueError saying how to install it."""
    try:
        import ray
    except ImportError:
        raise ValueError(
            "--engine ray needs Ray: pip install -e '.[ray]' (or stepgrade[ray])"
        ) from None
    return ray


def forwarded_env() -> dict[str, str]:
    """The driver's variables that every actor must see as it does."""
    return {
        k: v for k, v in os.environ.items() if k.startswith(FORWARDED_PREFIX) or k in FORWARDED_ENV
    }


def connect(address: str | None = None) -> bool:
    """Join the cluster at `--address` (or RAY_ADDRESS; `auto` finds one started on this machine
    with `ray start`), else start a Ray of our own here, even beside another. True when this
    call made the connection (and so should close it)."""
    address = address or os.environ.get("RAY_ADDRESS") or "local"
    if address != "local":
        token_auth_like_ray_start()  # before Ray is imported: it reads its mode then
    ray = import_ray()
    if ray.is_initialized():
        return False
    extra = {"include_dashboard": False} if address == "local" else {}
    try:
        _reachable(address)
        ray.init(address=address, logging_level=logging.WARNING, **extra)
    except (OSError, RuntimeError, ValueError) as err:
        raise ValueError(
            f"cannot connect to Ray at {address}: {err} (a cluster with token "
            f"authentication also needs RAY_AUTH_MODE=token and its token in "
            f"RAY_AUTH_TOKEN or {TOKEN_FILE})"
        ) from None
    return True


def token_auth_like_ray_start() -> None:
    """`ray start --head` turns token authentication on when a token exists (RAY_AUTH_TOKEN or
    ~/.ray/auth_token), but a client joining with `ray.init(address=...)` does not and is
    refused; do for the client what the head did, unless RAY_AUTH_MODE says otherwise."""
    if "RAY_AUTH_MODE" not in os.environ and (
        os.environ.get("RAY_AUTH_TOKEN") or TOKEN_FILE.expanduser().is_file()
    ):
        os.environ["RAY_AUTH_MODE"] = "token"


def _reachable(address: str, timeout: float = CONNECT_TIMEOUT) -> None:
    """Fail fast: `ray.init` waits for an absent head node for many minutes."""
    if address in ("local", "auto"):
        return
    host, _, port = address.split("://", 1)[-1].rpartition(":")
    socket.create_connection((host or "127.0.0.1", int(port)), timeout=timeout).close()
