"""`PackedMap`: a map restored from a snapshot whose settled part stays JSON text until read.

Why: a fold keeps maps that grow with the match and above all with its take-backs (every undo
request, every step ever retracted, every hidden draw). Restoring a snapshot decoded all of them,
so the fixed cost of a cold time-travel read grew with the undos before the position (issue 14:
0.25 ms at event 100 of a match full of take-backs, 0.43 ms at event 600), while folding on from
the snapshot reads almost none of them: a move touches only the requests still open, a
retraction only the steps it takes back. So the snapshot packs the settled entries as one text,
the restored fold holds it as `PackedMap`, and the text is decoded, once and shared by every copy
of the fold (the values are immutable, as the fold's other values are), the first time something
asks for a key it does not hold or walks the whole map.

Writes go to the map's own (live) part without decoding, and so does removing a key the live part
holds (the packed one then forgets it too, when decoded); when the text is decoded the live
entries win, and the whole is put in `order` (the order a fold of the events inserts them in,
which is what restoring always gave).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, MutableMapping
from typing import Any, Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class PackedEntries(Generic[K, V]):
    """The packed part: the text, how to decode it into (key, value) pairs, and the pairs once decoded."""

    __slots__ = ("_decode", "_pairs", "text")

    def __init__(self, text: str, decode: Callable[[str], list[tuple[K, V]]]) -> None:
        self.text = text
        self._decode = decode
        self._pairs: list[tuple[K, V]] | None = None

    def pairs(self) -> list[tuple[K, V]]:
        if self._pairs is None:
            self._pairs = self._decode(self.text)
        return self._pairs


class PackedMap(MutableMapping[K, V]):
    """A dict whose restored part (`PackedEntries`) is decoded only when read (see the module)."""

    __slots__ = ("_dropped", "_live", "_order", "_packed")

    def __init__(self, live: dict[K, V], packed: PackedEntries[K, V] | None,
                 order: Callable[[tuple[K, V]], Any], dropped: frozenset[K] = frozenset()) -> None:
        self._live = live
        self._packed = packed
        self._order = order
        self._dropped = dropped
        """Keys removed while packed: the packed part's entries for them are left out when decoded."""

    @property
    def packed(self) -> bool:
        """Whether part of it is still text (nothing has read it whole yet)."""
        return self._packed is not None

    def _whole(self) -> dict[K, V]:
        packed = self._packed
        if packed is not None:
            dropped = self._dropped
            merged = {key: value for key, value in packed.pairs() if key not in dropped}
            merged.update(self._live)
            self._live = dict(sorted(merged.items(), key=self._order))
            self._packed = None
        return self._live

    def __getitem__(self, key: K) -> V:
        live = self._live
        if key in live or self._packed is None:
            return live[key]
        return self._whole()[key]

    def get(self, key: K, default: Any = None) -> Any:
        live = self._live
        if key in live:
            return live[key]
        if self._packed is None:
            return default
        return self._whole().get(key, default)

    def __contains__(self, key: object) -> bool:
        return key in self._live or (self._packed is not None and key in self._whole())

    def __setitem__(self, key: K, value: V) -> None:
        self._live[key] = value

    def __delitem__(self, key: K) -> None:
        if self._packed is not None and key in self._live:
            del self._live[key]
            self._dropped = self._dropped | {key}
        else:
            del self._whole()[key]

    def pop(self, key: K, *default: Any) -> Any:
        if self._packed is not None and key in self._live:
            value = self._live[key]
            del self[key]
            return value
        return self._whole().pop(key, *default)

    def __iter__(self) -> Iterator[K]:
        return iter(self._whole())

    def __len__(self) -> int:
        return len(self._whole())

    def __repr__(self) -> str:
        return f"PackedMap({self._whole()!r})"

    def copy(self) -> PackedMap[K, V]:
        """A copy sharing the packed text (and its pairs, once decoded) and copying the live part."""
        return PackedMap(dict(self._live), self._packed, self._order, self._dropped)


def copy_map(value: MutableMapping[K, V]) -> MutableMapping[K, V]:
    """A copy of a plain dict or a `PackedMap` (which stays packed)."""
    return value.copy() if isinstance(value, PackedMap) else dict(value)


def by_key(pair: tuple[Any, Any]) -> Any:
    """The order of integer-keyed maps: by key (a seq)."""
    return pair[0]
