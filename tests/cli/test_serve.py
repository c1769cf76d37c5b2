"""`ringside serve` and `python -m api` where the port is taken: one line that says so (host,
port, what to do), exit 2, and no URL printed first. Both run as real subprocesses."""

from __future__ import annotations

import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from .conftest import ROOT, subprocess_env


@pytest.fixture
def taken_port() -> Iterator[int]:
    """A port another server is listening on."""
    with socket.socket() as other:
        other.bind(("127.0.0.1", 0))
        other.listen()
        yield int(other.getsockname()[1])


@pytest.mark.parametrize("command", [["-m", "replay_cli", "serve"], ["-m", "api"]], ids=["ringside", "api"])
def test_a_port_in_use_is_said_plainly_before_any_url(command: list[str], taken_port: int, data_dir: Path,
                                                      tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, *command, "--port", str(taken_port), "--data-dir", str(data_dir)],
                          capture_output=True, text=True, cwd=ROOT, env=subprocess_env(data_dir), timeout=120)
    assert done.returncode == 2, (done.returncode, done.stdout, done.stderr)
    assert done.stdout == ""  # no URL of a server that never ran
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert f"port {taken_port} is already in use on 127.0.0.1" in lines[0], lines[0]
    assert "--port" in lines[0] and lines[0].split(":")[0] in ("ringside", "python -m api")


def test_a_host_that_is_not_this_machine_is_named(data_dir: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "replay_cli", "serve", "--host", "192.0.2.1", "--port", "8000",
                           "--data-dir", str(data_dir)], capture_output=True, text=True, cwd=ROOT,
                          env=subprocess_env(data_dir), timeout=120)
    assert done.returncode == 2, (done.returncode, done.stdout, done.stderr)
    assert done.stdout == ""
    assert done.stderr.startswith("ringside: error: cannot listen on 192.0.2.1:8000: ") and "--host" in done.stderr
    assert len(done.stderr.splitlines()) == 1
