"""Gzipped bundles (`ringside export -o - | gzip > final.ringside.jsonl.gz`, as docs/cli.md
suggests) at the `ringside` command, run as a real subprocess: `verify` (a file, and a directory
holding *.jsonl.gz and *.ringside.gz), `import`, and `show` / `log` of the file read them as the
bundle they hold. Gzip is told by its magic bytes, not the name. A gzip bomb is refused with a
plain message, and reading it never holds more than the bound in memory."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from .conftest import subprocess_env

Shell = Callable[..., subprocess.CompletedProcess[str]]




def _gzipped(bundle: Path, target: Path) -> Path:
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(gzip.compress(bundle.read_bytes()))
    return target


def test_verify_show_and_log_read_a_gzipped_bundle_as_the_bundle(sh: Shell, bundle: Path, tmp_path: Path) -> None:
    packed = _gzipped(bundle, tmp_path / "final.ringside.jsonl.gz")
    plain = json.loads(sh("verify", str(bundle), "--json").stdout)
    report = json.loads(sh("verify", str(packed), "--json").stdout)
    assert report["ok"] is True and report == plain
    for command in (("show", "--json"), ("log", "--json"), ("score", "--json")):
        shown = sh(command[0], str(packed), *command[1:])
        assert shown.stdout == sh(command[0], str(bundle), *command[1:]).stdout
        assert "warning" not in shown.stderr, shown.stderr
    # by its content, not its name: gzip data named .jsonl is read too
    misnamed = _gzipped(bundle, tmp_path / "misnamed.ringside.jsonl")
    assert json.loads(sh("verify", str(misnamed), "--json").stdout)["ok"] is True


def test_verify_finds_gzipped_bundles_in_a_directory(sh: Shell, bundle: Path, tmp_path: Path) -> None:
    folder = tmp_path / "tournament"
    _gzipped(bundle, folder / "round1.jsonl.gz")
    _gzipped(bundle, folder / "round2.ringside.gz")
    (folder / "notes.txt.gz").write_bytes(gzip.compress(b"not a bundle"))  # not a bundle's name: not read
    report = json.loads(sh("verify", str(folder), "--json").stdout)
    assert (report["total"], report["failed"]) == (2, 0)
    assert sorted(Path(item["target"]).name for item in report["reports"]) == ["round1.jsonl.gz", "round2.ringside.gz"]


def test_import_reads_a_gzipped_bundle(sh: Shell, bundle: Path, tmp_path: Path) -> None:
    packed = _gzipped(bundle, tmp_path / "final.ringside.jsonl.gz")
    match_id = json.loads(bundle.read_text().split("\n")[0])["match_id"]
    other = tmp_path / "other-store"
    imported = json.loads(sh("--store", str(other), "import", str(packed), "--json").stdout)
    assert imported["match_id"] == match_id
    again = sh("--store", str(other), "export", match_id, "-o", "-").stdout
    assert again.splitlines()[1:-1] == bundle.read_text().splitlines()[1:-1]  # every event (not the exporter's lines)


def test_bad_gzip_data_is_named(sh: Shell, bundle: Path, tmp_path: Path) -> None:
    cut = tmp_path / "cut.ringside.jsonl.gz"
    cut.write_bytes(gzip.compress(bundle.read_bytes())[:-40])  # cut short in transfer
    failed = sh("import", str(cut), code=2)
    assert failed.stderr.startswith(f"ringside: error: cannot read {cut}: it is not valid gzip data")
    assert len(failed.stderr.splitlines()) == 1
    report = json.loads(sh("verify", str(cut), "--json", code=1).stdout)
    assert report["divergence"]["check"] == "read" and "not valid gzip data" in report["divergence"]["message"]


def _bomb(path: Path, gibibytes: int) -> Path:
    """A 2 MB file that gunzips to `gibibytes` GiB of zeros (gzip members, one after another)."""
    member = gzip.compress(bytes(1 << 20))
    path.write_bytes(member * (gibibytes * 1024))
    return path


@pytest.mark.skipif(sys.platform == "win32", reason="the memory bound is set with POSIX's RLIMIT_AS")
def test_a_gzip_bomb_is_refused_without_eating_memory(data_dir: Path, tmp_path: Path) -> None:
    """2 GiB once decompressed; each command runs with at most 1 GiB of address space, so one
    that held the whole would fail with MemoryError (exit 3), not refuse the file plainly."""
    import resource

    bomb = _bomb(tmp_path / "bomb.ringside.jsonl.gz", 2)

    def at_most_1_gib() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))

    def ringside(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "replay_cli", *args], capture_output=True, text=True,
                              cwd=tmp_path, env=subprocess_env(data_dir), timeout=300, preexec_fn=at_most_1_gib)

    said = "decompressed, it holds more than 256 MiB, more than any bundle"
    for command in (("import",), ("show",), ("log",)):
        refused = ringside(*command, str(bomb))
        assert refused.returncode == 2, (command, refused.returncode, refused.stderr)
        assert refused.stderr == f"ringside: error: cannot read {bomb}: {said} (refused: a damaged file, or a " \
                                 "gzip bomb)\n", refused.stderr
    verified = ringside("verify", str(bomb), "--json")
    assert verified.returncode == 1, (verified.returncode, verified.stderr)
    assert said in json.loads(verified.stdout)["divergence"]["message"]
