"""Fixtures for the CLI tests: an isolated data directory, a CliRunner helper, a subprocess helper."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from replay_cli.main import cli
from tests.support.games import PYTHONPATH

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Run:
    """Runs `ringside` in-process (CliRunner) against one data directory."""

    data_dir: Path
    runner: CliRunner

    def __call__(self, *args: str, input: str | None = None, code: int | None = 0) -> Result:
        result = self.runner.invoke(cli, list(args), input=input, catch_exceptions=False)
        if code is not None:
            assert result.exit_code == code, (
                f"ringside {' '.join(args)} exited {result.exit_code}, wanted {code}\n"
                f"stdout:\n{result.stdout}\nstderr:\n{result.stderr}")
        return result

    def json(self, *args: str, code: int | None = 0) -> Any:
        return json.loads(self(*args, "--json", code=code).stdout)

    def new(self, game: str, *players: str, extra: tuple[str, ...] = ()) -> str:
        names = players or ("ann", "bob")
        args = ["new", game, *(arg for name in names for arg in ("-p", name)), *extra]
        return str(self.json(*args)["match_id"])


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "data"
    monkeypatch.setenv("RINGSIDE_DATA_DIR", str(path))
    monkeypatch.setenv("RINGSIDE_ARBITER", "tester")
    monkeypatch.delenv("RINGSIDE_DATABASE_URL", raising=False)
    monkeypatch.delenv("RINGSIDE_URL", raising=False)
    monkeypatch.delenv("RINGSIDE_TOKEN", raising=False)
    monkeypatch.delenv("COLUMNS", raising=False)  # piped output is laid out 160 wide
    monkeypatch.delenv("LINES", raising=False)
    monkeypatch.chdir(tmp_path)
    return path


@pytest.fixture
def run(data_dir: Path) -> Iterator[Run]:
    yield Run(data_dir, CliRunner())


def subprocess_env(data_dir: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("RINGSIDE_") and k not in ("COLUMNS", "LINES")}
    env.update({"RINGSIDE_DATA_DIR": str(data_dir), "PYTHONPATH": PYTHONPATH, "RINGSIDE_ARBITER": "tester",
                "NO_COLOR": "1", **extra})
    return env


@pytest.fixture
def sh(data_dir: Path, tmp_path: Path) -> Callable[..., subprocess.CompletedProcess[str]]:
    """Runs `python -m replay_cli` as a real subprocess."""

    def call(*args: str, input: str | None = None, code: int | None = 0,
             env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
        done = subprocess.run([sys.executable, "-m", "replay_cli", *args], input=input, text=True,
                              capture_output=True, cwd=tmp_path, env=env or subprocess_env(data_dir), timeout=120)
        if code is not None:
            assert done.returncode == code, (
                f"ringside {' '.join(args)} exited {done.returncode}, wanted {code}\n"
                f"stdout:\n{done.stdout}\nstderr:\n{done.stderr}")
        return done

    return call


@pytest.fixture
def played(run: Run) -> str:
    """A finished test-dicevote match with a human-played opening, ended by bots."""
    match_id = run.new("test-dicevote")
    run("play", match_id, "--human", "0", "--no-board", input="roll\n")
    run("play", match_id, "--watch", "-q")
    return match_id


@pytest.fixture
def bundle(sh: Callable[..., subprocess.CompletedProcess[str]], tmp_path: Path) -> Path:
    """A finished test-dicevote match of the local store, exported to a plain bundle file."""
    match_id = json.loads(sh("new", "test-dicevote", "-p", "ann", "-p", "bob", "--json").stdout)["match_id"]
    sh("play", match_id, "--watch", "-q")
    path = tmp_path / "good.ringside.jsonl"
    sh("export", match_id, "-o", str(path))
    return path
