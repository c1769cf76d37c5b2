"""The bundle: one self-contained, versioned JSON Lines file per match.

Line 1 is the header (format, version, match, game, engine version, the full component set, the
public keys, and `setup: "position"` for a match that starts from a position); then every match
event in order; then every annotation event; last a trailer with
the SHA-256 of all preceding bytes, signed by the exporting server. Every line is canonical JSON,
so any changed byte either breaks a line's JSON or changes a hashed value. It verifies offline
and imports back to an identical match.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

import orjson

from .canonical import encode
from .errors import BundleError
from .integrity import ServerKey, verify_signature
from .record import Entry

FORMAT = "ringside-bundle"
VERSION = 1


def write_bundle(entries: list[Entry], annotations: list[Entry], components: dict[str, Any],
                 keys: dict[str, str], signer: ServerKey, exported_at: str,
                 redacted: Collection[int] = ()) -> str:
    """The bundle text. Annotation events at the `redacted` positions (annotations its reader
    may not see) keep their place, hash and signature, but not their content."""
    created = entries[0]
    used = {entry.key for entry in (*entries, *annotations)} | {signer.key_id}
    header = {
        "type": "header", "format": FORMAT, "version": VERSION, "match_id": created.stream,
        "game": created.payload["game"], "engine_version": created.payload["engine_version"],
        "components": components, "keys": {k: v for k, v in sorted(keys.items()) if k in used},
        "exported_at": exported_at, "counts": {"events": len(entries), "annotations": len(annotations)},
    }
    if "position" in created.payload:  # not from the standard setup (absent: the setup, as in every older bundle)
        header["setup"] = "position"
    lines = [encode(header)]
    lines.extend(encode({"type": "event", **entry.to_json()}) for entry in entries)
    lines.extend(encode(_annotation_line(entry, entry.seq in redacted)) for entry in annotations)
    body = b"".join(line + b"\n" for line in lines)
    digest = hashlib.sha256(body).hexdigest()
    trailer = {"type": "trailer", "sha256": digest, "key": signer.key_id,
               "sig": signer.sign(digest.encode("ascii"))}
    return (body + encode(trailer) + b"\n").decode("utf-8")


def _annotation_line(entry: Entry, redacted: bool) -> dict[str, Any]:
    line: dict[str, Any] = {"type": "annotation", **entry.to_json()}
    if redacted:
        line["payload"] = {"id": entry.payload.get("id"), "hidden": True}
        line["redacted"] = True
    return line


@dataclass
class Bundle:
    header: dict[str, Any]
    entries: list[Entry]
    annotations: list[Entry]
    trailer: dict[str, Any]
    body_sha256: str
    problems: list[tuple[int, str, int | None]] = field(default_factory=list)
    """Lines that could not be read: (line number, message, seq guessed for it)."""
    annotation_problems: list[tuple[int, str, int]] = field(default_factory=list)
    """Annotation lines that could not be read: (line number, message, annotation seq guessed)."""
    redacted_annotations: set[int] = field(default_factory=set)
    """Positions of annotation events exported without their content (hidden from the reader)."""

    @property
    def keys(self) -> dict[str, str]:
        keys: dict[str, str] = self.header.get("keys", {})
        return keys

    @property
    def components(self) -> dict[str, Any]:
        components: dict[str, Any] = self.header.get("components", {})
        return components

    def trailer_valid(self) -> bool:
        key = self.keys.get(self.trailer.get("key", ""))
        return (key is not None and self.trailer.get("sha256") == self.body_sha256
                and verify_signature(key, self.body_sha256.encode("ascii"), str(self.trailer.get("sig", ""))))


def read_bundle(text: str | bytes, strict: bool = True) -> Bundle:
    """Parse a bundle. With strict=False, unreadable lines are collected in `problems` instead of
    raising, so verification can name the first broken event."""
    raw = text.encode("utf-8") if isinstance(text, str) else text
    if not raw.endswith(b"\n"):
        _fail(strict, "the bundle does not end with a newline (truncated?)")
    lines = raw.split(b"\n")[:-1] if raw.endswith(b"\n") else raw.split(b"\n")
    if len(lines) < 3:
        raise BundleError("a bundle needs a header, at least one event and a trailer")
    body_sha256 = hashlib.sha256(raw[:len(raw) - len(lines[-1]) - 1] if raw.endswith(b"\n")
                                 else b"".join(line + b"\n" for line in lines[:-1])).hexdigest()
    bundle = Bundle({}, [], [], {}, body_sha256)
    last_seq = {"event": 0, "annotation": 0}

    def unreadable(number: int, line: bytes, message: str) -> None:
        """Record a broken record line against the event (or annotation) it most likely held."""
        if bundle.annotations or bundle.annotation_problems or _holds_annotation(line, bundle.header):
            last_seq["annotation"] += 1
            bundle.annotation_problems.append((number, message, last_seq["annotation"]))
        else:
            last_seq["event"] += 1
            bundle.problems.append((number, message, last_seq["event"]))

    for number, line in enumerate(lines, start=1):
        data = _plainly_canonical(line)
        try:
            if data is None:  # the defining path: it also words what is wrong with the line
                data = _read_line(line)
        except RecursionError:
            message = f"line {number} is nested too deeply to be a record line"
            if strict:
                raise BundleError(message) from None
            if number in (1, len(lines)):
                bundle.problems.append((number, message, None))
            else:
                unreadable(number, line, message)
            continue
        except (UnicodeDecodeError, ValueError) as error:
            message = f"line {number} is not valid canonical JSON ({error})"
            if strict:
                raise BundleError(message) from None
            if number == 1 or (number == len(lines) and not line.startswith(b'{"actor":')):
                bundle.problems.append((number, message, None))
            else:  # an event or annotation line (or one merged with the trailer by a lost newline)
                unreadable(number, line, message)
            continue
        kind = data.pop("type", None)
        if number == 1:
            if kind != "header" or data.get("format") != FORMAT:
                raise BundleError("not a Ringside bundle (no header line)")
            if data.get("version") != VERSION:
                raise BundleError(f"unsupported bundle version {data.get('version')!r} (this reads {VERSION})")
            bundle.header = data
        elif kind in ("event", "annotation"):
            try:
                entry = Entry.from_json(data)
            except (KeyError, TypeError) as error:
                if strict:
                    raise BundleError(f"line {number}: missing field {error}") from None
                unreadable(number, line, f"line {number}: missing field {error}")
                continue
            (bundle.entries if kind == "event" else bundle.annotations).append(entry)
            if kind == "annotation" and data.get("redacted") is True:
                bundle.redacted_annotations.add(entry.seq)
            last_seq[kind] = entry.seq
        elif kind == "trailer" and number == len(lines):
            bundle.trailer = data
        else:
            if strict:
                raise BundleError(f"line {number}: unexpected line type {kind!r}")
            if number == len(lines):
                bundle.problems.append((number, f"line {number}: unexpected line type {kind!r}", None))
            else:
                unreadable(number, line, f"line {number}: unexpected line type {kind!r}")
    if not bundle.header:
        raise BundleError("the bundle's header line is unreadable")
    return bundle


def _read_line(line: bytes) -> dict[str, Any]:
    """One line's object, by the definition: it must be canonical JSON, an object, and its own
    canonical encoding (ValueError, with what is wrong, otherwise)."""
    data = json.loads(line.decode("utf-8"))
    if not isinstance(data, dict):
        raise ValueError("not an object")
    if encode(data) != line:
        raise ValueError("not in canonical form")
    return data


def _may_hold_a_float(line: bytes) -> bool:
    """Whether a line orjson writes back as itself may hold a float: orjson writes every float with
    a `.` or an `e`, outside strings. Outside strings a canonical line holds only punctuation, digits,
    `-`, `true`, `false` and `null`; strings are what lies between quotes when no quote is escaped
    (a line with an escaped quote is taken to hold one: it takes the defining path)."""
    return b'\\"' in line or _FLOATLESS.fullmatch(line) is None


_FLOATLESS = re.compile(rb'[^"eEtf.]*+(?:(?:"[^"]*+"|true|false|[tf])[^"eEtf.]*+)*+')
"""A line with no `.`, `e` or `E` outside its strings but in `true` and `false` (when no quote is
escaped, every string is a quote, what is not a quote, and a quote): one pass in C over the line,
where splitting it at its quotes and joining what lies outside them made two copies in Python.
Written as the "unrolled loop" (a run of plain bytes, then a string, `true`, `false` or a lone
`t`/`f` and the next run): the same language as `(?:"[^"]*+"|true|false|[^"eEtf.]++|[tf])*+`,
with one alternation per string instead of one per token, about a sixth less time per line."""


def _plainly_canonical(line: bytes) -> dict[str, Any] | None:
    """The line's object when it is plainly its own canonical encoding, else None (then
    `_read_line` decides, and says why). Why a shortcut: `encode` normalizes every string in Python
    before orjson writes it, which was most of the cost of reading a bundle, and for a line of ASCII
    alone normalizing changes nothing: every string is NFC, and one decoded from a `\\u` escape to
    something else than ASCII would be written back as itself and so differ from the line. What
    remains is what orjson reads or writes differently from the definition: floats (refused by the
    definition, written back by orjson; found by `_may_hold_a_float`), integers beyond 64 bits (read as floats,
    so written back otherwise), lone surrogates, NaN and nesting too deep (refused by orjson's
    reader). In every such case this returns None, so it accepts a line only if `_read_line` does,
    with an equal object."""
    if not line.isascii():
        return None
    try:
        data = orjson.loads(line)
        if type(data) is not dict or orjson.dumps(data, option=orjson.OPT_SORT_KEYS) != line:
            return None
    except (orjson.JSONDecodeError, orjson.JSONEncodeError):
        return None
    if _may_hold_a_float(line):
        return None
    return data


def _holds_annotation(line: bytes, header: dict[str, Any]) -> bool:
    """Whether a damaged record line was an annotation: by its (first) stream, else by its type.
    Canonical JSON puts `stream` before `type`, and a record line starts with its own keys, so
    a line merged with the next one by a lost newline is judged by its first record."""
    match_id = str(header.get("match_id", "")).encode("utf-8")
    start = line.find(b'"stream":"')
    if start >= 0:
        end = line.find(b'"', start + 10)
        stream = line[start + 10:end]
        if stream == match_id:
            return False
        if stream.endswith(b"/annotations"):
            return True
    if line.endswith(b'"type":"event"}'):
        return False
    return line.endswith(b'"type":"annotation"}') or b'"type":"annotation"' in line


def _fail(strict: bool, message: str) -> None:
    if strict:
        raise BundleError(message)
