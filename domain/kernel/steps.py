"""The fold's effective steps, and the game states it keeps along them.

Why a module: a retraction removes a tail of the steps and a redo puts it back, so the fold needs
the state some steps back, and a snapshot must restore the steps without paying for every one of
them. Both are about the same sequence, chunked in `CHUNK` steps:

- `StepLog` holds the steps in chunks; a chunk restored from a snapshot stays the JSON text it was
  stored as until something reads it (a retraction reaches into it, an undo check scans it), so
  restoring a match costs the same at step 50 as at step 5,000.
- `checkpoints_dropped` says which game states the fold keeps (states are
  immutable values, so a checkpoint is a reference): the state after each of the last `RECENT`
  steps (a take-back of recent moves, the common one, then costs no replay at all), one every
  `FINE` steps over the last `FINE * FINES`, one every `CHUNK` steps over the last `DENSE` chunks,
  and one every `SPARSE` steps further back. A retraction rebuilds from the nearest kept state at
  or before its cut, never from setup; memory stays a few dozen states plus one per `SPARSE` steps.
  A snapshot carries the same ones but the recent (`snapshot_checkpoints`).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, overload

import orjson

from .canonical import JSON

RECENT = 24
"""How many steps back the fold keeps the state after every step."""
FINE = 4
"""The spacing of the checkpoints kept over the last `FINE * FINES` steps, past the recent ones."""
FINES = 8
CHUNK = 16
"""Steps per chunk of the log, and the spacing of the dense checkpoints."""
DENSE = 8
"""How many dense checkpoints (one per chunk) the fold keeps behind its last step."""
SPARSE = 256
"""The spacing of the checkpoints kept further back (a multiple of CHUNK)."""


@dataclass
class GameStep:
    """One effective input to the rules engine: a move, a forced move (ruling) or a chance outcome."""

    seq: int
    kind: str  # "move", "forced" or "chance"
    seat: int | None
    data: JSON
    secret: bool = False
    barrier: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"seq": self.seq, "kind": self.kind, "seat": self.seat, "data": self.data,
                "secret": self.secret, "barrier": self.barrier}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameStep:
        return cls(data["seq"], data["kind"], data["seat"], data["data"], data["secret"], data["barrier"])


def pack(value: JSON) -> str:
    """JSON text with sorted keys: one string in a snapshot, so that storing, sealing and loading it
    cost a scan of the text rather than a Python object per value."""
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS).decode("utf-8")


def unpack(text: str) -> Any:
    return orjson.loads(text)


def checkpoints_dropped(count: int) -> tuple[int, ...]:
    """The checkpoints that fall out of the recent, the fine and the dense ranges once the state
    after `count` steps is kept."""
    recent, fine, dense = count - RECENT, count - FINE * FINES, count - CHUNK * DENSE
    return (*((recent,) if recent > 0 and recent % FINE else ()),
            *((fine,) if fine > 0 and fine % CHUNK else ()),
            *((dense,) if dense > 0 and dense % SPARSE else ()))


def snapshot_checkpoints(count: int) -> list[int]:
    """The step counts whose states a snapshot at `count` steps carries, before its last step: the
    fine ones (one every `FINE` steps over the last `FINE * FINES`), the dense ones (one per chunk
    over the last `DENSE` chunks) and the sparse one below them, as a live fold keeps them (not the
    recent ones: each is a game state's text to store, seal and load). Why: take-backs reach deep
    (a consented undo of a whole round, several in a row: in a Drum Roll match a hundred events
    hold about ten steps), and a retraction after a restore replays from the nearest of these: with
    only the last two chunks' a retraction a few chunks back replayed the match from setup, the cost
    that grew with the take-backs before the position, and with chunks alone it replayed up to 15
    steps. A deeper one (an arbiter's correction) replays from the sparse checkpoint, or from setup.
    The states are packed text, decoded only if used."""
    if count <= 0:
        return []
    last = (count - 1) // CHUNK * CHUNK
    dense = [c for c in range(last - CHUNK * (DENSE - 1), last + 1, CHUNK) if c > max(0, count - CHUNK * DENSE)]
    fine = [c for c in range((count - 1) // FINE * FINE, count - FINE * FINES, -FINE) if c > 0]
    sparse = (dense[0] - 1) // SPARSE * SPARSE if dense else 0
    return sorted({*dense, *fine, *([sparse] if sparse > 0 else [])})


class StepLog(Sequence[GameStep]):
    """The effective steps in seq order, in chunks of `CHUNK` (each a list, or the JSON text of one
    restored from a snapshot, decoded when read). Copies share every full chunk: only the last one
    is ever appended to, and it is copied with the log."""

    __slots__ = ("_chunks", "_count", "_firsts")

    def __init__(self, steps: Iterable[GameStep] = ()) -> None:
        self._chunks: list[list[GameStep] | str] = []
        self._firsts: list[int] = []
        """The seq of each chunk's first step (to find a seq without decoding chunks)."""
        self._count = 0
        for step in steps:
            self.append(step)

    # ---- reading --------------------------------------------------------------------
    def __len__(self) -> int:
        return self._count

    @overload
    def __getitem__(self, index: int) -> GameStep: ...

    @overload
    def __getitem__(self, index: slice) -> list[GameStep]: ...

    def __getitem__(self, index: int | slice) -> GameStep | list[GameStep]:
        if isinstance(index, slice):
            start, stop, stride = index.indices(self._count)
            if stride != 1:
                return list(self)[index]
            return self.between(start, stop)
        if index < 0:
            index += self._count
        if not 0 <= index < self._count:
            raise IndexError("step index out of range")
        chunk, offset = divmod(index, CHUNK)
        return self._chunk(chunk)[offset]

    def __iter__(self) -> Iterator[GameStep]:
        for number in range(len(self._chunks)):
            yield from self._chunk(number)

    def __reversed__(self) -> Iterator[GameStep]:
        for number in range(len(self._chunks) - 1, -1, -1):
            yield from reversed(self._chunk(number))

    def between(self, start: int, stop: int) -> list[GameStep]:
        """The steps at indexes start..stop-1, decoding only the chunks they lie in."""
        out: list[GameStep] = []
        if start >= stop:
            return out
        for number in range(start // CHUNK, (stop - 1) // CHUNK + 1):
            base = number * CHUNK
            out.extend(self._chunk(number)[max(start - base, 0):stop - base])
        return out

    def index_of(self, seq: int) -> int:
        """The index of the first step at or after `seq` (len(self) when there is none)."""
        number = bisect_right(self._firsts, seq) - 1
        if number < 0:
            return 0
        for offset, step in enumerate(self._chunk(number)):
            if step.seq >= seq:
                return number * CHUNK + offset
        return min((number + 1) * CHUNK, self._count)

    def _chunk(self, number: int) -> list[GameStep]:
        chunk = self._chunks[number]
        if isinstance(chunk, str):
            chunk = [GameStep.from_json(data) for data in unpack(chunk)]
            self._chunks[number] = chunk
        return chunk

    # ---- changing -------------------------------------------------------------------
    def append(self, step: GameStep) -> None:
        if self._count % CHUNK == 0:
            self._chunks.append([step])
            self._firsts.append(step.seq)
        else:
            self._chunk(len(self._chunks) - 1).append(step)
        self._count += 1

    def truncate(self, count: int) -> None:
        """Keep the first `count` steps."""
        if count >= self._count:
            return
        full, rest = divmod(count, CHUNK)
        chunks: list[list[GameStep] | str] = self._chunks[:full]
        if rest:
            chunks.append(list(self._chunk(full)[:rest]))
        self._chunks, self._firsts, self._count = chunks, self._firsts[:len(chunks)], count

    def copy(self) -> StepLog:
        clone = StepLog.__new__(StepLog)
        clone._chunks = list(self._chunks)
        if clone._chunks and isinstance(clone._chunks[-1], list):
            clone._chunks[-1] = list(clone._chunks[-1])
        clone._firsts = list(self._firsts)
        clone._count = self._count
        return clone

    # ---- snapshots ------------------------------------------------------------------
    def packed(self) -> list[str]:
        """Each chunk as JSON text (a restored chunk as it was stored: the same text)."""
        return [chunk if isinstance(chunk, str) else pack([step.to_json() for step in chunk])
                for chunk in self._chunks]

    @classmethod
    def from_packed(cls, chunks: list[str], firsts: list[int], count: int) -> StepLog:
        log = cls.__new__(cls)
        log._chunks = list(chunks)
        log._firsts = list(firsts)
        log._count = count
        chunked = (len(chunks) - 1) * CHUNK < count <= len(chunks) * CHUNK if chunks else count == 0
        if len(chunks) != len(firsts) or not chunked:
            raise ValueError("a snapshot's steps do not add up")
        return log

    def firsts(self) -> list[int]:
        return list(self._firsts)
