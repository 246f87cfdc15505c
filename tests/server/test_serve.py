"""`stepgrade serve`'s socket: bound before anything loads, so a taken port is reported at once
with what to change."""

from __future__ import annotations

import errno
import socket

import pytest

from server.core.settings import Settings
from server.serve import port_message, serve, shared_socket


def test_the_shared_socket_is_bound_inheritable_and_not_yet_listening():
    sock = shared_socket("127.0.0.1", 0)
    try:
        assert sock.getsockname()[0] == "127.0.0.1" and sock.get_inheritable()
        assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)
        with pytest.raises(OSError):  # nobody accepts before a worker listens
            socket.create_connection(sock.getsockname(), timeout=1).close()
    finally:
        sock.close()


def test_a_taken_port_is_refused_naming_the_setting_and_a_free_one():
    holder = socket.socket()
    holder.bind(("127.0.0.1", 0))
    holder.listen()
    port = holder.getsockname()[1]
    try:
        with pytest.raises(SystemExit) as exit_:
            serve(Settings(_env_file=None), "127.0.0.1", port)
    finally:
        holder.close()
    message = str(exit_.value.code)
    assert f"port {port} on 127.0.0.1 is already in use" in message
    assert f"STEPGRADE_PORT={port + 1}" in message


def test_other_listen_failures_name_host_and_port():
    message = port_message("10.9.9.9", 80, OSError(errno.EADDRNOTAVAIL, "Cannot assign address"))
    assert "cannot listen on 10.9.9.9:80: Cannot assign address" in message
    assert "STEPGRADE_HOST and STEPGRADE_PORT" in message
