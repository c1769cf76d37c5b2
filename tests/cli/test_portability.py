"""Every local-store command runs where POSIX-only parts of the standard library are missing, as
on Windows: no `fcntl` module, no `os.O_CLOEXEC`, no `os.O_NONBLOCK`. The store's writer lock,
its owner-only files and the bundle-file reader must do without them.

Windows itself is not at hand here: the command runs as a subprocess in which those names are
taken away before Ringside is imported. filelock, which takes the lock, is imported first and
keeps its own backend (on Windows, LockFileEx); the writer lock then waits filelock's way, by
polling, instead of in the kernel."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from .conftest import subprocess_env

WITHOUT_POSIX = """
import os, sys
import filelock  # its platform's backend
sys.modules["fcntl"] = None  # `import fcntl` now raises ImportError, as on Windows
for name in ("O_CLOEXEC", "O_NONBLOCK"):
    delattr(os, name)
from replay_cli.main import cli
cli(prog_name="ringside")
"""


def _ringside(data_dir: Path, tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([sys.executable, "-c", WITHOUT_POSIX, *args], capture_output=True, text=True,
                          cwd=tmp_path, env=subprocess_env(data_dir), timeout=120)
    assert done.returncode == 0, f"ringside {' '.join(args)} exited {done.returncode}\n{done.stdout}\n{done.stderr}"
    assert not any(word in done.stderr for word in ("error", "warning", "Traceback")), done.stderr
    return done


def test_local_store_commands_need_no_posix_only_modules(data_dir: Path, tmp_path: Path) -> None:
    match_id = json.loads(_ringside(data_dir, tmp_path, "new", "test-dicevote", "-p", "ann", "-p", "bob",
                                    "--json").stdout)["match_id"]
    _ringside(data_dir, tmp_path, "play", match_id, "--watch", "-q")  # every move through the writer lock
    bundle = tmp_path / "match.ringside.jsonl"
    _ringside(data_dir, tmp_path, "export", match_id, "-o", str(bundle))
    assert json.loads(_ringside(data_dir, tmp_path, "verify", str(bundle), "--json").stdout)["ok"] is True
    assert json.loads(_ringside(data_dir, tmp_path, "show", str(bundle), "--json").stdout)
