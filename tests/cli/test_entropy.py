"""`ringside new/play --seat-entropy` and `ringside entropy`, run as real subprocesses on a local store."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable

Shell = Callable[..., subprocess.CompletedProcess[str]]


def test_a_seat_entropy_match_from_the_shell(sh: Shell) -> None:
    created = json.loads(sh("new", "test-dicevote", "-p", "ann", "-p", "bob", "--seat-entropy", "--json").stdout)
    match_id = created["match_id"]
    assert created["appended"] == [1]  # nothing drawn yet
    summary = json.loads(sh("show", match_id, "--json").stdout)
    assert summary["decision"]["awaiting_entropy"] == [0, 1]
    shown = sh("show", match_id).stdout
    assert "drawn once seats 0, 1 add their entropy" in shown

    first = sh("entropy", match_id, "--seat", "0", "ann's noise: 8 3 1").stdout
    assert "seat 0's entropy recorded at #2" in first and "still waits for seats 1" in first
    twice = sh("entropy", match_id, "--seat", "0", "again", code=1)
    assert "already added" in twice.stderr and twice.stderr.count("\n") == 1
    bad = sh("entropy", match_id, "--seat", "1", "bell\x07", code=2)
    assert "control characters" in bad.stderr
    assert "no seat" in sh("entropy", match_id, "--seat", "7", "x", code=2).stderr
    last = json.loads(sh("entropy", match_id[:8], "--seat", "1", "--arbiter", "for bob", "--json").stdout)
    assert last["receipt"]["seq"] == 3 and len(last["appended"]) == 5
    assert "too late" in sh("entropy", match_id, "--seat", "1", "late", code=1).stderr

    sh("play", match_id, "--watch", "-q")
    report = json.loads(sh("verify", match_id, "--json").stdout)
    assert report["ok"], report["summary"]
    assert report["checked"]["entropy"] == 2
    assert any("entered by an arbiter" in note for note in report["notes"])
    log = sh("log", match_id).stdout
    assert "adds entropy ann's noise: 8 3 1" in log and "(entered by an arbiter)" in log
    events = json.loads(sh("log", match_id, "--json").stdout)
    assert [e["payload"] for e in events if e["kind"] == "entropy-added"] == [
        {"seat": 0, "entropy": "ann's noise: 8 3 1"}, {"seat": 1, "entropy": "for bob"}]
    assert [e["actor"]["kind"] for e in events if e["kind"] == "entropy-added"] == ["seat", "arbiter"]


def test_refusals_from_the_shell(sh: Shell) -> None:
    recorded = sh("new", "test-dicevote", "-p", "a", "-p", "b", "--seat-entropy", "--randomness", "recorded",
                  code=2)
    assert "recorded mode" in recorded.stderr
    plain = json.loads(sh("new", "test-dicevote", "-p", "a", "-p", "b", "--json").stdout)["match_id"]
    assert "takes no entropy from its seats" in sh("entropy", plain, "--seat", "0", "x", code=1).stderr
    assert "Missing option '--seat'" in sh("entropy", plain, "x", code=2).stderr


def test_play_asks_the_human_seat_for_entropy_and_bots_make_theirs_up(sh: Shell) -> None:
    out = sh("play", "test-dicevote", "-p", "ann", "-p", "bot", "--seat-entropy", "--no-board",
             "--max-moves", "1", input="\x01\nmy own noise\npass\n").stdout
    assert "type some entropy of your own" in out and "control characters" in out
    match_id = out.split("match ", 1)[1].split(" ", 1)[0]
    events = json.loads(sh("log", match_id, "--json").stdout)
    entropy = {e["payload"]["seat"]: e for e in events if e["kind"] == "entropy-added"}
    assert entropy[0]["payload"]["entropy"] == "my own noise" and entropy[0]["actor"] == {"kind": "seat", "seat": 0}
    assert entropy[1]["actor"]["kind"] == "bot" and len(entropy[1]["payload"]["entropy"]) == 32
    sh("play", match_id, "--watch", "-q")
    assert json.loads(sh("verify", match_id, "--json").stdout)["ok"]
    watched = sh("play", "test-dicevote", "-p", "bot", "-p", "bot", "--seat-entropy", "-q").stdout
    assert "match over" in watched
