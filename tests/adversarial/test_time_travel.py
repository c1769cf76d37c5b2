"""Time travel: the fold at any position, rebuilt from the nearest snapshot, equals a fold of the
record's prefix from the start, across snapshots, retractions, redos and rulings."""

from __future__ import annotations

from domain.application import Ringside
from domain.kernel.fold import MatchFold
from domain.kernel.viewers import Actor
from tests.support.helpers import new_match


def _scratch(app: Ringside, match_id: object, at: int) -> MatchFold:
    entries = app.entries(match_id, 1, at)  # type: ignore[arg-type]
    fold = MatchFold(entries[0])
    for entry in entries[1:]:
        fold.consume(entry)
    return fold


def test_every_position_folds_the_same_from_a_snapshot_and_from_the_start(sqlite_app: Ringside) -> None:
    match_id = new_match(sqlite_app, players=3, options={"rounds": 16}, undo_policy="consent")
    step = 0
    while sqlite_app.fold(match_id).status == "active":
        fold = sqlite_app.fold(match_id)
        step += 1
        if step % 7 == 3 and fold.last_move_of(fold.decision.seats[0] if fold.decision.seats else 0):
            seat = fold.decision.seats[0] if fold.decision.seats else 0
            accepted = sqlite_app.request_undo(match_id, seat)
            if accepted.entries[-1].kind == "undo-requested":
                rid = accepted.entries[0].payload["request"]
                sqlite_app.answer_undo(match_id, rid, True, seat=None, actor=Actor.arbiter())
            if step % 2:
                sqlite_app.redo(match_id, seat=None, actor=Actor.arbiter())
            continue
        if step % 11 == 5:
            sqlite_app.make_ruling(match_id, {"ruling": "penalty", "seat": step % 3, "points": 1},
                                   actor=Actor.arbiter())
            continue
        sqlite_app.play_bot(match_id, seed=step)
    head = sqlite_app.fold(match_id).seq
    assert head > 200, head  # two snapshots at least
    for at in range(1, head + 1):
        stored = sqlite_app.fold(match_id, at)
        scratch = _scratch(sqlite_app, match_id, at)
        assert stored.to_snapshot() == scratch.to_snapshot(), at
        assert stored.decision == scratch.decision, at
    report = sqlite_app.verify_match(match_id)
    assert report.ok, report.summary()
