"""Records written by older code still read as they were: `tests/fixtures/records/` holds bundles
and a store made before issue 13 typed the record and split the application (see make_records.py).

Every bundle must verify, import, and export again byte for byte; the store must open with every
aggregate it holds (matches, secrets, component sets, imported keys, annotations, a sealed
snapshot), export its matches byte for byte, and take new events.
"""

from __future__ import annotations

import json
import sqlite3
import uuid
from pathlib import Path
from typing import Any

import pytest

from domain.application import ComponentSetRecord, Ringside, components_id
from domain.kernel import record
from domain.kernel.fold import MatchFold
from domain.kernel.registry import get_game
from domain.kernel.trust import Trust
from domain.kernel.verification import verify_bundle
from domain.store.settings import StoreSettings
from tests.fixtures.records.make_records import KEY, OTHER_KEY, match_id

RECORDS = Path(__file__).resolve().parents[1] / "fixtures" / "records"
BUNDLES = sorted(RECORDS.glob("*.ringside.jsonl"))
TRUST = Trust.of({KEY.key_id: KEY.public_hex}, "the fixtures' key")


class PinnedClock:
    """The clock a bundle was exported at: the trailer is signed over the header's export time,
    so a re-export is byte-identical only at the same moment (Ed25519 signs deterministically)."""

    def __init__(self) -> None:
        self.now = "2026-01-01T00:00:00.000000Z"

    def __call__(self) -> str:
        return self.now

    def at(self, text: str) -> PinnedClock:
        self.now = json.loads(text.split("\n", 1)[0])["exported_at"]
        return self


def engine_changed(text: str) -> bool:
    """Whether the bundle's game engine has a new version since the fixture was made (replaying an
    old record under a new engine is an explicit choice; the games promise old records still verify)."""
    header = json.loads(text.split("\n", 1)[0])
    return bool(header["engine_version"] != get_game(header["game"]).engine_version)


def events(text: str) -> list[dict[str, Any]]:
    return [line for line in map(json.loads, text.splitlines()) if line["type"] == "event"]


def test_the_fixtures_hold_every_kind_of_event_and_ruling() -> None:
    """Else the tests below would prove less than they say (key rotation is in tools/vectors/)."""
    lines = [line for path in BUNDLES for line in events(path.read_text(encoding="utf-8"))]
    assert {line["kind"] for line in lines} == set(record.MATCH_KINDS) - {record.KEY_ROTATED}
    assert {line["payload"]["ruling"] for line in lines if line["kind"] == record.RULING} == {
        "correction", "penalty", "forfeit", "adjudicated-result", "illegal-move-stands"}
    assert {line["payload"]["authority"] for line in lines if line["kind"] == record.RETRACTED} == {
        "own", "consent", "arbiter"}
    games = {json.loads(path.read_text(encoding="utf-8").split("\n", 1)[0])["game"] for path in BUNDLES}
    assert games == {"carcassonne", "circus-train", "test-dicevote"}


@pytest.mark.parametrize("path", BUNDLES, ids=lambda path: path.name.split(".")[0])
def test_a_bundle_written_before_verifies_imports_and_exports_byte_for_byte(tmp_path: Path, path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    allow = engine_changed(text)
    report = verify_bundle(text, trust=TRUST, allow_engine_mismatch=allow)
    assert report.ok, report.summary()
    assert report.checked["header"] == 1 and report.checked["seed"] == 1  # ended: every draw checked
    app = Ringside.open(data_dir=tmp_path / "data", key=KEY, clock=PinnedClock().at(text))
    try:
        imported = app.import_bundle(text, allow_engine_mismatch=allow)
        assert app.export_bundle(imported) == text
        if not allow:
            again = app.verify_match(imported)
            assert again.ok and again.final_state_hash == report.final_state_hash, again.summary()
    finally:
        app.close()


@pytest.fixture
def old_store(tmp_path: Path) -> Path:
    """A data directory holding the fixtures' store, restored from its SQL text."""
    settings = StoreSettings.resolve(tmp_path / "data")
    settings.prepare_data_dir()
    connection = sqlite3.connect(settings.sqlite_path())
    try:
        connection.executescript((RECORDS / "store.sql").read_text(encoding="utf-8"))
    finally:
        connection.close()
    return settings.data_dir


def test_a_store_written_before_loads_every_aggregate_and_exports_its_records_byte_for_byte(
        old_store: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    clock = PinnedClock()
    app = Ringside.open(data_dir=old_store, key=KEY, clock=clock)
    try:
        for path in BUNDLES:
            text = path.read_text(encoding="utf-8")
            stored = uuid.UUID(events(text)[0]["stream"])
            clock.at(text)
            assert app.export_bundle(stored) == text, path.name
        long = match_id("long")
        # the match secret (a match in play: its seed is held only in its own aggregate)
        assert app.seed_for_arbiter(long)["seed"] == "6f" * 32
        # the custom component set, stored under its content hash
        content_hash = app.fold(long).header["components"]["hash"]
        stored_set: Any = app.repository.get(components_id("carcassonne", content_hash))
        assert isinstance(stored_set, ComponentSetRecord) and stored_set.content["name"] == "fixture set"
        # the imported record's key, kept to export it again
        assert app.known_keys()[OTHER_KEY.key_id] == OTHER_KEY.public_hex
        assert app.summary(match_id("imported"))["imported"] is True
        # the sealed snapshot at event 100 is used for time travel past it
        used: list[int] = []
        original = MatchFold.from_snapshot

        def from_snapshot(cls: type[MatchFold], data: dict[str, Any]) -> MatchFold:
            used.append(data["seq"])
            return original(data)

        monkeypatch.setattr(MatchFold, "from_snapshot", classmethod(from_snapshot))
        folded = app.fold(long, at=110)
        assert used == [100] and app.snapshot_rejections == 0 and folded.seq == 110
        # the match index catches up from the stored notifications
        assert {row["match_id"] for row in app.list_matches()} >= {str(match_id(name)) for name in (
            "carcassonne", "circus-train", "test-dicevote", "variety", "long", "imported")}
        # and the old record takes new events, and verifies with them
        clock.now = "2026-06-01T00:00:00.000000Z"
        assert app.play_bot(long, seed=1) is not None
        assert app.verify_match(long).ok
    finally:
        app.close()
