"""Matches full of take-backs, played through the application: bots move, seats ask to take back
recent moves (their own at once, others' with consent or an arbiter's yes, sometimes refused),
retractions are redone, and arbiters rule (penalties, corrections from any effective step).

Shared by the fold's property test (tests/kernel/test_fold_undo.py) and the time-travel
benchmark (benchmarks/bench_time_travel.py), so both measure and check the same kind of match."""

from __future__ import annotations

import random
import uuid

from domain.application import Ringside
from domain.kernel.errors import RingsideError
from domain.kernel.viewers import Actor

SEATS = {"test-dicevote": 3, "carcassonne": 3, "circus-train": 3, "russian-railroads": 3, "drum-roll": 3,
         "test-sealedbonus": 2}
OPTIONS: dict[str, dict[str, object]] = {"test-dicevote": {"rounds": 40}, "test-sealedbonus": {"rounds": 10}}


def undo_heavy_match(app: Ringside, game: str, events: int, seed: int, rulings: bool = True,
                     match_id: uuid.UUID | None = None) -> uuid.UUID:
    """A `game` match of at least `events` events (or played to its end), about a third of them
    undo requests, answers, retractions and redos. With a `match_id` (and the same seed and key)
    it is the same match every time: the draws hang on the match ID too."""
    seats = SEATS[game]
    accepted = app.create_match(game, [f"P{i}" for i in range(seats)], undo_policy="consent",
                                options=OPTIONS.get(game), seed=f"{seed % 256:02x}" * 32, match_id=match_id)
    match_id = uuid.UUID(accepted.receipt.match_id)
    rng = random.Random(seed)
    turn = 0
    while True:
        fold = app.fold(match_id)
        if fold.seq >= events or fold.status != "active":
            return match_id
        turn += 1
        roll = rng.random()
        try:
            if fold.redo_candidate is not None and roll < 0.3:
                app.redo(match_id, seat=None, actor=Actor.arbiter())
            elif roll < 0.2:
                _take_back(app, match_id, rng)
            elif rulings and roll < 0.22:
                steps = [step.seq for step in fold.steps]
                if steps and rng.random() < 0.5:
                    app.make_ruling(match_id, {"ruling": "correction", "from_seq": rng.choice(steps[-40:])},
                                    actor=Actor.arbiter())
                else:
                    app.make_ruling(match_id, {"ruling": "penalty", "seat": rng.randrange(seats), "points": 1},
                                    actor=Actor.arbiter())
            elif app.play_bot(match_id, seed=turn) is None:
                return match_id
        except RingsideError:  # a refused take-back (past a barrier, nothing to take back): play on
            if app.play_bot(match_id, seed=turn) is None:
                return match_id


def _take_back(app: Ringside, match_id: uuid.UUID, rng: random.Random) -> None:
    fold = app.fold(match_id)
    movers = [seat for seat in range(fold.seats) if fold.last_move_of(seat) is not None]
    if not movers:
        raise _Nothing("no seat has a move to take back yet")
    seat = rng.choice(movers)
    moves = [step.seq for step in fold.steps if step.kind == "move" and step.seat == seat]
    accepted = app.request_undo(match_id, seat, rng.choice(moves[-3:]))
    request = accepted.entries[0].payload
    if accepted.entries[-1].kind != "undo-requested" and len(accepted.entries) > 1:
        return  # taken back at once (the seat's own moves within the barrier)
    if rng.random() < 0.1:  # refused
        app.answer_undo(match_id, request["request"], False, seat=None, actor=Actor.arbiter())
        return
    for other in request["consent_from"]:
        app.answer_undo(match_id, request["request"], True, seat=other, actor=Actor.player(other))
    if request["arbiter_needed"]:
        app.answer_undo(match_id, request["request"], True, seat=None, actor=Actor.arbiter())


class _Nothing(RingsideError):
    """No seat has a move to take back yet."""
