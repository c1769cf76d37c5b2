"""Remote mode: the CLI against the HTTP API, started as a subprocess with `ringside serve`."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.api.support import reserve_port

from .conftest import ROOT, Run, subprocess_env

pytest.importorskip("api.server", reason="the HTTP API package (api/) is not importable")
httpx = pytest.importorskip("httpx")


SERVER_DATA: dict[str, Path] = {}
"""Each test server's data directory: its operator makes accounts there."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    base = tmp_path_factory.mktemp("remote")
    reservation = reserve_port()  # held until the server is gone: no other process is handed the port
    port = int(reservation.getsockname()[1])
    log = (base / "server.log").open("wb")
    process = subprocess.Popen([sys.executable, "-m", "replay_cli", "serve", "--port", str(port),
                                "--store", str(base / "server-data")], cwd=ROOT,
                               env=subprocess_env(base / "unused"), stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    SERVER_DATA[url] = base / "server-data"
    try:
        deadline = time.monotonic() + 60
        while True:
            if process.poll() is not None:
                pytest.fail(f"the server exited: {(base / 'server.log').read_text()}")
            try:
                if httpx.get(url + "/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                pytest.fail("the server did not start within 60 s")
            time.sleep(0.2)
        yield url
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()
        reservation.close()


def test_remote_play_read_adjudicate_export(run: Run, server: str, tmp_path: Path) -> None:
    url = ["--url", server]
    assert "test-dicevote" in {game["name"] for game in run.json(*url, "games")}
    created = run.json(*url, "new", "test-dicevote", "-p", "ann", "-p", "bob")
    match_id = created["match_id"]
    tokens = created["tokens"]
    arbiter = ["--url", server, "--token", tokens["arbiter"]]
    seat0 = ["--url", server, "--token", tokens["seats"][0]["token"]]
    assert "tokens (shown only now" in run(*url, "new", "test-dicevote", "-p", "x", "-p", "y").stdout
    # a human seat prompted over HTTP: the illegal move is explained with its rule ID
    out = run(*seat0, "play", match_id, "--human", "0", "--no-board", "--max-moves", "1",
              input="play card=99\nroll\n").stdout
    assert "illegal move (TG-1.2)" in out
    # the arbiter's token acts for every seat: bots finish the match
    run(*arbiter, "play", match_id, "--watch", "-q")
    summary = run.json(*url, "show", match_id[:8])
    assert summary["status"] == "ended"
    # reads: the spectator sees no hands; the arbiter sees them
    assert run.json(*url, "show", match_id, "--at", "5")["state"]["hands"][0] == {"count": 2}
    assert isinstance(run.json(*arbiter, "show", match_id, "--at", "5")["state"]["hands"][0], list)
    assert "Players" in run(*url, "show", match_id).stdout
    events = run.json(*arbiter, "log", match_id)
    assert events[0]["kind"] == "created" and events[-1]["kind"] == "seed-revealed"
    assert run.json(*url, "step", match_id, "--batch", "--from", "5", "--to", "7")
    assert run.json(*url, "diff", match_id, "1", "8")["changes"]
    assert all(line["rule"].startswith("TG-") for line in run.json(*url, "score", match_id)["lines"])
    note = run.json(*arbiter, "annotate", match_id, "6", "remote note", "-g", "!")
    assert note["text"] == "remote note"
    assert run.json(*url, "annotate", match_id, "--list")[0]["id"] == note["id"]
    assert "needs a token" in run(*url, "annotate", match_id, "6", "anon", code=1).stderr
    # verification on the server and of the exported bundle, offline
    remote = run.json(*url, "verify", match_id)  # the bundle checked here, against the keys the server publishes
    assert remote["ok"] and remote["signers"][0]["trusted_as"] == f"server {server}"
    run(*url, "export", match_id, "-o", "remote.jsonl")
    untrusted = run.json("verify", "remote.jsonl", code=1)  # the server's key is not this store's
    assert untrusted["intact"] and untrusted["divergence"]["check"] == "trust"
    assert run.json("verify", "remote.jsonl", "--trust-server", server)["ok"]
    # import the bundle into the local store: the same record
    assert run.json("import", "remote.jsonl")["match_id"] == match_id
    assert [e["hash"] for e in run.json("log", match_id, "--as", "arbiter")] == [e["hash"] for e in events]


def test_remote_undo_rulings_fork_reveal_import(run: Run, server: str, tmp_path: Path) -> None:
    created = run.json("--url", server, "new", "test-dicevote", "-p", "ann", "-p", "bob",
                       "--undo-policy", "consent")
    match_id, tokens = created["match_id"], created["tokens"]
    arbiter = ["--url", server, "--token", tokens["arbiter"]]
    seat0 = ["--url", server, "--token", tokens["seats"][0]["token"]]
    seat1 = ["--url", server, "--token", tokens["seats"][1]["token"]]
    run(*seat0, "play", match_id, "--human", "0", "--no-board", "-q", "--max-moves", "1", input="pass\n")
    run(*seat1, "play", match_id, "--human", "1", "--no-board", "-q", "--max-moves", "1", input="pass\n")
    assert "waiting" in run(*seat0, "undo", "request", match_id, "--seat", "0").stdout
    pending = run.json("--url", server, "undo", "list", match_id)
    assert pending and pending[0]["consent_from"] == [1]
    run(*seat1, "undo", "answer", match_id, pending[0]["id"], "--accept", "--seat", "1")
    assert run.json("--url", server, "undo", "list", match_id) == []
    assert "arbiter" in run(*seat0, "rule", match_id, "penalty", "--seat", "1", "--points", "1", code=1).stderr
    run(*arbiter, "rule", match_id, "penalty", "--seat", "1", "--points", "1")
    assert run.json(*arbiter, "reveal", match_id)["revealed_in_record"] is False
    fork = run.json(*arbiter, "fork", match_id, "--at", "6")
    assert fork["tokens"]["arbiter"]
    run(*arbiter, "rule", match_id, "forfeit", "--seat", "1")
    assert run.json("--url", server, "show", match_id)["status"] == "ended"
    # a local bundle imported to the server by an account: no tokens, vouched for by nobody
    local = run.new("test-dicevote")
    run("play", local, "--watch", "-q")
    run("export", local, "-o", "local.jsonl")
    assert run("--url", server, "import", "local.jsonl", code=1).stderr.count("account") >= 1
    account = run.json("--store", str(SERVER_DATA[server]), "accounts", "add", "archive")["token"]
    imported = run.json("--url", server, "--token", account, "import", "local.jsonl")
    assert imported["match_id"] == local and "tokens" not in imported
    # errors: one line, the right exit status
    assert run("--url", server, "show", "00000000-0000-0000-0000-000000000000", code=2).stderr.count("\n") == 1
    assert "token" in run("--url", server, "--token", "rs_nonsense", "annotate", match_id, "1", "x",
                          code=1).stderr
    assert run("--url", "http://127.0.0.1:9", "games", code=2).stderr.startswith("ringside: error: cannot reach")
    assert json.loads(run("--url", server, "verify", match_id, "--json").stdout)["ok"]
    report = run.json("--url", server, "simulate", "test-dicevote", "-n", "2", "--out", "remote-sims")
    assert report["matches"] == 2 and len(list((tmp_path / "remote-sims").glob("*.jsonl"))) == 2
    assert run.json("verify", "remote-sims", "--trust-server", server)["ok"]


def test_remote_seat_entropy(run: Run, server: str) -> None:
    created = run.json("--url", server, "new", "test-dicevote", "-p", "ann", "-p", "bob", "--seat-entropy")
    match_id, tokens = created["match_id"], created["tokens"]
    assert run.json("--url", server, "show", match_id)["decision"]["awaiting_entropy"] == [0, 1]
    seat0 = ["--url", server, "--token", tokens["seats"][0]["token"]]
    arbiter = ["--url", server, "--token", tokens["arbiter"]]
    assert "still waits for seats 1" in run(*seat0, "entropy", match_id, "--seat", "0", "ann over http").stdout
    assert "own seat" in run(*seat0, "entropy", match_id, "--seat", "1", "not mine", code=1).stderr
    assert "needs a token" in run("--url", server, "entropy", match_id, "--seat", "1", "anon", code=1).stderr
    done = run.json(*arbiter, "entropy", match_id, "--seat", "1", "--arbiter", "for bob")
    assert len(done["appended"]) == 5 and done["events"][0]["actor"] == {"kind": "arbiter", "seat": 1}
    assert "too late" in run(*arbiter, "entropy", match_id, "--seat", "0", "late", "--arbiter", code=1).stderr
    run(*arbiter, "play", match_id, "--watch", "-q")
    assert run.json("--url", server, "verify", match_id)["ok"]
    # a new match played by bots over HTTP: each bot seat's entropy goes with its own token
    assert "match over" in run("--url", server, "play", "test-dicevote", "-p", "bot", "-p", "bot",
                               "--seat-entropy", "-q").stdout
