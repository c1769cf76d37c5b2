"""The round starts of a live match's log come from a walk kept per match and continued over the
new entries (`api.viewer.steps.RoundWalk`): at every version of a match full of take-backs they
are those of a walk of the whole record from its start, and the kept walk is continued, not
redone, between retractions and redos (RR-3.1, CT-0.2: the rounds the page jumps by)."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest

from api.viewer import steps
from domain.application import Ringside
from domain.kernel.clock import FixedStepClock
from domain.kernel.integrity import ServerKey
from tests.kernel.undo_play import undo_heavy_match


@pytest.mark.parametrize(("game", "events"), [("circus-train", 300), ("russian-railroads", 300)])
def test_the_kept_walk_gives_the_round_starts_of_a_walk_from_the_start(tmp_path: Path, game: str,
                                                                       events: int) -> None:
    app = Ringside.open(data_dir=tmp_path, key=ServerKey.from_seed(b"rounds"), clock=FixedStepClock())
    try:
        match_id = undo_heavy_match(app, game, events, seed=9, match_id=uuid.uuid5(uuid.NAMESPACE_URL, f"walk-{game}"))
        record = app.entries(match_id)
        steps._WALKS.clear()
        continued = restarted = 0
        walk = None
        for version in range(1, len(record) + 1):
            head = app.fold(match_id, version)
            kept = steps.round_starts(head, record[:version])
            if version % 7 == 0 or version == len(record) or record[version - 1].kind in ("retracted", "redone"):
                fresh = steps.RoundWalk(record[0])  # the reference: a walk of the whole record so far
                fresh.extend(head, record[:version])
                assert kept == fresh.starts, version
            now = steps._WALKS[f"{match_id}:{record[0].hash}"]
            continued += now is walk
            restarted += now is not walk
            walk = now
        assert record[-1].seq == len(record) and any(e.kind == "retracted" for e in record)
        assert len(fresh.starts) >= 2  # rounds did begin and follow: the comparison says something
        assert continued > restarted > 1  # continued between take-backs, started over after them
    finally:
        app.close()
