"""The library's JSON transcoder, reading stored events with orjson.

Why: time travel and every cold read rebuild a match from its nearest snapshot and up to 99 stored
events, and eventsourcing's `JSONTranscoder` decodes each with the standard `json` module and an
`object_hook` called for every object in it (profiles of Russian Railroads' and Drum Roll's time
travel: a sixth of a cold read). Ringside's stored events hold their transcoded values (the
event's `timestamp`) at the top level only; their entries are plain JSON. So `decode` parses with
orjson, converts the top-level `{"_type_", "_data_"}` objects with the library's own transcodings,
and checks by counting that there is no other. It also checks that the value it read writes back
as the very bytes stored (orjson writes as the library's encoder does: compact, keys in order,
text unescaped), which an integer beyond 64 bits (read by orjson as a float) or a repeated key
would not. Any stored state with a transcoded value deeper down, or that fails either check or
orjson refuses (NaN, lone surrogates), is decoded by the library's decoder, as before. Both checks
cost less than the standard module's decoding they replace. The stored bytes are unchanged:
encoding stays the library's, so a store written with either reads with either.
"""

from __future__ import annotations

from typing import Any

import orjson
from eventsourcing.persistence import JSONTranscoder

_MARK = b'"_type_"'
"""How a transcoded value's tag appears in the stored JSON text (a string holding the quoted
word is escaped, so it never matches)."""


class OrjsonReadTranscoder(JSONTranscoder):
    """`JSONTranscoder` with the same output, decoding with orjson when that gives the same value."""

    def decode(self, data: bytes | memoryview) -> Any:
        if type(data) is not bytes:  # PostgreSQL hands bytea back as a memoryview
            data = bytes(data)
        try:
            value = orjson.loads(data)
        except orjson.JSONDecodeError:
            return super().decode(data)
        if orjson.dumps(value) != data:  # read otherwise than written (an integer beyond 64 bits
            return super().decode(data)  # comes back a float), or written otherwise than orjson writes
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
