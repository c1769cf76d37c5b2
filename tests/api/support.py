"""Helpers for the API tests: a real server process, clients, tokens and bot play over HTTP."""

from __future__ import annotations

import json
import os
import random
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import weakref
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from tests.support.games import PYTHONPATH

ROOT = Path(__file__).resolve().parents[2]


def reserve_port() -> socket.socket:
    """A port on 127.0.0.1 held for a server this process is about to start, by a socket bound to
    it (SO_REUSEADDR, never listening) and kept open for as long as the server may use the port.

    Why: picking a free port and letting go of it (bind to 0, close) leaves a gap in which another
    test worker or another checkout's tests on the machine can be handed the same port, and then
    a server exits with "already in use" at random. While this socket is bound, the kernel hands
    the port to no one else (bind to 0 and a client's connect skip it, a plain bind is refused),
    yet a server that sets SO_REUSEADDR, as uvicorn and `api.server.check_listen` do on POSIX,
    binds and listens on it; and the port survives a restart of the server on it."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    return sock


PORT_IN_USE = re.compile(r"already in use", re.IGNORECASE)
"""What `python -m api` (its own check, or uvicorn's bind) says when the port was taken."""


class ServerExited(RuntimeError):
    """The server process ended before it answered /health; the message carries its log."""


@dataclass
class Server:
    """A `python -m api` subprocess on a port reserved for it (`reserve_port`)."""

    data_dir: Path
    store: str | None = None
    workers: int = 1
    process: subprocess.Popen[bytes] | None = None
    env: dict[str, str] = field(default_factory=dict)
    """Extra environment for the server process (settings such as RINGSIDE_ANSWER_RETENTION)."""
    module: str = "api"
    """The module run with `python -m` (a test harness around the API may stand in for it)."""
    _reservation: socket.socket = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._reserve()

    def _reserve(self) -> None:
        self._reservation = reserve_port()
        weakref.finalize(self, self._reservation.close)  # let go of the port with the Server

    @property
    def port(self) -> int:
        return int(self._reservation.getsockname()[1])

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def log_path(self) -> Path:
        return self.data_dir.parent / f"server-{self.port}.log"

    def start(self, timeout: float = 120.0) -> Server:
        """Start the process and wait until it answers /health. A server that exits raises
        ServerExited at once, with its log (a test that expects the exit sees it then), except
        when its port was taken after all by a process that does not reserve ports: that alone is
        retried, on a newly reserved port. `timeout` only bounds a server that neither answers
        nor exits."""
        for attempt in range(3):
            try:
                return self._start(timeout)
            except ServerExited as exited:
                if attempt == 2 or not PORT_IN_USE.search(str(exited)):
                    raise
                self._reservation.close()
                self._reserve()
        raise AssertionError("unreachable")

    def _start(self, timeout: float) -> Server:
        env = {**os.environ, "PYTHONPATH": PYTHONPATH, **self.env}
        env.pop("RINGSIDE_DATABASE_URL", None)
        command = [sys.executable, "-m", self.module, "--port", str(self.port), "--data-dir", str(self.data_dir)]
        if self.store:
            command += ["--store", self.store]
        if self.workers > 1:
            command += ["--workers", str(self.workers)]
        self.data_dir.mkdir(parents=True, exist_ok=True)
        with self.log_path.open("wb") as log:
            self.process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                self.process = None
                raise ServerExited(f"server exited: {self.log_path.read_text()}")
            try:
                if httpx.get(self.url + "/health", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"server did not answer /health within {timeout} s: {self.log_path.read_text()}")

    def stop(self) -> None:
        """Stop the process (the port stays reserved: `start` may serve on it again)."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None


def bearer(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


@dataclass
class Match:
    """A match created over the API, with its tokens."""

    id: str
    tokens: dict[str, Any]
    data: dict[str, Any]

    def seat(self, seat: int) -> str:
        return str(self.tokens["seats"][seat]["token"])

    @property
    def arbiter(self) -> str:
        return str(self.tokens["arbiter"])

    @property
    def recorder(self) -> str:
        return str(self.tokens["recorder"])

    def path(self, suffix: str = "") -> str:
        return f"/matches/{self.id}{suffix}"


def create(client: httpx.Client, game: str = "test-dicevote", players: list[str] | None = None, **extra: Any) -> Match:
    response = client.post("/matches", json={"game": game, "players": players or ["ann", "bob"], **extra})
    assert response.status_code == 201, response.text
    data = response.json()
    return Match(data["match_id"], data["tokens"], data)


def play_one(client: httpx.Client, match: Match, rng: random.Random, as_arbiter: bool = False) -> dict[str, Any] | None:
    """One step over the API: a random legal move by the seat to act (with its own token), or in a
    recorded match a random possible chance outcome entered by the recorder. None when over."""
    decision = client.get(match.path("/decision"), headers=bearer(match.arbiter)).json()
    if decision["status"] != "active":
        return None
    version = decision["version"]
    if decision["chance_outcomes"]:
        options = decision["chance_outcomes"]
        outcome = rng.choices([o["outcome"] for o in options], [o["weight"] for o in options])[0]
        response = client.post(
            match.path("/outcomes"),
            headers=bearer(match.recorder),
            json={"outcome": outcome, "expected_version": version},
        )
    else:
        seat = decision["decision"]["seats"][0]
        move = rng.choice(decision["legal_moves"][str(seat)])
        if as_arbiter:
            response = client.post(
                match.path("/moves"),
                headers=bearer(match.arbiter),
                json={"move": move, "seat": seat, "expected_version": version},
            )
        else:
            response = client.post(
                match.path("/moves"), headers=bearer(match.seat(seat)), json={"move": move, "expected_version": version}
            )
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def play_to_end(client: httpx.Client, match: Match, seed: int = 0, limit: int = 5000) -> int:
    rng = random.Random(seed)
    for steps in range(limit):
        if play_one(client, match, rng) is None:
            return steps
    raise AssertionError("the match did not end")


def add_account(server: Server, name: str) -> str:
    """An account token on the server's store, made as the operator does (`ringside accounts add`)."""
    command = [sys.executable, "-m", "replay_cli", "--store", str(server.store or server.data_dir), "accounts", "add",
               name, "--json"]
    env = {**os.environ, "PYTHONPATH": PYTHONPATH}
    done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=60, check=True)
    token: str = json.loads(done.stdout)["token"]
    return token


def send_chunked(server: Server, path: str, total: int, content_type: str = "application/json",
                 method: str = "POST", headers: dict[str, str] | None = None,
                 chunk: int = 64 * 1024) -> tuple[int, bytes, int]:
    """Send `total` bytes as a chunked body on a raw connection, stopping as soon as an answer
    arrives (or the server closes); returns the status, the answer's bytes and how much was sent."""
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=60)
    extra = "".join(f"{name}: {value}\r\n" for name, value in (headers or {}).items())
    sock.sendall(f"{method} {path} HTTP/1.1\r\nHost: test\r\nContent-Type: {content_type}\r\n{extra}"
                 "Transfer-Encoding: chunked\r\n\r\n".encode())
    answer = bytearray()
    done = threading.Event()

    def read() -> None:  # at once, beside the sender: an answer that comes early is never missed
        try:
            _read_answer(sock, answer)
        finally:
            done.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    piece = b"%x\r\n" % chunk + b"[" * chunk + b"\r\n"
    sent = 0
    try:
        while sent < total and not done.is_set():
            sock.sendall(piece)
            sent += chunk
        if not done.is_set():
            sock.sendall(b"0\r\n\r\n")
    except OSError:  # the server answered and closed the connection: it stopped reading
        pass
    reader.join(timeout=120)
    sock.close()
    head = bytes(answer).split(b"\r\n", 1)[0].split()
    return int(head[1]) if len(head) > 1 else 0, bytes(answer), sent


def _read_answer(sock: socket.socket, answer: bytearray) -> None:
    """Read one HTTP answer into `answer`, until it is complete or the server closes."""
    try:
        while not _complete(answer):
            data = sock.recv(65536)
            if not data:
                break
            answer.extend(data)
    except OSError:
        pass


def _complete(answer: bytearray) -> bool:
    head, sep, body = bytes(answer).partition(b"\r\n\r\n")
    if not sep:
        return False
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            return len(body) >= int(value.strip())
    return False


def send_raw(server: Server, method: str, path: str, headers: list[tuple[bytes, bytes]], body: bytes) -> int:
    """One request written byte for byte on a raw connection, for what an HTTP client refuses to
    send (control characters in a header, for one); returns the answer's status (0: none)."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=60) as sock:
        head = b"".join(name + b": " + value + b"\r\n" for name, value in headers)
        sock.sendall(method.encode() + b" " + path.encode() + b" HTTP/1.1\r\nHost: test\r\nConnection: close\r\n"
                     + head + b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body)
        answer = bytearray()
        _read_answer(sock, answer)
    status = bytes(answer).split(b"\r\n", 1)[0].split()
    return int(status[1]) if len(status) > 1 else 0
