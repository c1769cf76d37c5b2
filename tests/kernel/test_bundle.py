"""Bundles and verification (brief §7): export, import, offline verification, tamper detection."""

from __future__ import annotations

import json
import uuid
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.application import Ringside
from domain.kernel.bundle import read_bundle
from domain.kernel.clock import FixedStepClock
from domain.kernel.integrity import ServerKey
from domain.kernel.trust import Trust
from domain.kernel.verification import verify_bundle
from domain.kernel.viewers import Actor
from tests.adversarial.support import reforge
from tests.support.helpers import new_match, play_to_end

KEY = ServerKey.from_seed(b"bundle-tests")


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    """A finished, annotated match's bundle, and its data dir."""
    data = tmp_path_factory.mktemp("bundle")
    app = Ringside.open(data_dir=data, key=KEY, clock=FixedStepClock())
    match_id = new_match(app, players=3, match_id=uuid.UUID(int=77))
    play_to_end(app, match_id)
    app.annotate(match_id, 5, "nice roll", actor=Actor("seat", 0, "Ann"), glyphs=["!"])
    text = app.export_bundle(match_id)
    app.close()
    return text, str(data)


def _reforge(text: str, change: Any) -> str:
    """Change the events and re-hash and re-sign everything with the server's own key, as a forger
    holding that key would: only the rules can catch it then."""
    return reforge(text, change, KEY)


def test_export_verifies_and_imports_to_an_identical_match(finished: tuple[str, str], tmp_path: Path) -> None:
    text, _ = finished
    report = verify_bundle(text)
    assert report.intact, report.summary()
    assert report.checked["chain"] == report.checked["signature"] == report.events + report.annotations
    assert report.checked["score"] == 1 and report.checked["legality"] > 0 and report.checked["chance"] > 0
    app = Ringside.open(data_dir=tmp_path, clock=FixedStepClock())
    match_id = app.import_bundle(text)
    again = app.export_bundle(match_id)
    body = [line for line in again.splitlines() if '"type":"event"' in line or '"type":"annotation"' in line]
    assert body == [line for line in text.splitlines() if '"type":"event"' in line or '"type":"annotation"' in line]
    with pytest.raises(Exception, match="already"):
        app.import_bundle(text)
    app.close()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_single_changed_byte_fails_verification(finished: tuple[str, str], data: st.DataObject) -> None:
    text, _ = finished
    raw = bytearray(text.encode("utf-8"))
    position = data.draw(st.integers(min_value=0, max_value=len(raw) - 1))
    replacement = data.draw(st.integers(min_value=0, max_value=255).filter(lambda b: b != raw[position]))
    raw[position] = replacement
    report = verify_bundle(bytes(raw))
    assert not report.intact
    line = bytes(raw[: position]).count(b"\n") + 1
    event_lines = text.count('"type":"event"')
    if 1 < line <= 1 + event_lines:
        assert report.divergence is not None and report.divergence.seq is not None
        assert report.divergence.seq <= line - 1, "the first broken event must be named"


def test_an_illegal_move_reforged_with_the_key_is_caught_with_its_rule(finished: tuple[str, str]) -> None:
    text, _ = finished

    def cheat(entries: list[dict[str, Any]]) -> None:
        move = next(e for e in entries if e["kind"] == "move" and e["payload"]["move"]["type"] != "vote")
        move["payload"]["move"] = {"type": "play", "card": 99}

    report = verify_bundle(_reforge(text, cheat))
    assert not report.intact and report.divergence is not None
    assert report.divergence.check == "legality" and report.divergence.rule == "TG-1.2"
    assert report.divergence.actual == {"type": "play", "card": 99}


def test_a_forged_chance_outcome_is_caught_against_the_revealed_seed(finished: tuple[str, str]) -> None:
    text, _ = finished

    forged: dict[str, int] = {}

    def reroll(entries: list[dict[str, Any]]) -> None:
        chance = next(e for e in entries if e["kind"] == "chance" and e["seq"] > 2)
        chance["payload"]["outcome"] = 6 if chance["payload"]["outcome"] != 6 else 5
        forged["seq"] = chance["seq"]

    report = verify_bundle(_reforge(text, reroll))
    assert report.divergence is not None and report.divergence.check == "chance"
    assert report.divergence.seq == forged["seq"]


def test_forged_final_scores_are_caught(finished: tuple[str, str]) -> None:
    text, _ = finished

    def inflate(entries: list[dict[str, Any]]) -> None:
        ended = next(e for e in entries if e["kind"] == "ended")
        ended["payload"]["scores"]["totals"][0] += 10

    report = verify_bundle(_reforge(text, inflate))
    assert report.divergence is not None and report.divergence.check == "score"
    assert report.divergence.expected != report.divergence.actual


def test_a_re_signed_bundle_under_an_untrusted_key_is_flagged(finished: tuple[str, str]) -> None:
    text, _ = finished
    assert verify_bundle(text, trust=Trust.of([KEY.public_hex], "pinned")).ok
    other = ServerKey.generate()
    report = verify_bundle(text, trust=Trust.of([other.public_hex], "pinned"))
    assert report.intact and not report.ok and report.divergence is not None and report.divergence.check == "trust"


def test_another_engine_version_is_an_explicit_choice(finished: tuple[str, str],
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    import tests.support.dicevote as game

    text, _ = finished
    monkeypatch.setattr(type(game.RULESET), "engine_version", "2.0.0")
    report = verify_bundle(text)
    assert not report.intact and report.divergence is not None and report.divergence.expected == "1.0.0"
    allowed = verify_bundle(text, allow_engine_mismatch=True)
    assert allowed.intact and any("explicitly allowed" in note for note in allowed.notes)


def test_garbage_is_a_clear_report_not_a_crash() -> None:
    for junk in (b"", b"hello\n", b'{"type":"header"}\n', "\u00ff".encode("latin-1")):
        report = verify_bundle(junk)
        assert not report.intact and report.divergence is not None and report.summary().startswith("FAILED")
    header = json.dumps({"format": "ringside-bundle", "type": "header", "version": 99}, separators=(",", ":"))
    assert "unsupported bundle version" in verify_bundle(header + "\n{}\n{}\n").summary()


def test_importing_a_tampered_bundle_is_refused_and_stores_nothing(finished: tuple[str, str],
                                                                   tmp_path: Path) -> None:
    text, _ = finished
    app = Ringside.open(data_dir=tmp_path, clock=FixedStepClock())
    tampered = text.replace('"nice roll"', '"nice rolL"')
    with pytest.raises(Exception, match="does not verify"):
        app.import_bundle(tampered)
    assert app.list_matches() == []
    match_id = uuid.UUID(read_bundle(text).header["match_id"])
    with pytest.raises(Exception, match="no match"):
        app.fold(match_id)
    app.close()
