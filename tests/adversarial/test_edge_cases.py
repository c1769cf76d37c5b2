"""Undo, redo, ruling, fork, annotation and import edge cases that held: each is refused with a
typed error and leaves the record as it was, or is accepted and verifies."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest

from domain.application import Ringside
from domain.kernel import component_store
from domain.kernel.clock import FixedStepClock
from domain.kernel.errors import (
    ChancePendingError,
    InvalidRequestError,
    MatchOverError,
    NotFoundError,
    UndoRefusedError,
)
from domain.kernel.integrity import ServerKey
from domain.kernel.viewers import Actor, Viewer
from tests.support.helpers import new_match, play_to_end

from .support import refused

ARBITER = Actor.arbiter()


def test_undo_redo_and_rulings_on_an_ended_match_are_refused(sqlite_app: Ringside) -> None:
    match_id = new_match(sqlite_app)
    play_to_end(sqlite_app, match_id)
    refused(sqlite_app, match_id, lambda: sqlite_app.request_undo(match_id, 0), MatchOverError)
    refused(sqlite_app, match_id, lambda: sqlite_app.redo(match_id, seat=None, actor=ARBITER), MatchOverError)
    for ruling in ({"ruling": "forfeit", "seat": 0}, {"ruling": "penalty", "seat": 0, "points": 1}):
        refused(sqlite_app, match_id, lambda ruling=ruling: sqlite_app.make_ruling(match_id, ruling, actor=ARBITER),
                MatchOverError)


def test_redo_after_a_ruling_and_answers_to_stale_or_unknown_requests_are_refused(sqlite_app: Ringside) -> None:
    match_id = new_match(sqlite_app, players=3, undo_policy="consent")
    sqlite_app.submit_move(match_id, 0, {"type": "pass"})
    sqlite_app.request_undo(match_id, 0)  # own: at once
    sqlite_app.make_ruling(match_id, {"ruling": "penalty", "seat": 2, "points": 1}, actor=ARBITER)
    refused(sqlite_app, match_id, lambda: sqlite_app.redo(match_id, seat=0, actor=Actor.player(0)),
            UndoRefusedError)
    sqlite_app.submit_move(match_id, 0, {"type": "pass"})
    sqlite_app.submit_move(match_id, 1, {"type": "pass"})
    rid = sqlite_app.request_undo(match_id, 0, sqlite_app.fold(match_id).steps[-2].seq).entries[0].payload["request"]
    sqlite_app.submit_move(match_id, 2, {"type": "pass"})  # the game moved on: the request is stale
    refused(sqlite_app, match_id, lambda: sqlite_app.answer_undo(match_id, rid, True, seat=1,
                                                                 actor=Actor.player(1)), UndoRefusedError)
    refused(sqlite_app, match_id, lambda: sqlite_app.answer_undo(match_id, "u9999", True, seat=1,
                                                                 actor=Actor.player(1)), NotFoundError)
    assert sqlite_app.verify_match(match_id).ok


def test_forfeit_twice_and_illegal_move_stands_while_chance_is_pending_are_refused(sqlite_app: Ringside) -> None:
    match_id = new_match(sqlite_app, randomness="recorded")
    assert sqlite_app.fold(match_id).decision.chance is not None
    refused(sqlite_app, match_id, lambda: sqlite_app.make_ruling(
        match_id, {"ruling": "illegal-move-stands", "seat": 0, "move": {"type": "pass"}}, actor=ARBITER),
        InvalidRequestError)
    refused(sqlite_app, match_id, lambda: sqlite_app.submit_move(match_id, 0, {"type": "pass"}), ChancePendingError)
    sqlite_app.make_ruling(match_id, {"ruling": "forfeit", "seat": 1}, actor=ARBITER)
    refused(sqlite_app, match_id, lambda: sqlite_app.make_ruling(match_id, {"ruling": "forfeit", "seat": 0},
                                                                 actor=ARBITER), MatchOverError)
    assert sqlite_app.summary(match_id)["end"]["result"]["ranks"] == [1, 2]
    assert sqlite_app.verify_match(match_id).ok


def test_a_correction_of_a_chance_step_redraws_it_and_verifies(sqlite_app: Ringside) -> None:
    match_id = new_match(sqlite_app)
    sqlite_app.submit_move(match_id, 0, {"type": "roll"})
    roll = sqlite_app.fold(match_id).steps[-1]
    assert roll.kind == "chance"
    accepted = sqlite_app.make_ruling(match_id, {"ruling": "correction", "from_seq": roll.seq}, actor=ARBITER)
    assert [e.kind for e in accepted.entries] == ["ruling", "retracted", "chance"]
    refused(sqlite_app, match_id, lambda: sqlite_app.make_ruling(
        match_id, {"ruling": "correction", "from_seq": roll.seq}, actor=ARBITER), InvalidRequestError)
    play_to_end(sqlite_app, match_id)
    report = sqlite_app.verify_match(match_id)
    assert report.ok, report.summary()


def test_forks_and_annotations_out_of_range_are_refused(sqlite_app: Ringside) -> None:
    match_id = new_match(sqlite_app)
    head = sqlite_app.fold(match_id).seq
    for at in (0, -1, head + 1):
        with pytest.raises(InvalidRequestError):
            sqlite_app.fork(match_id, at)
        refused(sqlite_app, match_id, lambda at=at: sqlite_app.annotate(match_id, at, "x", actor=Actor.player(0)),
                InvalidRequestError)
    assert len(sqlite_app.list_matches()) == 1
    for at in (1, head):
        fork = uuid.UUID(sqlite_app.fork(match_id, at, actor=ARBITER).receipt.match_id)
        assert sqlite_app.verify_match(fork).ok


def test_a_bundle_with_a_custom_component_set_imports_and_folds_in_a_fresh_process(
        sqlite_app: Ringside, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    deck = {"name": "short", "deck": [1, 2, 3, 4, 5, 6, 6, 6]}
    match_id = uuid.UUID(sqlite_app.create_match("test-dicevote", ["A", "B"], components=deck).receipt.match_id)
    play_to_end(sqlite_app, match_id)
    text = sqlite_app.export_bundle(match_id)
    monkeypatch.setattr(component_store, "_SETS", {})  # a process that never saw the set
    other = Ringside.open(data_dir=tmp_path / "other", key=ServerKey.from_seed(b"other"), clock=FixedStepClock())
    try:
        assert other.import_bundle(text) == match_id
        monkeypatch.setattr(component_store, "_SETS", {})
        assert other.components_of(match_id)["deck"] == deck["deck"]
        assert other.state(match_id, Viewer.spectator())["status"] == "ended"
        assert other.verify_match(match_id).intact
        with pytest.raises(InvalidRequestError):
            other.import_bundle(text)
    finally:
        other.close()
