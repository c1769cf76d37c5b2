"""The first hour of a new user at the terminal, the CLI run as a subprocess: resume hints that
work, prompt answers that say what exists, chance outcomes that say what they are, viewers that
exist, and `simulate` that says what it counts."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Any


def hint(output: str) -> list[str]:
    """The arguments of the last `resume with: ringside ...` hint printed."""
    line = [line for line in output.splitlines() if "resume with: ringside " in line][-1]
    return shlex.split(line.partition("resume with: ringside ")[2])


def test_a_resume_hint_names_the_store_and_the_seats(sh: Any, tmp_path: Path) -> None:
    store = tmp_path / "another store"
    out = sh("--store", str(store), "play", "test-dicevote", "-p", "me", "-p", "bot", "--no-board", "-q",
             input="quit\n").stdout
    again = hint(out)
    assert again[:3] == ["--store", str(store), "play"]
    resumed = sh(*again, "--no-board", "-q", input="quit\n")  # found in that store, not the default one
    assert "seat 0 (me) move>" in resumed.stdout
    watched = sh("--store", str(store), "play", "test-dicevote", "-p", "ann", "-p", "bob", "--watch", "-q",
                 "--max-moves", "1").stdout
    assert hint(watched)[-1] == "--watch"
