"""The orjson-reading transcoder gives exactly what the library's decoder gives, for every stored
state of a real store and for the states orjson cannot read as the standard module does."""

from __future__ import annotations

import sqlite3
import uuid
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from eventsourcing.persistence import DatetimeAsISO, DecimalAsStr, JSONTranscoder, UUIDAsHex

from domain.application import Ringside
from domain.kernel.clock import FixedStepClock
from domain.kernel.integrity import ServerKey
from domain.kernel.viewers import Actor
from domain.store.transcoder import OrjsonReadTranscoder
from tests.kernel.undo_play import undo_heavy_match


def _transcoders() -> tuple[JSONTranscoder, OrjsonReadTranscoder]:
    library, fast = JSONTranscoder(), OrjsonReadTranscoder()
    for transcoder in (library, fast):
        for transcoding in (UUIDAsHex(), DecimalAsStr(), DatetimeAsISO()):
            transcoder.register(transcoding)
    return library, fast


def test_every_stored_state_of_a_match_decodes_as_the_library_decodes_it(tmp_path: Path) -> None:
    """Events of every kind (moves, chance, undo requests and answers, retractions, redos, rulings,
    the secret, the snapshots, an annotation) from a match with take-backs."""
    app = Ringside.open(data_dir=tmp_path, key=ServerKey.from_seed(b"t"), clock=FixedStepClock())
    try:
        match_id = undo_heavy_match(app, "carcassonne", 250, seed=5)
        app.annotate(match_id, 10, "«ruling» \u2028 ok", actor=Actor.arbiter("A"), glyphs=["!?"],
                     visibility="arbiter")
        assert isinstance(app.mapper.transcoder, OrjsonReadTranscoder)
        assert app.verify_match(match_id).ok  # the record read back through it: complete, chained, signed
    finally:
        app.close()
    library, fast = _transcoders()
    with sqlite3.connect(tmp_path / "ringside.sqlite3") as db:
        rows = [row[0] for table in ("stored_events", "stored_snapshots")
                for row in db.execute(f"SELECT state FROM {table}")]
    assert len(rows) > 250
    for row in rows:
        assert fast.decode(row) == library.decode(row)
        assert fast.decode(memoryview(row)) == library.decode(row)  # PostgreSQL's bytea


@pytest.mark.parametrize("value", [
    {"timestamp": {"_type_": "uuid_hex", "_data_": uuid.UUID(int=7).hex}, "entry": {"a": [1, {"b": None}]}},
    {"nested": {"deeper": {"_type_": "decimal_str", "_data_": "1.5"}}},  # a transcoded value below the top
    {"name": "_type_", "x": {"_type_": "uuid_hex", "_data_": uuid.UUID(int=1).hex}},  # the tag as a string value
    {"_type_": "uuid_hex", "_data_": uuid.UUID(int=3).hex},  # the whole state one value
    {"list": [{"_type_": "decimal_str", "_data_": "2"}]},
    {"big": 2**70, "small": -(2**63) - 1},  # beyond orjson's integers
    {"text": "quote \"_type_\" inside", "nul": "\x00", "emoji": "\U0001F3AA"},
    [1, 2, 3],
    "just a string",
])
def test_decoding_matches_the_library(value: Any) -> None:
    library, fast = _transcoders()
    data = library.encode(value)
    assert fast.decode(data) == library.decode(data)


@pytest.mark.parametrize("text", [
    b'{"a":NaN}', b'{"a":Infinity}', b'{"s":"\\ud800"}', b'{"a":1,"a":2}', b'{"a":1.0e400}',
])
def test_what_orjson_refuses_or_reads_otherwise_is_the_library_s(text: bytes) -> None:
    library, fast = _transcoders()
    expected = library.decode(text)
    got = fast.decode(text)
    assert repr(got) == repr(expected)  # NaN != NaN: compare as written


def test_a_decimal_at_the_top_comes_back_a_decimal() -> None:
    library, fast = _transcoders()
    data = library.encode({"amount": Decimal("3.25"), "when": uuid.UUID(int=9)})
    assert fast.decode(data) == {"amount": Decimal("3.25"), "when": uuid.UUID(int=9)}
