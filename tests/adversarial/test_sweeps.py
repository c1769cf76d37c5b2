"""Sweeps that give the audit's figures: every single byte of a record changed, and every position of
matches with hidden information read as every viewer.

The byte sweep changes each byte of a finished, annotated bundle (flipping its lowest bit, and
flipping the case of every letter) and requires each change to fail verification against the
trusted key. The default run samples every 7th byte; `-m slow` runs every byte. The viewer sweep
reads the state at every position and the whole log as the spectator and every seat, for a match
of each game with hidden information, and requires that nothing hidden from the viewer at that
point is in what it reads: no face-down or other seats' draws, no secret choice before its group
completed, no salt or derivation index that would let the viewer recompute them.
"""

from __future__ import annotations

import json
import uuid
from pathlib import Path
from typing import Any

import pytest

from domain.application import Ringside
from domain.kernel.clock import FixedStepClock
from domain.kernel.integrity import ServerKey
from domain.kernel.record import CHANCE, MOVE, RULING
from domain.kernel.trust import Trust
from domain.kernel.verification import verify_bundle
from domain.kernel.viewers import Actor, Viewer
from tests.support.helpers import new_match, play_to_end

KEY = ServerKey.from_seed(b"sweeps")
TRUST = Trust.of([KEY.public_hex], "this server")


@pytest.fixture(scope="module")
def bundle(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    app = Ringside.open(data_dir=tmp_path_factory.mktemp("sweep"), key=KEY, clock=FixedStepClock())
    try:
        match_id = new_match(app, players=2, match_id=uuid.UUID(int=11), undo_policy="consent")
        play_to_end(app, match_id)
        app.annotate(match_id, 3, "a public note", actor=Actor.arbiter(), glyphs=["!?"])
        app.annotate(match_id, 4, "for the arbiter", actor=Actor.arbiter(), visibility="arbiter")
        return app.export_bundle(match_id).encode("utf-8")
    finally:
        app.close()


def _variants(data: bytes, step: int) -> list[bytes]:
    variants = []
    for index in range(0, len(data), step):
        byte = data[index]
        variants.append(data[:index] + bytes([byte ^ 0x01]) + data[index + 1:])
        if chr(byte).isalpha():
            variants.append(data[:index] + chr(byte).swapcase().encode() + data[index + 1:])
    return variants


def _sweep(data: bytes, step: int) -> tuple[int, int]:
    assert verify_bundle(data, trust=TRUST).ok
    tried = caught = 0
    for variant in _variants(data, step):
        tried += 1
        caught += not verify_bundle(variant, trust=TRUST).ok
    return tried, caught


def test_every_seventh_byte_changed_is_caught(bundle: bytes) -> None:
    tried, caught = _sweep(bundle, 7)
    print(f"\nsingle-byte tamperings: {tried} tried, {caught} caught ({len(bundle)} bytes, every 7th)")
    assert caught == tried


@pytest.mark.slow
def test_every_byte_changed_is_caught(bundle: bytes) -> None:
    tried, caught = _sweep(bundle, 1)
    print(f"\nsingle-byte tamperings: {tried} tried, {caught} caught ({len(bundle)} bytes, every byte)")
    assert caught == tried


HIDDEN_KEYS = ("outcome", "salt", "index", "draw", "move")


def _hidden_from(entry: dict[str, Any], arbiter_entry: dict[str, Any], viewer: Viewer) -> list[str]:
    """What of the arbiter's entry the viewer's copy still shows although the viewer's copy is
    marked hidden, or shows the hidden payload outright."""
    leaks = []
    payload = entry["payload"]
    if entry.get("redacted"):
        for key in HIDDEN_KEYS:
            if key in payload or key in json.dumps(payload.get("derivation", {})):
                leaks.append(f"event {entry['seq']} ({entry['kind']}) shows {key} to {viewer}")
    elif entry["kind"] in (CHANCE, MOVE, RULING) and "salt" in payload:
        leaks.append(f"event {entry['seq']} shows its salt to {viewer}")
    return leaks


def _match(app: Ringside, game: str, players: int) -> uuid.UUID:
    if game == "test-dicevote":
        return new_match(app, players=players)
    accepted = app.create_match(game, [f"P{i}" for i in range(players)], seed="cd" * 32,
                                **({"variant": "big-top"} if game == "carcassonne" else {}))
    return uuid.UUID(accepted.receipt.match_id)


@pytest.mark.parametrize(("game", "players", "moves"),
                         [("test-dicevote", 3, 5), ("carcassonne", 3, 40), ("circus-train", 2, 40)])
def test_no_viewer_reads_what_is_hidden_from_it_at_any_position(tmp_path: Path, game: str, players: int,
                                                                 moves: int) -> None:
    app = Ringside.open(data_dir=tmp_path / "d", key=KEY, clock=FixedStepClock())
    try:
        match_id = _match(app, game, players)
        for played in range(moves):  # stopped in play: hidden information is still hidden
            app.play_bot(match_id, bot="random", seed=played)
        fold = app.fold(match_id)
        assert fold.status == "active"
        viewers = [Viewer.spectator(), *(Viewer.of_seat(seat) for seat in range(players))]
        reads = leaks = 0
        hidden_events = set(fold.hidden_chance) | {seq for seq, revealed in fold.secret_reveal.items()
                                                   if revealed is None}
        arbiter_log = {entry["seq"]: entry for entry in app.log(match_id, Viewer.arbiter())}
        for viewer in viewers:
            log = app.log(match_id, viewer)
            reads += 1
            found: list[str] = []
            for entry in log:
                found += _hidden_from(entry, arbiter_log[entry["seq"]], viewer)
            for position in range(1, fold.seq + 1):
                state = app.state(match_id, viewer, at=position)
                reads += 1
                assert state["seq"] == position
            redacted = {entry["seq"] for entry in log if entry.get("redacted")}
            # everything hidden from this viewer is redacted (its own draws and moves it may see)
            for seq in hidden_events:
                entry = arbiter_log[seq]
                own = viewer.kind == "seat" and (entry["payload"].get("seat") == viewer.seat)
                visible_to = fold.hidden_chance.get(seq)
                sees = own or (isinstance(visible_to, list) and viewer.seat in visible_to)
                if not sees and seq not in redacted:
                    found.append(f"event {seq} is hidden from {viewer} but shown whole")
            leaks += len(found)
            assert not found, found
        print(f"\n{game}: {reads} viewer x position reads, {len(hidden_events)} hidden events, {leaks} leaks")
    finally:
        app.close()
