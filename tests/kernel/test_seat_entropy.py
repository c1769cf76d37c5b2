"""Seat entropy (entropy_from "seats"): every seat adds entropy after the server's seed
commitment is recorded and before the first draw; no draw happens without all of it, and every
outcome derives from the seed, the creation entropy and each seat's entropy (in seat order)."""

from __future__ import annotations

import unicodedata
import uuid
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.application import Ringside
from domain.kernel import record
from domain.kernel.chance import commitment, derive_outcome, entropy_problem
from domain.kernel.clock import FixedStepClock
from domain.kernel.contract import ChanceSpec
from domain.kernel.errors import (
    ChancePendingError,
    EntropyRefusedError,
    ForbiddenError,
    InvalidRequestError,
    MatchOverError,
)
from domain.kernel.fold import MatchFold
from domain.kernel.integrity import ServerKey
from domain.kernel.record import Entry
from domain.kernel.viewers import Actor, Viewer
from tests.adversarial.support import refused
from tests.kernel.snapshot_format1 import format1
from tests.support.helpers import assert_linear_and_verified, play_to_end

SEED = "5e" * 32


def _policy_match(app: Ringside, players: int = 2, game: str = "test-dicevote", **kwargs: Any) -> uuid.UUID:
    kwargs.setdefault("seed", SEED)
    if game == "test-dicevote" and players == 1:
        kwargs.setdefault("variant", "solo")
    accepted = app.create_match(game, [f"P{i}" for i in range(players)], entropy_from="seats", **kwargs)
    return uuid.UUID(accepted.receipt.match_id)


def _rederived(app: Ringside, match_id: uuid.UUID, seed: str, entropy: list[str]) -> list[tuple[Any, Any]]:
    """Every chance event of the record next to what `seed` and `entropy` derive for it."""
    entries = app.entries(match_id)
    fold = MatchFold(entries[0])
    pairs = []
    for entry in entries[1:]:
        if entry.kind == record.CHANCE:
            spec = fold.decision.chance
            assert spec is not None
            derived = derive_outcome(seed, str(match_id), entropy, entry.seq, spec)
            pairs.append(((entry.payload["outcome"], entry.payload["derivation"]),
                          (derived.outcome, {"mode": "server", "index": derived.index, "draw": derived.draw})))
        fold.consume(entry)
    return pairs


def _kinds(app: Ringside, match_id: uuid.UUID) -> list[str]:
    return [entry.kind for entry in app.entries(match_id)]


# ---- the protocol, end to end --------------------------------------------------------------------
def test_a_dicevote_match_waits_for_every_seat_then_plays_to_a_verified_end(sqlite_app: Ringside) -> None:
    app = sqlite_app
    match_id = _policy_match(app, players=3, entropy=["given at creation"])
    created = app.entries(match_id)[0]
    assert created.payload["entropy_from"] == "seats"
    assert created.payload["seed_commitment"] == commitment(SEED)
    assert _kinds(app, match_id) == ["created"]  # the deal waits: nothing drawn at creation
    summary = app.summary(match_id)
    assert summary["entropy_from"] == "seats" and summary["awaiting_entropy"] == [0, 1, 2]
    assert summary["decision"]["chance"] == {"kind": "draw"}
    assert summary["decision"]["awaiting_entropy"] == [0, 1, 2]
    assert app.state(match_id, Viewer.spectator())["decision"]["awaiting_entropy"] == [0, 1, 2]

    first = app.add_entropy(match_id, 2, "seat two's coin flips: HTTH")
    assert [e.kind for e in first.entries] == ["entropy-added"]
    assert first.entries[0].payload == {"seat": 2, "entropy": "seat two's coin flips: HTTH"}
    assert first.entries[0].actor == {"kind": "seat", "seat": 2}
    second = app.add_entropy(match_id, 0, "zero")
    assert [e.kind for e in second.entries] == ["entropy-added"]
    assert app.summary(match_id)["awaiting_entropy"] == [1]
    last = app.add_entropy(match_id, 1, "one")  # the last seat's entropy: the deal follows at once
    assert [e.kind for e in last.entries] == ["entropy-added", *["chance"] * 6]
    assert last.receipt.seq == last.entries[0].seq
    summary = app.summary(match_id)
    assert summary["awaiting_entropy"] == [] and "awaiting_entropy" not in summary["decision"]

    play_to_end(app, match_id)
    assert app.fold(match_id).status == "ended"
    assert_linear_and_verified(app, match_id)
    report = app.verify_match(match_id)
    assert report.checked["entropy"] == 3 and report.notes == []
    # every outcome: the seed, the creation entropy, then the seats' entropy in seat order
    pairs = _rederived(app, match_id, SEED, ["given at creation", "zero", "one", "seat two's coin flips: HTTH"])
    assert len(pairs) >= 6 and all(recorded == derived for recorded, derived in pairs)
    assert app.fold(match_id).entropy == ["given at creation", "zero", "one", "seat two's coin flips: HTTH"]


@pytest.mark.parametrize("game", ["carcassonne", "circus-train"])
def test_a_real_game_under_the_policy_plays_to_a_verified_end(sqlite_app: Ringside, game: str) -> None:
    app = sqlite_app
    match_id = _policy_match(app, game=game)
    assert _kinds(app, match_id) == ["created"]
    assert app.summary(match_id)["decision"]["awaiting_entropy"] == [0, 1]
    app.add_entropy(match_id, 0, "🎲 rolled 4, 2, 6")
    accepted = app.add_entropy(match_id, 1, "arbiter's pick", actor=Actor.arbiter("Chief"))
    assert accepted.entries[1].kind == "chance"
    play_to_end(app, match_id)
    assert app.fold(match_id).status == "ended"
    assert_linear_and_verified(app, match_id)
    report = app.verify_match(match_id)
    assert any("entered by an arbiter" in note for note in report.notes)
    pairs = _rederived(app, match_id, SEED, ["🎲 rolled 4, 2, 6", "arbiter's pick"])
    assert pairs and all(recorded == derived for recorded, derived in pairs)


def test_the_order_entropy_arrives_in_does_not_change_the_draws(tmp_path: Path, test_key: ServerKey) -> None:
    """Entropy counts in seat order, so a server holding one seat's entropy back until another's
    arrives gains no choice among orders."""
    match_id = uuid.UUID(int=42)
    heads = []
    for name, order in (("a", (0, 1, 2)), ("b", (2, 0, 1))):
        app = Ringside.open(data_dir=tmp_path / name, key=test_key, clock=FixedStepClock())
        try:
            _policy_match(app, players=3, match_id=match_id)
            for seat in order:
                app.add_entropy(match_id, seat, f"entropy of seat {seat}")
            heads.append([(e.seq, e.payload) for e in app.entries(match_id) if e.kind == "chance"])
        finally:
            app.close()
    assert heads[0] == heads[1] and len(heads[0]) == 6


def test_entropy_changes_the_draws(tmp_path: Path, test_key: ServerKey) -> None:
    match_id = uuid.UUID(int=43)
    outcomes = []
    for name, text in (("a", "one thing"), ("b", "another thing")):
        app = Ringside.open(data_dir=tmp_path / name, key=test_key, clock=FixedStepClock())
        try:
            _policy_match(app, players=1, match_id=match_id, options={"hand_size": 3})
            app.add_entropy(match_id, 0, text)
            outcomes.append([e.payload["derivation"] for e in app.entries(match_id) if e.kind == "chance"])
        finally:
            app.close()
    assert outcomes[0] != outcomes[1]


def test_moves_stay_possible_and_the_first_draw_waits(sqlite_app: Ringside) -> None:
    """A fork of a policy match keeps the policy; here the game asks a seat to move first, and the
    roll that follows waits for the seats' entropy."""
    app = sqlite_app
    parent = _policy_match(app)
    app.add_entropy(parent, 0, "a")
    app.add_entropy(parent, 1, "b")
    at = app.fold(parent).seq  # after the deal: seat 0 to play, roll or pass
    fork = uuid.UUID(app.fork(parent, at).receipt.match_id)
    fold = app.fold(fork)
    assert fold.header["entropy_from"] == "seats" and fold.decision.seats == (0,)
    assert app.summary(fork)["awaiting_entropy"] == [0, 1]
    assert "awaiting_entropy" not in app.summary(fork)["decision"]  # a move is due, not a draw
    rolled = app.submit_move(fork, 0, {"type": "roll"})
    assert [e.kind for e in rolled.entries] == ["move"]  # the die waits
    assert app.summary(fork)["decision"] == {"seats": [], "over": False, "prompt": "roll", "chance": {"kind": "die"},
                                             "awaiting_entropy": [0, 1]}
    refused(app, fork, lambda: app.submit_move(fork, 1, {"type": "pass"}))  # nobody moves meanwhile
    app.add_entropy(fork, 1, "fork entropy 1")
    settled = app.add_entropy(fork, 0, "fork entropy 0")
    assert [e.kind for e in settled.entries] == ["entropy-added", "chance"]
    play_to_end(app, fork)
    assert_linear_and_verified(app, fork)
    plain = uuid.UUID(app.create_match("test-dicevote", ["a", "b"], seed=SEED).receipt.match_id)
    fork_of_plain = app.fork(plain, app.fold(plain).seq)
    assert "entropy_from" not in fork_of_plain.entries[0].payload


def test_time_travel_sees_the_entropy_of_each_position(sqlite_app: Ringside) -> None:
    app = sqlite_app
    match_id = _policy_match(app)
    app.add_entropy(match_id, 0, "first")
    before_last = app.fold(match_id).seq
    app.add_entropy(match_id, 1, "second")
    past = app.fold(match_id, before_last)
    assert past.awaiting_entropy == [1] and past.entropy == ["first"] and past.first_chance_seq is None
    now = app.fold(match_id)
    assert now.awaiting_entropy == [] and now.entropy == ["first", "second"]
    assert now.first_chance_seq == before_last + 2


# ---- snapshots ---------------------------------------------------------------------------------
def test_snapshots_keep_the_entropy(tmp_path: Path, test_key: ServerKey) -> None:
    app = Ringside.open(data_dir=tmp_path / "data", key=test_key, clock=FixedStepClock())
    try:
        match_id = _policy_match(app, options={"rounds": 30})
        app.add_entropy(match_id, 1, "snap one")
        app.add_entropy(match_id, 0, "snap zero")
        play_to_end(app, match_id)
        fold = app.fold(match_id)
        assert fold.seq > 150
        copy = MatchFold.from_snapshot(fold.to_snapshot())
        assert (copy.seat_entropy, copy.entropy, copy.first_chance_seq, copy.awaiting_entropy) == (
            fold.seat_entropy, fold.entropy, fold.first_chance_seq, fold.awaiting_entropy)
        assert app.snapshots is not None and list(app.snapshots.get(match_id))  # stored every 100 events
    finally:
        app.close()
    cold = Ringside.open(data_dir=tmp_path / "data", key=test_key, clock=FixedStepClock())
    try:  # a fresh process folds from the stored snapshot
        for at in (150, None):
            fold = cold.fold(match_id, at)
            assert fold.entropy == ["snap zero", "snap one"] and fold.first_chance_seq == 4
        assert cold.verify_match(match_id).ok
    finally:
        cold.close()


def test_a_snapshot_taken_before_seat_entropy_existed_still_loads(sqlite_app: Ringside) -> None:
    match_id = uuid.UUID(sqlite_app.create_match("test-dicevote", ["a", "b"], seed=SEED).receipt.match_id)
    data = format1(sqlite_app.fold(match_id))
    del data["seat_entropy"], data["first_chance_seq"]
    fold = MatchFold.from_snapshot(data)
    assert fold.seat_entropy == {} and fold.entropy == [] and fold.awaiting_entropy == []


# ---- refusals change nothing ---------------------------------------------------------------------
def test_refusals_name_why_and_change_nothing(sqlite_app: Ringside) -> None:
    app = sqlite_app
    match_id = _policy_match(app, players=3)
    app.add_entropy(match_id, 0, "mine")
    twice = refused(app, match_id, lambda: app.add_entropy(match_id, 0, "again"), EntropyRefusedError)
    assert "already added" in twice.message
    other = refused(app, match_id, lambda: app.add_entropy(match_id, 1, "x", actor=Actor.player(2)), ForbiddenError)
    assert "seat 2's player cannot add seat 1's entropy" in other.message
    for actor in (Actor("recorder"), Actor.system(), Actor("bot", 0, "random")):
        refused(app, match_id, lambda actor=actor: app.add_entropy(match_id, 1, "x", actor=actor), ForbiddenError)
    for seat in (3, -1, True, "1"):
        no_seat = refused(app, match_id, lambda seat=seat: app.add_entropy(match_id, seat, "x"),  # type: ignore[arg-type]
                          InvalidRequestError)
        assert "no seat" in no_seat.message
    for text, why in (("", "some text"), ("   ", "some text"), ("x" * 201, "at most 200"),
                      ("a\x00b", "control"), ("line\nbreak", "control"), ("\x7f", "control"),
                      ("\ud800", "control"), (42, "text"), (None, "text"), (["a"], "text")):
        bad = refused(app, match_id, lambda text=text: app.add_entropy(match_id, 1, text),  # type: ignore[arg-type]
                      InvalidRequestError)
        assert why in bad.message, bad.message
    assert app.summary(match_id)["awaiting_entropy"] == [1, 2]
    app.add_entropy(match_id, 1, "x" * 200)
    app.add_entropy(match_id, 2, "e\u0301")  # stored as the NFC form
    assert app.fold(match_id).seat_entropy == {0: "mine", 1: "x" * 200, 2: "é"}
    late = refused(app, match_id, lambda: app.add_entropy(match_id, 2, "late"), EntropyRefusedError)
    assert "too late" in late.message and "first chance outcome was drawn at event 5" in late.message
    play_to_end(app, match_id)
    refused(app, match_id, lambda: app.add_entropy(match_id, 0, "over"), MatchOverError)
    assert app.verify_match(match_id).ok


def test_a_match_without_the_policy_takes_no_seat_entropy(sqlite_app: Ringside) -> None:
    match_id = uuid.UUID(sqlite_app.create_match("test-dicevote", ["a", "b"], seed=SEED).receipt.match_id)
    error = refused(sqlite_app, match_id, lambda: sqlite_app.add_entropy(match_id, 0, "x"), EntropyRefusedError)
    assert "takes no entropy from its seats" in error.message


@pytest.mark.parametrize("kwargs, why", [
    ({"entropy_from": "seats", "randomness": "recorded"}, "recorded mode"),
    ({"entropy_from": "players"}, "entropy_from must be 'seats'"),
    ({"entropy_from": ""}, "entropy_from must be 'seats'"),
])
def test_creation_refuses_the_policy_where_it_cannot_hold(sqlite_app: Ringside, kwargs: dict[str, Any],
                                                          why: str) -> None:
    with pytest.raises(InvalidRequestError) as caught:
        sqlite_app.create_match("test-dicevote", ["a", "b"], **kwargs)
    assert why in caught.value.message
    assert sqlite_app.list_matches() == []


def test_an_arbiter_may_add_a_seats_entropy(sqlite_app: Ringside) -> None:
    match_id = _policy_match(sqlite_app)
    accepted = sqlite_app.add_entropy(match_id, 1, "for the absent player", actor=Actor("arbiter", 1))
    assert accepted.entries[0].actor == {"kind": "arbiter", "seat": 1}
    refused(sqlite_app, match_id, lambda: sqlite_app.add_entropy(match_id, 0, "x", actor=Actor("arbiter", 1)),
            ForbiddenError)


def test_a_move_while_the_draw_waits_for_entropy_says_so(sqlite_app: Ringside) -> None:
    match_id = _policy_match(sqlite_app)
    error = refused(sqlite_app, match_id, lambda: sqlite_app.submit_move(match_id, 0, {"type": "pass"}),
                    ChancePendingError)
    assert "drawn once seats [0, 1] have added their entropy" in error.message


# ---- the derivation -------------------------------------------------------------------------------
ENTROPY_TEXT = st.text(st.characters(blacklist_categories=("Cc", "Cs")), min_size=1, max_size=200) \
    .map(lambda text: unicodedata.normalize("NFC", text)).filter(lambda text: entropy_problem(text) is None)


@pytest.fixture(scope="module")
def property_app(tmp_path_factory: pytest.TempPathFactory) -> Any:
    app = Ringside.open(data_dir=tmp_path_factory.mktemp("entropy-prop"), key=ServerKey.from_seed(b"entropy"),
                        clock=FixedStepClock())
    yield app
    app.close()


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.binary(min_size=32, max_size=32).map(bytes.hex),
       creation=st.lists(st.text(max_size=20), max_size=2),
       entropies=st.lists(ENTROPY_TEXT, min_size=1, max_size=3),
       order=st.randoms(use_true_random=False))
def test_recorded_outcomes_are_the_rederivation_from_the_seed_and_all_entropy(
        property_app: Ringside, seed: str, creation: list[str], entropies: list[str], order: Any) -> None:
    app = property_app
    match_id = _policy_match(app, players=len(entropies), seed=seed, entropy=creation, match_id=uuid.uuid4(),
                             options={"rounds": 1})
    seats = list(range(len(entropies)))
    order.shuffle(seats)
    for seat in seats:
        app.add_entropy(match_id, seat, entropies[seat])
    play_to_end(app, match_id)
    header_entropy = app.entries(match_id)[0].payload["entropy"]
    pairs = _rederived(app, match_id, seed, [*header_entropy, *entropies])
    assert pairs and all(recorded == derived for recorded, derived in pairs)
    assert app.verify_match(match_id).ok


# ---- older records derive exactly as before ----------------------------------------------------------
def test_an_old_style_match_derives_and_records_exactly_as_before(sqlite_app: Ringside) -> None:
    """Pinned from the record before seat entropy existed: same created event, same draws."""
    app = sqlite_app
    match_id = uuid.UUID("00000000-0000-4000-8000-000000000011")
    app.create_match("test-dicevote", ["P0", "P1"], seed="ab" * 32, match_id=match_id,
                     entropy=["alice's dice", "bob"])
    play_to_end(app, match_id)
    entries = app.entries(match_id)
    assert "entropy_from" not in entries[0].payload
    assert entries[0].hash == "41b159d978d170cf047642f84a300a76d2454ffdffdf8a6eb168ed247f25a567"
    assert [(e.seq, e.payload["outcome"], e.payload["derivation"]["index"], e.payload["derivation"]["draw"])
            for e in entries if e.kind == "chance"] == [
        (2, 2, 3, 0), (3, 6, 9, 0), (4, 1, 0, 0), (5, 1, 0, 2), (8, 6, 7, 0), (12, 5, 5, 0), (14, 2, 0, 0)]
    assert app.fold(match_id).entropy == ["alice's dice", "bob"]
    assert "entropy_from" not in app.summary(match_id) and app.verify_match(match_id).ok
    spec = ChanceSpec("die", tuple((face, 1) for face in range(1, 7)))
    assert [(d.outcome, d.index, d.draw) for d in (derive_outcome("11" * 32, "m", ["x"], seq, spec)
                                                   for seq in (2, 3, 4))] == [(6, 5, 1), (1, 0, 0), (1, 0, 1)]


def test_the_entry_kind_and_topic_are_stable() -> None:
    from domain.kernel.match import Match

    assert record.ENTROPY_ADDED == "entropy-added" and record.ENTROPY_ADDED in record.MATCH_KINDS
    assert Match.EVENT_BY_KIND["entropy-added"].TOPIC == "ringside.match.entropy-added/1"
    assert Entry  # the entry format itself is unchanged


def test_a_policy_match_exports_imports_and_lists_like_any_other(tmp_path: Path, test_key: ServerKey) -> None:
    app = Ringside.open(data_dir=tmp_path / "a", key=test_key, clock=FixedStepClock())
    other = Ringside.open(data_dir=tmp_path / "b", key=ServerKey.from_seed(b"elsewhere"), clock=FixedStepClock())
    try:
        match_id = _policy_match(app)
        app.add_entropy(match_id, 0, "exported")
        assert app.list_matches()[0]["version"] == 2  # the read model follows entropy events too
        in_play = app.export_bundle(match_id)
        assert other.import_bundle(in_play) == match_id
        assert other.fold(match_id).seat_entropy == {0: "exported"}
        # recorded by another server: it continues only there
        refused(other, match_id, lambda: other.add_entropy(match_id, 1, "here"), ForbiddenError)
        app.add_entropy(match_id, 1, "at home")
        play_to_end(app, match_id)
        text = app.export_bundle(match_id)
    finally:
        app.close()
    third = Ringside.open(data_dir=tmp_path / "c", key=ServerKey.from_seed(b"third"), clock=FixedStepClock())
    try:
        assert third.import_bundle(text) == match_id
        assert third.verify_match(match_id).intact  # imported: intact, vouched for by nobody here
        assert third.fold(match_id).entropy == ["exported", "at home"]
    finally:
        third.close()
        other.close()
