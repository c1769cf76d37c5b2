"""A redo gives back the states its retraction dropped instead of applying its steps again
through the rules (tests/kernel/test_fold_undo.py checks the states against a refold from setup;
this checks the engine is asked only for the states the checkpoints no longer held), and without
them applies every step forward to the same state."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from domain.application import Ringside
from domain.kernel import fold as fold_module
from domain.kernel.clock import FixedStepClock
from domain.kernel.fold import MatchFold
from domain.kernel.integrity import ServerKey
from domain.kernel.record import REDONE
from tests.kernel.undo_play import undo_heavy_match


@pytest.mark.parametrize("game", ["test-dicevote", "carcassonne"])
def test_a_redo_asks_the_rules_only_for_states_not_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                             game: str) -> None:
    app = Ringside.open(data_dir=tmp_path / "data", key=ServerKey.from_seed(b"redo"), clock=FixedStepClock())
    try:
        match_id = undo_heavy_match(app, game, 300, seed=5)
        entries = app.entries(match_id)
        head = app.fold(match_id)
    finally:
        app.close()
    assert any(entry.kind == REDONE for entry in entries)
    applied: list[int] = []
    apply_step = fold_module._apply_step

    def counted(*args: Any) -> Any:
        applied.append(1)
        return apply_step(*args)

    monkeypatch.setattr(fold_module, "_apply_step", counted)
    fold = MatchFold(entries[0])
    given_back = 0
    for entry in entries[1:]:
        if entry.kind != REDONE:
            fold.consume(entry)
            continue
        undone = fold._undone
        assert undone is not None and undone[0] == entry.payload["retraction"]
        cut, kept = undone[1], undone[3]
        taken = len(fold.retractions[entry.payload["retraction"]]["steps"])
        dropped = [count for count in range(cut + 1, cut + taken + 1) if count not in kept]
        before = len(applied)
        fold.consume(entry)
        assert len(applied) - before == len(dropped), f"redo at {entry.seq}"
        given_back += taken - len(dropped)
    assert given_back > 0 and fold.state_hash() == head.state_hash()


def test_without_the_retracted_states_a_redo_applies_its_steps(tmp_path: Path) -> None:
    app = Ringside.open(data_dir=tmp_path / "data", key=ServerKey.from_seed(b"redo"), clock=FixedStepClock())
    try:
        match_id = undo_heavy_match(app, "test-dicevote", 300, seed=5)
        entries = app.entries(match_id)
    finally:
        app.close()
    reference, fold = MatchFold(entries[0]), MatchFold(entries[0])
    for entry in entries[1:]:
        if entry.kind == REDONE:
            fold._undone = None  # as after a restore from a snapshot: nothing kept to give back
        fold.consume(entry)
        reference.consume(entry)
        assert fold.state_hash() == reference.state_hash()
        assert fold.decision == reference.decision
