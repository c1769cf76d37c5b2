"""Kernel properties over many random seeds (hypothesis): determinism, fold of the stored events
equals the live state, redaction never leaks, with undo requests interleaved at random."""

from __future__ import annotations

import contextlib
import random
import uuid
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.application import Ringside
from domain.kernel.clock import FixedStepClock
from domain.kernel.errors import UndoRefusedError
from domain.kernel.integrity import ServerKey
from domain.kernel.viewers import Viewer

KEY = ServerKey.from_seed(b"properties")


def _play(app: Ringside, match_id: uuid.UUID, seed: int, players: int, undo_rate: float) -> None:
    rng = random.Random(seed)
    app.create_match("test-dicevote", [f"P{i}" for i in range(players)], match_id=match_id,
                     seed=f"{seed:064x}", undo_policy=rng.choice(["own-turn", "consent"]),
                     options={"rounds": rng.randint(1, 3)})
    for step in range(200):
        if app.play_bot(match_id, seed=seed * 1000 + step) is None:
            return
        if rng.random() < undo_rate:
            fold = app.fold(match_id)
            last = fold.steps[-1] if fold.steps else None
            if last is not None and last.kind == "move" and last.seat is not None and fold.status == "active":
                with contextlib.suppress(UndoRefusedError):
                    app.request_undo(match_id, last.seat)
    raise AssertionError("the test game must end within 200 moves")


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(min_value=0, max_value=2**32), players=st.integers(min_value=2, max_value=4),
       undo_rate=st.sampled_from([0.0, 0.2, 0.5]))
def test_records_are_deterministic_and_fold_back_to_the_live_state(tmp_path_factory: object, seed: int,
                                                                  players: int, undo_rate: float) -> None:
    base: Path = tmp_path_factory.mktemp("prop")  # type: ignore[attr-defined]
    match_id = uuid.UUID(int=seed + 1)
    first = Ringside.open(data_dir=base / "a", key=KEY, clock=FixedStepClock())
    _play(first, match_id, seed, players, undo_rate)
    live = first.fold(match_id)

    # Fold of the stored events (a cold application, no cache) equals the live state.
    cold = Ringside.open(data_dir=base / "a", key=KEY, clock=FixedStepClock())
    assert cold.fold(match_id).state_hash() == live.state_hash()
    replay = cold.fold(match_id, 1)
    for entry in cold.entries(match_id, 2):
        replay.consume(entry)
    assert replay.state_hash() == live.state_hash() and replay.head == live.head
    cold.close()

    # Determinism: the same seed and moves give the same record, bit for bit.
    second = Ringside.open(data_dir=base / "b", key=KEY, clock=FixedStepClock())
    _play(second, match_id, seed, players, undo_rate)
    assert [e.hash for e in second.entries(match_id)] == [e.hash for e in first.entries(match_id)]
    second.close()

    # Redaction never leaks: a seat's log carries no outcome or move it may not see.
    truth = first.log(match_id, Viewer.arbiter())
    for seat in range(players):
        for mine, full in zip(first.log(match_id, Viewer.of_seat(seat)), truth, strict=True):
            if full["kind"] == "chance" and "outcome" in mine["payload"]:
                dealt_to_other = full["payload"]["kind"] == "draw" and mine["seq"] in live.hidden_chance \
                    and seat not in live.hidden_chance[mine["seq"]]
                assert not dealt_to_other, f"seat {seat} sees another seat's card at {mine['seq']}"
            assert "salt" not in mine["payload"]
    assert first.verify_match(match_id).ok
    first.close()
