"""The incremental fold (a retraction rebuilds from a checkpoint, a redo applies forward, a
snapshot restores its steps lazily) against the fold as it was: every retraction and redo
refolding the game from setup. For many seeds and every game, in matches full of take-backs,
redos and rulings, at every position: the same state, decision, steps, hidden, secret and private
bookkeeping and state hash; and time travel (from snapshots, from positions read before, from a
format-1 snapshot) gives the fold of the record's prefix."""

from __future__ import annotations

import tempfile
import uuid
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.application import Ringside
from domain.kernel.clock import FixedStepClock
from domain.kernel.fold import GameStep, MatchFold, _apply_step
from domain.kernel.integrity import ServerKey
from domain.kernel.packed_map import PackedMap
from domain.kernel.record import Entry
from domain.kernel.steps import CHUNK, StepLog, checkpoints_dropped, snapshot_checkpoints
from tests.kernel.snapshot_format1 import format1, format2
from tests.kernel.undo_play import undo_heavy_match

KEY = ServerKey.from_seed(b"fold-undo")


class ReferenceFold(MatchFold):
    """The fold before checkpoints: a plain list of steps, and the game refolded from setup
    after every retraction and redo (the code as it was, kept here as the reference)."""

    def _on_retracted(self, entry: Entry) -> None:
        payload = entry.payload
        from_seq = payload["from_seq"]
        kept = [step for step in self.steps if step.seq < from_seq]
        removed = [step for step in self.steps if step.seq >= from_seq]
        for step in removed:
            self.retracted[step.seq] = entry.seq
            self.secret_pending.pop(step.seq, None)
        self.retractions[entry.seq] = {
            "from_seq": from_seq, "to_seq": removed[-1].seq if removed else from_seq,
            "request": payload.get("request"), "steps": [step.to_json() for step in removed],
            "authority": payload["authority"], "seat": payload.get("seat"),
        }
        request = self.undo.get(payload.get("request") or "")
        if request is not None:
            self.undo[request.id] = replace(request, status="done")
            self._open_undo.discard(request.id)
        self.steps = kept  # type: ignore[assignment]
        self._refold()
        self._touch(keep_redo=True)
        self.redo_candidate = entry.seq

    def _on_redone(self, entry: Entry) -> None:
        retraction = {**self.retractions[entry.payload["retraction"]], "redone": entry.seq}
        self.retractions[entry.payload["retraction"]] = retraction
        for data in retraction["steps"]:
            step = GameStep.from_json(data)
            self.retracted.pop(step.seq, None)
            if step.secret and self.secret_reveal.get(step.seq) is None:
                self.secret_pending[step.seq] = step.seat if step.seat is not None else -1
            self.steps.append(step)
        self._refold()
        self._touch()

    def _refold(self) -> None:
        state = self._prelude_state()
        for step in self.steps:
            state = _apply_step(self.ruleset, state, step.kind, step.seat, step.data)
        self.state, self.decision = state, self.ruleset.decision(state)


def facts(fold: MatchFold) -> dict[str, Any]:
    """What a fold derives, as comparable values."""
    candidate = fold.redo_candidate
    return {
        "seq": fold.seq, "head": fold.head, "state": fold.ruleset.encode_state(fold.state),
        "state_hash": fold.state_hash(), "decision": fold.decision.to_json(), "status": fold.status,
        "steps": [step.to_json() for step in fold.steps], "retracted": fold.retracted,
        "redo": None if candidate is None else fold.retractions[candidate],
        "secret_reveal": fold.secret_reveal, "secret_pending": fold.secret_pending,
        "hidden_chance": fold.hidden_chance, "private": fold.private,
        "undo": {key: request.to_json() for key, request in fold.undo.items()},
        "penalties": fold.penalties, "scores": fold.score_sheet().to_json(), "end": fold.end,
    }


def _check_match(game: str, seed: int, events: int) -> None:
    with tempfile.TemporaryDirectory() as directory:
        app = Ringside.open(data_dir=Path(directory), key=KEY, clock=FixedStepClock())
        try:
            match_id = undo_heavy_match(app, game, events, seed)
            entries = app.entries(match_id)
            kinds = [entry.kind for entry in entries]
            assert "retracted" in kinds, kinds
            fold, reference = MatchFold(entries[0]), ReferenceFold(entries[0])
            packed = 0
            for index, entry in enumerate(entries[1:], start=1):
                fold.consume(entry)
                reference.consume(entry)
                assert facts(fold) == facts(reference), entry.seq
                # a snapshot restores the same fold, which folds on the same
                restored = MatchFold.from_snapshot(fold.to_snapshot())
                assert restored.to_snapshot() == fold.to_snapshot(), entry.seq
                if index + 1 < len(entries):
                    packed += _check_still_packed(fold, entries[index + 1])
                assert facts(restored) == facts(fold), entry.seq
            assert packed > 0, "no restore held a packed map: the matches take nothing back?"
            _check_time_travel(app, match_id, entries)
        finally:
            app.close()


def _check_still_packed(fold: MatchFold, following: Entry) -> int:
    """Restored from a snapshot, a fold holds its settled undo requests and its retracted steps as
    text (`PackedMap`), and folding on a move or a chance outcome does not decode them: the cost of
    a restore does not grow with the take-backs before it (issue 14). Returns how many packed maps
    it checked."""
    if following.kind not in ("move", "chance"):
        return 0
    restored = MatchFold.from_snapshot(fold.to_snapshot())
    restored.consume(following)
    checked = 0
    for name in ("undo", "retracted", "hidden_chance"):
        value = getattr(restored, name)
        if isinstance(value, PackedMap):
            assert value.packed, (name, following.seq)
            checked += 1
    return checked


def _check_time_travel(app: Ringside, match_id: uuid.UUID, entries: list[Entry]) -> None:
    scratch = MatchFold(entries[0])
    by_position: dict[int, dict[str, Any]] = {1: scratch.to_snapshot()}
    for entry in entries[1:]:
        scratch.consume(entry)
        by_position[entry.seq] = scratch.to_snapshot()
    for cold in (True, False):  # from the stored snapshots, then from the positions read before
        for at in range(1, len(entries) + 1):
            if cold:
                app._positions = type(app._positions)(app, app.CACHE_SIZE, app._project)
            assert app.fold(match_id, at).to_snapshot() == by_position[at], (cold, at)
    # a snapshot stored in format 1 or 2 (before this one) still loads and folds on the same
    for at in (len(entries) // 2, len(entries) - 3):
        for old_format in (format1, format2):
            folded = MatchFold(entries[0])
            for entry in entries[1:at]:
                folded.consume(entry)
            old = MatchFold.from_snapshot(old_format(folded))
            for entry in entries[at:]:
                old.consume(entry)
            assert old.to_snapshot() == by_position[len(entries)], old_format.__name__


GAMES = ["test-dicevote", "test-sealedbonus", "carcassonne", "circus-train"]


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31))
def test_the_incremental_fold_is_the_fold_from_setup(game: str, seed: int) -> None:
    _check_match(game, seed, events=130)


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31))
def test_the_incremental_fold_is_the_fold_from_setup_for_many_seeds(game: str, seed: int) -> None:
    _check_match(game, seed, events=260)


@given(st.lists(st.integers(1, 5), min_size=0, max_size=80), st.data())
def test_the_step_log_is_a_list(gaps: list[int], data: st.DataObject) -> None:
    """Chunked, packed and restored, truncated and appended to, the log reads as the list it holds."""
    seqs = [sum(gaps[:i + 1]) for i in range(len(gaps))]
    steps = [GameStep(seq, "move", seq % 3, {"n": seq}, secret=seq % 5 == 0) for seq in seqs]
    log = StepLog(steps)
    if data.draw(st.booleans()):
        log = StepLog.from_packed(log.packed(), log.firsts(), len(log))
    expected = list(steps)
    assert [s.to_json() for s in log] == [s.to_json() for s in expected]
    assert [s.seq for s in reversed(log)] == [s.seq for s in reversed(expected)]
    cut_seq = data.draw(st.integers(0, (seqs[-1] if seqs else 0) + 2))
    index = log.index_of(cut_seq)
    assert index == next((i for i, s in enumerate(expected) if s.seq >= cut_seq), len(expected))
    copy = log.copy()
    log.truncate(index)
    del expected[index:]
    log.append(GameStep(10**6, "chance", None, 1))
    expected.append(GameStep(10**6, "chance", None, 1))
    assert [s.to_json() for s in log] == [s.to_json() for s in expected]
    assert len(copy) == len(steps) and [s.seq for s in copy] == seqs  # the copy did not change
    assert log.packed() == StepLog(expected).packed() and len(log.packed()) == -(-len(expected) // CHUNK)


def test_a_snapshot_carries_only_checkpoints_the_live_fold_still_keeps() -> None:
    """A checkpoint the snapshot asks for that the fold has dropped is rebuilt by replaying steps
    on the write path: every one must be among those a live fold keeps, at every step count."""
    kept: set[int] = {0}
    for count in range(1, 3000):
        kept.add(count)
        kept.difference_update(checkpoints_dropped(count))
        wanted = snapshot_checkpoints(count)
        assert set(wanted) <= kept - {count}, (count, sorted(set(wanted) - kept))
        assert any(count - at <= 4 for at in wanted) or count <= 4, count  # a fine one just behind the last step
