"""Canonical JSON as the spec states it (docs/bundle-format.md, "Canonical JSON"): the standalone
definition and Ringside's encoder give the same bytes, and where the profile departs from RFC 8785
(key order) the departure is real and tested."""

from __future__ import annotations

import json
import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.kernel import canonical as ringside
from tools import ringside_verify as standalone

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(), children, max_size=4),
    max_leaves=20,
)


@given(json_values)
def test_the_standalone_definition_gives_ringsides_bytes(value: object) -> None:
    try:
        expected = ringside.encode(value)
    except (ringside.NotCanonicalError, UnicodeEncodeError):
        with pytest.raises(standalone.NotCanonical):
            standalone.canonical(value)
        return
    try:
        actual = standalone.canonical(value)
    except standalone.NotCanonical as error:  # keys equal after NFC: Ringside keeps the last, the spec refuses
        assert "equal after NFC" in str(error)
        return
    assert actual == expected


def utf16_order(keys: list[str]) -> list[str]:
    """RFC 8785 §3.2.3: keys sorted by their UTF-16 code units."""
    return sorted(keys, key=lambda key: key.encode("utf-16-be"))


def test_keys_sort_by_code_point_not_by_utf16_as_rfc8785_would() -> None:
    value = {"\uff61": 1, "\U0001f600": 2, "a": 3}
    expected = '{"a":3,"\uff61":1,"\U0001f600":2}'.encode()
    assert ringside.encode(value) == expected == standalone.canonical(value)
    # RFC 8785 would put U+1F600 (surrogates D83D DE00) before U+FF61: the one place they differ
    assert utf16_order(list(value)) == ["a", "\U0001f600", "\uff61"]
    assert sorted(value) == ["a", "\uff61", "\U0001f600"]


def test_keys_in_the_basic_plane_sort_the_same_both_ways() -> None:
    keys = ["b", "a", "é", "z", "\u2028", "\ue000", "A", "_", "1"]
    assert utf16_order(keys) == sorted(keys)


@pytest.mark.parametrize(("text", "written"), [
    ("\x00", b'"\\u0000"'), ("\x08", b'"\\b"'), ("\t", b'"\\t"'), ("\n", b'"\\n"'), ("\x0b", b'"\\u000b"'),
    ("\x0c", b'"\\f"'), ("\r", b'"\\r"'), ("\x1f", b'"\\u001f"'), ('"', b'"\\""'), ("\\", b'"\\\\"'),
    ("/", b'"/"'), ("\x7f", b'"\x7f"'), ("\u2028", '"\u2028"'.encode()), ("\u2029", '"\u2029"'.encode()),
    ("é", '"é"'.encode()), ("\U0001f600", '"\U0001f600"'.encode()),
])
def test_strings_are_escaped_as_rfc8785_escapes_them(text: str, written: bytes) -> None:
    assert ringside.encode(text) == written == standalone.canonical(text)


def test_strings_are_nfc() -> None:
    decomposed = unicodedata.normalize("NFD", "Crăciun")
    assert standalone.canonical(decomposed) == ringside.encode(decomposed) == '"Crăciun"'.encode()
    line = json.dumps({"name": decomposed}, ensure_ascii=False, separators=(",", ":")).encode()
    with pytest.raises(standalone.NotCanonical):
        standalone.parse_canonical_line(line)


@pytest.mark.parametrize("line", [
    b'{"a":1.0}', b'{"a":1e3}', b'{"a":-0}', b'{"a":NaN}', b'{"a":1,"a":1}', b'{"b":1,"a":2}', b'{"a": 1}',
    b'{"a":"\\u00e9"}', b'{"a":"\\/"}', b'{"a":"\\ud800"}', b'["not an object"]', b'{"a":1} ', b'\xff',
    b'{"a":01}',
])
def test_lines_that_are_not_canonical_are_refused(line: bytes) -> None:
    with pytest.raises(standalone.NotCanonical):
        standalone.parse_canonical_line(line)


def test_big_integers_are_exact() -> None:
    value = {"n": 2**64 + 1, "m": -(2**53)}
    assert standalone.canonical(value) == ringside.encode(value) == b'{"m":-9007199254740992,"n":18446744073709551617}'
    assert standalone.parse_canonical_line(standalone.canonical(value)) == value


def test_floats_are_refused_by_both() -> None:
    with pytest.raises(standalone.NotCanonical):
        standalone.canonical({"x": 0.5})
    with pytest.raises(ringside.NotCanonicalError):
        ringside.encode({"x": 0.5})
