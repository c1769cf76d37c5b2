"""Canonical encoding: the bytes every hash and signature is taken over (brief §3)."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.kernel.canonical import NotCanonicalError, digest, encode

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
