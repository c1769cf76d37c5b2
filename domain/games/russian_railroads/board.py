"""What a player board and the supply allow, read from a state: the industry lane under the options,
legal track advancements, locomotive placements, factory sources and special-space conditions.

These are the questions every handler, the scoring and the bots ask; they read and never change a
state, so they sit apart from the handlers that do (effects.py, actions.py).
"""

from __future__ import annotations

from .components import IndustrySpace, Railway, RussianRailroadsComponents, SpecialSpace
from .state import Player, State

# ---- the industry track ---------------------------------------------------------------------


_LANES: dict[tuple[int, str], tuple[RussianRailroadsComponents, tuple[IndustrySpace, ...]]] = {}


def _lane(components: RussianRailroadsComponents, first_gap: str) -> tuple[IndustrySpace, ...]:
    """The lane, computed once per component set and reading (sets are immutable, not hashable)."""
    cached = _LANES.get((id(components), first_gap))
    if cached is not None and cached[0] is components:
        return cached[1]
    lane = list(components.industry)
    if first_gap == "after_start_and_three":
        # AMB-13 (a): the first gap follows spaces 0-3, one place earlier than the printed lane.
        gap = next(i for i, place in enumerate(lane) if place.kind == "gap")
        if gap >= 2:
            lane[gap - 1], lane[gap] = lane[gap], lane[gap - 1]
    if len(_LANES) > 64:
        _LANES.clear()
    _LANES[(id(components), first_gap)] = (components, tuple(lane))
    return tuple(lane)


def lane(state: State) -> tuple[IndustrySpace, ...]:
    """The industry track as this match reads it (RR-9.2, AMB-13)."""
    return _lane(state.components, state.options.industry_first_gap)


def gap_number(lane_: tuple[IndustrySpace, ...], index: int) -> int | None:
    """Which factory space (0-based, left to right) the gap at `index` is, if it is one (RR-8.8)."""
    if lane_[index].kind != "gap":
        return None
    return sum(1 for place in lane_[:index] if place.kind == "gap")


def marker_can_move(state: State, player: Player, marker: int) -> bool:
    """RR-9.3, RR-9.5, RR-9.7: the next place exists, is not an empty gap, and is not the other
    marker's."""
    lane_ = lane(state)
    target = player.markers[marker] + 1
    if target >= len(lane_):
        return False
    gap = gap_number(lane_, target)
    if gap is not None and player.factories[gap] is None:
        return False
    return target not in player.markers


def space_vp(lane_: tuple[IndustrySpace, ...], index: int) -> int:
    """RR-14.9: the VP of a place, or of the nearest earlier place that shows one."""
    for place in reversed(lane_[: index + 1]):
        if place.kind == "space" and place.vp is not None:
            return place.vp
    return 0


# ---- tracks ---------------------------------------------------------------------------------


def preceding(components: RussianRailroadsComponents, colour: str) -> str | None:
    """RR-0.2: the colour before `colour` in the fixed order (none for black)."""
    order = [c.id for c in components.colours]
    index = order.index(colour)
    return order[index - 1] if index else None


def can_advance(state: State, player: Player, railway: Railway, colour: str) -> str | None:
    """None when this seat's `colour` track on `railway` may move one space; otherwise the rule that
    forbids it (RR-6.4, RR-6.6)."""
    position = player.position(railway.id, colour)
    if position is None:
        return "RR-6.6"
    target = position + 1
    if target > railway.spaces:
        return "RR-6.4"
    if any(pos == target for pos in player.tracks.get(railway.id, {}).values()):
        return "RR-6.4"
    before = preceding(state.components, colour)
    if before is not None:
        ahead = player.position(railway.id, before)
        if ahead is None or target >= ahead:
            return "RR-6.4"
    return None


def advance_targets(state: State, player: Player, colour: str) -> list[tuple[str, str]]:
    """Every (railway, colour) one advancement of `colour` ("any" and "black_or_grey" included) may
    move, in railway then colour order."""
    if colour == "any":
        colours = [c.id for c in state.components.colours]
    elif colour == "black_or_grey":
        colours = ["black", "grey"]
    else:
        colours = [colour]
    return [(railway.id, c) for railway in state.components.railways for c in colours
            if c in railway.colours and can_advance(state, player, railway, c) is None]


# ---- locomotives and factories ----------------------------------------------------------------


def lowest_stack(state: State) -> int | None:
    """RR-7.2: the value of the lowest non-empty locomotive stack (None when all are used up, AMB-30)."""
    values = sorted(int(value) for value, count in state.stacks.items() if count > 0)
    return values[0] if values else None


def locomotive_slots(state: State, player: Player, value: int, exclude: str | None = None) -> list[tuple[str, int]]:
    """RR-7.4: every (railway, slot) where a locomotive of `value` may go, the railway it was just
    displaced from excepted (RR-7.6): an empty slot, or one holding a strictly lower value."""
    slots: list[tuple[str, int]] = []
    for railway in state.components.railways:
        if railway.id == exclude:
            continue
        held = player.locomotives.get(railway.id, ())
        for slot in range(railway.locomotive_slots):
            if slot >= len(held) or held[slot] < value:
                slots.append((railway.id, slot))
    return slots


def factory_sources(state: State) -> list[tuple[bool, int]]:
    """RR-8.3: (from_pool, value) for the lowest stack and each distinct value in the face-up pool."""
    sources: list[tuple[bool, int]] = []
    lowest = lowest_stack(state)
    if lowest is not None and has_factory_side(state, lowest):
        sources.append((False, lowest))
    sources.extend((True, value) for value in sorted(set(state.pool)))
    return sources


def has_factory_side(state: State, value: int) -> bool:
    """Every supply locomotive has a factory back (RR-1.2). The one on card C4 has none, but it is
    the highest value and so can never be displaced into the pool."""
    return any(f.locomotive == value for f in state.components.factories)


# ---- special spaces ---------------------------------------------------------------------------


def special_met(player: Player, railway: Railway, special: SpecialSpace) -> bool:
    """RR-13.1: the stated track reaches the space, and so do the railway's locomotives if needed."""
    position = player.position(railway.id, special.track)
    if position is None or position < special.space:
        return False
    return not special.locomotive or player.reach(railway.id) >= special.space


def key(railway: Railway, special: SpecialSpace) -> str:
    return f"{railway.id}:{special.space}"


def terminus_key(railway: Railway) -> str:
    return f"{railway.id}:terminus"


def multiplier_room(state: State, player: Player) -> int:
    """How many more multipliers this seat can place (RR-10.2, RR-10.3, AMB-34)."""
    room = len(state.components.constants.multiplier_spaces) - player.multipliers
    if state.options.multiplier_limit:
        room = min(room, state.multipliers_left)
    return max(room, 0)


def doubled_spaces(state: State, player: Player) -> frozenset[int]:
    """The Trans-Siberian spaces under this seat's multipliers (RR-10.4, DATA-7)."""
    return frozenset(state.components.constants.multiplier_spaces[: player.multipliers])
