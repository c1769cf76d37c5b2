"""Record-tier conformance: every registered game through the event-sourced application (brief §9).

For each game, variant and player count: bots play a whole match through the application; a fresh
application folding the stored events reaches the live state; time travel equals the fold of a
prefix (the whole fold, and every viewer's view of it); export then import gives an identical
match with identical hashes and verifies; every seat's redacted log hides what the seat may not
know; undo then the same move gives the same state hash (in every case); and the same seed and
moves give the same record on every run. For games with private choices, a seat's view, log,
stream, forks and refusals are the same whatever another seat's private choice was, until it is
revealed (tests/conformance/privacy.py).
"""

from __future__ import annotations

import copy
import uuid
from pathlib import Path
from typing import Any

import pytest

from domain.application import Ringside, state_view
from domain.kernel.canonical import digest
from domain.kernel.clock import FixedStepClock
from domain.kernel.errors import UndoRefusedError
from domain.kernel.fold import MatchFold
from domain.kernel.integrity import ServerKey
from domain.kernel.record import Entry
from domain.kernel.viewers import Actor, Viewer
from tests.conformance.harness import Case, cases, record_cases, viewers
from tests.conformance.privacy import PrivacyReport, check_private_record, has_private_choices

SEED = "5eed" * 16


def _play(app: Ringside, case: Case, match_id: uuid.UUID, try_undo: bool = False) -> dict[str, Any]:
    """Play a whole match with random bots; optionally take back and replay one move, the first
    from the third move on that its seat may take back alone (own-turn policy: nothing but its own
    moves since). A match may have none: in solo Dice & Vote every move the bots made was
    followed by a draw or completed the vote, both barriers, so the check was silently skipped.
    Then `_undo_elsewhere` plays a second match to a move that can be taken back."""
    app.create_match(case.game, [f"P{seat}" for seat in range(case.seats)], variant=case.variant,
                     options=case.options, match_id=match_id, seed=SEED, undo_policy="own-turn")
    undo_checked = False
    step = 0
    while True:
        fold = app.fold(match_id)
        if fold.status != "active" or not fold.decision.seats:
            break
        seat = fold.decision.seats[0]
        before = fold.state_hash()
        accepted = app.play_bot(match_id, seed=step)
        assert accepted is not None
        step += 1
        if try_undo and not undo_checked and step > 2:
            after_fold = app.fold(match_id)
            if after_fold.status == "active" and after_fold.own_undo_allowed(seat, accepted.receipt.seq):
                _undo_and_replay(app, match_id, seat, accepted.receipt.seq, before)
                undo_checked = True
    if try_undo and not undo_checked:
        undo_checked = _undo_elsewhere(app, case, uuid.UUID(int=match_id.int + 1000))
    return {"undo_checked": undo_checked, "steps": step}


def _undoable_alone(fold: MatchFold, seat: int, move: Any) -> bool:
    """Whether `seat` could take `move` back alone right after making it: folded on a copy, with
    no chance draw or end to follow it (the application would append those at once)."""
    trial = copy.deepcopy(fold)
    trial.consume(Entry(fold.match_id, fold.seq + 1, "move", Actor.player(seat).to_json(), fold.last_at,
                        {"seat": seat, "move": move}, fold.head, "0" * 64, "", fold.record_key))
    return trial.decision.chance is None and not trial.decision.over and trial.own_undo_allowed(seat, trial.seq)


def _undo_elsewhere(app: Ringside, case: Case, match_id: uuid.UUID) -> bool:
    """In a second match of the case, the bots play until some seat has a legal move it could take
    back alone; that move is played, taken back and played again. False if no match position had
    one (nothing the bots reached can be undone under own-turn)."""
    app.create_match(case.game, [f"P{seat}" for seat in range(case.seats)], variant=case.variant,
                     options=case.options, match_id=match_id, seed=SEED, undo_policy="own-turn")
    for step in range(10_000):
        fold = app.fold(match_id)
        if fold.status != "active" or not fold.decision.seats:
            return False
        seat = fold.decision.seats[0]
        for move in app.legal_moves(match_id, seat):
            if _undoable_alone(fold, seat, move):
                before = fold.state_hash()
                seq = app.submit_move(match_id, seat, move).receipt.seq
                _undo_and_replay(app, match_id, seat, seq, before)
                return True
        app.play_bot(match_id, seed=step)
    return False


def _undo_and_replay(app: Ringside, match_id: uuid.UUID, seat: int, seq: int, before: str) -> None:
    """Take back the move at `seq` and play it again: the state before it, then the same state."""
    after = app.fold(match_id).state_hash()
    move = app.entries(match_id, seq, seq)[0].payload["move"]
    app.request_undo(match_id, seat, seq)
    assert app.fold(match_id).state_hash() == before, "undo did not restore the state"
    app.submit_move(match_id, seat, move)
    assert app.fold(match_id).state_hash() == after, "the same move after undo gave another state"


@pytest.mark.parametrize("case", record_cases(), ids=str)
def test_record_conformance(case: Case, tmp_path: Path) -> None:
    key = ServerKey.from_seed(b"conformance")
    app = Ringside.open(data_dir=tmp_path / "a", key=key, clock=FixedStepClock())
    match_id = uuid.UUID(int=1)
    outcome = _play(app, case, match_id, try_undo=True)
    live = app.fold(match_id)
    assert live.status == "ended", "bots did not finish the match"
    assert outcome["undo_checked"], f"no move of this {case} match could be taken back and replayed"

    # A fresh application (no cache) folding the stored events reaches the same state.
    cold = Ringside.open(data_dir=tmp_path / "a", key=key, clock=FixedStepClock())
    assert cold.fold(match_id).state_hash() == live.state_hash()
    assert cold.fold(match_id).head == live.head

    # Time travel: the state at a position equals a from-scratch fold of that prefix: the whole
    # fold (game state, steps, undo, secrets, everything a snapshot keeps) and every viewer's view.
    entries = app.entries(match_id)
    for position in sorted({1, 2, len(entries) // 2, len(entries) - 1, len(entries)}):
        travelled = cold.fold(match_id, position)
        scratch = MatchFold(entries[0])
        for entry in entries[1:position]:
            scratch.consume(entry)
        assert travelled.seq == position and travelled.head == entries[position - 1].hash
        assert travelled.to_snapshot() == scratch.to_snapshot(), f"time travel to {position} is not its prefix's fold"
        for viewer in [Viewer.arbiter(), *viewers(case.seats)]:
            assert state_view(travelled, viewer) == state_view(scratch, viewer), f"{viewer} at {position}"
    cold.close()

    # Export, verify, import: identical match, identical hashes.
    bundle = app.export_bundle(match_id)
    report = app.verify_match(match_id)
    assert report.ok, report.summary()
    other = Ringside.open(data_dir=tmp_path / "b", key=ServerKey.from_seed(b"elsewhere"), clock=FixedStepClock())
    imported = other.import_bundle(bundle)
    assert imported == match_id
    assert [e.hash for e in other.entries(match_id)] == [e.hash for e in entries]
    assert other.fold(match_id).state_hash() == live.state_hash()
    assert other.verify_match(match_id).intact
    other.close()

    # Redaction: whatever a seat's log shows differently from the arbiter's is marked redacted,
    # and never carries the hidden outcome or move: at most a private move's public part, with
    # its private fields named and left out.
    full = app.log(match_id, Viewer.arbiter())
    for viewer in [Viewer.spectator(), *(Viewer.of_seat(s) for s in range(case.seats))]:
        for mine, truth in zip(app.log(match_id, viewer), full, strict=True):
            if mine["payload"] != {k: v for k, v in truth["payload"].items() if k != "salt"}:
                assert mine.get("redacted") is True
                assert "outcome" not in mine["payload"]
                if "move" in mine["payload"]:
                    private = mine["payload"]["hidden_fields"]
                    assert private and mine["payload"]["private"] is True
                    assert mine["payload"]["move"] == {k: v for k, v in truth["payload"]["move"].items()
                                                       if k not in private}
    app.close()

    # Determinism of the record: the same seed, clock, key and moves give the same record.
    again = Ringside.open(data_dir=tmp_path / "c", key=key, clock=FixedStepClock())
    _play(again, case, match_id, try_undo=True)
    assert [e.hash for e in again.entries(match_id)] == [e.hash for e in entries]
    again.close()
    assert outcome["steps"] > 0


def test_undo_refused_past_a_barrier_names_the_policy(sqlite_app: Ringside) -> None:
    """Own-turn policy: after a chance outcome (a barrier) a player cannot take back alone."""
    match_id = sqlite_app.create_match("test-dicevote", ["A", "B"], undo_policy="own-turn").receipt.match_id
    mid = uuid.UUID(match_id)
    sqlite_app.submit_move(mid, 0, {"type": "roll"})
    record = digest([e.hash for e in sqlite_app.entries(mid)])
    before = sqlite_app.fold(mid).state_hash()
    with pytest.raises(UndoRefusedError, match=r"barrier.*\(own-turn\)"):
        sqlite_app.request_undo(mid, 0)
    assert digest([e.hash for e in sqlite_app.entries(mid)]) == record, "the refusal changed the record"
    assert sqlite_app.fold(mid).state_hash() == before


def _first_case_per_game() -> list[Case]:
    seen: dict[str, Case] = {}
    for case in cases():
        seen.setdefault(case.game, case)
    return list(seen.values())


@pytest.mark.postgres
@pytest.mark.parametrize("case", _first_case_per_game(), ids=str)
def test_record_conformance_on_postgres(case: Case, tmp_path: Path, postgres_url: str) -> None:
    """The same record, hashes and verification on PostgreSQL as on SQLite."""
    key = ServerKey.from_seed(b"conformance")
    on_postgres = Ringside.open(data_dir=tmp_path / "pg", store=postgres_url, key=key, clock=FixedStepClock())
    on_sqlite = Ringside.open(data_dir=tmp_path / "sq", key=key, clock=FixedStepClock())
    match_id = uuid.UUID(int=2)
    _play(on_postgres, case, match_id, try_undo=True)
    _play(on_sqlite, case, match_id, try_undo=True)
    assert [e.hash for e in on_postgres.entries(match_id)] == [e.hash for e in on_sqlite.entries(match_id)]
    assert on_postgres.verify_match(match_id).ok
    cold = Ringside.open(data_dir=tmp_path / "pg", store=postgres_url, key=key, clock=FixedStepClock())
    assert cold.fold(match_id).state_hash() == on_sqlite.fold(match_id).state_hash()
    for app in (on_postgres, on_sqlite, cold):
        app.close()


def _private_cases() -> list[Case]:
    return [case for case in record_cases() if has_private_choices(case.game)]


def test_a_registered_game_makes_private_choices() -> None:
    """The privacy check below is not vacuous: the test-only Sealed Bonus makes both kinds."""
    assert any(case.game == "test-sealedbonus" for case in _private_cases())


@pytest.mark.parametrize("case", _private_cases(), ids=str)
def test_private_choices_look_the_same_to_everyone_else_until_revealed(case: Case, tmp_path: Path) -> None:
    """Counterfactual: the same match with one seat's private choice made otherwise looks the same
    to every other seat and to spectators (views at every position, log, live stream, a fork's
    prelude and state, refusals) until the game reveals it, and the hidden entry cannot be found
    by hashing guesses; after the reveal the difference shows."""
    report = PrivacyReport()
    check_private_record(case, tmp_path, report)
    assert report.choices and report.positions, f"no private choice was compared: {report}"
    assert report.revealed == report.choices, f"a varied choice was never revealed: {report}"
