"""Real matches with everything a record can hold besides moves: take-backs (requests, answers,
retractions, a redo), arbiter's rulings and annotations, recorded through the application.

The verification benchmark and the verification fast-path tests share them: a bundle of a bot match
with nothing but moves and draws exercises neither the undo checks nor the annotation stream, and a
fast path that is right only for such bundles would be wrong where it matters.
"""

from __future__ import annotations

import contextlib
import uuid
from dataclasses import dataclass
from pathlib import Path

from domain.application import Ringside
from domain.kernel.clock import FixedStepClock
from domain.kernel.errors import RingsideError
from domain.kernel.integrity import ServerKey
from domain.kernel.trust import Trust
from domain.kernel.viewers import Actor, Viewer

KEY_SEED = b"eventful"
"""Seed text of the recording server's (test) key."""


@dataclass(frozen=True)
class Recorded:
    """A recorded match as its bundle, with the key that recorded it."""

    bundle: str
    """As the arbiter exports it: everything."""
    spectator_bundle: str
    """As a spectator gets it: the annotation for seat 0's eyes redacted."""
    events: int
    annotations: int
    key: ServerKey

    def trust(self) -> Trust:
        return Trust.of([self.key.public_hex], "the recording server")


def record_eventful_match(data_dir: Path, game: str, players: list[str], *, variant: str | None = None,
                          seed: str = "5e" * 32, undo_every: int = 9, annotate_every: int = 20,
                          max_moves: int | None = None) -> Recorded:
    """Play a random-bot match to its end under the `consent` undo policy, taking back every
    `undo_every`-th move (the next seat consents; every other take-back is redone), with an
    arbiter's penalty and a correction ruling along the way and an annotation every
    `annotate_every` moves (one of them for seat 0's eyes only). Deterministic but for the hidden
    annotation's salt, which the application draws at random (the bundle is recorded once): the
    match ID derives from the game and seed, because the bots' choices derive from the match ID."""
    key = ServerKey.from_seed(KEY_SEED)
    app = Ringside.open(data_dir=data_dir, key=key, clock=FixedStepClock())
    try:
        accepted = app.create_match(game, players, variant=variant, seed=seed, undo_policy="consent",
                                    match_id=uuid.uuid5(uuid.NAMESPACE_URL, f"ringside:eventful:{game}:{seed}"))
        match_id = uuid.UUID(accepted.receipt.match_id)
        moves = undos = 0
        while app.play_bot(match_id, seed=moves) is not None:
            moves += 1
            if max_moves is not None and moves >= max_moves:
                break
            if moves % undo_every == 0:
                undos += _take_back(app, match_id, redo=undos % 2 == 1)
            if moves % annotate_every == 0:
                fold = app.fold(match_id)
                visibility = "seat:0" if moves % (annotate_every * 3) == 0 else "public"
                app.annotate(match_id, fold.seq, f"move {moves}: worth a look", actor=Actor.player(0),
                             glyphs=["!?"], tags=["bench"], visibility=visibility)
            if moves == 15:
                app.make_ruling(match_id, {"ruling": "penalty", "seat": 1, "points": 2,
                                           "note": "slow play"}, actor=Actor.arbiter())
            if moves == 31:
                _correction(app, match_id)
        assert undos, "no take-back was possible in this match"
        text = app.export_bundle(match_id)
        spectator = app.export_bundle(match_id, Viewer.spectator())
        entries = app.entries(match_id)
        return Recorded(text, spectator, len(entries), len(app.annotation_entries(match_id)), key)
    finally:
        app.close()


TABLES = {"carcassonne": ("big-top", "ca" * 32), "circus-train": ("basic", "c7" * 32)}
"""The eventful match of each game the verification tests and benchmarks share: four seats, the
variant and the seed (the bots' moves depend on both)."""


def record_eventful(data_dir: Path, game: str) -> Recorded:
    """The shared eventful match of `game` (TABLES), recorded in `data_dir`."""
    variant, seed = TABLES[game]
    return record_eventful_match(data_dir, game, ["A", "B", "C", "D"], variant=variant, seed=seed)


def _take_back(app: Ringside, match_id: uuid.UUID, *, redo: bool) -> int:
    """The last mover asks to take its move back; every other seat consents. 1 if it was taken back."""
    fold = app.fold(match_id)
    last = next((step for step in reversed(fold.steps) if step.kind == "move"), None)
    if last is None or last.seat is None:
        return 0
    try:
        request = app.request_undo(match_id, last.seat, reason="misclick")
    except RingsideError:
        return 0
    payload = request.entries[0].payload
    for seat in payload.get("consent_from", []):
        if app.fold(match_id).undo[payload["request"]].status == "pending":
            app.answer_undo(match_id, payload["request"], True, seat=seat, actor=Actor.player(seat))
    if app.fold(match_id).undo[payload["request"]].status == "pending":
        app.answer_undo(match_id, payload["request"], True, seat=None, actor=Actor.arbiter())
    if redo:
        with contextlib.suppress(RingsideError):
            app.redo(match_id, seat=None, actor=Actor.arbiter())
    return 1


def _correction(app: Ringside, match_id: uuid.UUID) -> None:
    """An arbiter's correction: take back from the last move (refused quietly where the rules do)."""
    fold = app.fold(match_id)
    last = next((step for step in reversed(fold.steps) if step.kind == "move"), None)
    if last is None:
        return
    with contextlib.suppress(RingsideError):
        app.make_ruling(match_id, {"ruling": "correction", "from_seq": last.seq, "note": "wrong tile"},
                        actor=Actor.arbiter())
