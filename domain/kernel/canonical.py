"""Canonical JSON: the one byte encoding that every hash and signature in Ringside is taken over.

Sorted keys, no insignificant whitespace, UTF-8, every string in Unicode NFC, and no floats
(a float's text differs between platforms and versions, so a record containing one could not be
re-hashed bit for bit elsewhere).
"""

from __future__ import annotations

import hashlib
import json
import unicodedata
from typing import Any

import orjson

JSON = Any
"""A JSON value built from dict, list, str, int, bool and None."""


class NotCanonicalError(ValueError):
    """The value cannot be encoded canonically (a float, a non-string key, an unknown type, text
    that is not Unicode)."""


def _text(value: str) -> str:
    """A string in NFC; a lone surrogate (JSON's `\\ud800` escape) is refused: it is not a Unicode
    character, so it has no UTF-8 bytes to hash."""
    if value.isascii():  # ASCII is NFC
        return value
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as error:
        raise NotCanonicalError(f"text must be Unicode: a lone surrogate (U+{ord(value[error.start]):04X}) "
                                "is not a character") from None
    return unicodedata.normalize("NFC", value)


def normalize(value: JSON) -> JSON:
    """Return a copy of value with every string in NFC, refusing what JSON cannot carry exactly."""
    if isinstance(value, str):
        return _text(value)
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        raise NotCanonicalError(f"floats are not allowed in the record: {value!r}")
    if isinstance(value, dict):
        out: dict[str, JSON] = {}
        for key, item in value.items():
            if not isinstance(key, str):
                raise NotCanonicalError(f"object keys must be strings, not {key!r}")
            out[_text(key)] = normalize(item)
        return out
    if isinstance(value, (list, tuple)):
        return [normalize(item) for item in value]
    raise NotCanonicalError(f"{type(value).__name__} is not a JSON value")


def encode(value: JSON) -> bytes:
    """The canonical bytes of value.

    The bytes are defined as `json.dumps(sort_keys=True, separators=(",", ":"), ensure_ascii=False)`
    in UTF-8. orjson writes exactly those bytes for every normalized value it accepts, at a twentieth
    of the cost (tests/kernel/test_canonical.py checks this over random values). It runs several
    times per recorded event. What orjson refuses, integers beyond 64 bits, takes the defining path.
    """
    normalized = normalize(value)
    try:
        return orjson.dumps(normalized, option=orjson.OPT_SORT_KEYS)
    except orjson.JSONEncodeError:
        return defining_encode(normalized)


def defining_encode(normalized: JSON) -> bytes:
    """The definition of the canonical bytes of an already normalized value."""
    return json.dumps(normalized, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def digest(value: JSON) -> str:
    """SHA-256 of the canonical encoding, as lowercase hex."""
    return hashlib.sha256(encode(value)).hexdigest()


def encode_parsed(value: JSON) -> bytes:
    """`encode` of a value read from a line that is its own canonical encoding (a bundle line that
    passed its format check). Normalizing such a value changes nothing: a string that is not NFC,
    a float or a non-string key would have made the line differ from its encoding. So orjson alone
    writes the same bytes, without walking the value in Python first; what orjson refuses (integers
    beyond 64 bits) takes `encode`. Never use it on a value from anywhere else."""
    try:
        return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)
    except orjson.JSONEncodeError:
        return encode(value)


def digest_parsed(value: JSON) -> str:
    """`digest` of a value read from a canonical line (see `encode_parsed`)."""
    return hashlib.sha256(encode_parsed(value)).hexdigest()
