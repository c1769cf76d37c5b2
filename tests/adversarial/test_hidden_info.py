"""Hidden information never reaches a viewer not entitled to it, whatever the path to it.

Dice & Vote (tests/support/dicevote.py) has hands dealt face down to one seat and secret votes.
Each test names a way a seat could learn another seat's secret and checks it is closed, including
against brute force: a hidden payload's hash could be matched against every guess unless salted.
"""

from __future__ import annotations

import json
import uuid
from typing import Any

from domain.application import Ringside
from domain.kernel.canonical import digest
from domain.kernel.integrity import event_hash
from domain.kernel.viewers import Actor, Viewer
from tests.support.helpers import new_match, play_to_end

SEAT0, SEAT1, SPECTATOR, ARBITER = Viewer.of_seat(0), Viewer.of_seat(1), Viewer.spectator(), Viewer.arbiter()


def _to_vote(app: Ringside, match_id: uuid.UUID) -> None:
    app.submit_move(match_id, 0, {"type": "pass"})
    app.submit_move(match_id, 1, {"type": "pass"})
    assert app.fold(match_id).decision.secret


def _brute_force(entry: dict[str, Any], guesses: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every guessed payload that reproduces the entry's published hash."""
    return [guess for guess in guesses
            if event_hash(entry["stream"], entry["seq"], entry["kind"], entry["actor"], entry["at"], guess,
                          entry["prev"]) == entry["hash"]]


def test_a_secret_vote_forced_by_a_ruling_stays_hidden_until_every_vote_is_in(sqlite_app: Ringside) -> None:
    """illegal-move-stands records the move in a ruling entry: it must be as secret as a move."""
    match_id = new_match(sqlite_app)
    _to_vote(sqlite_app, match_id)
    forced = sqlite_app.make_ruling(match_id, {"ruling": "illegal-move-stands", "seat": 0,
                                               "move": {"type": "vote", "choice": "high"}},
                                    actor=Actor.arbiter()).receipt.seq
    for viewer in (SEAT1, SPECTATOR):
        entry = sqlite_app.log(match_id, viewer)[forced - 1]
        assert "high" not in json.dumps(entry), entry
        guesses = [{"ruling": "illegal-move-stands", "note": "", "seat": 0,
                    "move": {"type": "vote", "choice": choice}} for choice in ("high", "low")]
        assert _brute_force(entry, guesses) == []
    assert sqlite_app.log(match_id, SEAT0)[forced - 1]["payload"]["move"]["choice"] == "high"
    assert sqlite_app.log(match_id, ARBITER)[forced - 1]["payload"]["move"]["choice"] == "high"
    sqlite_app.submit_move(match_id, 1, {"type": "vote", "choice": "low"})  # the group is complete
    assert sqlite_app.log(match_id, SEAT1)[forced - 1]["payload"]["move"]["choice"] == "high"
    assert sqlite_app.verify_match(match_id).ok
    play_to_end(sqlite_app, match_id)  # the seed is revealed: the ruling's salt is checked too
    report = sqlite_app.verify_match(match_id)
    assert report.ok and report.checked["ruling"] == 1, report.summary()


# ---- what held (kept as regression tests) ---------------------------------------------------


def test_hidden_entries_lose_salt_and_derivation_for_everyone_but_the_arbiter(sqlite_app: Ringside) -> None:
    match_id = new_match(sqlite_app)
    _to_vote(sqlite_app, match_id)
    sqlite_app.submit_move(match_id, 0, {"type": "vote", "choice": "high"})
    for viewer in (SEAT0, SEAT1, SPECTATOR):
        for entry in sqlite_app.log(match_id, viewer):
            assert "salt" not in entry["payload"]
            if entry.get("redacted"):
                assert set(entry["payload"]) <= {"kind", "seat", "hidden"}
    raw = sqlite_app.entries(match_id)
    for entry, seen in zip(raw, sqlite_app.log(match_id, SEAT1), strict=True):
        if seen.get("redacted"):  # the published hash does not match any guess without the salt
            guesses = [{**entry.payload, "salt": "0" * 32}, {k: v for k, v in entry.payload.items() if k != "salt"}]
            assert _brute_force(seen, guesses) == []


def test_a_retracted_secret_vote_stays_hidden_after_the_group_completes(sqlite_app: Ringside) -> None:
    match_id = new_match(sqlite_app)
    _to_vote(sqlite_app, match_id)
    first = sqlite_app.submit_move(match_id, 0, {"type": "vote", "choice": "high"}).receipt.seq
    sqlite_app.request_undo(match_id, 0)
    sqlite_app.submit_move(match_id, 0, {"type": "vote", "choice": "low"})
    sqlite_app.submit_move(match_id, 1, {"type": "vote", "choice": "low"})
    seen = sqlite_app.log(match_id, SEAT1)[first - 1]
    assert seen.get("redacted") and "retracted_by" in seen and "high" not in json.dumps(seen)
    assert sqlite_app.verify_match(match_id).ok


def test_time_travel_and_diffs_before_a_reveal_show_a_vote_only_as_cast(sqlite_app: Ringside) -> None:
    match_id = new_match(sqlite_app)
    _to_vote(sqlite_app, match_id)
    voted = sqlite_app.submit_move(match_id, 0, {"type": "vote", "choice": "high"}).receipt.seq
    sqlite_app.submit_move(match_id, 1, {"type": "vote", "choice": "low"})
    for seq in range(1, voted + 1):
        assert sqlite_app.state(match_id, SEAT1, seq)["state"]["votes"][0] in (None, "cast")
        changes = sqlite_app.diff(match_id, 1, seq, SEAT1)["changes"]
        assert all(change.get("after") != "high" for change in changes)
    hands = sqlite_app.state(match_id, ARBITER, voted)["state"]["hands"][0]
    seen = sqlite_app.state(match_id, SEAT1, voted)["state"]["hands"][0]
    assert seen == {"count": len(hands)}


def test_summary_annotations_and_errors_name_no_hidden_card(sqlite_app: Ringside) -> None:
    match_id = new_match(sqlite_app)
    hand = sqlite_app.state(match_id, ARBITER)["state"]["hands"][0]
    sqlite_app.annotate(match_id, 2, "my secret plan", actor=Actor.player(0), visibility="seat:0")
    assert sqlite_app.annotations(match_id, SEAT1) == []
    assert sqlite_app.annotations(match_id, SPECTATOR) == []
    assert len(sqlite_app.annotations(match_id, SEAT0)) == 1
    summary = json.dumps(sqlite_app.summary(match_id))
    assert "hands" not in summary and digest(hand) not in summary
