"""A stored snapshot's seal: an HMAC tag only the server holding the key makes and checks; the
Ed25519 signatures of snapshots written before tags are still checked; anything else fails and
the snapshot is not used (docs/architecture.md, "Snapshots are sealed")."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest

from domain.application import Ringside
from domain.kernel.clock import FixedStepClock
from domain.kernel.integrity import ServerKey, rotate_server_key
from domain.kernel.match import Match, MatchSnapshot, seal_message
from tests.support.helpers import new_match

KEY = ServerKey.from_seed(b"seals")


@pytest.fixture
def sealed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Ringside, UUID, MatchSnapshot]]:
    monkeypatch.setattr(Ringside, "snapshotting_intervals", {Match: 5})
    app = Ringside.open(data_dir=tmp_path / "s", key=KEY, clock=FixedStepClock())
    match_id = new_match(app)
    for _ in range(8):
        app.play_bot(match_id)
    assert app.snapshots is not None
    snapshot = next(iter(app.snapshots.get(match_id, desc=True, limit=1)))
    assert isinstance(snapshot, MatchSnapshot)
    yield app, match_id, snapshot
    app.close()


def _with_seal(snapshot: MatchSnapshot, seal: Any) -> MatchSnapshot:
    other = copy.deepcopy(snapshot)
    object.__setattr__(other, "state", {**other.state, "seal": seal})
    return other


def _message(snapshot: MatchSnapshot) -> bytes:
    return seal_message(snapshot.originator_id, snapshot.originator_version, snapshot.state["fold"])


def test_a_new_snapshot_carries_a_tag_that_holds(sealed: tuple[Ringside, UUID, MatchSnapshot]) -> None:
    _, _, snapshot = sealed
    seal = snapshot.state["seal"]
    assert set(seal) == {"key", "mac"} and seal["key"] == KEY.key_id and len(seal["mac"]) == 64
    assert snapshot.seal_problem({KEY.key_id: KEY}) is None


def test_a_tag_fails_for_any_other_key_and_any_other_content(sealed: tuple[Ringside, UUID, MatchSnapshot]) -> None:
    _, _, snapshot = sealed
    mac = snapshot.state["seal"]["mac"]
    flipped = mac[:10] + ("0" if mac[10] != "0" else "1") + mac[11:]
    assert _with_seal(snapshot, {"key": KEY.key_id, "mac": flipped}).seal_problem({KEY.key_id: KEY}) \
        == "its seal does not match its content"
    stranger = ServerKey.from_seed(b"stranger")
    # a tag made with another key, claimed under this key's ID: the content is the same, the key is not
    forged = _with_seal(snapshot, {"key": KEY.key_id, "mac": stranger.seal(_message(snapshot))})
    assert forged.seal_problem({KEY.key_id: KEY}) == "its seal does not match its content"
    assert snapshot.seal_problem({stranger.key_id: stranger}) == \
        f"sealed by key {KEY.key_id}, which this server does not hold"
    moved = copy.deepcopy(snapshot)
    object.__setattr__(moved, "originator_version", snapshot.originator_version - 1)  # stored at another version
    assert moved.seal_problem({KEY.key_id: KEY}) == "its seal does not match its content"
    for junk in ({"key": KEY.key_id, "mac": None}, {"key": KEY.key_id, "mac": 7}, {"key": KEY.key_id}, "x", None):
        assert _with_seal(snapshot, junk).seal_problem({KEY.key_id: KEY}) is not None, junk


def test_a_snapshot_signed_before_tags_is_still_checked_and_used(sealed: tuple[Ringside, UUID, MatchSnapshot]) -> None:
    _, _, snapshot = sealed
    signed = _with_seal(snapshot, {"key": KEY.key_id, "sig": KEY.sign(_message(snapshot))})
    assert signed.seal_problem({KEY.key_id: KEY}) is None
    wrong = _with_seal(snapshot, {"key": KEY.key_id, "sig": KEY.sign(b"something else")})
    assert wrong.seal_problem({KEY.key_id: KEY}) == "its seal does not match its content"


def test_snapshots_sealed_by_a_retired_key_are_used_after_a_rotation(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """The server still holds the key it retired, so its old snapshots stay usable; none is
    rejected and the time travel over them gives the state of a fold from the start."""
    monkeypatch.setattr(Ringside, "snapshotting_intervals", {Match: 5})
    data = tmp_path / "s"
    app = Ringside.open(data_dir=data)
    match_id = new_match(app)
    for _ in range(8):
        app.play_bot(match_id)
    before = {at: app.fold(match_id, at).to_snapshot() for at in (5, 6, 9)}
    app.close()
    rotate_server_key(data)
    app = Ringside.open(data_dir=data)
    try:
        for at, expected in before.items():
            assert app.fold(match_id, at).to_snapshot() == expected
        assert app.snapshot_rejections == 0
    finally:
        app.close()


def _with_fold(snapshot: MatchSnapshot, fold: dict[str, Any], sealed_over: dict[str, Any]) -> MatchSnapshot:
    """The snapshot holding `fold`, with a tag over `sealed_over` (the fold as it was sealed)."""
    other = copy.deepcopy(snapshot)
    message = seal_message(snapshot.originator_id, snapshot.originator_version, sealed_over)
    seal = {"key": KEY.key_id, "mac": KEY.seal(message)}
    object.__setattr__(other, "state", {**other.state, "fold": fold, "seal": seal})
    return other


def test_a_fold_read_back_unnormalized_is_checked_canonically(sealed: tuple[Ringside, UUID, MatchSnapshot]) -> None:
    """The quick check writes the fold as read (orjson alone); a fold whose text is not in NFC, as a
    store keeps what it was given, gives other bytes there, and the canonical encoding decides."""
    _, _, snapshot = sealed
    decomposed = {**snapshot.state["fold"], "note": "Cafe\u0301"}  # "Café" with a combining accent
    composed = {**snapshot.state["fold"], "note": "Caf\u00e9"}
    assert _with_fold(snapshot, decomposed, decomposed).seal_problem({KEY.key_id: KEY}) is None
    assert _with_fold(snapshot, composed, decomposed).seal_problem({KEY.key_id: KEY}) is None  # canonically equal
    other = {**snapshot.state["fold"], "note": "Cafe"}
    assert _with_fold(snapshot, other, decomposed).seal_problem({KEY.key_id: KEY}) \
        == "its seal does not match its content"


def test_a_fold_edited_to_hold_a_float_is_unreadable(sealed: tuple[Ringside, UUID, MatchSnapshot]) -> None:
    _, _, snapshot = sealed
    edited = {**snapshot.state["fold"], "seq": float(snapshot.state["fold"]["seq"])}
    assert _with_fold(snapshot, edited, snapshot.state["fold"]).seal_problem({KEY.key_id: KEY}) \
        == "unreadable (NotCanonicalError)"
