"""Forged seat-entropy records: hashed and signed, but claiming what the protocol forbids. A server
that draws before every seat's entropy is in, leaves a seat's entropy out, takes entropy late,
twice or from the wrong actor, or alters it, is named by verification at the first such event."""

from __future__ import annotations

import copy
import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from domain.application import Ringside
from domain.kernel.bundle import read_bundle
from domain.kernel.clock import FixedStepClock
from domain.kernel.fold import MatchFold
from domain.kernel.integrity import ServerKey
from domain.kernel.verification import verify_bundle
from domain.kernel.viewers import Actor
from tests.support.helpers import play_to_end

from .support import reforge

KEY = ServerKey.from_seed(b"forged-entropy")
SEED = "7a" * 32


def _events(text: str) -> list[dict[str, Any]]:
    return [e.to_json() for e in read_bundle(text).entries]


def _caught(forged: str, seq: int, check: str, words: str | None = None) -> None:
    report = verify_bundle(forged)
    assert not report.intact and report.divergence is not None, "the forgery verified"
    assert (report.divergence.seq, report.divergence.check) == (seq, check), report.summary()
    if words is not None:
        assert words in report.divergence.message, report.summary()


@pytest.fixture
def server(tmp_path: Any) -> Iterator[Ringside]:
    app = Ringside.open(data_dir=tmp_path / "data", key=KEY, clock=FixedStepClock())
    yield app
    app.close()


def _policy_match(app: Ringside, players: int = 3) -> uuid.UUID:
    accepted = app.create_match("test-dicevote", [f"P{i}" for i in range(players)], seed=SEED,
                                entropy_from="seats", match_id=uuid.UUID(int=7))  # the same draws every run
    return uuid.UUID(accepted.receipt.match_id)


@pytest.fixture
def honest(server: Ringside) -> str:
    """A finished 3-seat match under the policy: entropy at events 2–4, the deal from event 5."""
    match_id = _policy_match(server)
    for seat in range(3):
        server.add_entropy(match_id, seat, f"seat {seat}'s own noise")
    play_to_end(server, match_id)
    text = server.export_bundle(match_id)
    assert verify_bundle(text).intact
    return text


def _renumbered(events: list[dict[str, Any]]) -> None:
    for seq, event in enumerate(events, start=1):
        event["seq"] = seq


# ---- a server that bends its own rules while playing the match --------------------------------------
def test_a_server_that_draws_before_the_entropy_is_in_is_caught(server: Ringside) -> None:
    """It deals at creation, then takes the seats' entropy anyway and plays on consistently."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(MatchFold, "awaiting_entropy", property(lambda self: []))
        patch.setattr(MatchFold, "check_entropy", lambda self, seat, text: None)
        match_id = _policy_match(server)
        assert [e.kind for e in server.entries(match_id)][1] == "chance"
        for seat in range(3):
            server.add_entropy(match_id, seat, f"late {seat}")
        play_to_end(server, match_id)
        forged = server.export_bundle(match_id)
    _caught(forged, 2, "entropy", "before every seat had added its entropy")


def test_a_server_that_leaves_a_seats_entropy_out_and_derives_from_the_rest_is_caught(server: Ringside) -> None:
    """The same record as an honest one with seat 2's entropy event removed and every outcome
    re-derived from the seed and the remaining entropy."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(MatchFold, "awaiting_entropy",
                      property(lambda self: [s for s in range(self.seats - 1) if s not in self.seat_entropy]
                               if self.first_chance_seq is None and self.status == "active" else []))
        match_id = _policy_match(server)
        server.add_entropy(match_id, 0, "zero")
        server.add_entropy(match_id, 1, "one")  # the deal follows: seat 2 was never waited for
        play_to_end(server, match_id)
        forged = server.export_bundle(match_id)
    events = _events(forged)
    assert [e["kind"] for e in events[:4]] == ["created", "entropy-added", "entropy-added", "chance"]
    assert all(e["payload"].get("seat") != 2 for e in events if e["kind"] == "entropy-added")
    _caught(forged, 4, "entropy", "before every seat had added its entropy")


# ---- honest records altered and re-signed -------------------------------------------------------------
def test_a_removed_entropy_event_is_caught(honest: str) -> None:
    def change(events: list[dict[str, Any]]) -> None:
        del events[3]  # seat 2's entropy
        _renumbered(events)

    forged = reforge(honest, change, KEY)
    _caught(forged, 4, "entropy", "before every seat had added its entropy")
    divergence = verify_bundle(forged).divergence
    assert divergence is not None and divergence.expected == "entropy from seats [2] first"


def test_entropy_moved_after_the_first_draw_is_caught(honest: str) -> None:
    def change(events: list[dict[str, Any]]) -> None:
        late = events.pop(3)
        events.insert(4, late)  # after the first card of the deal
        _renumbered(events)

    _caught(reforge(honest, change, KEY), 4, "entropy", "before every seat had added its entropy")


def test_entropy_after_a_draw_is_caught(honest: str) -> None:
    def change(events: list[dict[str, Any]]) -> None:
        extra = copy.deepcopy(events[1])  # seat 0 again, after the first draw
        events.insert(5, extra)
        _renumbered(events)

    _caught(reforge(honest, change, KEY), 6, "entropy", "too late")


def test_entropy_twice_from_one_seat_is_caught(honest: str) -> None:
    def change(events: list[dict[str, Any]]) -> None:
        events.insert(2, copy.deepcopy(events[1]))
        _renumbered(events)

    _caught(reforge(honest, change, KEY), 3, "entropy", "already added")


@pytest.mark.parametrize("actor", [{"kind": "seat", "seat": 0}, {"kind": "recorder"}, {"kind": "system"},
                                   {"kind": "bot", "seat": 2, "name": "random"}, {"kind": "arbiter", "seat": 2}])
def test_entropy_by_another_seat_or_a_non_player_is_caught(honest: str, actor: dict[str, Any]) -> None:
    def change(events: list[dict[str, Any]]) -> None:
        events[2]["actor"] = actor  # seat 1's entropy

    _caught(reforge(honest, change, KEY), 3, "entropy")


def test_an_arbiter_acting_for_the_seat_verifies_with_a_note(honest: str) -> None:
    def change(events: list[dict[str, Any]]) -> None:
        events[2]["actor"] = Actor("arbiter", 1, "Chief").to_json()

    report = verify_bundle(reforge(honest, change, KEY))
    assert report.intact, report.summary()
    assert any("entered by an arbiter" in note for note in report.notes)


def test_altered_entropy_no_longer_derives_the_outcomes(honest: str) -> None:
    def change(events: list[dict[str, Any]]) -> None:
        events[1]["payload"]["entropy"] = "what the server would have liked seat 0 to say"

    _caught(reforge(honest, change, KEY), 5, "chance", "not the one the revealed seed derives")


@pytest.mark.parametrize("payload", [
    {"seat": 0, "entropy": ""}, {"seat": 0, "entropy": "a\x07b"}, {"seat": 0, "entropy": "x" * 201},
    {"seat": 0, "entropy": 7}, {"seat": 5, "entropy": "x"},
    {"seat": "0", "entropy": "x"}, {"seat": 0, "entropy": "x", "note": "extra"}, {"entropy": "x"},
])
def test_malformed_entropy_is_caught(honest: str, payload: dict[str, Any]) -> None:
    def change(events: list[dict[str, Any]]) -> None:
        events[1]["payload"] = payload

    _caught(reforge(honest, change, KEY), 2, "entropy")


def test_entropy_in_a_match_without_the_policy_is_caught(honest: str) -> None:
    def change(events: list[dict[str, Any]]) -> None:
        del events[0]["payload"]["entropy_from"]

    _caught(reforge(honest, change, KEY), 2, "entropy", "takes no entropy from its seats")


@pytest.mark.parametrize("header", [{"entropy_from": "players"}, {"entropy_from": None},
                                    {"entropy_from": "seats", "randomness": "recorded"}])
def test_a_header_with_an_impossible_policy_is_caught(honest: str, header: dict[str, Any]) -> None:
    def change(events: list[dict[str, Any]]) -> None:
        events[0]["payload"].update(header)

    _caught(reforge(honest, change, KEY), 1, "header", "entropy policy")


def test_an_honest_record_reforged_unchanged_verifies(honest: str) -> None:
    report = verify_bundle(reforge(honest, lambda events: None, KEY))
    assert report.intact and report.checked["entropy"] == 3
