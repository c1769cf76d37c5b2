"""Bundle files and odd paths at the `ringside` command, run as a real subprocess.

- `show` and `log` of a bundle that does not verify print what the file says, with a warning line
  on stderr that names the failed check;
- `import` refuses a bundle whose line ends were changed to CRLF (a bundle is canonical LF JSON
  Lines: the signed bytes);
- `verify` on a directory reports file by file, whatever is in it (a deeply nested bundle, FIFOs,
  devices, links, loops, unreadable places), and keeps the documented exit statuses;
- a match ID too long for any match is a plain "no such match" (exit 2).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from .conftest import ROOT, subprocess_env

Shell = Callable[..., subprocess.CompletedProcess[str]]




def _tampered(bundle: Path, tmp_path: Path) -> Path:
    """The bundle with one player's name changed in the created event: it still reads, but its
    hash chain no longer holds."""
    lines = bundle.read_text().split("\n")
    event = json.loads(lines[1])
    event["payload"]["seats"][0]["player"] = "mallory"
    lines[1] = json.dumps(event, separators=(",", ":"), sort_keys=True)
    path = tmp_path / "tampered.ringside.jsonl"
    path.write_text("\n".join(lines))
    return path


def test_show_and_log_warn_about_a_bundle_that_does_not_verify(sh: Shell, bundle: Path, tmp_path: Path) -> None:
    tampered = _tampered(bundle, tmp_path)
    for command in (("show",), ("log",), ("show", "--json"), ("log", "--json"), ("score",)):
        good = sh(command[0], str(bundle), *command[1:])
        assert "warning" not in good.stderr, good.stderr
        bad = sh(command[0], str(tampered), *command[1:])  # still shown, and still exit 0
        warnings = [line for line in bad.stderr.splitlines() if line.startswith("ringside: warning: ")]
        assert len(warnings) == 1, bad.stderr
        assert str(tampered) in warnings[0] and "does not verify" in warnings[0]
        assert "FAILED at event 1: " in warnings[0]  # the failed check and where
        if "--json" in command:
            json.loads(bad.stdout)  # the output itself stays plain JSON
    assert "mallory" in sh("show", str(tampered)).stdout


def test_import_refuses_a_bundle_with_crlf_line_ends(sh: Shell, bundle: Path, tmp_path: Path) -> None:
    crlf = tmp_path / "crlf.ringside.jsonl"
    crlf.write_bytes(bundle.read_bytes().replace(b"\n", b"\r\n"))
    other = tmp_path / "other-store"
    done = sh("--store", str(other), "import", str(crlf), code=2)
    assert "CRLF" in done.stderr and "LF line ends" in done.stderr and str(crlf) in done.stderr, done.stderr
    assert json.loads(sh("--store", str(other), "matches", "--json").stdout) == []
    verified = sh("verify", str(crlf), code=1)  # verify reads the very bytes too
    assert "DIVERGENCE" in verified.stdout
    sh("--store", str(other), "import", str(bundle))  # the bundle as exported comes in


def test_a_match_id_too_long_for_any_match_is_no_such_match(sh: Shell) -> None:
    for ref in ("a" * 300, "a" * 37, "0123456789abcdef" * 40, "ab/" * 100):
        for command in ("show", "log", "score", "verify"):
            done = sh(command, ref, code=2)
            lines = done.stderr.strip().splitlines()
            assert len(lines) == 1 and lines[0].startswith("ringside: error: "), done.stderr
            assert "internal error" not in done.stderr
            assert "no such match" in done.stderr or "neither a match ID nor a bundle file" in done.stderr \
                or "no such file" in done.stderr, done.stderr


def _deep(path: Path, bundle: Path) -> None:
    lines = bundle.read_text().split("\n")
    lines[2] = '{"payload": ' + "[" * 100_000 + "]" * 100_000 + "}"
    path.write_text("\n".join(lines))


def test_verify_reports_a_directory_file_by_file_whatever_it_holds(sh: Shell, bundle: Path, tmp_path: Path) -> None:
    tree = tmp_path / "tree"
    (tree / "nested" / "deeper").mkdir(parents=True)
    shutil.copy(bundle, tree / "good.jsonl")
    shutil.copy(bundle, tree / "nested" / "deeper" / "also-good.ringside")
    _deep(tree / "deep.jsonl", bundle)
    os.mkfifo(tree / "fifo.jsonl")  # reading it would wait forever
    (tree / "zero.jsonl").symlink_to("/dev/zero")  # reading it would never end
    (tree / "dangling.jsonl").symlink_to(tree / "nowhere")
    (tree / "nested" / "loop").symlink_to(tree)  # following it would never end
    (tree / "notes.txt").write_text("not a bundle")
    done = sh("verify", str(tree), code=1)
    assert "deep.jsonl" in done.stdout and "nested too deeply" in done.stdout, done.stdout
    assert "Verified 3 records: 2 hold, 1 diverge" in done.stdout, done.stdout
    for skipped in ("fifo.jsonl", "zero.jsonl", "dangling.jsonl"):
        assert f"skipped {tree / skipped}" in done.stderr, done.stderr
    report = json.loads(sh("verify", str(tree), "--json", code=1).stdout)
    assert (report["total"], report["failed"]) == (3, 1)
    assert {Path(r["target"]).name: r["ok"] for r in report["reports"]} == \
        {"good.jsonl": True, "also-good.ringside": True, "deep.jsonl": False}
    single = sh("verify", str(tree / "deep.jsonl"), code=1)  # one file: its own report, exit 1
    assert "nested too deeply" in single.stdout
    assert "not a regular file" in sh("verify", str(tree / "fifo.jsonl"), code=2).stderr
    assert "no bundle files" in sh("verify", "/dev", code=2).stderr  # devices, sockets: passed by, never read


def test_verify_passes_by_what_it_may_not_read(sh: Shell, data_dir: Path, bundle: Path, tmp_path: Path) -> None:
    prefix: tuple[str, ...] = ()
    if os.geteuid() == 0:  # root reads anything: drop the capabilities that let it
        setpriv = shutil.which("setpriv")
        if setpriv is None:
            pytest.skip("running as root without setpriv")
        prefix = (setpriv, "--bounding-set", "-dac_override,-dac_read_search", "--")
    tree = tmp_path / "tree"
    (tree / "locked").mkdir(parents=True)
    shutil.copy(bundle, tree / "good.jsonl")
    shutil.copy(bundle, tree / "locked" / "hidden.jsonl")
    shutil.copy(bundle, tree / "unreadable.jsonl")
    (tree / "unreadable.jsonl").chmod(0)
    (tree / "locked").chmod(0)
    try:
        done = subprocess.run([*prefix, sys.executable, "-m", "replay_cli", "verify", str(tree)], capture_output=True,
                              text=True, cwd=ROOT, env=subprocess_env(data_dir), timeout=120)
    finally:
        (tree / "locked").chmod(0o700)
    assert done.returncode == 1, (done.stdout, done.stderr)
    assert f"skipped {tree / 'locked'}: Permission denied" in done.stderr, done.stderr
    assert "cannot read" in done.stdout and "unreadable.jsonl" in done.stdout, done.stdout
    assert "Verified 2 records: 1 hold, 1 diverge" in done.stdout, done.stdout
