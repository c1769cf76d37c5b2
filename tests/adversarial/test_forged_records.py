"""Forged records that are well-formed JSON, hashed and signed, but claim what never happened:
verification must name the first event that the rules (not the cryptography) refuse."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from domain.application import Ringside
from domain.kernel.bundle import read_bundle
from domain.kernel.clock import FixedStepClock
from domain.kernel.fold import MatchFold
from domain.kernel.integrity import ServerKey
from domain.kernel.record import Entry
from domain.kernel.verification import verify_bundle
from domain.kernel.viewers import Actor
from tests.support.helpers import new_match, play_to_end

from .support import reforge

KEY = ServerKey.from_seed(b"forged-records")


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> str:
    app = Ringside.open(data_dir=tmp_path_factory.mktemp("forged"), key=KEY, clock=FixedStepClock())
    try:
        match_id = new_match(app, players=3, undo_policy="consent")
        app.submit_move(match_id, 0, {"type": "pass"})
        app.submit_move(match_id, 1, {"type": "pass"})
        first = app.fold(match_id).steps[-2].seq
        request = app.request_undo(match_id, 0, first).entries[0].payload["request"]  # needs consent
        app.answer_undo(match_id, request, True, seat=1, actor=Actor.player(1))
        app.answer_undo(match_id, request, True, seat=2, actor=Actor.player(2))
        play_to_end(app, match_id)
        return app.export_bundle(match_id)
    finally:
        app.close()


def _events(text: str) -> list[dict[str, Any]]:
    return [e.to_json() for e in read_bundle(text).entries]


def _caught(forged: str, seq: int, check: str | None = None) -> None:
    report = verify_bundle(forged)
    assert not report.intact and report.divergence is not None, "the forgery verified"
    assert report.divergence.seq == seq, report.summary()
    if check is not None:
        assert report.divergence.check == check, report.summary()


def _end_early(text: str, reason: str) -> tuple[str, int]:
    """Cut the record after its first move and end it there with correct-looking scores."""
    events = _events(text)
    cut = next(e["seq"] for e in events if e["kind"] == "move")
    fold = MatchFold(Entry.from_json(events[0]))
    for data in events[1:cut]:
        fold.consume(Entry.from_json(data))
    seed = next(e["payload"]["seed"] for e in events if e["kind"] == "seed-revealed")
    ended = {**copy.deepcopy(events[-2]), "seq": cut + 1, "payload": {
        "reason": reason, "result": fold.result(reason).to_json(), "scores": fold.score_sheet().to_json(),
        "state_hash": fold.ruleset.state_hash(fold.state)}}
    revealed = {**copy.deepcopy(events[-1]), "seq": cut + 2, "payload": {"seed": seed}}

    def change(all_events: list[dict[str, Any]]) -> None:
        all_events[:] = [*all_events[:cut], ended, revealed]

    return reforge(text, change, KEY), cut + 1


@pytest.mark.parametrize("reason", ["x", "forfeit", "adjudicated-result", "completed"])
def test_a_match_ended_early_without_a_ruling_is_caught(finished: str, reason: str) -> None:
    forged, seq = _end_early(finished, reason)
    _caught(forged, seq, "score")


def test_an_altered_final_state_hash_is_caught(finished: str) -> None:
    events = _events(finished)
    ended = next(e["seq"] for e in events if e["kind"] == "ended")

    def change(all_events: list[dict[str, Any]]) -> None:
        all_events[ended - 1]["payload"]["state_hash"] = "0" * 64

    _caught(reforge(finished, change, KEY), ended, "score")


@pytest.mark.parametrize("seed", [None, 7, ["x"]])
def test_a_seed_reveal_without_the_seed_is_caught(finished: str, seed: Any) -> None:
    events = _events(finished)
    revealed = next(e["seq"] for e in events if e["kind"] == "seed-revealed")

    def change(all_events: list[dict[str, Any]]) -> None:
        all_events[revealed - 1]["payload"]["seed"] = seed

    report = verify_bundle(reforge(finished, change, KEY))
    assert not report.intact and report.divergence is not None
    assert report.divergence.check in ("seed", "format"), report.summary()


def test_a_retraction_of_more_than_was_consented_is_caught(finished: str) -> None:
    events = _events(finished)
    consented = next(e for e in events if e["kind"] == "retracted" and e["payload"]["authority"] == "consent")

    def change(all_events: list[dict[str, Any]]) -> None:
        all_events[consented["seq"] - 1]["payload"]["from_seq"] = 2  # back into the deal

    _caught(reforge(finished, change, KEY), consented["seq"], "undo")


@pytest.mark.parametrize("actor", [None, [1, 2], "seat", {"kind": "wizard"}, {"kind": "seat", "seat": "0"},
                                   {"kind": "seat", "seat": True}, {"kind": "bot", "seat": 0, "name": [1]},
                                   {"kind": "system", "extra": 1}])
def test_an_event_by_an_actor_that_is_not_one_is_caught(finished: str, actor: Any) -> None:
    for index in (2, len(_events(finished)) - 1):
        def change(all_events: list[dict[str, Any]], index: int = index) -> None:
            all_events[index]["actor"] = actor

        _caught(reforge(finished, change, KEY), index + 1)


@pytest.mark.parametrize("change", [{"consent_from": []}, {"consent_from": [1]}, {"arbiter_needed": True},
                                    {"consent_from": [0, 1, 2]}, {"seat": 1}, {"request": "u1"}])
def test_an_undo_request_other_than_the_policy_makes_is_caught_where_it_is(finished: str,
                                                                         change: dict[str, Any]) -> None:
    """The first divergent event is the request itself (say, asking nobody's consent past a
    barrier), not the retraction it later let through."""
    events = _events(finished)
    request = next(e["seq"] for e in events if e["kind"] == "undo-requested")

    def forge(all_events: list[dict[str, Any]]) -> None:
        all_events[request - 1]["payload"].update(change)

    _caught(reforge(finished, forge, KEY), request, "undo")


def test_an_undo_request_made_by_another_seats_player_is_caught(finished: str) -> None:
    events = _events(finished)
    request = next(e["seq"] for e in events if e["kind"] == "undo-requested")

    def forge(all_events: list[dict[str, Any]]) -> None:
        all_events[request - 1]["actor"] = {"kind": "seat", "seat": 2}

    _caught(reforge(finished, forge, KEY), request, "undo")


@pytest.fixture(scope="module")
def ruled(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A finished match with a penalty, a correction and an illegal move that stands."""
    app = Ringside.open(data_dir=tmp_path_factory.mktemp("ruled"), key=KEY, clock=FixedStepClock())
    try:
        match_id = new_match(app)
        app.make_ruling(match_id, {"ruling": "penalty", "seat": 1, "points": 2}, actor=Actor.arbiter())
        app.submit_move(match_id, 0, {"type": "pass"})
        app.make_ruling(match_id, {"ruling": "correction", "from_seq": app.fold(match_id).steps[-1].seq},
                        actor=Actor.arbiter())
        app.make_ruling(match_id, {"ruling": "illegal-move-stands", "seat": 0, "move": {"type": "pass"}},
                        actor=Actor.arbiter())
        play_to_end(app, match_id)
        text = app.export_bundle(match_id)
        assert verify_bundle(text).intact
        return text
    finally:
        app.close()


@pytest.mark.parametrize(("ruling", "change"), [
    ("penalty", {"seat": 7}), ("penalty", {"seat": True}), ("penalty", {"points": "2"}),
    ("correction", {"from_seq": 1}), ("illegal-move-stands", {"seat": 1}),
    ("penalty", {"ruling": "pardon"}),
])
def test_a_ruling_the_application_would_refuse_is_caught_where_it_is(ruled: str, ruling: str,
                                                                   change: dict[str, Any]) -> None:
    events = _events(ruled)
    seq = next(e["seq"] for e in events if e["kind"] == "ruling" and e["payload"]["ruling"] == ruling)

    def forge(all_events: list[dict[str, Any]]) -> None:
        all_events[seq - 1]["payload"].update(change)

    _caught(reforge(ruled, forge, KEY), seq, "ruling")
