"""End to end, for every registered game: a match created, played, annotated, exported, imported
and verified; and every command once as a real subprocess."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from domain.kernel.registry import all_games

from .conftest import ROOT, Run

Shell = Callable[..., subprocess.CompletedProcess[str]]


def _seats(game: str) -> int:
    ruleset = all_games()[game]
    info = ruleset.variants[ruleset.default_variant]
    return max(info.min_seats, min(2, info.max_seats))


@pytest.mark.parametrize("game", sorted(all_games()))
def test_create_play_annotate_export_import_verify(run: Run, game: str, tmp_path: Path) -> None:
    seats = _seats(game)
    match_id = run.new(game, *[f"p{n}" for n in range(seats)])
    run("play", match_id, "--watch", "-q", "--seed", "3")
    summary = run.json("show", match_id)
    assert summary["status"] == "ended"
    events = run.json("log", match_id, "--as", "arbiter")
    last_move = max(e["seq"] for e in events if e["kind"] == "move")
    note = run.json("annotate", match_id, str(last_move), "the deciding move", "-g", "!", "-t", "e2e")
    assert note["hash"] == events[last_move - 1]["hash"]
    # every position renders for every viewer, and the score sheet carries rule IDs
    middle = max(2, len(events) // 2)
    for viewer in ("spectator", "seat:0", "arbiter"):
        assert run("show", match_id, "--at", str(middle), "--as", viewer).stdout.strip()
    assert run("show", match_id).stdout.strip()
    sheet = run.json("score", match_id)
    assert all(line["rule"] for line in sheet["lines"])
    assert run.json("step", match_id, "--batch", "--from", str(middle), "--to", str(middle + 2))
    # export, import elsewhere, verify both: the same record, hash for hash
    run("export", match_id, "-o", "match.jsonl")
    report = run.json("verify", "match.jsonl")
    assert report["ok"], report["summary"]
    assert report["annotations"] == 2
    other = str(tmp_path / "other-store")
    assert run.json("--store", other, "import", "match.jsonl")["match_id"] == match_id
    untrusted = run.json("--store", other, "verify", match_id, code=1)  # imported: nobody here vouches for it
    assert untrusted["intact"] and untrusted["divergence"]["check"] == "trust"
    origin = untrusted["signers"][0]["public_key"]
    assert run.json("--store", other, "verify", match_id, "--trust", origin)["ok"]
    imported = run.json("--store", other, "log", match_id, "--as", "arbiter")
    assert [e["hash"] for e in imported] == [e["hash"] for e in events]
    assert imported[last_move - 1]["annotations"][0]["text"] == "the deciding move"
    assert run.json("--store", other, "score", match_id)["totals"] == sheet["totals"]
    # the bundle itself is a read-only source for every reading command
    assert run.json("show", "match.jsonl", "--at", str(middle)) == run.json("show", match_id, "--at", str(middle))
    window = ("--batch", "--from", str(middle), "--to", str(middle + 3), "--as", "seat:0")
    assert run.json("step", "match.jsonl", *window) == run.json("step", match_id, *window)
    assert run.json("score", "match.jsonl", "--at", str(middle)) == run.json("score", match_id, "--at", str(middle))


def test_every_command_as_a_subprocess(sh: Shell, tmp_path: Path) -> None:
    assert "Usage" in sh("--help").stdout
    assert "test-dicevote" in sh("games").stdout
    created = json.loads(sh("new", "test-dicevote", "-p", "ann", "-p", "bob", "--json").stdout)
    match_id = created["match_id"]
    out = sh("play", match_id, "--human", "0", "--no-board", input="play card=99\nroll\n").stdout
    assert "illegal move (TG-1.2)" in out
    sh("play", match_id, "--watch", "-q")
    assert match_id in sh("matches").stdout
    shown = sh("show", match_id, "--at", "6").stdout
    assert "Players" in shown and "\x1b[" not in shown  # piped: no colour
    assert "ended" in sh("log", match_id).stdout
    assert "#3/" in sh("step", match_id, "--from", "3", "--to", "4").stdout  # stdin not a terminal: batch
    assert "changes from #1 to #6" in sh("diff", match_id, "1", "6").stdout
    assert "TG-" in sh("score", match_id).stdout
    assert "annotation" in sh("annotate", match_id, "6", "well rolled", "-g", "!").stdout
    fork = json.loads(sh("fork", match_id, "--at", "7", "--json").stdout)["match_id"]
    sh("play", fork, "--human", "0", "--human", "1", "--no-board", "-q", input="pass\n")
    assert "retracted" in sh("undo", "request", fork, "--seat", "1").stdout
    assert "no pending" in sh("undo", "list", fork).stdout
    assert "penalty ruling" in sh("rule", fork, "penalty", "--seat", "0", "--points", "1").stdout
    assert "seed" in sh("reveal", fork).stdout
    sh("rule", fork, "forfeit", "--seat", "1")
    sh("export", match_id, "-o", "m.jsonl")
    assert "VERIFIED" in sh("verify", "m.jsonl").stdout
    other = str(tmp_path / "elsewhere")
    assert "imported" in sh("--store", other, "import", "m.jsonl").stdout
    assert "NOT TRUSTED" in sh("--store", other, "verify", match_id[:8], code=1).stdout
    assert "bundles in" in sh("simulate", "test-dicevote", "-n", "2", "--out", "sims").stdout
    assert "HTTP API" in sh("serve", "--help").stdout
    # a tampered bundle: exit 1 naming the event; usage errors: exit 2, one line, no traceback
    lines = (tmp_path / "m.jsonl").read_text().splitlines(keepends=True)
    lines[4] = lines[4].replace('"seq":4', '"seq":5')
    (tmp_path / "bad.jsonl").write_text("".join(lines))
    bad = sh("verify", "bad.jsonl", code=1)
    assert "event 4" in bad.stdout
    for args in (["show", "nope"], ["verify", "missing.jsonl"], ["new", "chess"], ["bogus-command"],
                 ["show", match_id, "--at", "0"]):
        failed = sh(*args, code=2)
        assert "Traceback" not in failed.stderr and failed.stderr.strip()
    refused = sh("rule", match_id, "penalty", "--seat", "0", "--points", "1", code=1)
    assert refused.stderr.strip().count("\n") == 0 and "over" in refused.stderr


def test_installed_entry_point(tmp_path: Path, data_dir: Path) -> None:
    exe = Path(sys.executable).parent / "ringside"
    if not exe.exists():
        found = shutil.which("ringside")
        if found is None:
            pytest.skip("the ringside entry point is not installed in this environment")
        exe = Path(found)
    from .conftest import subprocess_env

    done = subprocess.run([str(exe), "games", "--json"], capture_output=True, text=True, cwd=tmp_path,
                          env=subprocess_env(data_dir), timeout=60)
    assert done.returncode == 0, done.stderr
    assert "carcassonne" in {game["name"] for game in json.loads(done.stdout)}
    assert ROOT.exists()


@pytest.mark.skipif(not hasattr(__import__("os"), "fork") or sys.platform == "win32", reason="needs a POSIX pty")
def test_step_with_keys_in_a_real_terminal(sh: Shell, data_dir: Path, tmp_path: Path) -> None:
    """`step` on a terminal reads single keys (no Enter): n, the right arrow, p, q."""
    import os
    import pty
    import re
    import select
    import termios
    import time

    from .conftest import subprocess_env

    match_id = json.loads(sh("new", "test-dicevote", "-p", "a", "-p", "b", "--json").stdout)["match_id"]
    sh("play", match_id, "--watch", "-q")
    pid, fd = pty.fork()
    if pid == 0:  # the child: the CLI on a terminal
        os.chdir(tmp_path)
        os.execve(sys.executable, [sys.executable, "-m", "replay_cli", "step", match_id, "--from", "3"],
                  subprocess_env(data_dir))
    seen = b""

    def wait_for(pattern: bytes, timeout: float = 30.0) -> None:
        nonlocal seen
        deadline = time.monotonic() + timeout
        while pattern not in re.sub(rb"\x1b\[[0-9;?]*[a-zA-Z]", b"", seen):
            assert time.monotonic() < deadline, f"no {pattern!r} in {seen[-500:]!r}"
            ready, _, _ = select.select([fd], [], [], 0.2)
            if ready:
                try:
                    seen += os.read(fd, 65536)
                except OSError:
                    break

    def wait_for_raw_mode(timeout: float = 30.0) -> None:
        """Until the CLI has put the terminal in raw mode to read its key (`click.getchar`):
        the master side of a pty reads the terminal's modes, so this waits for the switch itself
        rather than for a time it might take longer than."""
        deadline = time.monotonic() + timeout
        while termios.tcgetattr(fd)[3] & termios.ICANON:
            assert time.monotonic() < deadline, "the CLI never switched the terminal to raw mode"
            time.sleep(0.01)

    try:
        wait_for(b"#3/")
        for key, expected in ((b"n", b"#4/"), (b"\x1b[C", b"#5/"), (b"p", b"#4/"), (b"q", b"")):
            wait_for(b"[q]uit")  # the key prompt is up: the CLI is about to read one key
            wait_for_raw_mode()  # a key typed before the switch would be flushed by it
            seen = b""
            os.write(fd, key)
            if expected:
                wait_for(expected)
        _, status = os.waitpid(pid, 0)
        assert os.waitstatus_to_exitcode(status) == 0
    finally:
        os.close(fd)


def test_prune_answers_as_a_subprocess(sh: Shell, data_dir: Path) -> None:
    """Answers kept by the store are forgotten once older than the given duration; a bad duration
    or a remote source is a usage error (exit 2) with a reason."""
    from datetime import timedelta

    from domain.application import RequestKey, Ringside
    from domain.store.recorders import Answer
    from tests.support.helpers import new_match

    app = Ringside.open(data_dir=data_dir)
    try:
        match_id = new_match(app, players=1, variant="solo")
        for scope in ("key-1", "key-2"):
            app.record_answer(Answer(scope, "f", 422, "{}"))
        app.submit_move(match_id, 0, {"type": "pass"},
                        key=RequestKey("key-3", "f", lambda accepted: (200, {"version": accepted.version})))
    finally:
        app.close()
    kept = json.loads(sh("prune-answers", "--older-than", "7d", "--json").stdout)
    assert kept == {"pruned": 0, "older_than_seconds": int(timedelta(days=7).total_seconds())}
    assert "forgot 3 stored answers older than 0s" in sh("prune-answers", "--older-than", "0s").stdout
    bad = sh("prune-answers", "--older-than", "soon", code=2)
    assert "not a duration" in bad.stderr
    remote = sh("--url", "http://127.0.0.1:9", "prune-answers", "--older-than", "1d", code=2)
    assert "not over --url" in remote.stderr
