"""`PackedMap` reads and writes as the dict it stands for, whatever is asked of it while its
restored part is still text (issue 14: a snapshot's settled undo requests and retracted steps)."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from domain.kernel.packed_map import PackedEntries, PackedMap, by_key, copy_map
from domain.kernel.steps import pack, unpack

KEYS = st.integers(0, 12)
OPS = st.lists(st.one_of(
    st.tuples(st.just("set"), KEYS, st.integers(-2**63, 2**63 - 1)),
    st.tuples(st.just("get"), KEYS), st.tuples(st.just("item"), KEYS), st.tuples(st.just("in"), KEYS),
    st.tuples(st.just("del"), KEYS), st.tuples(st.just("pop"), KEYS), st.tuples(st.just("copy")),
    st.tuples(st.just("len")), st.tuples(st.just("items")),
), max_size=40)


def _decode(text: str) -> list[tuple[int, Any]]:
    return [(key, value) for key, value in unpack(text)]


def _packed(pairs: dict[int, int]) -> PackedMap[int, int]:
    return PackedMap({}, PackedEntries(pack(sorted(pairs.items())), _decode), by_key)


def _run(target: Any, op: tuple[Any, ...]) -> Any:
    name, *args = op
    try:
        if name == "set":
            target[args[0]] = args[1]
            return None
        if name == "get":
            return target.get(args[0], "absent")
        if name == "item":
            return target[args[0]]
        if name == "in":
            return args[0] in target
        if name == "del":
            del target[args[0]]
            return None
        if name == "pop":
            return target.pop(args[0], "absent")
        if name == "len":
            return len(target)
        if name == "items":
            return sorted(target.items())
    except KeyError:
        return KeyError
    raise AssertionError(name)


@given(st.dictionaries(KEYS, st.integers(-2**63, 2**63 - 1)), OPS)
def test_a_packed_map_is_the_dict_it_packs(restored: dict[int, int], ops: list[tuple[Any, ...]]) -> None:
    packed: Any = _packed(restored)
    plain: Any = dict(sorted(restored.items()))
    copies: list[tuple[Any, dict[int, int]]] = []
    for op in ops:
        if op[0] == "copy":
            copies.append((copy_map(packed), dict(plain)))  # a copy taken now keeps what it held
            continue
        assert _run(packed, op) == _run(plain, op), op
    assert dict(packed) == plain
    for copy, expected in copies:
        assert dict(copy) == expected


def test_reading_a_key_it_holds_or_writing_leaves_the_text_undecoded() -> None:
    value = _packed({1: 10, 2: 20})
    value[5] = 50
    assert value[5] == 50 and value.get(5) == 50 and 5 in value and value.pop(5) == 50
    assert value.packed  # nothing asked for a key only the text holds
    assert value.get(1) == 10 and not value.packed
    assert dict(value) == {1: 10, 2: 20}


def test_decoded_it_is_in_key_order_the_live_entries_merged() -> None:
    value = _packed({4: 40, 2: 20})
    value[3] = 30
    value[2] = 21
    assert list(value.items()) == [(2, 21), (3, 30), (4, 40)]
    value[1] = 10  # once decoded, a dict: a new key goes last, as in a fold that never was packed
    assert list(value) == [2, 3, 4, 1]


def test_removing_a_key_both_parts_hold_removes_it_for_good() -> None:
    value = _packed({1: 10, 2: 20})
    value[1] = 11  # the live part now overrides the text's entry
    assert value.pop(1) == 11 and value.packed
    assert 1 not in value and dict(value) == {2: 20}
