"""`ringside verify` over an archive, run as a real subprocess (docs/cli.md, `verify`):

- the failures are listed first, each with its report, then one summary line; records that hold
  are counted, not listed;
- with `-q` the output is exactly one line per failure and the summary line;
- `--json` is one JSON document (streamed) with every record's report and the totals;
- one worker process (`-j 1`) and several report the same failures in the same order;
- a stored match among the targets is verified through its store;
- the exit status is 1 when any record fails, 0 when all hold;
- on a terminal a progress bar shows the rate and the time left.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

Shell = Callable[..., subprocess.CompletedProcess[str]]


def _tamper(bundle: Path, path: Path, name: str) -> Path:
    """The bundle with one player's name changed in the created event: it still reads, but its
    hash chain no longer holds at event 1."""
    lines = bundle.read_text().split("\n")
    event = json.loads(lines[1])
    event["payload"]["seats"][0]["player"] = name
    lines[1] = json.dumps(event, separators=(",", ":"), sort_keys=True)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines))
    return path


@pytest.fixture
def archive(bundle: Path, tmp_path: Path) -> tuple[Path, set[str]]:
    """Six good bundles and two tampered ones, some in nested directories; the tampered paths."""
    root = tmp_path / "archive"
    (root / "round-2" / "table-b").mkdir(parents=True)
    for index in range(3):
        shutil.copy(bundle, root / f"good-{index}.ringside.jsonl")
        shutil.copy(bundle, root / "round-2" / "table-b" / f"good-{index}.jsonl")
    bad = {str(_tamper(bundle, root / "bad-1.jsonl", "mallory")),
           str(_tamper(bundle, root / "round-2" / "bad-2.ringside.jsonl", "eve"))}
    return root, bad


def _summary(line: str) -> bool:
    return line.startswith("Verified ")


def test_failures_come_first_then_one_summary_line(sh: Shell, archive: tuple[Path, set[str]]) -> None:
    root, bad = archive
    done = sh("verify", str(root), code=1)
    lines = done.stdout.rstrip("\n").split("\n")
    assert _summary(lines[-1]) and "Verified 8 records: 6 hold, 2 diverge" in lines[-1], done.stdout
    assert not any(_summary(line) for line in lines[:-1])
    for path in bad:  # each failure with its report: the check and the event
        assert f"DIVERGENCE  {path}" in done.stdout, done.stdout
    assert done.stdout.count("first divergence") == 2
    assert "good-" not in done.stdout  # what holds is counted, not listed


def test_quiet_prints_exactly_the_failures_and_the_summary(sh: Shell, archive: tuple[Path, set[str]]) -> None:
    root, bad = archive
    done = sh("verify", str(root), "-q", code=1)
    lines = done.stdout.rstrip("\n").split("\n")
    assert len(lines) == 3, done.stdout
    failures, summary = lines[:2], lines[2]
    assert {line.split(": ", 1)[0] for line in failures} == bad
    assert all(": FAILED at event 1: chain" in line for line in failures), failures
    assert "Verified 8 records: 6 hold, 2 diverge" in summary
    # one process or several: the same failures, in the same (the walk's) order
    alone = sh("verify", str(root), "-q", "-j", "1", code=1).stdout.rstrip("\n").split("\n")
    assert alone[:2] == failures and "1 process)" in alone[2]


def test_json_is_one_document_with_every_report(sh: Shell, archive: tuple[Path, set[str]]) -> None:
    root, bad = archive
    report = json.loads(sh("verify", str(root), "--json", code=1).stdout)
    assert (report["ok"], report["total"], report["failed"]) == (False, 8, 2)
    assert len(report["reports"]) == 8
    assert {item["target"] for item in report["reports"] if not item["ok"]} == bad
    assert all(item["divergence"]["check"] == "chain" for item in report["reports"] if not item["ok"])
    assert all(item["checked"] for item in report["reports"] if item["ok"])  # whole reports, not summaries


def test_all_hold_exits_0_and_a_stored_match_goes_through_its_store(sh: Shell, bundle: Path, tmp_path: Path) -> None:
    root = tmp_path / "fine"
    root.mkdir()
    for index in range(3):
        shutil.copy(bundle, root / f"m{index}.jsonl")
    match_id = json.loads(bundle.read_text().split("\n")[0])["match_id"]
    done = sh("verify", str(root), match_id[:8], "-q")
    assert done.stdout.strip().split("\n") == [done.stdout.strip()]
    assert "Verified 4 records: 4 hold, 0 diverge" in done.stdout
    report = json.loads(sh("verify", str(root), match_id[:8], "--json").stdout)
    assert report["ok"] and [item["target"] for item in report["reports"]][-1] == match_id[:8]
    other = tmp_path / "other-store"  # a store that does not hold the match: usage error, before any output
    refused = sh("--store", str(other), "verify", str(root), match_id[:8], "--json", code=2)
    assert refused.stdout == "" and "no such match" in refused.stderr


@pytest.mark.skipif(not hasattr(__import__("os"), "fork") or sys.platform == "win32", reason="needs a POSIX pty")
def test_progress_on_a_terminal_shows_the_rate_and_the_time_left(bundle: Path, data_dir: Path, tmp_path: Path) -> None:
    import os
    import pty
    import re

    from .conftest import subprocess_env

    root = tmp_path / "many"
    root.mkdir()
    for index in range(12):
        shutil.copy(bundle, root / f"m{index}.jsonl")
    pid, fd = pty.fork()
    if pid == 0:  # the child: the CLI on a terminal
        os.execve(sys.executable, [sys.executable, "-m", "replay_cli", "verify", str(root), "-q"],
                  {**subprocess_env(data_dir), "COLUMNS": "200"})
    seen = b""
    while True:
        try:
            chunk = os.read(fd, 65536)
        except OSError:  # the child has gone: the terminal is closed
            break
        if not chunk:
            break
        seen += chunk
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0, seen[-2000:]
    text = re.sub(rb"\x1b\[[0-9;?]*[a-zA-Z]", b"", seen).decode("utf-8", "replace")
    assert "verifying" in text and "records/s" in text and "ETA" in text, text[-2000:]
    assert "Verified 12 records: 12 hold, 0 diverge" in text, text[-2000:]
