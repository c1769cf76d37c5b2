"""Helpers for the API tests: a real server process, clients, tokens and bot play over HTTP."""

from __future__ import annotations

import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class Server:
    """A `python -m api` subprocess."""

    data_dir: Path
    store: str | None = None
    port: int = field(default_factory=free_port)
    workers: int = 1
    process: subprocess.Popen[bytes] | None = None
    env: dict[str, str] = field(default_factory=dict)
    """Extra environment for the server process (settings such as RINGSIDE_ANSWER_RETENTION)."""
    module: str = "api"
    """The module run with `python -m` (a test harness around the API may stand in for it)."""

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 30.0) -> Server:
        """Start the process; a port taken meanwhile (another test worker) is retried on a new one."""
        for attempt in range(3):
            try:
                return self._start(timeout)
            except RuntimeError:
                if attempt == 2:
                    raise
                self.stop()
                self.port = free_port()
        raise AssertionError("unreachable")

    def _start(self, timeout: float) -> Server:
        env = {**os.environ, "PYTHONPATH": str(ROOT), "RINGSIDE_EXTRA_GAMES": "tests.support.dicevote", **self.env}
        env.pop("RINGSIDE_DATABASE_URL", None)
        command = [sys.executable, "-m", self.module, "--port", str(self.port), "--data-dir", str(self.data_dir)]
        if self.store:
            command += ["--store", self.store]
        if self.workers > 1:
            command += ["--workers", str(self.workers)]
        log = open(self.data_dir.parent / f"server-{self.port}.log", "wb")  # noqa: SIM115
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self.process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"server exited: {(self.data_dir.parent / f'server-{self.port}.log').read_text()}")
            try:
                if httpx.get(self.url + "/health", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError("server did not start")

    def stop(self) -> None:
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
    env = {**os.environ, "PYTHONPATH": str(ROOT), "RINGSIDE_EXTRA_GAMES": "tests.support.dicevote"}
    done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=60, check=True)
    token: str = json.loads(done.stdout)["token"]
    return token
