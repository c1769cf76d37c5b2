"""Generate the bundle test vectors in tools/vectors/ with the real Ringside implementation.

    python -m tools.make_vectors [OUT_DIR]      (default: tools/vectors)

Everything is fixed (signing keys from fixed seeds, a stepping clock, the match ID and its seed), so
the output is the same bytes on every run; tests/standalone/test_vectors.py regenerates it into a
temporary folder and requires it to be identical to the shipped files, so the specification
(docs/bundle-format.md), the code and the vectors cannot drift apart.

The valid bundles are exported by the application itself. Each invalid one is a valid bundle
changed the way an attacker (or a dishonest server) would change it, re-hashed and re-signed with
whatever keys that party holds; index.json says which check each must fail, and at which event.
"""

from __future__ import annotations

import contextlib
import hashlib
import itertools
import json
import sys
import tempfile
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from unittest import mock

from domain.application import Accepted, Ringside, annotating
from domain.kernel.annotations import AnnotationFold
from domain.kernel.canonical import encode
from domain.kernel.clock import FixedStepClock
from domain.kernel.integrity import GENESIS, ServerKey, event_hash
from domain.kernel.viewers import Actor, Viewer
from tests.support.games import install_test_games

install_test_games()  # the vectors' match is of the test-only game

ORIGIN = ServerKey.from_seed(b"ringside-vectors/origin")
"""The server that recorded the match."""
OTHER = ServerKey.from_seed(b"ringside-vectors/other")
"""Another server: it imports and annotates the record, or (in the forgeries) it is the attacker."""
ROTATED = ServerKey.from_seed(b"ringside-vectors/rotated")
"""The key the origin server hands authority to in the rotated record."""
KEY_SEEDS = {"origin": b"ringside-vectors/origin", "other": b"ringside-vectors/other",
             "rotated": b"ringside-vectors/rotated"}
MATCH_ID = uuid.UUID("5e7e0000-0000-4000-8000-00000000b011")
SEED = "5eed" * 16
OUT = Path(__file__).resolve().parent / "vectors"

Line = dict[str, Any]


@dataclass
class Played:
    """A finished match: its bundles, the receipts its commands gave, and where things are."""

    bundle: str
    spectators_bundle: str
    receipts: list[dict[str, Any]]
    last_vote: int


@contextlib.contextmanager
def fixed_salts() -> Iterator[None]:
    """The application salts a non-public annotation with random bytes; here they come from a fixed
    sequence, so that the vectors are the same bytes on every run."""
    counter = itertools.count(1)

    def token_hex(nbytes: int = 32) -> str:
        return hashlib.sha256(f"ringside-vectors/salt/{next(counter)}".encode()).hexdigest()[:2 * nbytes]

    with mock.patch.object(annotating.secrets, "token_hex", token_hex):
        yield


@contextlib.contextmanager
def position_ids() -> Iterator[None]:
    """Annotations numbered as Ringside numbered them when these vectors were made: by position in
    the stream (the first annotation is a2). Ringside now numbers new annotations a1, a2, ... but
    keeps every stored ID, so records like these are still made, read and verified; the vectors stay
    the bytes third-party verifiers have pinned, and the spec's examples quote them."""
    with mock.patch.object(AnnotationFold, "next_id", lambda fold: f"a{fold.seq + 1}"):
        yield


def play(directory: Path, second_vote: str = "low", rotate: bool = False) -> Played:
    """The vector match of Dice & Vote: 2 seats, 1 round, 1 card each; an undo, a ruling, two annotations.

    seq 1 created; 2-3 the deal (face down, salted); 4 Ann passes; 5-6 she takes it back (own-turn undo);
    7 she rolls; 8 the die; 9 an arbiter's penalty; 10 Bob plays his card; 11 he draws (face down);
    12-13 the secret votes (salted); 14 ended; 15 seed revealed. Annotations: 1 opened; 2 Bob on the
    roll (public); 3 Ann on her vote (visible to seat 0 only, salted).

    With `rotate`, the server retires its key after Ann's vote: its next append, before Bob's vote, is
    a key-rotated event signed by the old key, and the new key signs everything after it."""
    clock = FixedStepClock()
    app = Ringside.open(data_dir=directory, key=ORIGIN, clock=clock)
    receipts: list[dict[str, Any]] = []

    def keep(accepted: Accepted) -> Accepted:
        receipts.append(accepted.receipt.to_json())
        return accepted

    try:
        with fixed_salts():
            keep(app.create_match("test-dicevote", ["Ann", "Bob"], options={"rounds": 1, "hand_size": 1},
                                  seed=SEED, match_id=MATCH_ID, undo_policy="own-turn", title="vector match"))
            passed = keep(app.submit_move(MATCH_ID, 0, {"type": "pass"}, actor=Actor.player(0)))
            keep(app.request_undo(MATCH_ID, 0, passed.receipt.seq, reason="meant to roll"))
            keep(app.submit_move(MATCH_ID, 0, {"type": "roll"}, actor=Actor.player(0)))
            die = app.fold(MATCH_ID).seq
            app.annotate(MATCH_ID, die, "a bold roll", actor=Actor.player(1), glyphs=["!"], tags=["dice"])
            keep(app.make_ruling(MATCH_ID, {"ruling": "penalty", "seat": 1, "points": -1, "note": "slow play"},
                                 actor=Actor.arbiter("Referee")))
            card = app.fold(MATCH_ID).state.hands[1][0]
            keep(app.submit_move(MATCH_ID, 1, {"type": "play", "card": card}, actor=Actor.player(1)))
            vote = keep(app.submit_move(MATCH_ID, 0, {"type": "vote", "choice": "high"}, actor=Actor.player(0)))
            if rotate:  # as `ringside rotate-key` leaves it: the old key retired beside the new one
                app.close()
                app = Ringside.open(data_dir=directory, key=ROTATED, clock=clock)
                app.retired_keys = {ORIGIN.key_id: ORIGIN}
            keep(app.submit_move(MATCH_ID, 1, {"type": "vote", "choice": second_vote}, actor=Actor.player(1)))
            app.annotate(MATCH_ID, vote.receipt.seq, "I went high", actor=Actor.player(0), visibility="seat:0")
        assert app.fold(MATCH_ID).status == "ended"
        return Played(app.export_bundle(MATCH_ID), app.export_bundle(MATCH_ID, Viewer.spectator()), receipts,
                      vote.receipt.seq)
    finally:
        app.close()


ENTROPY_MATCH_ID = uuid.UUID("5e7e0000-0000-4000-8000-00000000e011")


def play_with_seat_entropy(directory: Path) -> str:
    """A match that takes entropy from its seats: created with `entropy_from: "seats"` and creation
    entropy, each seat adds its own before the deal (which waits for both), then bots play it out."""
    app = Ringside.open(data_dir=directory, key=ORIGIN, clock=FixedStepClock("2026-03-01T00:00:00.000000Z"))
    try:
        app.create_match("test-dicevote", ["Ann", "Bob"], options={"rounds": 1, "hand_size": 1}, seed=SEED,
                         match_id=ENTROPY_MATCH_ID, entropy=["table 7"], entropy_from="seats",
                         title="vector match with seat entropy")
        app.add_entropy(ENTROPY_MATCH_ID, 1, "Bob: 42")  # in any order: the derivation takes them by seat
        app.add_entropy(ENTROPY_MATCH_ID, 0, "Ann's lucky dice")
        moves = 0
        while app.play_bot(ENTROPY_MATCH_ID, seed=moves) is not None:
            moves += 1
        assert app.fold(ENTROPY_MATCH_ID).status == "ended"
        return app.export_bundle(ENTROPY_MATCH_ID)
    finally:
        app.close()


def imported_and_annotated(directory: Path, bundle: str) -> str:
    """Another server imports the record, annotates it under its own key and exports it."""
    app = Ringside.open(data_dir=directory, key=OTHER, clock=FixedStepClock("2026-02-01T00:00:00.000000Z"))
    try:
        match_id = app.import_bundle(bundle)
        app.annotate(match_id, 13, "a close vote", actor=Actor.arbiter("Second opinion"), glyphs=["!?"])
        return app.export_bundle(match_id)
    finally:
        app.close()


# ==== editing bundles ==================================================================================
def parse(text: str) -> list[Line]:
    return [json.loads(line) for line in text.splitlines()]


def render(lines: list[Line], signer: ServerKey, trailer_key_id: str | None = None) -> str:
    """Header (its counts updated), events and annotations, and a new trailer signed by `signer`."""
    header, records = dict(lines[0]), [line for line in lines[1:] if line["type"] != "trailer"]
    header["counts"] = {"events": sum(1 for line in records if line["type"] == "event"),
                        "annotations": sum(1 for line in records if line["type"] == "annotation")}
    body = b"".join(encode(line) + b"\n" for line in [header, *records])
    digest = hashlib.sha256(body).hexdigest()
    trailer = {"type": "trailer", "sha256": digest, "key": trailer_key_id or signer.key_id,
               "sig": signer.sign(digest.encode("ascii"))}
    return (body + encode(trailer) + b"\n").decode("utf-8")


def events_of(lines: list[Line]) -> list[Line]:
    return [line for line in lines if line["type"] == "event"]


def annotations_of(lines: list[Line]) -> list[Line]:
    return [line for line in lines if line["type"] == "annotation"]


def rechain(entries: list[Line], signer_for: Callable[[Line], ServerKey]) -> None:
    """Re-link, re-hash and re-sign a stream's entries in place (as whoever holds `signer_for(entry)`)."""
    prev = GENESIS
    for entry in entries:
        entry["prev"] = prev
        entry["hash"] = event_hash(entry["stream"], entry["seq"], entry["kind"], entry["actor"], entry["at"],
                                   entry["payload"], prev)
        signer = signer_for(entry)
        entry["sig"] = signer.sign_head(entry["stream"], entry["seq"], entry["hash"])
        entry["key"] = signer.key_id
        prev = entry["hash"]


def with_keys(lines: list[Line], *keys: ServerKey) -> None:
    lines[0]["keys"] = {key.key_id: key.public_hex for key in sorted(keys, key=lambda k: k.key_id)}


def raw_lines(text: str) -> list[str]:
    return text.split("\n")[:-1]


def join(lines: list[str]) -> str:
    return "".join(line + "\n" for line in lines)


# ==== the forgeries ====================================================================================
def changed_payload_byte(valid: str) -> tuple[str, int]:
    """One byte of the die's outcome changed in the file; nothing re-hashed (the forger has no key)."""
    lines = raw_lines(valid)
    index = next(i for i, line in enumerate(lines) if '"kind":"chance"' in line and '"kind":"die"' in line)
    seq = json.loads(lines[index])["seq"]
    outcome = json.loads(lines[index])["payload"]["outcome"]
    lines[index] = lines[index].replace(f'"outcome":{outcome}', f'"outcome":{outcome % 6 + 1}')
    return join(lines), seq


def resigned_other_key(valid: str) -> str:
    """Every event, annotation and the trailer re-signed by another server's key (the content unchanged)."""
    lines = parse(valid)
    with_keys(lines, OTHER)
    for entry in [*events_of(lines), *annotations_of(lines)]:
        entry["sig"], entry["key"] = OTHER.sign_head(entry["stream"], entry["seq"], entry["hash"]), OTHER.key_id
    return render(lines, OTHER)


def spliced(valid: str, at: int) -> str:
    """A genuine prefix (seq < at), then the rest of the events re-signed by another key, which the
    header lists: every signature is valid, but not by the key the record authorises."""
    lines = parse(valid)
    with_keys(lines, ORIGIN, OTHER)
    events = events_of(lines)
    rechain(events, lambda entry: ORIGIN if entry["seq"] < at else OTHER)
    return render(lines, OTHER)


def uppercase_trailer_signature(valid: str) -> str:
    """The trailer's signature with one hexadecimal digit in upper case (the same bytes when decoded)."""
    lines = raw_lines(valid)
    trailer = json.loads(lines[-1])
    index = next(i for i, digit in enumerate(trailer["sig"]) if digit in "abcdef")
    trailer["sig"] = trailer["sig"][:index] + trailer["sig"][index].upper() + trailer["sig"][index + 1:]
    lines[-1] = encode(trailer).decode("utf-8")
    return join(lines)


def truncated_resigned(valid: str, keep_to: int) -> str:
    """The record cut after event `keep_to` (the end withheld), and the annotations anchored past it;
    the trailer re-signed by a key the attacker holds (listed in the header)."""
    lines = parse(valid)
    with_keys(lines, ORIGIN, OTHER)
    kept = [line for line in lines if line["type"] == "header"
            or (line["type"] == "event" and line["seq"] <= keep_to)
            or (line["type"] == "annotation" and line["payload"].get("seq", 0) <= keep_to)]
    return render(kept, OTHER)


def withheld(valid: str, keep_to: int) -> str:
    """The origin server itself withholds the end of the record: a genuine prefix and trailer."""
    lines = parse(valid)
    kept = [line for line in lines if line["type"] == "header"
            or (line["type"] == "event" and line["seq"] <= keep_to)
            or (line["type"] == "annotation" and line["payload"].get("seq", 0) <= keep_to)]
    return render(kept, ORIGIN)


def wrong_key_id(valid: str) -> str:
    """The attacker's public key listed under the origin server's key ID, every signature its own."""
    lines = parse(valid)
    lines[0]["keys"] = {ORIGIN.key_id: OTHER.public_hex}
    for entry in [*events_of(lines), *annotations_of(lines)]:
        entry["sig"] = OTHER.sign_head(entry["stream"], entry["seq"], entry["hash"])
    return render(lines, OTHER, trailer_key_id=ORIGIN.key_id)


def dropped_event(valid: str, seq: int) -> str:
    """The line of event `seq` deleted from the file."""
    return join([line for line in raw_lines(valid) if not (line.startswith('{"actor"') and f'"seq":{seq},' in line
                                                           and '"type":"event"' in line)])


def non_canonical_line(valid: str, seq: int) -> str:
    """Event `seq` written with a space after its first colon: the same JSON value, not canonical."""
    lines = raw_lines(valid)
    index = next(i for i, line in enumerate(lines) if '"type":"event"' in line and json.loads(line)["seq"] == seq)
    lines[index] = lines[index].replace(":", ": ", 1)
    return join(lines)


def wrong_seed(valid: str) -> tuple[str, int]:
    """The origin server reveals another seed than the one it committed to (re-hashed and re-signed)."""
    lines = parse(valid)
    events = events_of(lines)
    revealed = next(entry for entry in events if entry["kind"] == "seed-revealed")
    revealed["payload"]["seed"] = "0" * 63 + "1"
    rechain(events, lambda _: ORIGIN)
    return render(lines, ORIGIN), revealed["seq"]


def redacted_but_altered(valid: str) -> tuple[str, int]:
    """Ann's seat-only annotation with its text changed, the line marked redacted (so that its hash would
    not be recomputed) but its payload kept, and the trailer made again by the exporting server: an
    annotation Ann never wrote under a valid signature, unless a redacted line must hide its content."""
    lines = parse(valid)
    target = next(line for line in annotations_of(lines) if line["payload"].get("visibility") == "seat:0")
    target["payload"]["text"] = "I went low"
    target["redacted"] = True
    return render(lines, ORIGIN), target["seq"]


def rotation_signed_by_the_new_key(rotated: str) -> tuple[str, int]:
    """The key-rotated event signed by the key it hands authority to instead of the key then authorised."""
    lines = parse(rotated)
    rotation = next(entry for entry in events_of(lines) if entry["kind"] == "key-rotated")
    rotation["sig"] = ROTATED.sign_head(rotation["stream"], rotation["seq"], rotation["hash"])
    rotation["key"] = ROTATED.key_id
    return render(lines, ROTATED), rotation["seq"]


# ==== the vectors ======================================================================================
def receipts_file(played: Played) -> str:
    return json.dumps(played.receipts, indent=1) + "\n"


def expect(ok: bool, check: str | None = None, seq: int | None = None, stream: str = "match") -> dict[str, Any]:
    return {"ok": ok, "check": check, "seq": seq, "stream": stream if check is not None else None}


def build(out: Path) -> None:
    """Write every vector, the receipts and index.json into `out`."""
    with tempfile.TemporaryDirectory() as scratch, position_ids():
        genuine = play(Path(scratch) / "origin")
        changed = play(Path(scratch) / "rewritten", second_vote="high")
        rotated = play(Path(scratch) / "rotated", rotate=True)
        imported = imported_and_annotated(Path(scratch) / "other", genuine.bundle)
        entropy = play_with_seat_entropy(Path(scratch) / "entropy")
    valid = genuine.bundle
    last_vote = genuine.last_vote
    files: dict[str, str] = {"valid.ringside.jsonl": valid, "receipts.json": receipts_file(genuine),
                             "rotated-receipts.json": receipts_file(rotated)}
    vectors: list[dict[str, Any]] = []
    trust_origin = [ORIGIN.public_hex]

    def add(name: str, text: str | None, result: dict[str, Any], about: str, trust: list[str] | None = None,
            receipts: str | None = None, file: str | None = None) -> None:
        file = file or f"{name}.ringside.jsonl"
        if text is not None:
            files[file] = text
        vectors.append({"name": name, "file": file, "trust": trust_origin if trust is None else trust,
                        "receipts": receipts, "expect": result, "about": about})

    add("valid", None, expect(True), "a finished match with an undo, a ruling and two annotations",
        file="valid.ringside.jsonl")
    add("valid-with-receipts", None, expect(True), "every receipt its commands gave matches the record",
        receipts="receipts.json", file="valid.ringside.jsonl")
    add("valid-untrusted", None, expect(False, "trust", 1),
        "an intact record checked against another server's key only: intact, but not trusted", trust=[OTHER.public_hex],
        file="valid.ringside.jsonl")
    add("imported-annotated", imported, expect(True), "imported by another server and annotated there under its "
        "own key; trusting both servers", trust=[ORIGIN.public_hex, OTHER.public_hex])
    other_annotation = max(line["seq"] for line in annotations_of(parse(imported)))
    add("imported-annotated-untrusted", None, expect(False, "trust"),
        f"the same, trusting only the origin: the other server's annotation event {other_annotation} and its "
        "trailer are signed by a key neither trusted nor the record's own", file="imported-annotated.ringside.jsonl")
    add("rotated", rotated.bundle, expect(True), "the origin server retired its key after event "
        f"{last_vote}: event {last_vote + 1} (key-rotated, signed by the old key) hands the record to the new key, "
        "which signs every later event, the last annotation and the trailer; trusting the origin key only")
    add("rotated-with-receipts", None, expect(True), "the rotated record against its receipts, made by both keys",
        receipts="rotated-receipts.json", file="rotated.ringside.jsonl")
    text, seq = rotation_signed_by_the_new_key(rotated.bundle)
    add("rotation-wrong-key", text, expect(False, "signature", seq),
        "the key rotation signed by the new key instead of the key then authorised")
    redacted = [line for line in annotations_of(parse(genuine.spectators_bundle)) if line.get("redacted")]
    add("redacted-annotation", genuine.spectators_bundle, expect(True),
        f"exported for a spectator: annotation event {redacted[0]['seq']} (seat 0 only) is redacted, its sequence, "
        "link and signature checked, its hash taken as signed")
    add("seat-entropy", entropy, expect(True), "another match, created to take entropy from its seats: "
        "creation entropy, then each seat's entropy-added event before the deal; every draw derives from all three")
    text, seq = redacted_but_altered(valid)
    add("redacted-but-altered", text, expect(False, "format", seq, "annotations"),
        f"annotation event {seq}'s text changed and its line marked redacted, its payload kept: a redacted line "
        "must hide its content ({hidden, id}), or its hash goes unchecked")
    text, seq = changed_payload_byte(valid)
    add("changed-payload-byte", text, expect(False, "chain", seq), "one byte of the die's outcome changed")
    add("resigned-other-key", resigned_other_key(valid), expect(False, "trust", 1),
        "the whole record re-signed (validly) by another key: intact, but not made by the trusted server")
    add("spliced", spliced(valid, 10), expect(False, "signature", 10),
        "a genuine prefix (events 1-9), then events signed by another key the header lists")
    add("uppercase-trailer-signature", uppercase_trailer_signature(valid), expect(False, "trailer"),
        "one hexadecimal digit of the trailer's signature in upper case")
    add("truncated-resigned-trailer", truncated_resigned(valid, 9), expect(False, "trust"),
        "cut after event 9 (the end withheld) under a trailer signed by the attacker's key")
    add("wrong-key-id", wrong_key_id(valid), expect(False, "signature"),
        "another public key listed under the origin's key ID, and every signature made with it")
    add("dropped-event", dropped_event(valid, 10), expect(False, "sequence", 10), "event 10's line deleted")
    add("non-canonical-line", non_canonical_line(valid, 7), expect(False, "format", 7),
        "event 7 with a space after its first colon")
    text, seq = wrong_seed(valid)
    add("wrong-seed", text, expect(False, "seed", seq), "the revealed seed is not the one committed to")
    add("rewritten", changed.bundle, expect(True), "a record the origin server rewrote from event 13 (Bob's vote): "
        "intact and trusted on its own")
    add("rewritten-with-receipts", None, expect(False, "receipts", last_vote + 1),
        "the rewritten record against the receipts: Bob's receipt for event 13 has another hash",
        receipts="receipts.json", file="rewritten.ringside.jsonl")
    add("withheld", withheld(valid, last_vote), expect(True),
        f"the origin server withholds everything after event {last_vote}: a genuine prefix on its own")
    add("withheld-with-receipts", None, expect(False, "receipts", last_vote + 1),
        f"the same against the receipts: Bob's receipt for event {last_vote + 1} is for an event missing "
        "from the record", receipts="receipts.json", file="withheld.ringside.jsonl")
    keys = {name: {"key_id": key.key_id, "public_key": key.public_hex, "private_seed": seed.decode("ascii"),
                   "private_key": "sha256(private_seed) as the raw 32-byte Ed25519 private key"}
            for (name, seed), key in zip(KEY_SEEDS.items(), (ORIGIN, OTHER, ROTATED), strict=True)}
    index = {"format": "ringside-bundle-vectors", "version": 1, "spec": "docs/bundle-format.md",
             "match_id": str(MATCH_ID), "seed": SEED, "keys": keys, "vectors": vectors}
    files["index.json"] = json.dumps(index, indent=1, ensure_ascii=False) + "\n"
    out.mkdir(parents=True, exist_ok=True)
    for name, text in sorted(files.items()):
        (out / name).write_bytes(text.encode("utf-8"))


def main(argv: list[str]) -> int:
    build(Path(argv[0]) if argv else OUT)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
