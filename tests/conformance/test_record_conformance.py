"""Record-tier conformance: every registered game through the event-sourced application (brief §9).

For each game, variant and player count: bots play a whole match through the application; a fresh
application folding the stored events reaches the live state; time travel equals the fold of a
prefix; export then import gives an identical match with identical hashes and verifies; every
seat's redacted log hides what the seat may not know; undo then the same move gives the same state
hash; and the same seed and moves give the same record on every run.
"""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

import pytest

from domain.application import Ringside
from domain.kernel.canonical import digest
from domain.kernel.clock import FixedStepClock
from domain.kernel.errors import UndoRefusedError
from domain.kernel.integrity import ServerKey
from domain.kernel.viewers import Viewer
from tests.conformance.harness import Case, cases, record_cases

SEED = "5eed" * 16


def _play(app: Ringside, case: Case, match_id: uuid.UUID, try_undo: bool = False) -> dict[str, Any]:
    """Play a whole match with random bots; optionally take back and replay one move."""
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
                after = after_fold.state_hash()
                move = app.entries(match_id, accepted.receipt.seq, accepted.receipt.seq)[0].payload["move"]
                app.request_undo(match_id, seat, accepted.receipt.seq)
                assert app.fold(match_id).state_hash() == before, "undo did not restore the state"
                app.submit_move(match_id, seat, move)
                assert app.fold(match_id).state_hash() == after, "the same move after undo gave another state"
                undo_checked = True
    return {"undo_checked": undo_checked, "steps": step}


@pytest.mark.parametrize("case", record_cases(), ids=str)
def test_record_conformance(case: Case, tmp_path: Path) -> None:
    key = ServerKey.from_seed(b"conformance")
    app = Ringside.open(data_dir=tmp_path / "a", key=key, clock=FixedStepClock())
    match_id = uuid.UUID(int=1)
    outcome = _play(app, case, match_id, try_undo=True)
    live = app.fold(match_id)
    assert live.status == "ended", "bots did not finish the match"

    # A fresh application (no cache) folding the stored events reaches the same state.
    cold = Ringside.open(data_dir=tmp_path / "a", key=key, clock=FixedStepClock())
    assert cold.fold(match_id).state_hash() == live.state_hash()
    assert cold.fold(match_id).head == live.head

    # Time travel: the state at a position equals a from-scratch fold of that prefix.
    entries = app.entries(match_id)
    for position in sorted({1, 2, len(entries) // 2, len(entries) - 1, len(entries)}):
        travelled = cold.fold(match_id, position)
        assert travelled.seq == position and travelled.head == entries[position - 1].hash
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
    # and never carries the hidden outcome.
    full = app.log(match_id, Viewer.arbiter())
    for viewer in [Viewer.spectator(), *(Viewer.of_seat(s) for s in range(case.seats))]:
        for mine, truth in zip(app.log(match_id, viewer), full, strict=True):
            if mine["payload"] != {k: v for k, v in truth["payload"].items() if k != "salt"}:
                assert mine.get("redacted") is True
                assert "outcome" not in mine["payload"] and "move" not in mine["payload"]
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
    with pytest.raises(UndoRefusedError, match="barrier"):
        sqlite_app.request_undo(mid, 0)
    assert digest([e.hash for e in sqlite_app.entries(mid)]) == digest(
        [e.hash for e in sqlite_app.entries(mid)])


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
