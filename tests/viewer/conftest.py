"""Fixtures of the viewer's HTTP suites: a server process of its own per test module (its pages
read the matches the module plays, and nothing else), and a client on it."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from tests.api.support import Server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp(request.module.__name__.rpartition(".")[2]) / "data").start()
    yield running
    running.stop()


@pytest.fixture(scope="module")
def client(server: Server) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.url, timeout=60) as http:
        yield http
