#!/usr/bin/env python3
"""ringside_verify: check a Ringside bundle without Ringside.

A standalone verifier of the bundle format specified in docs/bundle-format.md. It imports only the
Python standard library and `cryptography`, so anyone can copy this one file and check a record:

    python ringside_verify.py BUNDLE [--trust PUBHEX]... [--trust-file FILE] [--receipts FILE] [--json]

It checks, in this order, and reports the first failure with its check name and sequence number:
the format and canonical form of every line (check `format`), the header's key IDs (`signature`),
every match event's sequence, chain, hash, signature and key authorisation (`sequence`, `chain`,
`signature`), what the created event shares with the header (`header`), the header's counts
(`format`), the annotation stream (`sequence`, `chain`, `signature`, `annotations`), the trailer
(`trailer`), the seed commitment and every salt the seed derives (`seed`), the trust rule (`trust`)
and, if given, the receipts (`receipts`). What only the rules engine can check (legality, chance
outcomes, undo authority, scores, the result) is out of its reach; `ringside verify` does it.

Exit status: 0 verified, 1 not verified (broken, untrusted, or a receipt proves the record changed),
2 usage error (bad arguments, an unreadable bundle, trust or receipts file).
"""

from __future__ import annotations

import argparse
import hashlib
import hmac
import json
import re
import sys
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

FORMAT = "ringside-bundle"
VERSION = 1
GENESIS = "0" * 64
CHECKS = ("format", "sequence", "chain", "signature", "header", "seed", "annotations", "trailer", "trust",
          "receipts")
"""The check names, as domain/kernel/verification.py names them, plus `trust` and `receipts`."""

HEADER_FIELDS = frozenset({"type", "format", "version", "match_id", "game", "engine_version", "components",
                           "keys", "exported_at", "counts"})
ENTRY_FIELDS = frozenset({"type", "stream", "seq", "kind", "actor", "at", "payload", "prev", "hash", "sig", "key"})
TRAILER_FIELDS = frozenset({"type", "sha256", "key", "sig"})
ACTOR_KINDS = ("seat", "substitute", "arbiter", "recorder", "bot", "system")
ANNOTATION_KINDS = ("annotations-opened", "annotation-added", "annotation-edited")
CREATED, KEY_ROTATED, SEED_REVEALED, ENDED = "created", "key-rotated", "seed-revealed", "ended"

_HEX = {n: re.compile(f"[0-9a-f]{{{n}}}") for n in (16, 32, 64, 128)}


class NotCanonical(ValueError):
    """A value or a line that is not in the canonical form."""


# ==== canonical JSON ====================================================================================
def _normal(value: Any) -> Any:
    """The value with every string (and key) in NFC; floats and other non-JSON values refused."""
    if isinstance(value, str):
        return unicodedata.normalize("NFC", value)
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, int):
        return int(value)
    if isinstance(value, dict):
        out: dict[str, Any] = {}
        for key, item in value.items():
            if not isinstance(key, str):
                raise NotCanonical(f"object keys are strings, not {key!r}")
            name = unicodedata.normalize("NFC", key)
            if name in out:
                raise NotCanonical(f"two keys are equal after NFC: {name!r}")
            out[name] = _normal(item)
        return out
    if isinstance(value, (list, tuple)):
        return [_normal(item) for item in value]
    raise NotCanonical(f"{type(value).__name__} is not allowed in canonical JSON (integers only, no floats)")


def canonical(value: Any) -> bytes:
    """The canonical bytes of a JSON value (docs/bundle-format.md, "Canonical JSON")."""
    text = json.dumps(_normal(value), sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        raise NotCanonical("a string holds a lone surrogate") from None


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def digest(value: Any) -> str:
    """SHA-256 of the canonical bytes, lowercase hex."""
    return sha256_hex(canonical(value))


def _no_float(text: str) -> Any:
    raise NotCanonical(f"a number that is not an integer: {text}")


def _unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise NotCanonical(f"duplicate key {key!r}")
        out[key] = value
    return out


def parse_canonical_line(line: bytes) -> dict[str, Any]:
    """Parse one bundle line, requiring a JSON object whose canonical bytes are exactly the line."""
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError:
        raise NotCanonical("not UTF-8") from None
    try:
        value = json.loads(text, parse_float=_no_float, parse_constant=_no_float, object_pairs_hook=_unique)
        if not isinstance(value, dict):
            raise NotCanonical("not a JSON object")
        if canonical(value) != line:
            raise NotCanonical("not in canonical form")
    except NotCanonical:
        raise
    except RecursionError:
        raise NotCanonical("nested too deeply to be a record line") from None
    except ValueError as error:
        raise NotCanonical(f"not JSON ({error})") from None
    return value


# ==== the record's cryptography =========================================================================
def event_hash(match: str, seq: int, kind: str, actor: Any, at: str, payload: Any, prev: str) -> str:
    """An event's hash: SHA-256 of canonical {match, seq, kind, actor, at, payload, prev}.
    For an annotation event `match` holds the annotation stream's name, `<match id>/annotations`."""
    return digest({"match": match, "seq": seq, "kind": kind, "actor": actor, "at": at, "payload": payload,
                   "prev": prev})


def head_message(stream: str, seq: int, hash_: str) -> bytes:
    """What a head signature (an event's `sig`, a receipt's `signature`) is taken over."""
    return canonical({"stream": stream, "seq": seq, "hash": hash_})


def key_id(public_hex: str) -> str:
    """A key's ID: the first 16 hex digits of SHA-256 over the raw 32-byte Ed25519 public key."""
    return sha256_hex(bytes.fromhex(public_hex))[:16]


def signature_valid(public_hex: str, message: bytes, signature_hex: str) -> bool:
    """Whether `signature_hex` is an Ed25519 signature of `message` by `public_hex` (all lowercase hex)."""
    if not (is_hex(public_hex, 64) and is_hex(signature_hex, 128)):
        return False
    try:
        Ed25519PublicKey.from_public_bytes(bytes.fromhex(public_hex)).verify(bytes.fromhex(signature_hex), message)
    except (InvalidSignature, ValueError):
        return False
    return True


def derive_salt(seed: str, match_id: str, seq: int) -> str:
    """The salt of a hidden match event: HMAC-SHA256(seed, canonical {match, salt: seq}), first 32 hex digits."""
    return hmac.new(bytes.fromhex(seed), canonical({"match": match_id, "salt": seq}), hashlib.sha256).hexdigest()[:32]


def chance_value(seed: str, match_id: str, entropy: list[str], seq: int, draw: int) -> int:
    """The pseudo-random 256-bit integer behind draw `draw` of the chance event at `seq`. The rules
    engine masks it to the bits of its outcome line's total weight and rejects values past it."""
    message = canonical({"match": match_id, "entropy": entropy, "seq": seq, "draw": draw})
    return int.from_bytes(hmac.new(bytes.fromhex(seed), message, hashlib.sha256).digest(), "big")


def derive_index(seed: str, match_id: str, entropy: list[str], seq: int, weight: int) -> tuple[int, int]:
    """(index, draw) of the chance event at `seq` whose outcome line has total weight `weight` (which the
    rules engine states): the first draw whose value, masked to the bits of weight - 1, is below it."""
    if weight <= 0:
        raise ValueError("a chance event needs at least one possible outcome")
    mask = (1 << max(1, (weight - 1).bit_length())) - 1
    draw = 0
    while (chance_value(seed, match_id, entropy, seq, draw) & mask) >= weight:
        draw += 1
    return chance_value(seed, match_id, entropy, seq, draw) & mask, draw


def is_hex(value: Any, length: int) -> bool:
    """Lowercase hexadecimal of exactly `length` digits (an upper-case digit is never valid)."""
    return isinstance(value, str) and _HEX[length].fullmatch(value) is not None


def _whole(value: Any) -> bool:
    return type(value) is int


# ==== the report ========================================================================================
@dataclass
class Failure:
    """The first check that failed."""

    check: str
    message: str
    seq: int | None = None
    stream: str = "match"
    expected: Any = None
    actual: Any = None

    def to_json(self) -> dict[str, Any]:
        return {"check": self.check, "message": self.message, "seq": self.seq, "stream": self.stream,
                "expected": self.expected, "actual": self.actual}


@dataclass
class Signer:
    """One key that signed something in the bundle (or a receipt), and what."""

    key_id: str
    public_key: str | None
    events: list[int] = field(default_factory=list)
    annotations: list[int] = field(default_factory=list)
    trailer: bool = False
    receipts: list[int] = field(default_factory=list)
    authorised: bool = False
    trusted: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"key_id": self.key_id, "public_key": self.public_key, "events": _ranges(self.events),
                "annotations": _ranges(self.annotations), "trailer": self.trailer,
                "receipts": _ranges(self.receipts), "authorised_by_record": self.authorised,
                "trusted": self.trusted}


def _ranges(numbers: Iterable[int]) -> str:
    """1,2,3,5 -> "1-3,5"."""
    parts: list[str] = []
    ordered = sorted(set(numbers))
    start = previous = None
    for number in [*ordered, None]:
        if number is not None and previous is not None and number == previous + 1:
            previous = number
            continue
        if start is not None:
            parts.append(str(start) if start == previous else f"{start}-{previous}")
        start = previous = number
    return ",".join(parts)


@dataclass
class Report:
    """What was checked and the first failure, if any."""

    ok: bool = False
    match_id: str | None = None
    game: str | None = None
    events: int = 0
    annotations: int = 0
    redacted_annotations: int = 0
    checked: dict[str, int] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    signers: dict[str, Signer] = field(default_factory=dict)
    receipts: list[dict[str, Any]] = field(default_factory=list)
    trust_checked: bool = False
    divergence: Failure | None = None

    def count(self, check: str) -> None:
        self.checked[check] = self.checked.get(check, 0) + 1

    def signer(self, key: str, public: str | None) -> Signer:
        if key not in self.signers:
            self.signers[key] = Signer(key, public)
        return self.signers[key]

    def summary(self) -> str:
        if self.ok:
            trust = "trusted" if self.trust_checked else "integrity only, origin NOT checked"
            return (f"VERIFIED ({trust}): {self.events} events and {self.annotations} annotation events"
                    + (f" ({self.redacted_annotations} redacted)" if self.redacted_annotations else ""))
        failure = self.divergence
        assert failure is not None
        where = "bundle"
        if failure.seq is not None:
            where = f"annotation event {failure.seq}" if failure.stream == "annotations" else f"event {failure.seq}"
        return f"NOT VERIFIED at {where}: {failure.check}: {failure.message}"

    def to_json(self) -> dict[str, Any]:
        return {"ok": self.ok, "match_id": self.match_id, "game": self.game, "events": self.events,
                "annotations": self.annotations, "redacted_annotations": self.redacted_annotations,
                "checked": self.checked, "notes": self.notes, "trust_checked": self.trust_checked,
                "signers": [signer.to_json() for _, signer in sorted(self.signers.items())],
                "receipts": self.receipts,
                "divergence": self.divergence.to_json() if self.divergence else None, "summary": self.summary()}

    def text(self) -> str:
        lines = [self.summary()]
        if self.match_id:
            lines.append(f"match {self.match_id} ({self.game}): {self.events} events, "
                         f"{self.annotations} annotation events")
        lines += [f"  checked {name}: {count}" for name, count in sorted(self.checked.items())]
        lines += [f"  note: {note}" for note in self.notes]
        for _, signer in sorted(self.signers.items()):
            signed = [f"{label} {text}" for label, text in (("events", _ranges(signer.events)),
                                                           ("annotations", _ranges(signer.annotations)),
                                                           ("receipts", _ranges(signer.receipts))) if text]
            if signer.trailer:
                signed.append("the trailer")
            status = "trusted" if signer.trusted else "NOT trusted"
            if signer.authorised:
                status += ", authorised by the record"
            lines.append(f"  signer {signer.key_id}: {status}; signed {'; '.join(signed) or 'nothing'}")
        for receipt in self.receipts:
            lines.append(f"  receipt for event {receipt.get('seq')} by {receipt.get('key_id')}: {receipt['status']} "
                         f"({receipt['message']})")
        failure = self.divergence
        if failure is not None and (failure.expected is not None or failure.actual is not None):
            lines.append(f"  expected: {json.dumps(failure.expected)}")
            lines.append(f"  actual:   {json.dumps(failure.actual)}")
        return "\n".join(lines) + "\n"


class Failed(Exception):
    """Raised inside the verifier at the first failure."""

    def __init__(self, check: str, message: str, seq: int | None = None, stream: str = "match",
                 expected: Any = None, actual: Any = None) -> None:
        super().__init__(message)
        self.failure = Failure(check, message, seq, stream, expected, actual)


# ==== reading ==========================================================================================
@dataclass
class Line:
    number: int
    raw: bytes
    data: dict[str, Any] | None
    problem: str | None


def _lines(data: bytes) -> list[Line]:
    if not data.endswith(b"\n"):
        raise Failed("format", "the bundle does not end with a line feed (truncated?)")
    if b"\r" in data:
        raise Failed("format", "a carriage return: lines end with a line feed (LF) only")
    lines = []
    for number, raw in enumerate(data[:-1].split(b"\n"), start=1):
        try:
            lines.append(Line(number, raw, parse_canonical_line(raw), None))
        except NotCanonical as error:
            lines.append(Line(number, raw, None, f"line {number} is not canonical JSON ({error})"))
    if len(lines) < 3:
        raise Failed("format", "a bundle has a header, at least one event and a trailer")
    return lines


def _entry_format(data: dict[str, Any], redacted_allowed: bool) -> str | None:
    """What is wrong with an event or annotation line's fields, or None."""
    allowed = ENTRY_FIELDS | ({"redacted"} if redacted_allowed else set())
    if not ENTRY_FIELDS <= set(data) <= allowed:
        return f"its fields are not {sorted(ENTRY_FIELDS)}" + (" (and optionally redacted)" if redacted_allowed else "")
    if "redacted" in data and data["redacted"] is not True:
        return "redacted, where present, is true"
    if not (isinstance(data["stream"], str) and _whole(data["seq"]) and data["seq"] >= 1
            and isinstance(data["kind"], str) and isinstance(data["at"], str)):
        return "stream, kind and at are strings and seq a positive integer"
    if not all(isinstance(data[name], str) for name in ("prev", "hash", "sig", "key")):
        return "prev, hash, sig and key are strings"  # of lowercase hex: any other spelling fails its check
    actor = data["actor"]
    if not (isinstance(actor, dict) and set(actor) <= {"kind", "seat", "name"} and actor.get("kind") in ACTOR_KINDS
            and ("seat" not in actor or _whole(actor["seat"]))
            and ("name" not in actor or isinstance(actor["name"], str))):
        return "the actor is not one the record knows ({kind, seat?, name?})"
    if not isinstance(data["payload"], dict):
        return "the payload is not an object"
    return None


# ==== verification =====================================================================================
def verify(data: bytes, trusted: Iterable[str] | None = None, receipts: Sequence[Any] | None = None) -> Report:
    """Verify a bundle's bytes. `trusted` holds trusted public keys (64 lowercase hex each); None checks
    integrity only (and the report says the origin was not checked). Never raises for bad input."""
    report = Report()
    trusted_set = None if trusted is None else set(trusted)
    try:
        _verify(data, trusted_set, receipts, report)
    except Failed as failed:
        report.divergence = failed.failure
        return report
    except Exception as error:  # junk where the bundle has structure that no check above foresaw
        report.divergence = Failure("format", f"the bundle is malformed ({type(error).__name__}: {error})")
        return report
    report.ok = True
    return report


def _verify(data: bytes, trusted: set[str] | None, receipts: Sequence[Any] | None, report: Report) -> None:
    lines = _lines(data)
    header = _header(lines[0], report)
    keys: dict[str, str] = header["keys"]
    match_id: str = header["match_id"]
    event_lines = _event_lines(lines[1:-1], header)
    annotation_lines = lines[1 + len(event_lines):-1]
    events, authorised = _match_chain(event_lines, header, report)
    hashes = {event["seq"]: event["hash"] for event in events}
    _annotations(annotation_lines, header, hashes, report)
    trailer = _trailer(lines, keys, report)
    _seed(events, match_id, report)
    for key in authorised:
        report.signer(key, keys[key]).authorised = True
    if trusted is not None:
        _trust(events, annotation_lines, trailer, keys, authorised, trusted, report)
        report.trust_checked = True
    else:
        report.notes.append("no trusted keys given: the bundle is intact, but who made it is not checked")
    if receipts is not None:
        _receipts(receipts, match_id, hashes, keys, authorised, trusted or set(), report)


def _header(line: Line, report: Report) -> dict[str, Any]:
    if line.data is None:
        raise Failed("format", str(line.problem))
    header = line.data
    if header.get("type") != "header" or header.get("format") != FORMAT:
        raise Failed("format", "not a Ringside bundle (the first line is no header)")
    if header.get("version") != VERSION:
        raise Failed("format", f"unsupported bundle version {header.get('version')!r} (this reads {VERSION})")
    missing = sorted(HEADER_FIELDS - set(header))
    if missing:
        raise Failed("format", f"the header lacks {', '.join(missing)}")
    counts, keys = header["counts"], header["keys"]
    if not (isinstance(header["match_id"], str) and isinstance(header["game"], str)
            and isinstance(header["engine_version"], str) and isinstance(header["exported_at"], str)
            and isinstance(header["components"], dict) and isinstance(keys, dict) and isinstance(counts, dict)
            and set(counts) == {"events", "annotations"} and all(_whole(v) for v in counts.values())):
        raise Failed("format", "the header's fields do not have their types")
    report.match_id, report.game = header["match_id"], header["game"]
    for listed, public in sorted(keys.items()):
        derived = key_id(public) if is_hex(public, 64) else None
        if derived != listed:  # else anyone could file their own signatures under another server's ID
            raise Failed("signature", f"the header lists key {listed} with a public key whose ID is {derived}",
                         expected=derived, actual=listed)
    return header


def _event_lines(lines: list[Line], header: dict[str, Any]) -> list[Line]:
    """The match event lines: those before the first annotation line."""
    events: list[Line] = []
    for line in lines:
        if line.data is not None and line.data.get("type") == "annotation":
            break
        if line.data is None and _looks_like_annotation(line.raw, header):
            break
        events.append(line)
    return events


def _event(line: Line, expected_seq: int) -> dict[str, Any]:
    """A match event line with its format checked."""
    if line.data is None:
        raise Failed("format", str(line.problem), seq=expected_seq)
    if line.data.get("type") != "event":
        raise Failed("format", f"line {line.number}: a line of type {line.data.get('type')!r} among the events",
                     seq=expected_seq)
    problem = _entry_format(line.data, redacted_allowed=False)
    if problem is not None:
        raise Failed("format", f"line {line.number}: {problem}", seq=expected_seq)
    return line.data


def _looks_like_annotation(raw: bytes, header: dict[str, Any]) -> bool:
    stream = f'"stream":"{header["match_id"]}/annotations"'.encode()
    return stream in raw or b'"type":"annotation"' in raw


def _match_chain(lines: list[Line], header: dict[str, Any],
                 report: Report) -> tuple[list[dict[str, Any]], list[str]]:
    """Check the match stream; return its events and the keys the record authorised, in order."""
    if not lines:
        raise Failed("format", "the bundle holds no events")
    keys: dict[str, str] = header["keys"]
    match_id: str = header["match_id"]
    prev = GENESIS
    events: list[dict[str, Any]] = []
    authorised: list[str] = []
    current: str | None = None
    for expected_seq, line in enumerate(lines, start=1):
        event = _event(line, expected_seq)
        events.append(event)
        seq = event["seq"]
        _link(event, expected_seq, prev, match_id, report, "match")
        public = keys.get(event["key"])
        message = head_message(event["stream"], seq, event["hash"])
        if public is None or not signature_valid(public, message, event["sig"]):
            raise Failed("signature", "the signature on this event is not valid by the key it names", seq=seq,
                         expected=f"a valid signature by {event['key']}", actual=event["sig"][:32] + "…")
        if seq == 1:
            if event["kind"] != CREATED:
                raise Failed("sequence", "the record does not start with a created event", seq=1,
                             expected=CREATED, actual=event["kind"])
            _created(event, header, report)
            current = event["key"]
            authorised.append(current)
        elif event["kind"] == CREATED:
            raise Failed("sequence", "a second created event", seq=seq)
        if event["key"] != current:
            raise Failed("signature", "the event is signed by a key the record does not authorise here", seq=seq,
                         expected=current, actual=event["key"])
        report.count("signature")
        report.signer(event["key"], public).events.append(seq)
        if event["kind"] == KEY_ROTATED:
            current = _rotation(event, keys, authorised)
            authorised.append(current)
        prev = event["hash"]
    report.events = len(events)
    counts = header["counts"]
    if counts["events"] != len(events):
        raise Failed("format", "the header's event count does not match the events", expected=counts["events"],
                     actual=len(events))
    return events, authorised


def _link(entry: dict[str, Any], expected_seq: int, prev: str, stream: str, report: Report, label: str,
          recompute: bool = True) -> None:
    """Sequence, stream, link to the previous hash, and (unless redacted) the hash itself."""
    if entry["seq"] != expected_seq:
        raise Failed("sequence", "events are missing or out of order", seq=expected_seq, stream=label,
                     expected=expected_seq, actual=entry["seq"])
    if entry["stream"] != stream:
        raise Failed("sequence", "the event belongs to another stream", seq=expected_seq, stream=label,
                     expected=stream, actual=entry["stream"])
    report.count("sequence")
    if entry["prev"] != prev:
        raise Failed("chain", "the event does not link to the previous event's hash", seq=expected_seq, stream=label,
                     expected=prev, actual=entry["prev"])
    if not recompute and not is_hex(entry["hash"], 64):
        raise Failed("chain", "a redacted event's hash is not 64 lowercase hexadecimal digits", seq=expected_seq,
                     stream=label, actual=entry["hash"])
    if recompute:
        expected = event_hash(stream, entry["seq"], entry["kind"], entry["actor"], entry["at"], entry["payload"],
                              entry["prev"])
        if entry["hash"] != expected:
            raise Failed("chain", "the event's content does not match its hash (altered)", seq=expected_seq,
                         stream=label, expected=expected, actual=entry["hash"])
    report.count("chain")


def _created(event: dict[str, Any], header: dict[str, Any], report: Report) -> None:
    """What the created event shares with the bundle's header."""
    payload = event["payload"]
    if payload.get("match_id") != event["stream"] or event["stream"] != header["match_id"]:
        raise Failed("header", "the match ID differs between header and record", seq=1, expected=event["stream"],
                     actual=payload.get("match_id"))
    if payload.get("game") != header["game"]:
        raise Failed("header", "the header names another game", seq=1, expected=payload.get("game"),
                     actual=header["game"])
    components = payload.get("components")
    content_hash = digest(header["components"])
    if not isinstance(components, dict) or components.get("hash") != content_hash:
        raise Failed("header", "the bundle's component set is not the one the match used", seq=1,
                     expected=components.get("hash") if isinstance(components, dict) else None, actual=content_hash)
    if not is_hex(payload.get("seed_commitment"), 64):
        raise Failed("header", "the seed commitment is not 64 lowercase hexadecimal digits", seq=1)
    setup = "position" if "position" in payload else None
    if header.get("setup") != setup:
        raise Failed("header", "the header's setup is not the created event's (a match from a position has setup "
                     "'position', one from the standard setup none)", seq=1, expected=setup, actual=header.get("setup"))
    report.count("header")


def _rotation(event: dict[str, Any], keys: dict[str, str], used: list[str]) -> str:
    """The key a key-rotated event hands authority to: named by its ID and public key as the header lists
    them, a key the record has not used before, by the recording server (the system actor)."""
    payload, seq = event["payload"], event["seq"]
    public = payload.get("public_key")
    problem = None
    if set(payload) != {"key", "public_key"} or not is_hex(public, 64) or key_id(public) != payload["key"]:
        problem = "a key rotation must name the new key's ID and the public key it derives from"
    elif keys.get(payload["key"]) != public:
        problem = "the rotated-to key is not the one the header lists under that ID"
    elif payload["key"] in used:
        problem = "a rotation to a key the record already used"
    elif event["actor"] != {"kind": "system"}:
        problem = "a key rotation not made by the recording server (the system actor)"
    if problem is not None:
        raise Failed("signature", problem, seq=seq, actual=payload)
    return str(payload["key"])


def _annotations(lines: list[Line], header: dict[str, Any], hashes: dict[int, str], report: Report) -> None:
    keys: dict[str, str] = header["keys"]
    stream = f"{header['match_id']}/annotations"
    counts = header["counts"]
    if all(line.data is not None for line in lines) and counts["annotations"] != len(lines):
        raise Failed("annotations", "the header's annotation count does not match", stream="annotations",
                     expected=counts["annotations"], actual=len(lines))
    prev = GENESIS
    for expected_seq, line in enumerate(lines, start=1):
        if line.data is None:
            raise Failed("format", str(line.problem), seq=expected_seq, stream="annotations")
        entry = line.data
        if entry.get("type") != "annotation":
            raise Failed("format", f"line {line.number}: a line of type {entry.get('type')!r} among the annotations",
                         seq=expected_seq, stream="annotations")
        problem = _entry_format(entry, redacted_allowed=True)
        redacted = entry.get("redacted") is True
        if problem is None and redacted:
            payload = entry["payload"]
            if entry["kind"] == "annotations-opened" or set(payload) != {"id", "hidden"} \
                    or payload["hidden"] is not True or not isinstance(payload["id"], str):
                problem = 'a redacted annotation\'s payload is {"id": ..., "hidden": true}'
        if problem is not None:
            raise Failed("format", f"line {line.number}: {problem}", seq=expected_seq, stream="annotations")
        seq = entry["seq"]
        _link(entry, expected_seq, prev, stream, report, "annotations", recompute=not redacted)
        public = keys.get(entry["key"])
        if public is None or not signature_valid(public, head_message(stream, seq, entry["hash"]), entry["sig"]):
            raise Failed("signature", "the signature on this annotation event is not valid by a key the bundle "
                         "lists", seq=seq, stream="annotations", expected=f"a valid signature by {entry['key']}",
                         actual=entry["sig"][:32] + "…")
        report.count("signature")
        report.signer(entry["key"], public).annotations.append(seq)
        if seq == 1 and (entry["kind"] != "annotations-opened" or entry["payload"] != {"match_id": header["match_id"]}):
            raise Failed("annotations", "the annotation stream does not start opened for this match", seq=1,
                         stream="annotations")
        if seq > 1 and entry["kind"] not in ANNOTATION_KINDS[1:]:
            raise Failed("annotations", f"an annotation event of unknown kind {entry['kind']!r}", seq=seq,
                         stream="annotations")
        payload = entry["payload"]
        anchor = payload.get("seq")
        if not redacted and "hash" in payload and hashes.get(anchor) != payload["hash"]:
            raise Failed("annotations", "an annotation is anchored to an event hash not in the record", seq=seq,
                         stream="annotations", expected=hashes.get(anchor), actual=payload["hash"])
        if redacted:
            report.redacted_annotations += 1
        report.count("annotations")
        prev = entry["hash"]
    report.annotations = len(lines)


def _trailer(lines: list[Line], keys: dict[str, str], report: Report) -> dict[str, Any]:
    line = lines[-1]
    if line.data is None:
        raise Failed("format", str(line.problem))
    trailer = line.data
    if trailer.get("type") != "trailer":
        raise Failed("format", "the last line is not a trailer")
    if set(trailer) != TRAILER_FIELDS:
        raise Failed("trailer", "a trailer has exactly the fields type, sha256, key and sig", actual=sorted(trailer))
    for name, length in (("sha256", 64), ("key", 16), ("sig", 128)):
        if not is_hex(trailer[name], length):
            raise Failed("trailer", f"the trailer's {name} is not {length} lowercase hexadecimal digits",
                         actual=trailer[name])
    body = b"".join(line.raw + b"\n" for line in lines[:-1])
    actual = sha256_hex(body)
    if trailer["sha256"] != actual:
        raise Failed("trailer", "the trailer's digest does not match the bytes before it (a byte outside the "
                     "events changed)", expected=trailer["sha256"], actual=actual)
    public = keys.get(trailer["key"])
    if public is None or not signature_valid(public, actual.encode("ascii"), trailer["sig"]):
        raise Failed("trailer", "the trailer's signature is not valid by a key the bundle lists",
                     expected=f"a valid signature by {trailer['key']}")
    report.signer(trailer["key"], public).trailer = True
    report.count("trailer")
    return trailer


def _seed(events: list[dict[str, Any]], match_id: str, report: Report) -> None:
    """The revealed seed against the commitment, and every salt it derives."""
    revealed = [event for event in events if event["kind"] == SEED_REVEALED]
    if not revealed:
        report.notes.append("the seed is not revealed (the match is in play): salts and chance outcomes "
                            "cannot be checked against it yet")
        return
    event = revealed[0]
    seq = event["seq"]
    seed = event["payload"].get("seed")
    if len(revealed) > 1 or set(event["payload"]) != {"seed"} or not is_hex(seed, 64):
        raise Failed("seed", "the seed is revealed more than once, or not as 64 lowercase hexadecimal digits",
                     seq=seq)
    if not any(e["kind"] == ENDED for e in events[: seq - 1]):
        raise Failed("seed", "the seed is revealed before the match ended", seq=seq)
    commitment = events[0]["payload"]["seed_commitment"]
    actual = sha256_hex(bytes.fromhex(seed))
    if actual != commitment:
        raise Failed("seed", "the revealed seed does not match the commitment made at creation", seq=seq,
                     expected=commitment, actual=actual)
    report.count("seed")
    for entry in events:
        if "salt" in entry["payload"]:
            expected = derive_salt(seed, match_id, entry["seq"])
            if entry["payload"]["salt"] != expected:
                raise Failed("seed", "the hidden event's salt is not the one the seed derives", seq=entry["seq"],
                             expected=expected, actual=entry["payload"]["salt"])
            report.count("seed")


def _trust(events: list[dict[str, Any]], annotations: list[Line], trailer: dict[str, Any], keys: dict[str, str],
           authorised: list[str], trusted: set[str], report: Report) -> None:
    """The created event's key must be trusted; every annotation signer and the trailer's signer must be
    trusted or authorised by the record."""
    for key, signer in report.signers.items():
        signer.trusted = keys.get(key) in trusted
    created = events[0]["key"]
    if keys[created] not in trusted:
        raise Failed("trust", f"the match was created under key {created}, which is not trusted here", seq=1,
                     expected="a trusted key", actual=created)
    for line in annotations:
        assert line.data is not None
        key = line.data["key"]
        if key not in authorised and keys[key] not in trusted:
            raise Failed("trust", f"annotation event {line.data['seq']} (and any others it signed) is signed by "
                         f"key {key}, which is neither the record's own nor trusted here", actual=key)
    if trailer["key"] not in authorised and keys[trailer["key"]] not in trusted:
        raise Failed("trust", f"the trailer is signed by key {trailer['key']}, neither trusted nor authorised by "
                     "the record", actual=trailer["key"])
    report.count("trust")


RECEIPT_PROOF = ("missing", "differs")
"""The receipt statuses that prove the record changed after the receipt was issued."""


def _receipts(receipts: Sequence[Any], match_id: str, hashes: dict[int, str], keys: dict[str, str],
              authorised: list[str], trusted: set[str], report: Report) -> None:
    """A receipt validly signed by a key the record authorises (or a trusted key) for an event that is
    missing from the record, or recorded with another hash, proves that the record changed after it was
    issued. The first such receipt (in the order given) is the failure."""
    public_keys = {**{key_id(public): public for public in trusted}, **keys}
    counted = set(authorised) | {key_id(public) for public in trusted}
    report.count("receipts")
    proof: tuple[dict[str, Any], str] | None = None
    for receipt in receipts:
        status, message = _receipt_status(receipt, match_id, hashes, public_keys, counted)
        shown = {k: receipt.get(k) for k in ("seq", "hash", "key_id")} if isinstance(receipt, dict) else {}
        report.receipts.append({**shown, "status": status, "message": message})
        if status in ("holds", *RECEIPT_PROOF):
            report.signer(receipt["key_id"], public_keys[receipt["key_id"]]).receipts.append(receipt["seq"])
        if status in RECEIPT_PROOF and proof is None:
            proof = (receipt, message)
    if proof is not None:
        receipt, message = proof
        raise Failed("receipts", f"a receipt proves the record changed after it was issued: {message}",
                     seq=receipt["seq"], expected=receipt["hash"], actual=hashes.get(receipt["seq"]))


def _receipt_status(receipt: Any, match_id: str, hashes: dict[int, str], public_keys: dict[str, str],
                    counted: set[str]) -> tuple[str, str]:
    """(status, message): holds, missing, differs, invalid, other-match or unknown-key."""
    if not isinstance(receipt, dict):
        return "invalid", "not a receipt object"
    seq: Any = receipt.get("seq")
    hash_: Any = receipt.get("hash")
    signer = receipt.get("key_id")
    if not (_whole(seq) and seq >= 1 and is_hex(hash_, 64) and isinstance(signer, str)
            and isinstance(receipt.get("signature"), str) and isinstance(receipt.get("match_id"), str)):
        return "invalid", "a receipt needs match_id, seq, hash, signature and key_id"
    if receipt["match_id"] != match_id:
        return "other-match", f"a receipt for match {receipt['match_id']}"
    public = public_keys.get(signer)
    if signer not in counted or public is None:
        return "unknown-key", f"signed by key {signer}, neither the record's own nor trusted: it proves nothing"
    if not signature_valid(public, head_message(match_id, seq, hash_), receipt["signature"]):
        return "invalid", "the receipt's signature is not valid: it proves nothing"
    recorded = hashes.get(seq)
    if recorded is None:
        return "missing", f"the server signed event {seq} but the record has no event {seq}: it was cut after"
    if recorded != hash_:
        return "differs", f"the server signed event {seq} with hash {hash_[:16]}… but the record's event {seq} " \
            f"has hash {recorded[:16]}…: it was rewritten after"
    return "holds", f"event {seq} is in the record as the receipt says"


# ==== trust and receipt files ===========================================================================
class UsageError(Exception):
    """Bad arguments or an unreadable input file (exit status 2)."""


def load_trust_file(path: Path) -> list[str]:
    """Trusted public keys from a file, in any of three forms: a server's `GET /keys` answer
    ({server_key_id, server_public_key, keys: {id: public}}), a JSON object {id: public}, or text with
    one public key a line, optionally after a label (`label pubhex`), blank lines and `#` comments
    ignored (the form `ringside verify --trust-file` reads). Every ID given must derive from its key."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise UsageError(f"cannot read the trust file {path}: {error}") from None
    try:
        document = json.loads(text)
    except ValueError:
        document = None
    pairs: list[tuple[Any, Any]] = []
    if isinstance(document, dict) and "server_public_key" in document:
        pairs.append((document.get("server_key_id"), document["server_public_key"]))
        listed = document.get("keys", {})
        pairs.extend(listed.items() if isinstance(listed, dict) else [(None, None)])
    elif isinstance(document, dict):
        pairs.extend(document.items())
    elif document is not None:
        raise UsageError(f"{path}: a JSON trust file is an object (GET /keys, or key ID -> public key)")
    else:
        for number, raw in enumerate(text.splitlines(), start=1):
            line = raw.split("#", 1)[0].strip()
            if line:
                public = normal_public_key(line.split()[-1])
                if public is None:
                    raise UsageError(f"{path}, line {number}: not an Ed25519 public key (64 hexadecimal digits)")
                pairs.append((key_id(public), public))
    keys = []
    for listed_id, public in pairs:
        if not is_hex(public, 64) or listed_id != key_id(public):
            raise UsageError(f"{path}: key {listed_id!r} is not the ID of the public key {public!r}")
        keys.append(str(public))
    return keys


def normal_public_key(text: str) -> str | None:
    """A public key as a user may type it (surrounding space, upper case) in the one spelling a record
    uses, or None. Only trust anchors are read this leniently: in a bundle, upper case is invalid."""
    public = text.strip().lower()
    return public if is_hex(public, 64) else None


def parse_receipts(data: Any) -> list[Any]:
    """Receipts as a player keeps them: one receipt object, a list of them, a command's answer
    ({"receipt": {...}, ...}) or a list of answers, or {"receipts": [...]}."""
    if isinstance(data, dict) and isinstance(data.get("receipt"), dict):
        return [data["receipt"]]
    if isinstance(data, dict) and isinstance(data.get("receipts"), list):
        return parse_receipts(data["receipts"])
    if isinstance(data, dict):
        return [data]
    if isinstance(data, list):
        return [receipt for item in data for receipt in parse_receipts(item)]
    raise ValueError("receipts are JSON objects (or a list of them)")


def load_receipts(path: Path) -> list[Any]:
    """Receipts from a file: JSON (see `parse_receipts`), or JSON Lines of any of those forms."""
    try:
        text = path.read_text(encoding="utf-8")
        try:
            document = json.loads(text)
        except ValueError:
            document = [json.loads(line) for line in text.splitlines() if line.strip()]
        return parse_receipts(document)
    except (OSError, UnicodeDecodeError, ValueError) as error:
        raise UsageError(f"cannot read the receipts file {path}: {error}") from None


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="ringside_verify", description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("bundle", type=Path, help="the bundle (.ringside.jsonl)")
    parser.add_argument("--trust", action="append", default=[], metavar="PUBHEX",
                        help="a trusted Ed25519 public key, 64 lowercase hex digits (repeatable)")
    parser.add_argument("--trust-file", action="append", default=[], type=Path, metavar="FILE",
                        help="trusted keys: a server's GET /keys answer, or {key id: public key} (repeatable)")
    parser.add_argument("--receipts", type=Path, metavar="FILE", help="receipts to check the record against")
    parser.add_argument("--integrity-only", action="store_true",
                        help="check integrity without trusted keys (the origin is then not checked)")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    try:
        args = parser.parse_args(argv)
    except SystemExit as leaving:
        return 0 if leaving.code == 0 else 2
    try:
        trusted: list[str] = []
        for given in args.trust:
            public = normal_public_key(given)
            if public is None:
                raise UsageError(f"--trust takes an Ed25519 public key of 64 hexadecimal digits, not {given!r}")
            trusted.append(public)
        for path in args.trust_file:
            trusted.extend(load_trust_file(path))
        if not trusted and not args.integrity_only:
            raise UsageError("give the keys you trust (--trust PUBHEX or --trust-file FILE), or --integrity-only: "
                             "a bundle's own keys prove that it is intact, not who made it")
        receipts = load_receipts(args.receipts) if args.receipts is not None else None
        try:
            data = args.bundle.read_bytes()
        except OSError as error:
            raise UsageError(f"cannot read {args.bundle}: {error}") from None
    except UsageError as error:
        print(f"ringside_verify: {error}", file=sys.stderr)
        return 2
    report = verify(data, trusted if trusted else None, receipts)
    if args.json:
        print(json.dumps(report.to_json(), indent=2, ensure_ascii=False))
    else:
        sys.stdout.write(report.text())
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main())
