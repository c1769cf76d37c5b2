"""Canonical encoding: the bytes every hash and signature is taken over (brief §3)."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.kernel.canonical import NotCanonicalError, defining_encode, digest, encode, normalize

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(), children, max_size=4),
    max_leaves=20,
)


def test_keys_are_sorted_and_whitespace_is_gone() -> None:
    assert encode({"b": 1, "a": [True, None, "x"]}) == b'{"a":[true,null,"x"],"b":1}'


def test_unicode_is_nfc_so_equal_text_hashes_equal() -> None:
    composed = unicodedata.normalize("NFC", "Crăciun")
    decomposed = unicodedata.normalize("NFD", "Crăciun")
    assert composed != decomposed
    assert digest({"name": composed}) == digest({"name": decomposed})
    assert "ă".encode() in encode(decomposed)


@pytest.mark.parametrize("bad", [1.5, {"x": 0.0}, {1: "int key"}, object()])
def test_values_that_cannot_be_reproduced_bit_for_bit_are_refused(bad: object) -> None:
    with pytest.raises(NotCanonicalError):
        encode(bad)


@given(json_values)
def test_encoding_is_a_function_of_the_value(value: object) -> None:
    import json

    assert encode(json.loads(encode(value))) == encode(value)


awkward_text = st.lists(st.characters(codec="utf-8").map(str) | st.sampled_from(
    ["\x00", "\x1f", "\x7f", "\u2028", "\u2029", '"', "\\", "\ufeff", "\uffff", "\U0001f600", "e\u0301"]),
    max_size=8).map("".join)
awkward_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.integers(-(2**70), 2**70) | awkward_text,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(awkward_text, children, max_size=5),
    max_leaves=25,
)


@given(awkward_values)
def test_the_fast_encoder_writes_the_defining_bytes(value: object) -> None:
    """`encode` takes orjson's path for speed; its bytes must be the definition's, byte for byte,
    whatever the text (control characters, line separators, astral planes, decomposed accents),
    the key order or the integers' size (beyond 64 bits it falls back to the definition)."""
    assert encode(value) == defining_encode(normalize(value))


def test_known_bytes_of_the_definition_are_kept() -> None:
    """Pinned bytes: a record hashed by any earlier version must hash the same today."""
    value = {"z": "\x00\x1f\x7f\u2028\"\\", "é": 2**64, "a": [-1, "\U0001f600"], "B": {"e\u0301": None}}
    assert encode(value) == ('{"B":{"\u00e9":null},"a":[-1,"\U0001f600"],"z":"\\u0000\\u001f\x7f\u2028\\"\\\\",'
                             '"\u00e9":18446744073709551616}').encode("utf-8")


@pytest.mark.parametrize("bad", ["\ud800", "ok\udfff", {"\ud800": 1}, {"a": ["\udc00"]}, {"k": {"\udbff": None}}])
def test_a_lone_surrogate_is_not_text_and_is_refused(bad: object) -> None:
    """JSON lets `\\ud800` through as an escape; it has no UTF-8 bytes, so it cannot be hashed."""
    with pytest.raises(NotCanonicalError, match="surrogate"):
        normalize(bad)
    with pytest.raises(NotCanonicalError):
        encode(bad)
    assert encode("\U0001f600") == b'"' + "\U0001f600".encode() + b'"'  # a proper pair is one character
