"""`evolve` is `dataclasses.replace`: the same value, the same errors, and `__post_init__` run."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from functools import cached_property

import pytest

from domain.kernel.values import evolve


@dataclass(frozen=True)
class Plain:
    a: int
    b: tuple[int, ...] = ()
    c: dict[str, int] = field(default_factory=dict, compare=False)


@dataclass(frozen=True)
class Checked:
    items: tuple[int, ...]
    seen: list[str] = field(default_factory=list, compare=False)

    def __post_init__(self) -> None:
        self.seen.append("post_init")
        object.__setattr__(self, "items", tuple(sorted(self.items)))


@dataclass(frozen=True)
class Derived:
    a: int
    b: int = field(init=False, default=0)


@dataclass(frozen=True, slots=True)
class Slotted:
    a: int
    b: int = 1


@dataclass(frozen=True)
class Cached:
    a: int

    @cached_property
    def double(self) -> int:
        return self.a * 2


def test_a_changed_copy_equals_replace() -> None:
    value = Plain(1, (2, 3), {"x": 1})
    assert evolve(value, a=5) == dataclasses.replace(value, a=5) == Plain(5, (2, 3))
    assert evolve(value, a=5).c is value.c  # fields are shared, as replace shares them
    assert evolve(value) == value and evolve(value) is not value
    with pytest.raises(dataclasses.FrozenInstanceError):
        evolve(value, a=2).a = 3  # type: ignore[misc]


def test_post_init_runs_on_the_copy() -> None:
    value = Checked((3, 1))
    changed = evolve(value, items=(9, 2, 5))
    assert changed.items == (2, 5, 9) == dataclasses.replace(value, items=(9, 2, 5)).items
    assert value.items == (1, 3)


def test_what_replace_refuses_evolve_refuses() -> None:
    with pytest.raises(TypeError):
        evolve(Plain(1), d=2)
    with pytest.raises(ValueError):
        evolve(Derived(1), b=2)


def test_what_it_cannot_copy_by_dict_goes_through_replace() -> None:
    assert evolve(Slotted(1), b=4) == Slotted(1, 4)
    assert evolve(Derived(1), a=3) == Derived(3)
    cached = Cached(2)
    assert cached.double == 4  # kept on the instance: a copy of its __dict__ would carry it over
    assert evolve(cached, a=5).double == 10
