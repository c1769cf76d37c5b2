"""Random command sequences through the application (moves, bots, undo requests, answers, redos,
rulings, annotations, forks), valid and not: every refusal is typed and changes nothing, and after
every accepted command the record verifies. Whatever the application records, its own verifier
must accept."""

from __future__ import annotations

import random
import uuid
from collections.abc import Callable
from typing import Any

import pytest

from domain.application import Accepted, Ringside
from domain.kernel.errors import RingsideError
from domain.kernel.viewers import Actor
from tests.support.helpers import new_match

from .support import record_of

ACTORS = [Actor.player(0), Actor.player(1), Actor.player(2), Actor.arbiter(), Actor("substitute", 1, "S"),
          Actor("recorder")]


def _command(app: Ringside, match_id: uuid.UUID, rng: random.Random) -> Callable[[], Any]:
    fold = app.fold(match_id)
    seats = fold.seats
    seat = rng.randrange(seats)
    actor = rng.choice(ACTORS)
    choice = rng.randrange(12)
    if choice <= 3:
        return lambda: app.play_bot(match_id, seed=rng.randrange(1000))
    if choice == 4:
        move = rng.choice([{"type": "pass"}, {"type": "roll"}, {"type": "vote", "choice": "high"},
                           {"type": "play", "card": rng.randrange(1, 7)}])
        return lambda: app.submit_move(match_id, seat, move, actor=rng.choice([Actor.player(seat), actor]))
    if choice == 5:
        steps = [s.seq for s in fold.steps if s.kind == "move"]
        target = rng.choice(steps) if steps and rng.random() < 0.5 else None
        return lambda: app.request_undo(match_id, seat, target, actor=rng.choice([Actor.player(seat), actor]))
    if choice == 6:
        pending = [r for r in fold.undo.values() if r.status == "pending"]
        if pending:
            request = rng.choice(pending)
            answer_seat = rng.choice([None, *request.consent_from, seat])
            who = Actor.arbiter() if answer_seat is None else Actor.player(answer_seat)
            return lambda: app.answer_undo(match_id, request.id, rng.random() < 0.8, seat=answer_seat,
                                           actor=rng.choice([who, actor]))
        return lambda: None
    if choice == 7:
        redo_seat = rng.choice([None, seat])
        return lambda: app.redo(match_id, seat=redo_seat, actor=Actor.arbiter() if redo_seat is None else
                                Actor.player(redo_seat))
    if choice == 8:
        steps = [s.seq for s in fold.steps]
        ruling = rng.choice([
            {"ruling": "penalty", "seat": seat, "points": rng.randrange(-2, 4)},
            {"ruling": "correction", "from_seq": rng.choice(steps) if steps else 1},
            {"ruling": "illegal-move-stands", "seat": seat,
             "move": rng.choice([{"type": "pass"}, {"type": "vote", "choice": "low"}, {"type": "roll"}])},
            {"ruling": "forfeit", "seat": seat} if rng.random() < 0.1 else {"ruling": "penalty", "seat": 0,
                                                                            "points": 1},
        ])
        return lambda: app.make_ruling(match_id, ruling, actor=rng.choice([Actor.arbiter(), Actor.arbiter(), actor]))
    if choice == 9:
        return lambda: app.annotate(match_id, rng.randrange(1, fold.seq + 1), "note", actor=actor,
                                    visibility=rng.choice(["public", "arbiter", f"seat:{seat}"]))
    if choice == 10:
        return lambda: app.fork(match_id, rng.randrange(1, fold.seq + 1), actor=Actor.arbiter())
    outcome = rng.randrange(0, 8)
    return lambda: app.submit_outcome(match_id, outcome, actor=Actor("recorder"))


@pytest.mark.parametrize("case", range(16))
def test_random_command_sequences_keep_the_record_verifiable(sqlite_app: Ringside, case: int) -> None:
    rng = random.Random(case)
    policy = ["own-turn", "consent", "arbiter-only", "none"][case % 4]
    players = 1 + case % 3 if case % 5 else 2
    variant = "solo" if players == 1 else "standard"
    match_id = new_match(sqlite_app, players=players, variant=variant, undo_policy=policy,
                         randomness="recorded" if case % 3 == 2 else "server", options={"rounds": 3})
    for _ in range(80):
        if sqlite_app.fold(match_id).status != "active":
            break
        command = _command(sqlite_app, match_id, rng)
        before = record_of(sqlite_app, match_id)
        try:
            result = command()
        except RingsideError:
            assert record_of(sqlite_app, match_id) == before
            continue
        if result is not None:
            report = sqlite_app.verify_match(match_id)
            assert report.ok, report.summary()
        if isinstance(result, Accepted) and result.receipt.match_id != str(match_id):  # a fork
            fork = sqlite_app.verify_match(uuid.UUID(result.receipt.match_id))
            assert fork.ok, fork.summary()
    report = sqlite_app.verify_match(match_id)
    assert report.ok, report.summary()
