"""A record verifies only if the server that holds the trusted key wrote it.

Each test here is a forgery that verified before trust was checked: a record re-signed with a fresh
key, a genuine prefix spliced with events signed by another key, a record cut short under a
re-signed trailer, an upper-case hex digit in the trailer's signature, and a record rewritten
with the server's own key, which only the players' receipts can expose.
"""

from __future__ import annotations

import copy
import sqlite3
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest

from domain.application import Ringside
from domain.kernel.bundle import read_bundle, write_bundle
from domain.kernel.clock import FixedStepClock
from domain.kernel.integrity import GENESIS, ServerKey, event_hash, rotate_server_key
from domain.kernel.match import Match
from domain.kernel.record import Entry
from domain.kernel.trust import Trust, TrustError, read_trust_file
from domain.kernel.verification import verify_bundle
from domain.kernel.viewers import Actor, Viewer
from tests.support.helpers import new_match, play_to_end

from .support import reforge


def _trust(key: ServerKey) -> Trust:
    return Trust.of([key.public_hex], "this server")


def _rechain(entries: list[dict[str, Any]], start: int, signer: ServerKey) -> list[Entry]:
    """Re-hash entries from index `start` on and sign them with `signer` (the prefix kept as it is)."""
    prev = GENESIS if start == 0 else entries[start - 1]["hash"]
    for data in entries[start:]:
        data["prev"] = prev
        data["hash"] = event_hash(data["stream"], data["seq"], data["kind"], data["actor"], data["at"],
                                  data["payload"], prev)
        data["sig"], data["key"] = signer.sign_head(data["stream"], data["seq"], data["hash"]), signer.key_id
        prev = data["hash"]
    return [Entry.from_json(data) for data in entries]


def _write(text: str, entries: list[Entry], signer: ServerKey, extra_keys: dict[str, str],
           annotations: list[Entry] | None = None) -> str:
    bundle = read_bundle(text)
    keys = {**bundle.keys, **extra_keys}
    return write_bundle(entries, bundle.annotations if annotations is None else annotations, bundle.components,
                        keys, signer, "2026-01-01T00:00:00.000000Z")


def test_a_record_resigned_with_a_fresh_key_is_intact_but_does_not_verify(undone: tuple[str, ServerKey]) -> None:
    """The winner renamed, the whole record re-chained and re-signed with the forger's key: it
    printed VERIFIED before. Now it is intact (its own signatures hold) and not trusted."""
    text, key = undone
    forger = ServerKey.generate()

    def rename(events: list[dict[str, Any]]) -> None:
        events[0]["payload"]["seats"][0]["player"] = "Mallory"

    forged = reforge(text, rename, forger, keys={forger.key_id: forger.public_hex}, key_id=forger.key_id)
    report = verify_bundle(forged, trust=_trust(key))
    assert report.intact and not report.trusted and not report.ok
    assert report.divergence is not None and report.divergence.check == "trust"
    assert "NOT TRUSTED" in report.summary() and forger.key_id in report.summary()
    assert [(s.key_id, s.trusted) for s in report.signers] == [(forger.key_id, False)]
    assert verify_bundle(forged).ok is False  # no trust anchor at all: nothing verifies


def test_the_genuine_record_names_its_trusted_signer(undone: tuple[str, ServerKey]) -> None:
    text, key = undone
    report = verify_bundle(text, trust=_trust(key))
    assert report.ok and report.trusted and report.intact, report.summary()
    assert [(s.key_id, s.trusted_as, s.trailer) for s in report.signers] == [(key.key_id, "this server", True)]
    assert f"signed by {key.key_id} (trusted: this server)" in report.summary()


def test_a_trusted_key_id_with_another_public_key_is_not_trusted(undone: tuple[str, ServerKey]) -> None:
    text, key = undone
    other = ServerKey.generate()
    trust = Trust.of([key.public_hex], "this server")
    trust.keys[key.key_id] = type(trust.keys[key.key_id])(key.key_id, other.public_hex, "confused")
    assert verify_bundle(text, trust=trust).divergence.check == "trust"  # type: ignore[union-attr]


@pytest.mark.parametrize("cut", [2, 5])
def test_a_genuine_prefix_spliced_with_another_keys_events_is_caught(undone: tuple[str, ServerKey], cut: int) -> None:
    """Legal moves (and a new ending) after a genuine server-signed prefix, signed by another key
    that the bundle lists honestly: every event must be signed by the key the record authorises."""
    text, key = undone
    forger = ServerKey.generate()
    entries = _rechain([e.to_json() for e in read_bundle(text).entries], cut, forger)
    forged = _write(text, entries, forger, {forger.key_id: forger.public_hex}, annotations=[])
    report = verify_bundle(forged, trust=Trust.of([key.public_hex, forger.public_hex], "both trusted"))
    assert not report.intact and report.divergence is not None
    assert (report.divergence.check, report.divergence.seq) == ("signature", cut + 1), report.summary()
    assert "does not authorise" in report.divergence.message


def test_a_record_cut_short_under_a_resigned_trailer_does_not_verify(undone: tuple[str, ServerKey]) -> None:
    """The ended and seed-revealed events (and the annotations) cut off, the trailer signed anew by
    another key: what is left is a genuine prefix, but nobody trusted vouches that it is whole."""
    text, key = undone
    forger = ServerKey.generate()
    entries = read_bundle(text).entries[:-2]
    forged = _write(text, entries, forger, {forger.key_id: forger.public_hex}, annotations=[])
    report = verify_bundle(forged, trust=_trust(key))
    assert report.intact and report.divergence is not None and report.divergence.check == "trust"
    assert "the trailer" in report.divergence.message


def test_an_upper_case_hex_digit_in_the_trailer_signature_is_caught(undone: tuple[str, ServerKey]) -> None:
    """bytes.fromhex reads upper case: 55 of 3,508 single-byte changes went unnoticed, all there."""
    text, key = undone
    body, trailer_line = text[:-1].rsplit("\n", 1)
    trailer = trailer_line
    position = next(i for i, c in enumerate(trailer) if c in "abcdef" and trailer[:i].count('"sig":"'))
    changed = body + "\n" + trailer[:position] + trailer[position].upper() + trailer[position + 1:] + "\n"
    report = verify_bundle(changed, trust=_trust(key))
    assert not report.ok and report.divergence is not None and report.divergence.check in ("trailer", "format")
    caught = tried = 0
    for index in range(len(trailer_line)):  # every byte of the trailer line counts
        character = trailer_line[index]
        swapped = character.upper() if character.islower() else character.lower() if character.isupper() else None
        if swapped is None or swapped == character:
            continue
        variant = body + "\n" + trailer_line[:index] + swapped + trailer_line[index + 1:] + "\n"
        tried += 1
        caught += not verify_bundle(variant, trust=_trust(key)).ok
    assert caught == tried and tried > 50


def test_importing_vouches_for_nothing(undone: tuple[str, ServerKey], tmp_path: Path) -> None:
    """A self-signed record imports (it is intact), but its key is not published as this server's,
    it is marked imported and not official, and it lists its signer."""
    text, _ = undone
    stranger = ServerKey.generate()
    forged = reforge(text, lambda events: None, stranger, keys={stranger.key_id: stranger.public_hex},
                     key_id=stranger.key_id)
    app = Ringside.open(data_dir=tmp_path / "here", key=ServerKey.from_seed(b"here"), clock=FixedStepClock())
    try:
        match_id = app.import_bundle(forged)
        assert stranger.key_id not in app.own_keys() and list(app.own_keys()) == [app.key.key_id]
        assert stranger.key_id not in app.trust().keys
        summary = app.summary(match_id)
        assert summary["imported"] and not summary["recorded_here"] and not summary["official"]
        assert summary["signed_by"] == [stranger.key_id]
        listed = {row["match_id"]: row for row in (app.index.pull(), app.list_matches())[1]}
        assert listed[str(match_id)]["imported"] and not listed[str(match_id)]["official"]
        report = app.verify_match(match_id)
        assert report.intact and not report.ok and report.divergence.check == "trust"
        assert app.export_bundle(match_id)  # it can still be exported again, with its signer's key
    finally:
        app.close()


def test_receipts_prove_a_record_rewritten_with_the_servers_own_key(tmp_path: Path) -> None:
    """With database access an operator can delete the last events and have the server sign others at
    the same positions: the rewritten record verifies. The receipts players kept show it."""
    key = ServerKey.from_seed(b"receipts")
    app = Ringside.open(data_dir=tmp_path / "r", key=key, clock=FixedStepClock())
    try:
        match_id = new_match(app)
        receipts = []
        while (accepted := app.play_bot(match_id)) is not None:
            receipts.append(accepted.receipt.to_json())
        text = app.export_bundle(match_id)
        report = verify_bundle(text, trust=_trust(key), receipts=receipts)
        assert report.ok and {check.status for check in report.receipts} == {"holds"}, report.summary()
    finally:
        app.close()
    entries = [e.to_json() for e in read_bundle(text).entries]
    cut = entries[:receipts[-3]["seq"] - 1]  # the last moves (and the end) deleted
    rewritten = _write(text, _rechain(copy.deepcopy(cut), len(cut), key), key, {}, annotations=[])
    plain = verify_bundle(rewritten, trust=_trust(key))
    assert plain.ok, plain.summary()  # the record alone cannot tell
    report = verify_bundle(rewritten, trust=_trust(key), receipts=receipts)
    assert not report.ok and report.divergence is not None and report.divergence.check == "receipts"
    statuses = [check.status for check in report.receipts]
    assert statuses.count("missing") == 3 and statuses.count("holds") == len(receipts) - 3
    forged_receipt = {**receipts[0], "hash": "0" * 64}
    assert [c.status for c in verify_bundle(text, trust=_trust(key), receipts=[forged_receipt]).receipts] == [
        "invalid"]


def test_a_key_rotation_hands_records_to_the_new_key(tmp_path: Path) -> None:
    """`ringside rotate-key`: the old key is kept as retired; the first event appended to a record
    it signed is a key-rotated event signed by it, and the record verifies against either key."""
    data = tmp_path / "rot"
    app = Ringside.open(data_dir=data, clock=FixedStepClock())
    match_id = new_match(app)
    app.play_bot(match_id)
    old_key = app.key
    app.close()
    _, new_key = rotate_server_key(data)
    assert (data / "retired-keys" / f"{old_key.key_id}.pem").exists() and new_key.key_id != old_key.key_id
    app = Ringside.open(data_dir=data, clock=FixedStepClock())
    try:
        assert set(app.own_keys()) == {old_key.key_id, new_key.key_id}
        accepted = app.play_bot(match_id)
        assert accepted is not None and accepted.entries[0].kind == "key-rotated"
        assert accepted.entries[0].key == old_key.key_id and accepted.entries[1].key == new_key.key_id
        play_to_end(app, match_id)
        text = app.export_bundle(match_id)
        assert verify_bundle(text, trust=Trust.of([old_key.public_hex], "old")).ok
        assert verify_bundle(text, trust=Trust.of([new_key.public_hex], "new")).divergence.check == "trust"
        assert app.verify_match(match_id).ok
        bad = _rotation_signed_by_the_new_key(text, old_key, new_key)
        assert verify_bundle(bad, trust=Trust.of([old_key.public_hex], "old")).divergence.check == "signature"
    finally:
        app.close()


def _rotation_signed_by_the_new_key(text: str, old: ServerKey, new: ServerKey) -> str:
    entries = [e.to_json() for e in read_bundle(text).entries]
    rotation = next(i for i, e in enumerate(entries) if e["kind"] == "key-rotated")
    return _write(text, _rechain(entries, rotation, new), new, {})


def test_trust_files_and_anchors_are_checked() -> None:
    key = ServerKey.generate()
    trust = read_trust_file(f"# the federation\nnorth {key.public_hex}\n\n", "trust.txt")
    assert trust.source_of(key.key_id, key.public_hex) == "trust.txt: north"
    with pytest.raises(TrustError, match="line 1"):
        read_trust_file("north nothex\n", "trust.txt")
    with pytest.raises(TrustError):
        Trust().add(key.public_hex[:-1], "pinned")


def test_an_edited_snapshot_is_never_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Editing a stored snapshot changed the scores the server served (20 -> 520) while verification
    said ok. A snapshot is sealed; one that fails its seal is replaced by a fold of the events."""
    monkeypatch.setattr(Ringside, "snapshotting_intervals", {Match: 5})
    key = ServerKey.from_seed(b"snapshots")
    app = Ringside.open(data_dir=tmp_path / "s", key=key, clock=FixedStepClock())
    match_id = new_match(app)
    for _ in range(8):
        app.play_bot(match_id)
    honest = app.score(match_id)
    app.close()
    database = tmp_path / "s" / "ringside.sqlite3"
    with sqlite3.connect(database) as connection:
        table = next(name for (name,) in connection.execute("SELECT name FROM sqlite_master WHERE type='table'")
                     if "snapshot" in name)
        rows = connection.execute(f"SELECT originator_version, state FROM {table}").fetchall()
        assert rows, "no snapshot was taken"
        for version, state in rows:
            edited = bytes(state).replace(b'"penalties":[]', b'"penalties":[{"points":-500,"reason":"","seat":0,'
                                                           b'"seq":2}]')
            # snapshot format 2 holds the fold as JSON text inside the snapshot's JSON: escaped quotes
            edited = edited.replace(b'\\"penalties\\":[]', b'\\"penalties\\":[{\\"points\\":-500,'
                                    b'\\"reason\\":\\"\\",\\"seat\\":0,\\"seq\\":2}]')
            assert edited != bytes(state)
            connection.execute(f"UPDATE {table} SET state = ? WHERE originator_version = ?", (edited, version))
    app = Ringside.open(data_dir=tmp_path / "s", key=key, clock=FixedStepClock())
    try:
        assert app.score(match_id) == honest
        assert app.snapshot_rejections >= 1
        assert app.verify_match(match_id).ok
    finally:
        app.close()


def test_private_annotations_stay_out_of_the_public_bundle(sqlite_app: Ringside, test_key: ServerKey) -> None:
    """Seat and arbiter annotations were in the public bundle of every finished match. A bundle
    holds the annotations its reader may see; the others keep their place, hash and signature, so
    it still verifies, and their hashes are salted so the text cannot be guessed from them."""
    match_id = new_match(sqlite_app)
    sqlite_app.annotate(match_id, 1, "public praise", actor=Actor.arbiter())
    sqlite_app.annotate(match_id, 1, "seat 0 is cheating", actor=Actor.arbiter(), visibility="arbiter")
    sqlite_app.annotate(match_id, 1, "your plan", actor=Actor.player(1), visibility="seat:1")
    play_to_end(sqlite_app, match_id)
    trust = _trust(test_key)
    full = sqlite_app.export_bundle(match_id)
    public = sqlite_app.export_bundle(match_id, Viewer.spectator())
    seat1 = sqlite_app.export_bundle(match_id, Viewer.of_seat(1))
    assert "seat 0 is cheating" in full and "your plan" in full
    assert "seat 0 is cheating" not in public and "your plan" not in public and "public praise" in public
    assert "your plan" in seat1 and "seat 0 is cheating" not in seat1
    for text in (full, public, seat1):
        report = verify_bundle(text, trust=trust)
        assert report.ok and report.annotations == 4, report.summary()
    salts = [e.payload.get("salt") for e in sqlite_app.annotation_entries(match_id)[1:]]
    assert salts[0] is None and all(isinstance(s, str) and len(s) == 32 for s in salts[1:])
    assert all("salt" not in item for item in sqlite_app.annotations(match_id, Viewer.arbiter()))
    redacted = read_bundle(public)
    assert redacted.redacted_annotations == {3, 4}
    forged = public.replace('"hidden":true', '"hidden":false', 1)
    assert not verify_bundle(forged, trust=trust).ok


def test_a_fork_of_a_match_in_play_stays_sealed_until_the_parent_ends(sqlite_app: Ringside) -> None:
    """Once a fork of a match still in play had ended, anyone read the parent's face-down draws
    from the fork's public bundle, or as the arbiter of a fork of the fork."""
    parent = new_match(sqlite_app)
    sqlite_app.play_bot(parent)
    fork_id = UUID(sqlite_app.fork(parent, sqlite_app.fold(parent).seq).receipt.match_id)
    play_to_end(sqlite_app, fork_id)
    assert sqlite_app.fold(fork_id).status == "ended"
    assert sqlite_app.sealed_by(fork_id) == str(parent)
    grandchild = UUID(sqlite_app.fork(fork_id, 2).receipt.match_id)
    assert sqlite_app.sealed_by(grandchild) == str(parent)  # sealed through its parent fork
    play_to_end(sqlite_app, parent)
    assert sqlite_app.sealed_by(fork_id) is None and sqlite_app.sealed_by(grandchild) is None


def test_a_redacted_line_that_keeps_content_is_caught(sqlite_app: Ringside, test_key: ServerKey) -> None:
    """A redacted annotation's hash is taken as signed, so its line may carry nothing but its ID: a
    line marked redacted with altered text verified (and imported) before."""
    import hashlib

    from domain.kernel.canonical import encode

    match_id = new_match(sqlite_app)
    sqlite_app.annotate(match_id, 1, "seat 1 only", actor=Actor.player(1), visibility="seat:1")
    play_to_end(sqlite_app, match_id)
    lines = [line for line in sqlite_app.export_bundle(match_id).split("\n") if line]
    forged_lines = []
    for line in lines[:-1]:
        if '"type":"annotation"' in line and "seat 1 only" in line:
            data = __import__("json").loads(line)
            data["payload"]["text"] = "I went low"
            data["redacted"] = True
            line = encode(data).decode()
        forged_lines.append(line)
    body = "".join(line + "\n" for line in forged_lines).encode()
    digest = hashlib.sha256(body).hexdigest()
    trailer = {"type": "trailer", "sha256": digest, "key": test_key.key_id, "sig": test_key.sign(digest.encode())}
    forged = (body + encode(trailer) + b"\n").decode()
    report = verify_bundle(forged, trust=_trust(test_key))
    assert not report.intact and report.divergence is not None
    assert (report.divergence.check, report.divergence.stream) == ("format", "annotations"), report.summary()
    with pytest.raises(Exception, match="does not verify"):
        sqlite_app.import_bundle(forged)
