"""The library's JSON transcoder, reading stored events with orjson.

Why: time travel and every cold read rebuild a match from its nearest snapshot and up to 99 stored
events, and eventsourcing's `JSONTranscoder` decodes each with the standard `json` module and an
`object_hook` called for every object in it (profiles of Russian Railroads' and Drum Roll's time
travel: a sixth of a cold read). Ringside's stored events hold their transcoded values (the
event's `timestamp`) at the top level only; their entries are plain JSON. So `decode` parses with
orjson, converts the top-level `{"_type_", "_data_"}` objects with the library's own transcodings,
and checks by counting that there is no other: any stored state with a transcoded value deeper
down, or that orjson may not read as the standard module does (NaN, lone surrogates, any run of
19 digits, which may be an integer beyond 64 bits that orjson reads as a float), is decoded by the
library's decoder, as before. The stored bytes are unchanged: encoding stays the library's, so a
store written with either reads with either.
"""

from __future__ import annotations

import re
from typing import Any

import orjson
from eventsourcing.persistence import JSONTranscoder

_LONG_NUMBER = re.compile(rb"[0-9]{19}")
"""Nineteen digits in a row: maybe an integer beyond 64 bits, which orjson reads as a float (the
library as an int). Rare in Ringside's JSON (hashes are hex, mixing letters in); such a state takes
the library's decoder."""

_MARK = b'"_type_"'
"""How a transcoded value's tag appears in the stored JSON text (a string holding the quoted
word is escaped, so it never matches)."""


class OrjsonReadTranscoder(JSONTranscoder):
    """`JSONTranscoder` with the same output, decoding with orjson when that gives the same value."""

    def decode(self, data: bytes | memoryview) -> Any:
        if type(data) is not bytes:  # PostgreSQL hands bytea back as a memoryview
            data = bytes(data)
        if _LONG_NUMBER.search(data):
            return super().decode(data)
        try:
            value = orjson.loads(data)
        except orjson.JSONDecodeError:
            return super().decode(data)
        tags = data.count(_MARK)
        if not tags:
            return value
        if type(value) is dict:
            for key, item in value.items():
                if type(item) is dict and len(item) == 2 and "_type_" in item and "_data_" in item:
                    value[key] = self._decode_obj(item)
                    tags -= 1
            if not tags:
                return value
        return super().decode(data)  # a transcoded value below the top (or the tag in a key): the library's walk
