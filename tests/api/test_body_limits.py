"""Body limits hold while a body is received, not after: a body sent in chunks, without its length,
is refused (413) as soon as it passes the limit, on every route, and the server never holds more
of it than the limit. Measured on a real server process from /proc (its peak resident set,
VmHWM, which needs no sampling and so no sleeping)."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from .support import Server, add_account, create, send_chunked

MiB = 1024 * 1024


def peak_rss(server: Server) -> int:
    """The server process's peak resident set so far, in bytes."""
    assert server.process is not None
    for line in Path(f"/proc/{server.process.pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no VmHWM in /proc")


def test_a_chunked_body_past_the_limit_is_refused_while_it_arrives(fresh_server: Server) -> None:
    with httpx.Client(base_url=fresh_server.url, timeout=30) as client:
        match = create(client)
        before = peak_rss(fresh_server)
        body_size = 48 * MiB
        routes = ["/matches", match.path("/moves"), match.path("/outcomes"), match.path("/annotations"),
                  match.path("/rulings"), match.path("/undo-requests"), match.path("/redo"),
                  match.path("/forks"), match.path("/undo-requests/u1/answers")]
        for path in routes:
            status, answer, sent = send_chunked(fresh_server, path, body_size)
            assert status == 413, (path, answer[:300])
            assert b"too-large" in answer
            assert sent < body_size, path  # the server stopped reading long before the end
        # other media types are handed on by the hot path, and still counted
        status, _, _ = send_chunked(fresh_server, match.path("/moves"), body_size, content_type="text/plain")
        assert status == 413
        status, _, _ = send_chunked(fresh_server, match.path("/annotations/a1"), body_size, method="PATCH")
        assert status == 413
        growth = peak_rss(fresh_server) - before
        assert growth < 16 * MiB, f"the server grew by {growth / MiB:.0f} MiB for {body_size // MiB} MiB bodies"
        assert client.get(match.path()).json()["version"] == match.data["version"]  # nothing changed
        assert len(client.get("/matches").json()["matches"]) == 1


@pytest.mark.parametrize("path", ["/bundles", "/verify"])
def test_a_chunked_bundle_past_its_limit_is_refused_while_it_arrives(fresh_server: Server, path: str) -> None:
    limit = 50_000_000  # ApiSettings.max_bundle_bytes
    before = peak_rss(fresh_server)
    account = add_account(fresh_server, "archive") if path == "/bundles" else None  # importing needs an account
    status, answer, sent = send_chunked(fresh_server, path, 160 * MiB, content_type="application/x-ndjson",
                                        headers={"Authorization": f"Bearer {account}"} if account else None)
    assert status == 413, answer[:300]
    assert sent < 100 * MiB
    growth = peak_rss(fresh_server) - before
    assert growth < limit + 16 * MiB, f"the server grew by {growth / MiB:.0f} MiB"
    assert httpx.get(fresh_server.url + "/matches").json()["matches"] == []


def test_a_chunked_body_within_the_limit_is_read_whole(server: Server, client: httpx.Client) -> None:
    """The counting passes every message on: a body in many small chunks is answered as usual."""
    body = b'{"game": "test-dicevote", "players": ["ann", "bob"], "title": "' + b"x" * 150 + b'"}'
    chunks = [body[i:i + 7] for i in range(0, len(body), 7)]
    answer = httpx.post(server.url + "/matches", content=iter(chunks), headers={"content-type": "application/json"})
    assert answer.status_code == 201, answer.text
    match = create(client)
    move = b'{"move": {"type": "pass"}}'
    answer = httpx.post(server.url + match.path("/moves"), content=iter([move[:5], move[5:]]),
                        headers={"content-type": "application/json", "authorization": f"Bearer {match.seat(1)}"})
    assert answer.status_code in (200, 409), answer.text  # accepted, or not that seat's turn: read whole
