"""Integrity: every flow the application allows verifies, and every record it would not have made
is caught by verification (even re-signed by someone holding the server key: then only the rules
can catch it) with the sequence number where it first diverges."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from domain.application import Ringside
from domain.kernel.bundle import read_bundle
from domain.kernel.errors import ForbiddenError, InvalidRequestError, RingsideError
from domain.kernel.integrity import ServerKey
from domain.kernel.verification import verify_bundle
from domain.kernel.viewers import Actor
from tests.support.helpers import new_match, play_to_end

from .support import reforge, refused

# ---- undo flows the application allows must verify ----------------------------------------


def test_a_solo_player_cannot_undo_a_die_roll_under_consent_without_an_arbiter(sqlite_app: Ringside) -> None:
    """Past a chance outcome nobody may take a move back alone (so nobody re-rolls a die). With
    no other seat to ask, a consent request went through at once, re-rolled the die, and the
    record then failed its own verification ("a retraction without the authority it claims")."""
    match_id = new_match(sqlite_app, players=1, variant="solo", undo_policy="consent")
    sqlite_app.submit_move(match_id, 0, {"type": "roll"})
    rolled = [s.data for s in sqlite_app.fold(match_id).steps if s.kind == "chance"][-1]
    accepted = sqlite_app.request_undo(match_id, 0)
    assert [e.kind for e in accepted.entries] == ["undo-requested"]
    assert accepted.entries[0].payload["arbiter_needed"] is True
    assert [s.data for s in sqlite_app.fold(match_id).steps if s.kind == "chance"][-1] == rolled
    assert sqlite_app.verify_match(match_id).ok
    request = accepted.entries[0].payload["request"]
    refused(sqlite_app, match_id, lambda: sqlite_app.answer_undo(match_id, request, True, seat=0,
                                                                 actor=Actor.player(0)))
    sqlite_app.answer_undo(match_id, request, True, seat=None, actor=Actor.arbiter())
    report = sqlite_app.verify_match(match_id)
    assert report.intact, report.summary()


def test_only_an_arbiter_answers_as_the_arbiter(sqlite_app: Ringside) -> None:
    match_id = new_match(sqlite_app, undo_policy="arbiter-only")
    sqlite_app.submit_move(match_id, 0, {"type": "pass"})
    request = sqlite_app.request_undo(match_id, 0).entries[0].payload["request"]
    for actor in (Actor.player(1), Actor.player(0), Actor("recorder"), Actor("bot", 1, "random")):
        refused(sqlite_app, match_id,
                lambda actor=actor: sqlite_app.answer_undo(match_id, request, True, seat=None, actor=actor),
                ForbiddenError)
    sqlite_app.answer_undo(match_id, request, True, seat=None, actor=Actor.arbiter())
    assert sqlite_app.verify_match(match_id).ok


def test_a_seat_answers_only_for_itself(sqlite_app: Ringside) -> None:
    match_id = new_match(sqlite_app, players=3, undo_policy="consent")
    sqlite_app.submit_move(match_id, 0, {"type": "pass"})
    sqlite_app.submit_move(match_id, 1, {"type": "pass"})
    request = sqlite_app.request_undo(match_id, 0, sqlite_app.fold(match_id).steps[-2].seq).entries[0]
    assert request.payload["consent_from"] == [1, 2]
    rid = request.payload["request"]
    refused(sqlite_app, match_id, lambda: sqlite_app.answer_undo(match_id, rid, True, seat=2,
                                                                 actor=Actor.player(1)), ForbiddenError)
    sqlite_app.answer_undo(match_id, rid, True, seat=1, actor=Actor.player(1))
    sqlite_app.answer_undo(match_id, rid, True, seat=2, actor=Actor("substitute", 2, "sub"))
    assert sqlite_app.fold(match_id).undo[rid].status == "done"
    assert sqlite_app.verify_match(match_id).ok


def test_only_an_arbiter_redoes_as_the_arbiter(sqlite_app: Ringside) -> None:
    match_id = new_match(sqlite_app)
    sqlite_app.submit_move(match_id, 0, {"type": "pass"})
    sqlite_app.make_ruling(match_id, {"ruling": "correction", "from_seq": sqlite_app.fold(match_id).steps[-1].seq},
                           actor=Actor.arbiter())
    for actor in (Actor.player(0), Actor.player(1)):
        refused(sqlite_app, match_id, lambda actor=actor: sqlite_app.redo(match_id, seat=None, actor=actor),
                ForbiddenError)
    sqlite_app.redo(match_id, seat=None, actor=Actor.arbiter())
    assert sqlite_app.verify_match(match_id).ok


# ---- records the application would not make are caught ------------------------------------


def _seq_of(entries: list[dict[str, Any]], kind: str) -> int:
    return next(e["seq"] for e in entries if e["kind"] == kind)


def test_an_arbiters_answer_given_by_a_seat_is_caught(undone: tuple[str, ServerKey]) -> None:
    text, key = undone
    entries = [e.to_json() for e in read_bundle(text).entries]
    answered = _seq_of(entries, "undo-answered")

    def by_seat(events: list[dict[str, Any]]) -> None:
        events[answered - 1]["actor"] = {"kind": "seat", "seat": 1}

    report = verify_bundle(reforge(text, by_seat, key))
    assert not report.intact and report.divergence is not None
    assert (report.divergence.check, report.divergence.seq) == ("undo", answered), report.summary()


def test_a_redo_after_the_game_moved_on_is_caught(undone: tuple[str, ServerKey]) -> None:
    """Move the redo after the next move: the fold would re-add steps into a changed game."""
    text, key = undone
    entries = [e.to_json() for e in read_bundle(text).entries]
    redone = _seq_of(entries, "redone")

    def late(events: list[dict[str, Any]]) -> None:
        redo, after = events[redone - 1], events[redone]
        assert after["kind"] in ("move", "chance")
        redo["seq"], after["seq"] = after["seq"], redo["seq"]
        events[redone - 1], events[redone] = after, redo

    report = verify_bundle(reforge(text, late, key))
    assert not report.intact and report.divergence is not None, report.summary()
    assert report.divergence.seq is not None and report.divergence.seq <= redone + 1


def test_a_redo_by_another_seat_is_caught(undone: tuple[str, ServerKey]) -> None:
    text, key = undone
    entries = [e.to_json() for e in read_bundle(text).entries]
    redone = _seq_of(entries, "redone")

    def other(events: list[dict[str, Any]]) -> None:
        events[redone - 1]["actor"] = {"kind": "seat", "seat": 1}

    report = verify_bundle(reforge(text, other, key))
    assert not report.intact and report.divergence is not None
    assert (report.divergence.check, report.divergence.seq) == ("undo", redone), report.summary()


# ---- what held --------------------------------------------------------------------------


def test_importing_the_same_bundle_twice_is_refused_and_changes_nothing(undone: tuple[str, ServerKey],
                                                                       tmp_path: Any) -> None:
    from domain.kernel.clock import FixedStepClock

    text, _ = undone
    other = Ringside.open(data_dir=tmp_path / "other", key=ServerKey.from_seed(b"other"), clock=FixedStepClock())
    try:
        match_id = other.import_bundle(text)
        before = [e.hash for e in other.entries(match_id)]
        with pytest.raises(InvalidRequestError):
            other.import_bundle(text)
        assert [e.hash for e in other.entries(match_id)] == before
        assert other.export_bundle(match_id).splitlines()[1:-1] == text.splitlines()[1:-1]
        assert other.verify_match(match_id).intact
    finally:
        other.close()


def test_the_same_inputs_give_the_same_record(tmp_path: Any, test_key: ServerKey) -> None:
    from domain.kernel.clock import FixedStepClock

    def run(name: str) -> list[str]:
        app = Ringside.open(data_dir=tmp_path / name, key=test_key, clock=FixedStepClock())
        try:
            match_id = new_match(app, players=3, match_id=uuid.UUID(int=7), undo_policy="consent")
            app.submit_move(match_id, 0, {"type": "pass"})
            request = app.request_undo(match_id, 0).entries
            app.redo(match_id, seat=0, actor=Actor.player(0)) if len(request) > 1 else None
            play_to_end(app, match_id, seed=3)
            return [e.hash for e in app.entries(match_id)]
        finally:
            app.close()

    assert run("a") == run("b")


def test_an_imported_match_in_play_without_its_seed_refuses_draws_with_a_typed_error(
        sqlite_app: Ringside, tmp_path: Any) -> None:
    """The arbiter may export a match in play; its secret seed stays with the server that holds it.
    A store that imported it cannot draw its chance outcomes (nor salt secret moves, nor reveal
    the seed at the end): that must be a typed refusal, not eventsourcing's AggregateNotFoundError."""
    from domain.kernel.clock import FixedStepClock

    match_id = new_match(sqlite_app)
    sqlite_app.submit_move(match_id, 0, {"type": "pass"})
    text = sqlite_app.export_bundle(match_id)
    other = Ringside.open(data_dir=tmp_path / "other", key=ServerKey.from_seed(b"other"), clock=FixedStepClock())
    try:
        other.import_bundle(text)
        refused(other, match_id, lambda: other.submit_move(match_id, 1, {"type": "roll"}))
        refused(other, match_id, lambda: other.make_ruling(match_id, {"ruling": "forfeit", "seat": 0},
                                                           actor=Actor.arbiter()))
        with pytest.raises(RingsideError):
            other.seed_for_arbiter(match_id)
        assert other.verify_match(match_id).intact
    finally:
        other.close()


def test_a_player_cannot_move_or_ask_an_undo_for_another_seat(sqlite_app: Ringside) -> None:
    """Verification refuses "a player moved for another seat": the application must refuse it
    first, or it records what its own verifier rejects."""
    match_id = new_match(sqlite_app)
    refused(sqlite_app, match_id, lambda: sqlite_app.submit_move(match_id, 0, {"type": "pass"},
                                                                 actor=Actor.player(1)), ForbiddenError)
    sqlite_app.submit_move(match_id, 0, {"type": "pass"}, actor=Actor("substitute", 0, "Sub"))
    refused(sqlite_app, match_id, lambda: sqlite_app.request_undo(match_id, 0, actor=Actor.player(1)),
            ForbiddenError)
    sqlite_app.request_undo(match_id, 0, actor=Actor.arbiter())
    assert sqlite_app.verify_match(match_id).ok
