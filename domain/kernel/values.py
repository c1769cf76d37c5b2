"""`evolve`: `dataclasses.replace` for the frozen dataclasses that game states are, at a fraction
of its cost.

Why: engines treat states as immutable values (contract.py), so every step of a match makes new
states by `replace`, several per event; profiles of verification and time travel put
`dataclasses.replace` first in Circus Train (a third of the fold). The standard function reads
every field by name (`getattr`) and calls the generated `__init__` with all of them as keywords.
`evolve` copies the instance's `__dict__` in one go instead, sets the changed fields and runs
`__post_init__` as `__init__` would, so it gives the same value.

It is exactly `replace` only for a plain dataclass instance whose `__dict__` holds its fields and
nothing else, all of them init fields, with no `InitVar`. Anything else (slots, a cached property
or other attribute kept on the instance, an `init=False` field, an unknown field name) takes
`dataclasses.replace`, which also raises its usual errors.
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

T = TypeVar("T")

_set = object.__setattr__
"""Sets an attribute even of a frozen dataclass (as its generated `__init__` does)."""

_PLAIN: dict[type, tuple[frozenset[str], int, Any] | None] = {}
"""Per class: when `evolve` may copy its instances' `__dict__`, its field names, their count and
its `__post_init__` (or None); else None."""


def _plain_fields(cls: type) -> tuple[frozenset[str], int, Any] | None:
    fields = getattr(cls, dataclasses._FIELDS, None)  # type: ignore[attr-defined]
    plan: tuple[frozenset[str], int, Any] | None = None
    if fields is not None and "__slots__" not in cls.__dict__:
        plain = [f for f in fields.values() if f._field_type is dataclasses._FIELD]  # type: ignore[attr-defined]
        if len(plain) == len(fields) and all(f.init for f in plain):
            plan = (frozenset(f.name for f in plain), len(plain), getattr(cls, "__post_init__", None))
    _PLAIN[cls] = plan
    return plan


def evolve(obj: T, /, **changes: Any) -> T:
    """`dataclasses.replace(obj, **changes)`: the same value, made without rebuilding it field by field."""
    cls = type(obj)
    try:
        plan = _PLAIN[cls]
    except KeyError:
        plan = _plain_fields(cls)
    state = getattr(obj, "__dict__", None)
    if plan is None or state is None or len(state) != plan[1] or not plan[0].issuperset(changes):
        return dataclasses.replace(obj, **changes)  # type: ignore[type-var]
    new = object.__new__(cls)
    values = state.copy()  # a dict's copy, then set as the new one's: cheaper than filling an empty one
    values.update(changes)
    _set(new, "__dict__", values)
    if plan[2] is not None:
        plan[2](new)
    return new
