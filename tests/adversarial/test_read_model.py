"""The match list (MatchIndex, a read model) never stops on one record, on either store, and a
record it could not list is refused at the door.

Player names with a NUL once made `GET /matches` fail for good on PostgreSQL (its text refuses
NUL), and an imported record whose created event's `fork_of` had another shape did the same on
SQLite: the projection raised on that event at every pull, also after a restart, because the
tracking position never moved past it."""

from __future__ import annotations

import logging
import sqlite3
import uuid
from collections.abc import Callable
from typing import Any

import pytest

from domain.application import Ringside
from domain.kernel.clock import FixedStepClock
from domain.kernel.errors import InvalidSeatsError
from domain.kernel.integrity import ServerKey
from domain.kernel.verification import verify_bundle
from domain.store.index import MatchIndex
from tests.support.helpers import new_match, play_to_end

from .support import reforge

ELSEWHERE = ServerKey.from_seed(b"another-server")


@pytest.fixture(scope="module")
def bundles(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    """A match in play and a finished one, recorded by another server."""
    app = Ringside.open(data_dir=tmp_path_factory.mktemp("elsewhere"), key=ELSEWHERE, clock=FixedStepClock())
    try:
        active = new_match(app)
        finished = new_match(app, seed="cd" * 32)
        play_to_end(app, finished)
        return app.export_bundle(active), app.export_bundle(finished)
    finally:
        app.close()


def _header(key: str, value: Any) -> Callable[[list[dict[str, Any]]], None]:
    def change(entries: list[dict[str, Any]]) -> None:
        entries[0]["payload"][key] = value
    return change


def _player(name: str) -> Callable[[list[dict[str, Any]]], None]:
    def change(entries: list[dict[str, Any]]) -> None:
        entries[0]["payload"]["seats"][0]["player"] = name
    return change


def _new_id(change: Callable[[list[dict[str, Any]]], None]) -> Callable[[list[dict[str, Any]]], None]:
    """The change, under a fresh match ID (so that several forgeries can be imported side by side)."""
    match_id = str(uuid.uuid4())

    def changed(entries: list[dict[str, Any]]) -> None:
        for entry in entries:
            entry["stream"] = match_id
        entries[0]["payload"]["match_id"] = match_id
        change(entries)
    return changed


HOSTILE = {
    "nul-in-name": _player("a\x00b"),
    "line-break-in-name": _player("evil\nname"),
    "fork-of-without-id": _header("fork_of", {"x": 1}),
    "fork-of-id-an-object": _header("fork_of", {"match_id": {"a": 1}}),
    "fork-of-id-a-number": _header("fork_of", {"match_id": 5}),
    "fork-of-empty": _header("fork_of", {}),
}


def _restarted(app: Ringside) -> Ringside:
    """Another application on the same store: what a restarted server (or another worker) reads."""
    return Ringside(app.settings, key=app.key, clock=FixedStepClock())


@pytest.mark.parametrize("name", ["a\x00b", "\x00", "tab\there", "line\nbreak", "bell\x07", "esc\x1b[31m",
                                  "del\x7f", "c1\x85", "sep\u2028", "lone\ud800"])
def test_a_player_name_the_list_cannot_hold_is_refused_at_the_door(app: Ringside, name: str) -> None:
    with pytest.raises(InvalidSeatsError, match="control characters"):
        app.create_match("test-dicevote", [name, "bob"])
    assert app.list_matches() == []
    new_match(app)
    assert len(app.list_matches(player="p0")) == 1


def test_names_in_every_script_and_with_emoji_are_still_welcome(app: Ringside) -> None:
    names = ["Zoë Ångström", "王小明", "محمد\u200c", "👨\u200d👩\u200d👧", "José María", "a b"]
    app.create_match("test-dicevote", names[:4])
    app.create_match("test-dicevote", names[4:])
    listed = {name for match in app.list_matches() for name in match["players"]}
    assert listed == set(names)


def test_hostile_imported_records_are_listed_with_what_can_be_read(app: Ringside, bundles: tuple[str, str]) -> None:
    active, finished = bundles
    imported = {}
    for name, change in HOSTILE.items():
        forged = reforge(active, _new_id(change), ELSEWHERE)
        assert verify_bundle(forged).intact, name  # well-formed enough to verify: it comes in
        imported[name] = str(app.import_bundle(forged))
    imported["finished"] = str(app.import_bundle(finished))
    ours = str(new_match(app, seed="ef" * 32))
    for reader in (app, _restarted(app)):
        try:
            listed = {match["match_id"]: match for match in reader.list_matches(limit=500)}
            assert set(listed) == {*imported.values(), ours}
            assert listed[imported["nul-in-name"]]["players"] == ["ab", "P1"]
            assert listed[imported["line-break-in-name"]]["players"] == ["evil\nname", "P1"]
            for name in ("fork-of-without-id", "fork-of-id-an-object", "fork-of-id-a-number", "fork-of-empty"):
                assert listed[imported[name]]["official"] is False, name
                assert isinstance(listed[imported[name]]["fork_of"], str), name
            assert listed[imported["finished"]]["status"] == "ended"
            assert listed[ours]["official"] is True
            assert reader.list_matches(player="a\x00b")[0]["match_id"] == imported["nul-in-name"]
            for match_id in imported.values():  # every other read of them works too
                reader.summary(uuid.UUID(match_id))
        finally:
            if reader is not app:
                reader.close()


def test_a_record_that_cannot_be_projected_is_skipped_and_the_list_goes_on(
        app: Ringside, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    first = str(new_match(app))
    broken = str(new_match(app, seed="cd" * 32))
    original = MatchIndex._project

    def project(self: MatchIndex, tx: Any, entry: Any) -> None:
        if entry.stream == broken:
            raise ValueError("a shape nobody expected")
        original(self, tx, entry)

    monkeypatch.setattr(MatchIndex, "_project", project)
    with caplog.at_level(logging.WARNING, logger="ringside.index"):
        assert [m["match_id"] for m in app.list_matches()] == [first]
    assert "cannot be projected" in caplog.text and "a shape nobody expected" in caplog.text
    later = str(new_match(app, seed="ef" * 32))
    monkeypatch.setattr(MatchIndex, "_project", original)
    restarted = _restarted(app)
    try:  # the position moved past the skipped events: they are not read again, the rest is
        assert {m["match_id"] for m in restarted.list_matches()} == {first, later}
    finally:
        restarted.close()


def test_a_store_failure_is_not_the_records_fault_and_skips_nothing(
        sqlite_app: Ringside, monkeypatch: pytest.MonkeyPatch) -> None:
    match_id = str(new_match(sqlite_app))
    original = MatchIndex._project

    def full(self: MatchIndex, tx: Any, entry: Any) -> None:
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(MatchIndex, "_project", full)
    with pytest.raises(sqlite3.OperationalError):
        sqlite_app.list_matches()
    monkeypatch.setattr(MatchIndex, "_project", original)
    assert [m["match_id"] for m in sqlite_app.list_matches()] == [match_id]
