"""Malformed records: a bundle whose events are validly hashed and signed (by anyone: a bundle
carries its own keys) but hold junk where the record has structure. Verification "never raises
for bad input": each must become a report naming the event, and an import a typed refusal."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from domain.application import Ringside
from domain.kernel.bundle import read_bundle
from domain.kernel.canonical import encode
from domain.kernel.clock import FixedStepClock
from domain.kernel.errors import RingsideError
from domain.kernel.integrity import ServerKey
from domain.kernel.verification import verify_bundle
from domain.kernel.viewers import Actor
from tests.support.helpers import new_match, play_to_end

from .support import reforge

JUNK: list[Any] = [None, [], {}, "x", True, 10**30, [1, 2], {"a": [None]}]
KEY = ServerKey.from_seed(b"malformed-bundles")


@pytest.fixture(scope="module")
def bundle(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A finished match with every kind of event: moves, chance, undo, redo, a ruling, the end."""
    app = Ringside.open(data_dir=tmp_path_factory.mktemp("malformed"), key=KEY, clock=FixedStepClock())
    try:
        match_id = new_match(app, undo_policy="consent")
        app.submit_move(match_id, 0, {"type": "pass"})
        app.request_undo(match_id, 0)
        app.redo(match_id, seat=0, actor=Actor.player(0))
        app.make_ruling(match_id, {"ruling": "penalty", "seat": 1, "points": 2}, actor=Actor.arbiter())
        play_to_end(app, match_id)
        app.annotate(match_id, 3, "hm", actor=Actor.player(1))
        return app.export_bundle(match_id)
    finally:
        app.close()


def _mutations(text: str) -> list[tuple[int, tuple[str, ...], Any]]:
    found: list[tuple[int, tuple[str, ...], Any]] = []
    seen: set[tuple[str, tuple[str, ...]]] = set()
    for index, entry in enumerate(e.to_json() for e in read_bundle(text).entries):
        payload: dict[str, Any] = entry["payload"]  # type: ignore[assignment]
        actor: dict[str, Any] = entry["actor"]  # type: ignore[assignment]
        paths = [("payload",), ("actor",)] + [("payload", k) for k in payload] + \
            [("actor", k) for k in actor]
        for nested in ("move", "derivation", "components", "scores", "result"):
            if isinstance(payload.get(nested), dict):
                paths += [("payload", nested, k) for k in payload[nested]]
        for path in paths:
            if (str(entry["kind"]), path) not in seen:  # each kind's fields once
                seen.add((str(entry["kind"]), path))
                found.extend((index, path, junk) for junk in JUNK)
    return found


def _mutate(index: int, path: tuple[str, ...], junk: Any) -> Any:
    def change(events: list[dict[str, Any]]) -> None:
        target = events[index]
        for part in path[:-1]:
            target = target[part]
        target[path[-1]] = junk
    return change


def test_no_junk_in_any_field_of_any_event_makes_verification_raise(bundle: str) -> None:
    crashes = []
    for index, path, junk in _mutations(bundle):
        try:
            forged = reforge(bundle, _mutate(index, path, junk), KEY)
        except (KeyError, TypeError):  # the exporter needs the created event's game: not a bundle then
            continue
        try:
            report = verify_bundle(forged)
        except Exception as error:  # collected, all reported at the end
            crashes.append((index + 1, path, junk, f"{type(error).__name__}: {error}"))
            continue
        if not report.intact:
            assert report.divergence is not None
    assert crashes == []


@pytest.mark.parametrize("field", ["sig", "key", "seq", "stream", "prev", "at"])
@pytest.mark.parametrize("junk", [123, None, ["x"], {"x": 1}])
def test_junk_in_an_events_envelope_is_a_report(bundle: str, field: str, junk: Any) -> None:
    lines = bundle.splitlines()
    event = json.loads(lines[3])
    event[field] = junk
    lines[3] = encode(event).decode("utf-8")
    report = verify_bundle("\n".join(lines) + "\n")
    assert not report.intact and report.divergence is not None


def test_a_malformed_bundle_is_a_typed_refusal_to_import(bundle: str, tmp_path: Path) -> None:
    app = Ringside.open(data_dir=tmp_path / "import", key=ServerKey.from_seed(b"importer"), clock=FixedStepClock())
    try:
        for index, path in ((1, ("payload",)), (2, ("actor",)), (0, ("payload", "seats"))):
            forged = reforge(bundle, _mutate(index, path, [1, 2]), KEY)
            with pytest.raises(RingsideError):
                app.import_bundle(forged)
        assert app.list_matches() == []
    finally:
        app.close()


def test_the_bundle_itself_verifies(bundle: str) -> None:
    report = verify_bundle(bundle)
    assert report.intact, report.summary()
    assert verify_bundle(reforge(bundle, lambda events: None, KEY)).intact


@pytest.mark.parametrize("where", ["event", "annotation", "header"])
def test_a_deeply_nested_line_is_a_format_divergence(bundle: str, where: str) -> None:
    """A bundle line nested beyond what a JSON reader recurses into was a RecursionError (a 500 on
    /verify and /bundles, exit 3 in the CLI); it is a report naming the line."""
    lines = bundle.split("\n")
    index = {"header": 0, "event": 2, "annotation": next(
        (i for i, line in enumerate(lines) if '"type":"annotation"' in line), 2)}[where]
    lines[index] = "[" * 200_000 + "]" * 200_000
    report = verify_bundle("\n".join(lines))
    assert not report.ok and report.divergence is not None and report.divergence.check == "format"
