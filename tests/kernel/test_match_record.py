"""The match record (brief §3, §5, §6): creation, moves, refusals that change nothing,
randomness modes, hidden information, undo policies, rulings. Runs on SQLite and PostgreSQL."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest

from domain.application import Ringside
from domain.kernel.chance import derive_outcome
from domain.kernel.errors import (
    ChancePendingError,
    ForbiddenError,
    IllegalMoveError,
    ImpossibleOutcomeError,
    InvalidComponentsError,
    InvalidOptionsError,
    InvalidSeatsError,
    MalformedMoveError,
    MatchNotFoundError,
    MatchOverError,
    NotYourTurnError,
    StaleVersionError,
    UndoRefusedError,
    UnknownGameError,
    UnknownVariantError,
)
from domain.kernel.viewers import Actor, Viewer
from tests.support.helpers import hashes, new_match, play_to_end, to_turn

ARBITER = Actor.arbiter("Ada")
RECORDER = Actor("recorder", name="Rex")


def test_created_event_records_everything_needed_to_replay(app: Ringside) -> None:
    match_id = new_match(app, 3, options={"rounds": 1}, entropy=["my dice"], seed="cd" * 32)
    created = app.entries(match_id, 1, 1)[0]
    header = created.payload
    assert created.kind == "created" and created.seq == 1
    assert header["game"] == "test-dicevote" and header["variant"] == "standard"
    assert header["options"] == {"rounds": 1, "hand_size": 2}
    assert [s["player"] for s in header["seats"]] == ["P0", "P1", "P2"]
    assert header["engine_version"] == "1.0.0"
    assert len(header["components"]["hash"]) == 64
    assert header["seed_commitment"] == hashlib.sha256(bytes.fromhex("cd" * 32)).hexdigest()
    assert header["entropy"] == ["my dice"]
    assert "cd" * 32 not in str(app.entries(match_id)), "the secret seed must not be in the record"


@pytest.mark.parametrize(("kwargs", "error"), [
    ({"game": "chess"}, UnknownGameError),
    ({"variant": "turbo"}, UnknownVariantError),
    ({"options": {"rounds": 99}}, InvalidOptionsError),
    ({"options": {"colour": "red"}}, InvalidOptionsError),
    ({"players": ["Solo"]}, InvalidSeatsError),
    ({"players": ["A", " "]}, InvalidSeatsError),
    ({"components": {"deck": "not a list"}}, InvalidComponentsError),
])
def test_bad_creation_is_refused_with_a_typed_error(app: Ringside, kwargs: dict[str, Any],
                                                    error: type[Exception]) -> None:
    params: dict[str, Any] = {"game": "test-dicevote", "players": ["A", "B"], **kwargs}
    before = app.list_matches()
    with pytest.raises(error) as raised:
        app.create_match(params.pop("game"), params.pop("players"), **params)
    assert str(raised.value)
    assert app.list_matches() == before


def _assert_unchanged(app: Ringside, match_id: Any, before: list[str]) -> None:
    assert hashes(app, match_id) == before


def test_refused_moves_name_the_problem_and_change_nothing(app: Ringside) -> None:
    match_id = new_match(app)
    seat = to_turn(app, match_id)
    before = hashes(app, match_id)
    with pytest.raises(NotYourTurnError, match="not to act"):
        app.submit_move(match_id, 1 - seat, {"type": "pass"})
    with pytest.raises(MalformedMoveError, match="malformed"):
        app.submit_move(match_id, seat, {"type": "teleport"})
    with pytest.raises(IllegalMoveError) as illegal:
        app.submit_move(match_id, seat, {"type": "vote", "choice": "high"})
    assert illegal.value.rule == "TG-2.1"
    hand = app.state(match_id, Viewer.of_seat(seat))["state"]["hands"][seat]
    missing = next(card for card in range(1, 7) if card not in hand)
    with pytest.raises(IllegalMoveError, match=r"no \d in your hand \(TG-1.2\)"):
        app.submit_move(match_id, seat, {"type": "play", "card": missing})
    with pytest.raises(StaleVersionError) as stale:
        app.submit_move(match_id, seat, {"type": "pass"}, expected_version=2)
    assert stale.value.current == len(before)
    with pytest.raises(MatchNotFoundError):
        app.submit_move(__import__("uuid").uuid4(), 0, {"type": "pass"})
    _assert_unchanged(app, match_id, before)
    accepted = app.submit_move(match_id, seat, {"type": "pass"}, expected_version=len(before))
    assert accepted.version == len(before) + 1


def test_recorded_mode_takes_outcomes_from_the_recorder_and_refuses_impossible_ones(app: Ringside) -> None:
    match_id = new_match(app, randomness="recorded", options={"rounds": 1, "hand_size": 1})
    assert app.fold(match_id).decision.chance is not None
    before = hashes(app, match_id)
    with pytest.raises(ChancePendingError):
        app.submit_move(match_id, 0, {"type": "pass"})
    with pytest.raises(ImpossibleOutcomeError, match="cannot come out"):
        app.submit_outcome(match_id, 9, actor=RECORDER)
    with pytest.raises(ForbiddenError):
        server = new_match(app)
        app.submit_outcome(server, 1, actor=RECORDER)
    _assert_unchanged(app, match_id, before)
    app.submit_outcome(match_id, 6, actor=RECORDER)
    app.submit_outcome(match_id, 6, actor=RECORDER)
    app.submit_move(match_id, 0, {"type": "play", "card": 6}, actor=RECORDER)
    with pytest.raises(ImpossibleOutcomeError):  # both sixes of the deck are gone: TG-1.1
        app.submit_outcome(match_id, 6, actor=RECORDER)
    app.submit_outcome(match_id, 5, actor=RECORDER)
    state = app.state(match_id, Viewer.arbiter())["state"]
    assert state["hands"] == [[5], [6]]
    report = app.verify_match(match_id)
    assert report.ok
    assert any("recorded randomness" in note for note in report.notes)


def test_server_outcomes_are_recomputable_from_the_revealed_seed(app: Ringside) -> None:
    match_id = new_match(app, seed="42" * 32, entropy=["alice", "bob"])
    play_to_end(app, match_id)
    fold = app.fold(match_id)
    assert fold.status == "ended" and fold.seed == "42" * 32
    replay = app.fold(match_id, 1)
    for entry in app.entries(match_id)[1:]:
        if entry.kind == "chance":
            spec = replay.decision.chance
            assert spec is not None
            derived = derive_outcome(fold.seed, str(match_id), ["alice", "bob"], entry.seq, spec)
            assert derived.outcome == entry.payload["outcome"]
            assert entry.payload["derivation"] == {"mode": "server", "index": derived.index, "draw": derived.draw}
        replay.consume(entry)


def test_a_hidden_hand_is_seen_only_by_its_seat(app: Ringside) -> None:
    """TG-1.1: each dealt card is visible to its receiver only; spectators see counts."""
    match_id = new_match(app)
    arbiter_log = app.log(match_id, Viewer.arbiter())
    deals = [e for e in arbiter_log if e["kind"] == "chance"]
    assert len(deals) == 4
    for viewer in (Viewer.of_seat(0), Viewer.of_seat(1), Viewer.spectator()):
        log = app.log(match_id, viewer)
        shown = [e for e in log if e["kind"] == "chance" and "outcome" in e["payload"]]
        hidden = [e for e in log if e["kind"] == "chance" and e.get("redacted")]
        assert len(shown) == (2 if viewer.kind == "seat" else 0)
        assert len(hidden) == 4 - len(shown)
        assert all("salt" not in e["payload"] and "derivation" not in e["payload"] for e in hidden)
        hands = app.state(match_id, viewer)["state"]["hands"]
        for seat in (0, 1):
            assert (isinstance(hands[seat], list)) == viewer.is_seat(seat)


def test_secret_votes_stay_hidden_until_every_vote_is_in(app: Ringside) -> None:
    """TG-2.1: the first vote is recorded at once but shown to nobody else until the group is complete."""
    match_id = new_match(app, options={"rounds": 2})
    app.submit_move(match_id, 0, {"type": "pass"})
    app.submit_move(match_id, 1, {"type": "pass"})
    assert app.fold(match_id).decision.secret
    first = app.submit_move(match_id, 1, {"type": "vote", "choice": "low"})
    vote_seq = first.receipt.seq

    def vote_payload(viewer: Viewer) -> dict[str, Any]:
        return next(e for e in app.log(match_id, viewer) if e["seq"] == vote_seq)["payload"]

    assert vote_payload(Viewer.of_seat(0)) == {"seat": 1, "hidden": True}
    assert vote_payload(Viewer.spectator()) == {"seat": 1, "hidden": True}
    assert vote_payload(Viewer.of_seat(1))["move"] == {"type": "vote", "choice": "low"}
    assert app.state(match_id, Viewer.of_seat(0))["state"]["votes"] == [None, "cast"]
    app.submit_move(match_id, 0, {"type": "vote", "choice": "high"})
    assert vote_payload(Viewer.of_seat(0))["move"] == {"type": "vote", "choice": "low"}
    # Time travel back to before the reveal still hides it from seat 0's view of that position.
    assert app.state(match_id, Viewer.of_seat(0), at=vote_seq)["state"]["votes"] == [None, "cast"]


def test_own_turn_undo_within_the_barrier_and_redo(app: Ringside) -> None:
    match_id = new_match(app, players=1, variant="solo", options={"rounds": 2})
    start = app.fold(match_id).state_hash()
    played = app.submit_move(match_id, 0, {"type": "pass"})  # no chance drawn: still within the barrier
    after = app.fold(match_id).state_hash()
    undo = app.request_undo(match_id, 0)
    fold = app.fold(match_id)
    assert fold.state_hash() == start
    log = app.log(match_id, Viewer.spectator())
    assert log[played.receipt.seq - 1]["retracted_by"] == undo.version
    # Time travel shows the retracted move as it was.
    assert app.fold(match_id, played.receipt.seq).state_hash() == after
    app.redo(match_id, seat=0, actor=Actor.player(0))
    assert app.fold(match_id).state_hash() == after
    with pytest.raises(UndoRefusedError, match="nothing to redo"):
        app.redo(match_id, seat=0, actor=Actor.player(0))


def test_undo_policy_none_refuses(app: Ringside) -> None:
    match_id = new_match(app, undo_policy="none")
    seat = to_turn(app, match_id)
    app.submit_move(match_id, seat, {"type": "pass"})
    with pytest.raises(UndoRefusedError, match="policy: none"):
        app.request_undo(match_id, seat)


def test_consent_policy_past_a_barrier_needs_the_other_seat(app: Ringside) -> None:
    match_id = new_match(app, undo_policy="consent")
    roll = app.submit_move(match_id, 0, {"type": "roll"})  # the die roll is a barrier
    before_roll = app.fold(match_id, roll.receipt.seq - 1).state_hash()
    request = app.request_undo(match_id, 0)
    request_id = f"u{request.receipt.seq}"
    assert app.summary(match_id)["pending_undo"][0]["consent_from"] == [1]
    with pytest.raises(ForbiddenError):
        app.answer_undo(match_id, request_id, True, seat=0, actor=Actor.player(0))
    app.answer_undo(match_id, request_id, True, seat=1, actor=Actor.player(1))
    assert app.fold(match_id).state_hash() == before_roll
    # A declined request changes nothing.
    app.submit_move(match_id, 0, {"type": "roll"})
    again = app.request_undo(match_id, 0)
    before = app.fold(match_id).state_hash()
    app.answer_undo(match_id, f"u{again.receipt.seq}", False, seat=1, actor=Actor.player(1))
    assert app.fold(match_id).state_hash() == before
    with pytest.raises(UndoRefusedError, match="declined"):
        app.answer_undo(match_id, f"u{again.receipt.seq}", True, seat=1, actor=Actor.player(1))


def test_arbiter_only_policy_waits_for_the_arbiter_and_a_new_move_makes_requests_stale(app: Ringside) -> None:
    match_id = new_match(app, undo_policy="arbiter-only")
    app.submit_move(match_id, 0, {"type": "pass"})
    request = app.request_undo(match_id, 0)
    app.submit_move(match_id, 1, {"type": "pass"})
    with pytest.raises(UndoRefusedError, match="stale"):
        app.answer_undo(match_id, f"u{request.receipt.seq}", True, seat=None, actor=ARBITER)
    app.submit_move(match_id, 0, {"type": "vote", "choice": "low"})
    pending = app.request_undo(match_id, 0)
    before_vote = app.fold(match_id, pending.receipt.seq - 2).state_hash()
    app.answer_undo(match_id, f"u{pending.receipt.seq}", True, seat=None, actor=ARBITER)
    assert app.fold(match_id).state_hash() == before_vote
    assert app.verify_match(match_id).ok


def test_rulings(app: Ringside) -> None:
    match_id = new_match(app)
    with pytest.raises(ForbiddenError):
        app.make_ruling(match_id, {"ruling": "penalty", "seat": 0, "points": 2}, actor=Actor.player(1))
    app.make_ruling(match_id, {"ruling": "penalty", "seat": 0, "points": 2, "note": "slow play"}, actor=ARBITER)
    sheet = app.score(match_id)
    assert sheet["totals"][0] == -2
    assert sheet["lines"][-1]["rule"] == "RULING" and sheet["lines"][-1]["detail"] == "slow play"
    # An illegal move stands: seat 0 "plays" a card it does not hold.
    hand = app.state(match_id, Viewer.arbiter())["state"]["hands"][0]
    missing = next(card for card in range(1, 7) if card not in hand)
    app.make_ruling(match_id, {"ruling": "illegal-move-stands", "seat": 0,
                               "move": {"type": "pass"}, "note": "agreed at the table"}, actor=ARBITER)
    assert app.fold(match_id).decision.seats == (1,)
    # A correction takes back from an event onwards.
    seq_before = app.fold(match_id).seq
    moved = app.submit_move(match_id, 1, {"type": "pass"})
    app.make_ruling(match_id, {"ruling": "correction", "from_seq": moved.receipt.seq}, actor=ARBITER)
    assert app.fold(match_id).decision.seats == (1,)
    assert app.fold(match_id).seq == seq_before + 3
    # A forfeit ends the match with the forfeiting seat last.
    app.make_ruling(match_id, {"ruling": "forfeit", "seat": 1}, actor=ARBITER)
    end = app.fold(match_id).end
    assert end is not None and end["reason"] == "forfeit" and end["result"]["ranks"] == [1, 2]
    with pytest.raises(MatchOverError):
        app.submit_move(match_id, 1, {"type": "play", "card": missing})
    assert app.verify_match(match_id).ok


def test_adjudicated_result(app: Ringside) -> None:
    match_id = new_match(app, players=3)
    app.make_ruling(match_id, {"ruling": "adjudicated-result", "ranks": [2, 1, 2]}, actor=ARBITER)
    end = app.fold(match_id).end
    assert end is not None and end["result"]["winners"] == [1]
    assert app.fold(match_id).seed is not None
    assert app.verify_match(match_id).ok


def test_time_travel_and_diff(app: Ringside) -> None:
    match_id = new_match(app)
    play_to_end(app, match_id)
    total = app.fold(match_id).seq
    for position in range(1, total + 1):
        assert app.fold(match_id, position).seq == position
    changes = app.diff(match_id, 5, 6, Viewer.spectator())["changes"]
    assert changes and all({"path", "op"} <= set(change) for change in changes)
    assert app.diff(match_id, 5, 5, Viewer.spectator())["changes"] == []


def test_snapshots_bound_rebuild_cost(app: Ringside) -> None:
    match_id = new_match(app, players=1, variant="solo", options={"rounds": 5}, undo_policy="own-turn")
    for _ in range(40):  # pass and take it back: three events a cycle, past 100 events
        app.submit_move(match_id, 0, {"type": "pass"})
        app.request_undo(match_id, 0)
    assert app.fold(match_id).seq > 120
    assert app.snapshots is not None
    snapshots = list(app.snapshots.get(match_id))
    assert snapshots and snapshots[0].originator_version == 100
    cold = app.fold(match_id, 117)
    scratch = app.fold(match_id, 1)
    for entry in app.entries(match_id, 2, cold.seq):
        scratch.consume(entry)
    assert scratch.state_hash() == cold.state_hash() and scratch.head == cold.head


def test_a_deep_retraction_is_snapshotted_where_a_shallow_one_is_not(app: Ringside) -> None:
    """A correction taking back more than CHUNK steps gets a snapshot of its own, so that reading
    any position after it does not replay the match from setup to its cut; a take-back of one
    move does not (issue 14)."""
    match_id = new_match(app, players=1, variant="solo", options={"rounds": 40})
    for step in range(30):
        assert app.play_bot(match_id, seed=step)
    last = app.fold(match_id).steps[-1].seq
    app.make_ruling(match_id, {"ruling": "correction", "from_seq": last}, actor=ARBITER)  # one step: shallow
    app.make_ruling(match_id, {"ruling": "correction", "from_seq": 5}, actor=ARBITER)  # every step but two
    shallow, deep = (entry.seq for entry in app.entries(match_id) if entry.kind == "retracted")
    assert app.snapshots is not None
    taken = [snapshot.originator_version for snapshot in app.snapshots.get(match_id)]
    assert taken == [deep], (taken, shallow, deep)
    for step in range(3):
        assert app.play_bot(match_id, seed=step)
    cold = app.fold(match_id, app.fold(match_id).seq)
    scratch = app.fold(match_id, 1)
    for entry in app.entries(match_id, 2, cold.seq):
        scratch.consume(entry)
    assert scratch.state_hash() == cold.state_hash() and scratch.head == cold.head


def test_annotations_live_in_their_own_stream(app: Ringside) -> None:
    match_id = new_match(app)
    version = app.fold(match_id).seq
    author = Actor("seat", 0, "Ann")
    note = app.annotate(match_id, 2, "interesting deal", actor=author, glyphs=["!?"], tags=["opening"])
    assert note["hash"] == app.entries(match_id, 2, 2)[0].hash
    app.annotate(match_id, 3, "for my eyes", actor=author, visibility="seat:0")
    app.annotate(match_id, 3, "arbiters only", actor=ARBITER, visibility="arbiter")
    assert app.fold(match_id).seq == version, "annotations must not change the match's version"
    assert len(app.annotations(match_id, Viewer.spectator())) == 1
    assert len(app.annotations(match_id, Viewer.of_seat(0))) == 2
    assert len(app.annotations(match_id, Viewer.of_seat(1))) == 1
    assert len(app.annotations(match_id, Viewer.arbiter())) == 3
    edited = app.edit_annotation(match_id, note["id"], actor=author, text="a great deal", glyphs=["!!"])
    assert edited["text"] == "a great deal" and edited["edited_at"]
    with pytest.raises(ForbiddenError):
        app.edit_annotation(match_id, note["id"], actor=Actor("seat", 1, "Bob"), text="mine now")
    with pytest.raises(Exception, match="glyph"):
        app.annotate(match_id, 2, "x", actor=author, glyphs=["★"])


def test_forks_start_where_the_parent_stood_and_are_unofficial(app: Ringside) -> None:
    match_id = new_match(app)
    play_to_end(app, match_id)
    position = 9
    parent = app.fold(match_id, position)
    forked = app.fork(match_id, position)
    fork_id = __import__("uuid").UUID(forked.receipt.match_id)
    fork = app.fold(fork_id)
    assert fork.header["fork_of"] == {"match_id": str(match_id), "seq": position, "hash": parent.head}
    assert fork.ruleset.state_hash(fork.state) == parent.ruleset.state_hash(parent.state)
    assert app.summary(fork_id)["official"] is False
    play_to_end(app, fork_id)
    assert app.verify_match(fork_id).ok
    listed = {m["match_id"]: m for m in app.list_matches()}
    assert listed[str(fork_id)]["official"] is False and listed[str(match_id)]["official"] is True


def test_listing_reads_the_read_model_with_filters(app: Ringside) -> None:
    first = new_match(app, players=2)
    second = app.create_match("test-dicevote", ["Zoë", "Bob"], seed="01" * 32)
    play_to_end(app, first)
    matches = app.list_matches()
    assert {m["match_id"] for m in matches} == {str(first), second.receipt.match_id}
    assert [m["match_id"] for m in app.list_matches(status="ended")] == [str(first)]
    assert [m["match_id"] for m in app.list_matches(player="zoë")] == [second.receipt.match_id]
    assert app.list_matches(game="carcassonne") == []
    ended = app.list_matches(status="ended")[0]
    assert ended["version"] == app.fold(first).seq and ended["winners"] is not None
    assert app.list_matches(since="2999-01-01") == []
    assert len(app.list_matches(limit=1)) == 1


def test_a_record_from_another_engine_version_is_read_but_not_extended(
        app: Ringside, monkeypatch: pytest.MonkeyPatch) -> None:
    """Brief §3: replaying under another engine version is an explicit, reported choice."""
    import tests.support.dicevote as game
    from domain.kernel.errors import EngineVersionError

    match_id = new_match(app)
    seat = to_turn(app, match_id)
    before = hashes(app, match_id)
    monkeypatch.setattr(type(game.RULESET), "engine_version", "9.9.9")
    app._matches = type(app._matches)(app, 10)  # a restarted server: nothing cached
    assert app.summary(match_id)["engine_mismatch"] == {"recorded": "1.0.0", "running": "9.9.9"}
    with pytest.raises(EngineVersionError, match=r"recorded under test-dicevote engine 1\.0\.0"):
        app.submit_move(match_id, seat, {"type": "pass"})
    assert hashes(app, match_id) == before


def test_a_recorded_outcome_that_is_not_json_is_impossible_not_a_crash(app: Ringside) -> None:
    match_id = new_match(app, randomness="recorded")
    before = hashes(app, match_id)
    for junk in (1.5, {"card": 1}, [6], None, "six"):
        with pytest.raises(ImpossibleOutcomeError):
            app.submit_outcome(match_id, junk, actor=RECORDER)
    assert hashes(app, match_id) == before


def test_outcomes_record_who_entered_them(app: Ringside) -> None:
    match_id = new_match(app, randomness="recorded")
    before = hashes(app, match_id)
    with pytest.raises(ForbiddenError, match="recorder or an arbiter"):
        app.submit_outcome(match_id, 1, actor=Actor.player(0))
    assert hashes(app, match_id) == before
    app.submit_outcome(match_id, 1, actor=ARBITER)
    app.submit_outcome(match_id, 2, actor=RECORDER)
    actors = [e.actor for e in app.entries(match_id)[-2:]]
    assert actors == [{"kind": "arbiter", "name": "Ada"}, {"kind": "recorder", "name": "Rex"}]
    assert app.verify_match(match_id).ok


def test_a_match_recorded_elsewhere_is_read_annotated_and_forked_here_but_not_continued(
        app: Ringside, tmp_path: Any) -> None:
    from domain.kernel.clock import FixedStepClock
    from domain.kernel.integrity import ServerKey

    elsewhere = Ringside.open(data_dir=tmp_path / "elsewhere", key=ServerKey.from_seed(b"elsewhere"),
                              clock=FixedStepClock())
    match_id = new_match(elsewhere)
    seat = to_turn(elsewhere, match_id)
    app.import_bundle(elsewhere.export_bundle(match_id))
    elsewhere.close()
    before = hashes(app, match_id)
    with pytest.raises(ForbiddenError, match="recorded by another server"):
        app.submit_move(match_id, seat, {"type": "pass"})
    assert hashes(app, match_id) == before
    assert app.summary(match_id)["signed_by"] == [ServerKey.from_seed(b"elsewhere").key_id]
    app.annotate(match_id, 2, "reviewed here", actor=ARBITER)
    fork = app.fork(match_id, 5)
    assert app.summary(__import__("uuid").UUID(fork.receipt.match_id))["signed_by"] == [app.key.key_id]
