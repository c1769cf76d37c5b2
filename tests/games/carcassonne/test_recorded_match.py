"""A recorded-randomness match through the event-sourced application: a recorder enters the tile
and token draws as they happened, the seats make explicit placements, and the score sheet, the
redaction of the face-down token and the offline verification are checked."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from domain.application import Ringside
from domain.kernel.errors import ImpossibleOutcomeError
from domain.kernel.verification import verify_bundle
from domain.kernel.viewers import Actor, Viewer

RECORDER = Actor("recorder", None, "table judge")

#: (seat, tile drawn, x, y, rotation, figure move, token drawn after a circus tile)
TABLE: list[tuple[int, str, int, int, int, dict[str, Any], str | None]] = [
    (0, "UBT-F", 0, 1, 0, {"type": "follower", "segment": "r1"}, "seal"),   # EX-1
    (1, "W", -1, 0, 0, {"type": "follower", "segment": "r1"}, None),
    (0, "V", -1, 1, 1, {"type": "follower", "segment": "r1"}, None),
    (1, "B", 1, 1, 0, {"type": "follower", "segment": "m1"}, None),
    (0, "U", 0, 2, 1, {"type": "follower", "segment": "f1"}, None),
    (1, "UBT-H", 1, 0, 0, {"type": "pass"}, "bear"),                         # EX-2, EX-3, EX-4
    (0, "UBT-A", -1, 2, 0, {"type": "acrobat", "x": -1, "y": 2}, None),
]
EXPECTED_DURING_PLAY = [
    {"seat": 1, "points": 3, "category": "road", "rule": "CB-5.2"},
    {"seat": 0, "points": 12, "category": "circus", "rule": "BT-4.3"},
    {"seat": 1, "points": 4, "category": "circus", "rule": "BT-4.3"},
]


def _short(line: dict[str, Any]) -> dict[str, Any]:
    return {key: line[key] for key in ("seat", "points", "category", "rule")}


def test_recorded_match_scores_redacts_and_verifies(sqlite_app: Ringside) -> None:
    """CB-3.3-style impossible draws are refused; BT-3.7: the token stays hidden from seats in the
    record; the score sheet matches EX-2/EX-3; the exported bundle verifies offline."""
    app = sqlite_app
    accepted = app.create_match("carcassonne", ["Red", "Blue"], variant="big-top", randomness="recorded")
    match_id = uuid.UUID(accepted.receipt.match_id)
    for seat, tile, x, y, rotation, figure, token in TABLE:
        app.submit_outcome(match_id, tile, actor=RECORDER)
        app.submit_move(match_id, seat, {"type": "place", "x": x, "y": y, "rotation": rotation})
        app.submit_move(match_id, seat, figure)
        if token is not None:
            app.submit_outcome(match_id, token, actor=RECORDER)
            for viewer in (Viewer.of_seat(0), Viewer.of_seat(1), Viewer.spectator()):
                assert app.state(match_id, viewer)["state"]["big_top"]["token"] == "face-down"
                assert token not in str(app.log(match_id, viewer, start=app.fold(match_id).seq))
            assert app.state(match_id, Viewer.arbiter())["state"]["big_top"]["token"] == token
    with pytest.raises(ImpossibleOutcomeError):
        app.submit_outcome(match_id, "UBT-F", actor=RECORDER)  # its only copy is on the table
    sheet = app.score(match_id)
    assert [_short(line) for line in sheet["lines"]] == EXPECTED_DURING_PLAY
    assert sheet["totals"] == [12, 7]
    report = verify_bundle(app.export_bundle(match_id))
    assert report.intact, report.divergence
