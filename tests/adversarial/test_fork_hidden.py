"""A fork of a match in play carries its parent's hidden draws and secret choices in its created
event (the prelude). Its seats must not read them there, in the clear or by brute-forcing the hash.
"""

from __future__ import annotations

import json
import uuid

import pytest

from domain.application import Ringside
from domain.kernel.errors import InvalidSeatsError
from domain.kernel.viewers import Actor
from tests.support.helpers import new_match, play_to_end

from .test_hidden_info import ARBITER, SEAT0, SEAT1, SPECTATOR, _brute_force, _to_vote


def _hidden_prelude_fork(app: Ringside) -> tuple[uuid.UUID, uuid.UUID]:
    """A match in play with seat 0 having voted in secret, forked by an arbiter at its head."""
    parent = new_match(app)
    _to_vote(app, parent)
    app.submit_move(parent, 0, {"type": "vote", "choice": "low"})
    fork = app.fork(parent, app.fold(parent).seq, actor=Actor.arbiter())
    return parent, uuid.UUID(fork.receipt.match_id)


def test_a_forks_prelude_does_not_show_hidden_draws_or_pending_votes_to_its_seats(sqlite_app: Ringside) -> None:
    parent, fork = _hidden_prelude_fork(sqlite_app)
    hands = sqlite_app.state(parent, ARBITER)["state"]["hands"]
    for viewer, other in ((SEAT0, 1), (SEAT1, 0), (SPECTATOR, None)):
        created = sqlite_app.log(fork, viewer)[0]
        prelude = created["payload"]["prelude"]
        assert len(prelude) == len(sqlite_app.fold(parent).steps)
        shown = [step["data"] for step in prelude if step["kind"] == "chance" and "data" in step]
        if other is None:
            assert shown == []
        else:
            # a seat sees the cards dealt to itself, never the other seat's
            assert sorted(shown) == sorted(hands[1 - other])
        votes = [step for step in prelude if step["kind"] == "move" and step["seat"] == 0 and
                 step.get("data", {}).get("type") == "vote"]
        assert votes == ([] if viewer != SEAT0 else votes)
        assert "salt" not in created["payload"]
    arbiter_prelude = sqlite_app.log(fork, ARBITER)[0]["payload"]["prelude"]
    assert all("data" in step for step in arbiter_prelude)
    assert sqlite_app.verify_match(fork).ok


def test_a_forks_created_event_cannot_be_brute_forced_for_its_hidden_prelude(sqlite_app: Ringside) -> None:
    _parent, fork = _hidden_prelude_fork(sqlite_app)
    created = sqlite_app.log(fork, SEAT1)[0]
    full = sqlite_app.entries(fork, 1, 1)[0].payload
    # the seat knows everything but the hidden steps: guess them from the deck (and the vote)
    guess = json.loads(json.dumps({k: v for k, v in full.items() if k != "salt"}))
    assert _brute_force(created, [guess]) == []


def test_the_fork_leaves_the_parent_match_untouched_and_both_verify(sqlite_app: Ringside) -> None:
    parent, fork = _hidden_prelude_fork(sqlite_app)
    before = [e.hash for e in sqlite_app.entries(parent)]
    sqlite_app.submit_move(fork, 1, {"type": "vote", "choice": "high"})
    assert [e.hash for e in sqlite_app.entries(parent)] == before
    assert sqlite_app.verify_match(parent).ok and sqlite_app.verify_match(fork).ok
    assert sqlite_app.summary(fork)["official"] is False


def test_a_fork_with_another_number_of_seats_is_refused(sqlite_app: Ringside) -> None:
    """The prelude is the parent's seats' steps: replayed over 3 seats it dealt seat 0's cards to
    seat 2 and verified OK (or crashed the engine)."""
    parent = new_match(sqlite_app)
    sqlite_app.submit_move(parent, 0, {"type": "pass"})
    for players in (["A", "B", "C"], ["A", "B", "C", "D"]):
        with pytest.raises(InvalidSeatsError):
            sqlite_app.fork(parent, sqlite_app.fold(parent).seq, players=players)
    assert len(sqlite_app.list_matches()) == 1
    renamed = sqlite_app.fork(parent, sqlite_app.fold(parent).seq, players=["X", "Y"])
    fork = uuid.UUID(renamed.receipt.match_id)
    assert sqlite_app.state(fork, ARBITER)["state"]["hands"] == sqlite_app.state(parent, ARBITER)["state"]["hands"]


def test_a_fork_of_a_fork_and_a_fork_at_the_start_replay_and_verify(sqlite_app: Ringside) -> None:
    parent, fork = _hidden_prelude_fork(sqlite_app)
    sqlite_app.submit_move(fork, 1, {"type": "vote", "choice": "high"})
    grandchild = uuid.UUID(sqlite_app.fork(fork, sqlite_app.fold(fork).seq, actor=Actor.arbiter()).receipt.match_id)
    assert sqlite_app.state(grandchild, ARBITER)["state"] == sqlite_app.state(fork, ARBITER)["state"]
    prelude = sqlite_app.log(grandchild, SEAT1)[0]["payload"]["prelude"]
    assert sum(1 for step in prelude if step.get("hidden")) == 2  # seat 0's two dealt cards
    assert sqlite_app.verify_match(grandchild).ok
    start = uuid.UUID(sqlite_app.fork(parent, 1, actor=Actor.arbiter()).receipt.match_id)
    created = sqlite_app.entries(start, 1, 1)[0]
    assert created.payload["prelude"] == [] and "salt" not in created.payload
    assert sqlite_app.verify_match(start).ok
    play_to_end(sqlite_app, grandchild)
    assert sqlite_app.verify_match(grandchild).ok  # with the seed: the fork's salt is checked


def test_a_fork_starts_with_the_scores_its_parent_had_penalties_included(sqlite_app: Ringside) -> None:
    parent = new_match(sqlite_app)
    sqlite_app.submit_move(parent, 0, {"type": "roll"})
    sqlite_app.make_ruling(parent, {"ruling": "penalty", "seat": 1, "points": 3, "note": "slow play"},
                           actor=Actor.arbiter())
    at = sqlite_app.fold(parent).seq
    fork = uuid.UUID(sqlite_app.fork(parent, at, actor=Actor.arbiter()).receipt.match_id)
    assert sqlite_app.score(fork)["totals"] == sqlite_app.score(parent, at)["totals"]
    assert sqlite_app.state(fork, SPECTATOR)["scores"] == sqlite_app.state(parent, SPECTATOR, at)["scores"]
    grandchild = uuid.UUID(sqlite_app.fork(fork, 1, actor=Actor.arbiter()).receipt.match_id)
    assert sqlite_app.score(grandchild)["totals"] == sqlite_app.score(parent, at)["totals"]
    early = uuid.UUID(sqlite_app.fork(parent, at - 1, actor=Actor.arbiter()).receipt.match_id)
    assert sqlite_app.score(early)["totals"] == sqlite_app.score(parent, at - 1)["totals"]
    for match_id in (fork, grandchild, early):
        play_to_end(sqlite_app, match_id)
        report = sqlite_app.verify_match(match_id)
        assert report.ok, report.summary()
