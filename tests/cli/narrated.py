"""What the games' narration suites share (test_narration_drum_roll.py, _russian_railroads.py): a
bot-played match recorded through the CLI and read back as `ringside log` and `step` read it, and
the checks every game's words go through."""

from __future__ import annotations

import re
import typing
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from domain.kernel.viewers import Viewer
from replay_cli.render.common import move_text
from replay_cli.render.narrate import Narrator, narrate_log, words
from replay_cli.source import LocalSource

from .conftest import Run

VIEWERS = ("spectator", "seat:0", "arbiter")
NAMES = ("ann", "bob", "cyd")


class Played:
    """One finished three-seat match: its summary and its log as each viewer reads it."""

    def __init__(self, run: Run, source: LocalSource, match_id: str) -> None:
        self.run = run
        self.source = source
        self.match_id = match_id
        self.summary = source.summary(match_id)
        self.logs = {viewer: source.log(match_id, Viewer.parse(viewer)) for viewer in VIEWERS}
        self.said = {viewer: {seq: text for seq, (text, _) in narrate_log(self.summary, log, {}).items()}
                     for viewer, log in self.logs.items()}

    def first(self, viewer: str, test: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        return next(entry for entry in self.logs[viewer] if test(entry))

    def of(self, viewer: str, kind: str) -> list[dict[str, Any]]:
        """The viewer's log entries of moves of one type."""
        return [entry for entry in self.logs[viewer] if move_of(entry).get("type") == kind]


def play(tmp_path_factory: pytest.TempPathFactory, game: str, seed: int) -> Played:
    """A three-seat `game` match simulated with `seed` (the same match every run) into a store of
    its own, read back through the store (`LocalSource`)."""
    data_dir: Path = tmp_path_factory.mktemp(f"{game}-narration")
    # A module's fixture runs outside conftest's per-test environment: the terminal's width is
    # dropped here too, so the table is laid out 160 wide on any machine (CI's terminal is narrow).
    run = Run(data_dir, CliRunner(env={"RINGSIDE_DATA_DIR": str(data_dir), "RINGSIDE_ARBITER": "tester",
                                     "COLUMNS": None, "LINES": None}))
    done = run.json("simulate", game, "-n", "1", "--players", "3", "--seed", str(seed))
    return Played(run, LocalSource(data_dir=str(data_dir)), done["results"][0]["match_id"])


def move_of(entry: dict[str, Any]) -> dict[str, Any]:
    return (entry.get("payload") or {}).get("move") or {}


def generic_sentence(summary: dict[str, Any], entry: dict[str, Any]) -> str:
    """The kernel's own sentence for an entry (what a game without a hook shows)."""
    return Narrator({**summary, "game": "no-such-game"}).sentence(entry)


def lines_starting(lines: list[str], start: str) -> list[str]:
    return [line for line in lines if line.startswith(start)]


def check_examples(game: str, move_union: Any, examples: dict[str, tuple[dict[str, Any], str]]) -> Narrator:
    """Every move type of the game has an example, and each reads, for seat 1 (bob), as written.
    Returns the narrator, for a game's further sentences."""
    union = {model.model_fields["type"].default for model in typing.get_args(move_union)}
    assert set(examples) == union  # a new move type needs its words (and an example here)
    narrator = Narrator({"game": game, "seats": [{"seat": s, "player": n} for s, n in enumerate(NAMES)]})
    for seq, (kind, (fields, words_)) in enumerate(examples.items(), start=2):
        entry = {"seq": seq, "kind": "move", "payload": {"seat": 1, "move": {"type": kind, **fields}}}
        assert narrator.sentence(entry) == f"seat 1 (bob) {words_}"
    return narrator


def told_in_words(played: Played) -> set[str]:
    """Checks that every move and chance draw of the match, for every viewer, is told in the game's
    words: never the kernel's `plays type key=value`, nor its generic sentence, nor a draw's bare
    kind, nor any raw `key=value`. Returns the move types told openly (a hidden move names none)."""
    told: set[str] = set()
    for viewer in VIEWERS:
        for entry in played.logs[viewer]:
            sentence = played.said[viewer][entry["seq"]]
            payload = entry.get("payload") or {}
            if entry["kind"] == "move":
                if not payload.get("hidden"):
                    told.add(move_of(entry)["type"])
                    assert f"plays {move_text(move_of(entry))}" not in sentence, sentence
                assert sentence != generic_sentence(played.summary, entry), (viewer, entry, sentence)
            elif entry["kind"] == "chance":
                assert not sentence.startswith(words(payload.get("kind"))), (viewer, entry, sentence)
            if entry["kind"] in ("move", "chance"):
                assert not re.search(r"\b\w+=", sentence), sentence  # no raw key=value wording
    return told
