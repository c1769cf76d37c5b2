"""Concurrency: threads (and a second application on the same store, as another worker process
would be) racing on one match. Nothing lost, nothing doubled, and the record still verifies."""

from __future__ import annotations

import uuid
from pathlib import Path

from domain.application import Ringside
from domain.kernel.clock import FixedStepClock
from domain.kernel.errors import RingsideError
from domain.kernel.integrity import ServerKey
from domain.kernel.viewers import Actor, Viewer
from tests.support.helpers import all_at_once, assert_linear_and_verified, new_match, play_to_end


def _typed(errors: list[BaseException]) -> None:
    assert all(isinstance(error, RingsideError) for error in errors), errors


def test_secret_votes_cast_at_once_all_land(app: Ringside) -> None:
    match_id = new_match(app, players=4)
    for seat in range(4):
        app.submit_move(match_id, seat, {"type": "pass"})
    vote = {"type": "vote", "choice": "high"}
    results, errors = all_at_once([lambda seat=seat: app.submit_move(match_id, seat, vote) for seat in range(4)])
    assert errors == [] and len(results) == 4
    votes = [e for e in app.entries(match_id) if e.kind == "move" and e.payload["move"]["type"] == "vote"]
    assert sorted(e.payload["seat"] for e in votes) == [0, 1, 2, 3]
    assert_linear_and_verified(app, match_id)


def test_racing_forfeits_end_the_match_once(app: Ringside) -> None:
    match_id = new_match(app, players=3)
    results, errors = all_at_once([lambda seat=seat: app.make_ruling(
        match_id, {"ruling": "forfeit", "seat": seat}, actor=Actor.arbiter()) for seat in range(3)] * 2)
    assert len(results) == 1 and len(errors) == 5
    _typed(errors)
    assert [e.kind for e in app.entries(match_id)].count("ended") == 1
    assert_linear_and_verified(app, match_id)


def test_racing_consents_retract_exactly_once(app: Ringside) -> None:
    match_id = new_match(app, players=3, undo_policy="consent")
    app.submit_move(match_id, 0, {"type": "pass"})
    app.submit_move(match_id, 1, {"type": "pass"})
    target = app.fold(match_id).steps[-2].seq
    rid = app.request_undo(match_id, 0, target).entries[0].payload["request"]
    results, errors = all_at_once([lambda seat=seat: app.answer_undo(match_id, rid, True, seat=seat,
                                                                      actor=Actor.player(seat)) for seat in (1, 2)])
    assert errors == [] and len(results) == 2
    kinds = [e.kind for e in app.entries(match_id)]
    assert kinds.count("retracted") == 1 and kinds.count("undo-answered") == 2
    assert app.fold(match_id).decision.seats == (0,)
    assert_linear_and_verified(app, match_id)


def test_racing_annotations_all_land_with_distinct_ids(app: Ringside) -> None:
    match_id = new_match(app)
    results, errors = all_at_once([lambda n=n: app.annotate(match_id, 1 + n % 3, f"note {n}",
                                                             actor=Actor.player(n % 2)) for n in range(8)])
    _typed(errors)
    ids = [item["id"] for item in app.annotations(match_id, Viewer.arbiter())]
    assert len(ids) == len(set(ids)) == len(results)
    assert sorted(item["text"] for item in app.annotations(match_id, Viewer.arbiter())) == \
        sorted(result["text"] for result in results)
    assert_linear_and_verified(app, match_id)


def test_two_workers_on_one_store_interleave_without_loss(app: Ringside, tmp_path: Path, test_key: ServerKey) -> None:
    """A second application on the same store, as another worker process: each sees the other's
    writes (its cache fast-forwards) and their racing moves land once each."""
    store = app.settings.database_url
    other = Ringside.open(data_dir=app.settings.data_dir, store=store, key=test_key, clock=FixedStepClock())
    try:
        match_id = new_match(app, players=2)
        assert other.fold(match_id).seq == app.fold(match_id).seq
        for _ in range(6):
            fold = app.fold(match_id)
            if fold.status != "active" or not fold.decision.seats:
                break
            seats = fold.decision.seats
            move = {"type": "vote", "choice": "low"} if fold.decision.secret else {"type": "pass"}
            calls = [lambda w=w, s=s, m=move: w.submit_move(match_id, s, m) for w in (app, other) for s in seats]
            results, errors = all_at_once(calls)
            _typed(errors)
            assert len(results) == len(seats)  # each seat's move once, the duplicate refused
            assert other.fold(match_id).seq == app.fold(match_id).seq
        assert_linear_and_verified(app, match_id)
        assert [e.hash for e in other.entries(match_id)] == [e.hash for e in app.entries(match_id)]
    finally:
        other.close()


def test_racing_imports_of_one_bundle_store_it_once(app: Ringside, tmp_path: Path) -> None:
    source = Ringside.open(data_dir=tmp_path / "source", key=ServerKey.from_seed(b"source"), clock=FixedStepClock())
    try:
        match_id = new_match(source)
        play_to_end(source, match_id)
        text = source.export_bundle(match_id)
    finally:
        source.close()
    results, errors = all_at_once([lambda: app.import_bundle(text) for _ in range(4)])
    assert results == [match_id]
    _typed(errors)
    assert_linear_and_verified(app, match_id, trusted=False)  # imported: intact, vouched for by nobody here


def test_racing_creations_with_one_new_component_set_all_succeed(app: Ringside) -> None:
    deck = {"deck": [1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 5, 6, 6], "name": "thirteen"}
    results, errors = all_at_once([lambda: app.create_match("test-dicevote", ["A", "B"], components=deck)
                                    for _ in range(4)])
    assert errors == [] and len(results) == 4
    for accepted in results:
        assert_linear_and_verified(app, uuid.UUID(accepted.receipt.match_id))




def test_a_consent_racing_the_next_move_either_lands_first_or_finds_the_request_stale(app: Ringside) -> None:
    for _ in range(3):
        match_id = new_match(app, players=2, undo_policy="consent")
        app.submit_move(match_id, 0, {"type": "pass"})
        app.submit_move(match_id, 1, {"type": "pass"})  # now the vote
        target = app.fold(match_id).steps[-2].seq
        rid = app.request_undo(match_id, 0, target).entries[0].payload["request"]
        results, errors = all_at_once([
            lambda rid=rid, m=match_id: app.answer_undo(m, rid, True, seat=1, actor=Actor.player(1)),
            lambda m=match_id: app.submit_move(m, 0, {"type": "vote", "choice": "low"}),
        ])
        _typed(errors)
        assert len(results) >= 1
        kinds = [e.kind for e in app.entries(match_id)]
        assert kinds.count("retracted") <= 1
        assert_linear_and_verified(app, match_id)


def test_a_redo_racing_another_seats_move_lands_once_or_is_refused(app: Ringside) -> None:
    for _ in range(3):
        match_id = new_match(app, players=2)
        app.submit_move(match_id, 0, {"type": "pass"})
        app.request_undo(match_id, 0)  # own: retracted at once
        results, errors = all_at_once([
            lambda m=match_id: app.redo(m, seat=0, actor=Actor.player(0)),
            lambda m=match_id: app.submit_move(m, 0, {"type": "roll"}),
        ])
        _typed(errors)
        assert len(results) >= 1
        assert [e.kind for e in app.entries(match_id)].count("redone") <= 1
        assert_linear_and_verified(app, match_id)
