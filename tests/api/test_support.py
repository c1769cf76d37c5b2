"""The API tests' server helper: a port reserved for each server, and a start that retries only a
port taken by another process (every other exit is the test's to see)."""

from __future__ import annotations

import socket
from pathlib import Path

import httpx
import pytest

from .support import Server, ServerExited, reserve_port


def test_a_reserved_port_is_handed_to_no_one_else() -> None:
    """The kernel skips the port for anyone asking for a free one, and refuses a plain bind on it,
    while a server that sets SO_REUSEADDR (as uvicorn does) can listen on it."""
    with reserve_port() as reservation:
        port = reservation.getsockname()[1]
        for _ in range(2000):
            with socket.socket() as other:
                other.bind(("127.0.0.1", 0))
                assert other.getsockname()[1] != port
        with socket.socket() as plain, pytest.raises(OSError):
            plain.bind(("127.0.0.1", port))
        with socket.socket() as server:
            server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            server.bind(("127.0.0.1", port))
            server.listen()


def test_a_server_whose_port_was_taken_starts_on_another(tmp_path: Path) -> None:
    server = Server(tmp_path / "data")
    taken = server.port
    with socket.socket() as squatter:  # a process that does not reserve its ports took this one
        squatter.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        squatter.bind(("127.0.0.1", taken))
        squatter.listen()
        server.start()
        try:
            assert server.port != taken
            assert httpx.get(server.url + "/health", timeout=30).status_code == 200
            assert "already in use" in (tmp_path / f"server-{taken}.log").read_text()
        finally:
            server.stop()


def test_a_server_that_exits_otherwise_is_not_retried(tmp_path: Path) -> None:
    server = Server(tmp_path / "data", env={"RINGSIDE_ANSWER_RETENTION": "a while"})
    port = server.port
    with pytest.raises(ServerExited, match="not a duration"):
        server.start()
    assert server.port == port and server.process is None  # one attempt, on the port it was given
