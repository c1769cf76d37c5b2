"""Remote mode as a new user meets it: writes that survive a dropped connection (the same
Idempotency-Key on every retry), the tokens and resume hints of a match made by `play GAME`, and
views labelled by what the server answered as. A real server (`ringside serve`), the CLI as a
subprocess, and a proxy between them that loses answers or says it is busy."""

from __future__ import annotations

import json
import re
import shlex
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import httpx
import pytest

from replay_cli.remote import RemoteSource

from .test_remote import server  # noqa: F401  (the module's server: a real `ringside serve`)

HOP_BY_HOP = {"connection", "keep-alive", "transfer-encoding", "content-length", "content-encoding", "host"}

Fault = Callable[[dict[str, Any], list[dict[str, Any]]], str | None]
"""What the proxy does to a request, given it and every request before it: None (pass it on),
"drop" (pass it on, let the server carry it out, then close the connection without its answer)
or "busy" (answer 503 with Retry-After: 1 without passing it on)."""


class Proxy:
    """An HTTP proxy in front of the server that records every request and injects faults."""

    def __init__(self, upstream: str, fault: Fault) -> None:
        self.seen: list[dict[str, Any]] = []
        self.fault = fault
        self.client = httpx.Client(base_url=upstream, timeout=60)
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:
                pass

            def do_GET(self) -> None:
                proxy.handle(self)

            do_POST = do_PATCH = do_GET

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self) -> Proxy:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self.client.close()

    def requests(self, method: str, suffix: str) -> list[dict[str, Any]]:
        return [r for r in self.seen if r["method"] == method and r["path"].endswith(suffix)]

    def handle(self, handler: BaseHTTPRequestHandler) -> None:
        length = int(handler.headers.get("Content-Length") or 0)
        body = handler.rfile.read(length) if length else b""
        record: dict[str, Any] = {"method": handler.command, "path": handler.path.split("?")[0],
                                  "key": handler.headers.get("Idempotency-Key"), "at": time.monotonic()}
        fault = self.fault(record, self.seen)
        self.seen.append(record)
        if fault == "busy":
            problem = json.dumps({"type": "about:blank", "title": "busy", "status": 503}).encode()
            handler.send_response(503)
            handler.send_header("Retry-After", "1")
            handler.send_header("Content-Type", "application/problem+json")
            handler.send_header("Content-Length", str(len(problem)))
            handler.end_headers()
            handler.wfile.write(problem)
            return
        headers = {k: v for k, v in handler.headers.items() if k.lower() not in HOP_BY_HOP}
        answer = self.client.request(handler.command, handler.path, headers=headers, content=body)
        record["status"] = answer.status_code
        record["replayed"] = answer.headers.get("Idempotent-Replayed") == "true"
        if fault == "drop":  # carried out by the server; its answer is lost on the way back
            handler.close_connection = True
            return
        handler.send_response(answer.status_code)
        for key, value in answer.headers.items():
            if key.lower() not in HOP_BY_HOP:
                handler.send_header(key, value)
        handler.send_header("Content-Length", str(len(answer.content)))
        handler.end_headers()
        handler.wfile.write(answer.content)


def first(method: str, suffix: str, then: str) -> Fault:
    """The fault `then` for the first `method` request whose path ends with `suffix`."""

    def fault(record: dict[str, Any], before: list[dict[str, Any]]) -> str | None:
        def hit(r: dict[str, Any]) -> bool:
            return bool(r["method"] == method and r["path"].endswith(suffix))

        return then if hit(record) and not any(hit(r) for r in before) else None

    return fault


def new_match(url: str, *players: str) -> dict[str, Any]:
    answer = httpx.post(f"{url}/matches", json={"game": "test-dicevote", "players": list(players or ("ann", "bob"))})
    assert answer.status_code == 201, answer.text
    created: dict[str, Any] = answer.json()
    return created


def moves_of(url: str, match_id: str, arbiter: str) -> list[dict[str, Any]]:
    events = httpx.get(f"{url}/matches/{match_id}/events", params={"limit": 1000},
                       headers={"Authorization": f"Bearer {arbiter}"}).json()["events"]
    return [e for e in events if e["kind"] == "move"]


@pytest.fixture
def created(server: str) -> dict[str, Any]:  # noqa: F811
    return new_match(server)


# ==== writes: a fresh Idempotency-Key, the same one on every retry ====================================
def test_a_move_whose_answer_is_lost_is_retried_with_its_key_and_counted_once(
        sh: Any, server: str, created: dict[str, Any]) -> None:  # noqa: F811
    match_id, tokens = created["match_id"], created["tokens"]
    with Proxy(server, first("POST", "/moves", "drop")) as proxy:
        done = sh("--url", proxy.url, "--token", tokens["seats"][0]["token"], "play", match_id, "--human", "0",
                  "--no-board", "--max-moves", "1", input="roll\n")
    assert "#6 seat 0: roll" in done.stdout and "error" not in done.stderr
    sent = proxy.requests("POST", "/moves")
    assert len(sent) == 2, sent
    assert sent[0]["key"] and sent[0]["key"] == sent[1]["key"]  # the retry is the same request
    assert sent[0]["status"] == 200 and sent[1]["replayed"]  # carried out once, then answered from the store
    moves = moves_of(server, match_id, tokens["arbiter"])
    assert [m["payload"]["move"] for m in moves] == [{"type": "roll"}]


def test_a_busy_answer_is_retried_after_retry_after_with_the_same_key(
        sh: Any, server: str, created: dict[str, Any]) -> None:  # noqa: F811
    match_id, tokens = created["match_id"], created["tokens"]
    with Proxy(server, first("POST", "/moves", "busy")) as proxy:
        sh("--url", proxy.url, "--token", tokens["seats"][0]["token"], "play", match_id, "--human", "0",
           "--no-board", "-q", "--max-moves", "1", input="roll\n")
    sent = proxy.requests("POST", "/moves")
    assert len(sent) == 2 and sent[0]["key"] == sent[1]["key"]
    assert sent[1]["at"] - sent[0]["at"] >= 0.9  # Retry-After: 1 was honoured
    assert "status" not in sent[0] and sent[1]["status"] == 200 and not sent[1]["replayed"]
    assert len(moves_of(server, match_id, tokens["arbiter"])) == 1


def test_a_move_never_answered_is_sent_a_bounded_number_of_times_and_said_so(
        sh: Any, server: str, created: dict[str, Any]) -> None:  # noqa: F811
    match_id, tokens = created["match_id"], created["tokens"]

    def always(record: dict[str, Any], before: list[dict[str, Any]]) -> str | None:
        return "drop" if record["method"] == "POST" and record["path"].endswith("/moves") else None

    with Proxy(server, always) as proxy:
        out = sh("--url", proxy.url, "--token", tokens["seats"][0]["token"], "play", match_id, "--human", "0",
                 "--no-board", "-q", input="roll\nquit\n").stdout
    sent = proxy.requests("POST", "/moves")
    assert len(sent) == 5 and len({r["key"] for r in sent}) == 1  # the first attempt and 4 more, one key
    assert (f"not even when sent again (up to 4 times with the same Idempotency-Key): the write may or may not "
            f"have been recorded (see: ringside --url {proxy.url} log {match_id[:8]})") in out
    assert len(moves_of(server, match_id, tokens["arbiter"])) == 1


def test_every_write_sends_a_fresh_key(sh: Any, server: str, created: dict[str, Any]) -> None:  # noqa: F811
    match_id, tokens = created["match_id"], created["tokens"]
    arbiter = tokens["arbiter"]
    with Proxy(server, lambda record, before: None) as proxy:
        sh("--url", proxy.url, "--token", arbiter, "annotate", match_id, "2", "first")
        sh("--url", proxy.url, "--token", arbiter, "annotate", match_id, "2", "second")
        sh("--url", proxy.url, "--token", arbiter, "rule", match_id, "penalty", "--seat", "1", "--points", "1")
    keys = [r["key"] for r in proxy.seen if r["method"] == "POST"]
    assert len(keys) == 3 and all(keys) and len(set(keys)) == 3
    assert all(r["key"] is None for r in proxy.seen if r["method"] == "GET")


def test_creating_a_match_is_not_retried_once_it_was_sent(sh: Any, server: str) -> None:  # noqa: F811
    """Creating carries no key (its answer holds the tokens): a retry would make a second match."""
    with Proxy(server, first("POST", "/matches", "drop")) as proxy:
        failed = sh("--url", proxy.url, "play", "test-dicevote", "-p", "me", "-p", "bot", code=2)
    assert len(proxy.requests("POST", "/matches")) == 1
    assert "may or may not have been carried out" in failed.stderr and failed.stderr.count("\n") == 1


def test_the_remote_source_retries_a_read_error_after_the_server_answered(
        server: str, created: dict[str, Any]) -> None:  # noqa: F811
    """The transport under the retries forwards to the real server, then loses the first answer."""

    class LoseFirstAnswer(httpx.BaseTransport):
        def __init__(self) -> None:
            self.inner = httpx.HTTPTransport()
            self.keys: list[str | None] = []

        def handle_request(self, request: httpx.Request) -> httpx.Response:
            response = self.inner.handle_request(request)
            if request.method == "POST" and request.url.path.endswith("/moves"):
                self.keys.append(request.headers.get("Idempotency-Key"))
                if len(self.keys) == 1:
                    response.read()
                    response.close()
                    raise httpx.ReadError("connection reset after the server answered", request=request)
            return response

        def close(self) -> None:
            self.inner.close()

    transport = LoseFirstAnswer()
    source = RemoteSource(server, created["tokens"]["arbiter"], transport=transport)
    try:
        answer = source.submit_move(created["match_id"], 0, {"type": "roll"})
    finally:
        source.close()
    assert answer["events"][0]["payload"]["move"] == {"type": "roll"}
    assert len(transport.keys) == 2 and transport.keys[0] == transport.keys[1] is not None
    assert len(moves_of(server, created["match_id"], created["tokens"]["arbiter"])) == 1


def test_an_unreachable_server_is_said_as_such(sh: Any) -> None:
    failed = sh("--url", "http://127.0.0.1:9", "games", code=2)
    assert failed.stderr.startswith("ringside: error: cannot reach the server at http://127.0.0.1:9")


# ==== `play GAME` over --url: the tokens, and resume hints that work ===================================
def hint(output: str) -> list[str]:
    """The arguments of the last `resume with: ringside ...` hint printed."""
    line = [line for line in output.splitlines() if "resume with: ringside " in line][-1]
    return shlex.split(line.partition("resume with: ringside ")[2])


def test_play_over_url_prints_the_tokens_once_and_a_resume_hint_that_works(sh: Any, server: str) -> None:  # noqa: F811
    out = sh("--url", server, "play", "test-dicevote", "-p", "me", "-p", "bot", "--no-board", "-q",
             "--max-moves", "1", input="clear\nroll\n").stdout
    assert out.count("tokens (shown only now; keep them):") == 1
    assert "no command or move 'clear': moves are pass, play, roll, vote" in out  # the server's move schema
    seat0 = re.search(r"seat 0 \(me\): (rs_\S+)", out)
    arbiter = re.search(r"arbiter: (rs_\S+)", out)
    assert seat0 and arbiter and re.search(r"recorder: rs_\S+", out)
    again = hint(out)
    assert again[:4] == ["--url", server, "--token", arbiter.group(1)] and again[4] == "play"
    match_id = again[5]
    # the hint goes on: the bot's seat moves (with the arbiter's token), then seat 0 is asked again
    resumed = sh(*again, "--no-board", "-q", input="quit\n")
    assert "seat 0 (me) move>" in resumed.stdout and hint(resumed.stdout) == again
    moves = moves_of(server, match_id, arbiter.group(1))
    seats = [m["payload"]["seat"] for m in moves]
    assert seats[0] == 0 and seats[1:] and set(seats[1:]) == {1}
    # the seat's token printed is the seat's
    assert sh("--url", server, "--token", seat0.group(1), "show", match_id, "--json").returncode == 0


def test_play_over_url_to_the_end_names_the_server_in_its_last_hints(sh: Any, server: str) -> None:  # noqa: F811
    out = sh("--url", server, "play", "test-dicevote", "-p", "bot", "-p", "bot", "-q").stdout
    match_id = re.search(r"match ([0-9a-f-]{36}) \(test-dicevote\)", out)
    assert match_id and "match over" in out
    assert f"ringside --url {server} log {match_id.group(1)[:8]}" in out
    assert sh("--url", server, "log", match_id.group(1)[:8]).returncode == 0


# ==== views labelled by whom the server answered for ===================================================
def test_show_and_log_say_whom_the_server_answered_for(sh: Any, server: str, created: dict[str, Any]) -> None:  # noqa: F811
    match_id, tokens = created["match_id"], created["tokens"]
    for token, label in ((tokens["seats"][1]["token"], "seat:1"), (tokens["arbiter"], "arbiter")):
        shown = sh("--url", server, "--token", token, "show", match_id)
        assert shown.stdout.splitlines()[0].endswith(f"  as {label}") and not shown.stderr
        logged = sh("--url", server, "--token", token, "log", match_id)
        assert f"match {match_id}  as {label}" in logged.stdout
        assert f"as {label}:" in sh("--url", server, "--token", token, "diff", match_id, "1", "3").stdout
    # --as does not choose over --url: the label says what was answered, and a note says why
    asked = sh("--url", server, "show", match_id, "--as", "arbiter")
    assert asked.stdout.splitlines()[0].endswith("  as spectator")
    assert asked.stderr == ("ringside: note: the server answered as spectator, not arbiter: over --url the token "
                            "decides what you see (--token), not --as\n")


def test_a_recorded_tile_over_url_says_what_it_is(sh: Any, server: str) -> None:  # noqa: F811
    out = sh("--url", server, "play", "carcassonne", "-p", "me", "-p", "bot", "--randomness", "recorded",
             "--no-board", "-q", input="quit\n").stdout
    assert "    1. A  Monastery with a road leaving south\n" in out and "stopped; resume with: ringside --url" in out
