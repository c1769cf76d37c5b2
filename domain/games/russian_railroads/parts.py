"""The handlers of an action's parts and of what they trigger: track advancements and the special
spaces they reach, industry advancements and factories, multipliers, locomotives and their chain
reactions, factories, bonus tokens, face-up cards, final bonus cards, repeats, and the effects with
nothing to decide.

Each decision has a `legal` list, a `validate` that names the rule a move breaks, and an `apply`
that gets the state with its step already taken off the agenda (the kernel's convention,
docs/agenda.md). A part marked `p` (partial, AMB-14) that cannot be done is skipped; an unmarked
one that cannot be done fails the all-or-nothing action it is part of (RR-5.5).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from domain.kernel.agenda import WHOLE, Step, all_or_nothing, parts_of, push
from domain.kernel.contract import ScoreLine
from domain.kernel.errors import IllegalMoveError
from domain.kernel.values import evolve

from . import board
from . import moves as mv
from .effects import again_steps, ordered_parts, part_label, steps_for
from .state import State

PARTS = frozenset({"advance", "industry", "multiplier", "take", "repeat", "token", "face_up"})
"""The step kinds that are parts of an action the player may order (RR-5.7)."""

# ---- shared ---------------------------------------------------------------------------------


def in_whole(state: State) -> bool:
    return any(step.kind == WHOLE for step in state.agenda)


def skip_or_fail(state: State, step: Step, rule: str, reason: str) -> State:
    """A part that cannot be done: skipped when it may be done in part (AMB-14) or stands outside any
    all-or-nothing action, else the action it belongs to cannot be performed in full (RR-5.5)."""
    if step.get("p") or not in_whole(state):
        return state
    raise IllegalMoveError(rule, reason)


def seat_of(step: Step) -> int:
    seat = step.seat
    assert seat is not None
    return seat


def made_if_forced(legal: Callable[[State, int, Step], list[Any]], apply: Callable[[State, int, Step, Any], State],
                   rule: str, reason: str) -> Callable[[State, Step], State]:
    """What a decision with nothing to choose resolves to: its one legal move made, or, with none,
    the part skipped or the action failed (`skip_or_fail`)."""

    def otherwise(state: State, step: Step) -> State:
        seat = seat_of(step)
        moves = legal(state, seat, step)
        if len(moves) == 1:
            return apply(state, seat, step, moves[0])
        return skip_or_fail(state, step, rule, reason)

    return otherwise


def vp_line(state: State, seat: int, points: int, rule: str, detail: str, **refs: Any) -> State:
    if points <= 0:
        return state
    return state.with_line(ScoreLine(seat, points, "immediate", rule, detail, {"round": state.round, **refs}))


def trigger(state: State, seat: int, steps: Sequence[Step]) -> State:
    """Resolve benefits triggered part-way through an action (AMB-35): at once (a, the default), or,
    with `benefits: "any_time"`, as further parts of the seat's action in progress, to be picked
    whenever the player likes before the action ends (b). Gains with nothing to decide run at once
    either way."""
    if not steps:
        return state
    if state.options.benefits != "any_time":
        return push(state, *steps)
    gains = [s for s in steps if s.kind == "gain"]
    extra: list[Step] = []
    for s in steps:
        if s.kind == "action":
            extra.extend(parts_of(s))
        elif s.kind != "gain":
            extra.append(s)
    for index, pending in enumerate(state.agenda):
        if pending.kind == "action" and pending.seat == seat:
            changed = pending.but(parts=(*parts_of(pending), *extra))
            agenda = (*state.agenda[:index], changed, *state.agenda[index + 1 :])
            return push(state.with_agenda(agenda), *gains)
        if pending.kind not in PARTS or pending.seat != seat:
            break
    # The parts still to do are alike (three black advancements) or none are left: the benefit and
    # those parts become the action's remaining parts, in whatever order the player picks.
    count = 0
    while count < len(state.agenda) and state.agenda[count].kind in PARTS and state.agenda[count].seat == seat:
        count += 1
    rest = [*state.agenda[:count], *extra]
    return push(state.with_agenda(state.agenda[count:]), *gains, *ordered_parts(seat, rest))


def refuse_unless_listed(move: Any, legal: Sequence[Any], rule: str, reason: str) -> None:
    if move not in legal:
        raise IllegalMoveError(rule, reason)


# ---- track advancements (RR-6) -----------------------------------------------------------------


def advance_legal(state: State, seat: int, step: Step) -> list[Any]:
    player = state.players[seat]
    targets = board.advance_targets(state, player, str(step["colour"]))
    legal: list[Any] = [mv.Advance(railway=r, colour=c) for r, c in targets]
    if step.get("optional"):
        legal.append(mv.Decline())
    return legal


def advance_validate(state: State, seat: int, step: Step, move: Any) -> None:
    if isinstance(move, mv.Decline):
        if not step.get("optional"):
            raise IllegalMoveError("RR-5.5", "this advancement is part of the action and must be made")
        return
    wanted = str(step["colour"])
    allowed = {"any": None, "black_or_grey": ("black", "grey")}.get(wanted, (wanted,))
    if allowed is not None and move.colour not in allowed:
        what = wanted.replace("_", " ")
        raise IllegalMoveError("RR-6.2", f"this advancement moves a {what} track, not {move.colour}")
    components = state.components
    try:
        railway = components.railway(move.railway)
    except KeyError:
        raise IllegalMoveError("RR-0.1", f"there is no railway {move.railway!r}") from None
    if move.colour not in railway.colours:
        raise IllegalMoveError("RR-6.1", f"the {railway.name} has no {move.colour} track")
    rule = board.can_advance(state, state.players[seat], railway, move.colour)
    if rule == "RR-6.6":
        raise IllegalMoveError(rule, f"you have no {move.colour} track on the {railway.name} yet")
    if rule is not None:
        raise IllegalMoveError(rule, f"your {move.colour} track on the {railway.name} cannot move on: the next "
                               "space is beyond the railway, taken, or would reach the preceding colour's track")


def advance_apply(state: State, seat: int, step: Step, move: Any) -> State:
    if isinstance(move, mv.Decline):
        return state
    player = state.players[seat]
    tracks = {r: dict(c) for r, c in player.tracks.items()}
    tracks[move.railway][move.colour] += 1
    state = state.with_player(seat, tracks=tracks)
    left = int(step.get("left", 1) or 1)
    after: list[Step] = [Step("specials", seat=seat)]
    if left > 1:
        after.append(step.but(left=left - 1))
    if step.get("bonus") and move.colour == "black":
        after.append(Step("advance", colour="black", bonus=False, seat=seat, p=True))  # RR-20.3, AMB-22
    return push(state, *after)


def advance_otherwise(state: State, step: Step) -> State:
    seat = seat_of(step)
    legal = advance_legal(state, seat, step)
    if len(legal) == 1:
        return advance_apply(state, seat, step, legal[0])
    return skip_or_fail(state, step, "RR-6.6", f"no {str(step['colour']).replace('_', ' ')} track can advance")


# ---- special spaces (RR-13, RR-6.7) -------------------------------------------------------------


def specials(state: State, step: Step) -> State:
    """RR-13.1: every one-time benefit whose conditions now hold for the first time, railway by
    railway and space by space; the terminus of each railway (RR-13.4)."""
    seat = seat_of(step)
    triggered: list[Step] = []
    for railway in state.components.railways:
        for special in railway.specials:
            if special.benefit in ("doubling", "star", "medal"):
                continue  # ongoing, checked at each scoring (RR-13.7, RR-13.8, RR-19.7)
            player = state.players[seat]
            key = board.key(railway, special)
            if key in player.claimed or not board.special_met(player, railway, special):
                continue
            state = state.with_player(seat, claimed=(*player.claimed, key))
            state, steps = special_benefit(state, seat, railway.id, special.benefit, special.colour)
            triggered.extend(steps)
        player = state.players[seat]
        key = board.terminus_key(railway)
        if key not in player.claimed and (player.position(railway.id, "black") or 0) >= railway.spaces:
            state = state.with_player(seat, claimed=(*player.claimed, key))
            state = vp_line(state, seat, state.components.constants.terminus_vp, "RR-13.4",
                            f"the black track reached the end of the {railway.name}", railway=railway.id)
    return trigger(state, seat, triggered)


def special_benefit(state: State, seat: int, railway: str, benefit: str,
                    colour: str | None) -> tuple[State, list[Step]]:
    player = state.players[seat]
    if benefit in ("tracks", "white"):
        assert colour is not None
        tracks = {r: dict(c) for r, c in player.tracks.items()}
        for line in state.components.railways:
            if colour in line.colours and colour not in tracks.get(line.id, {}):
                tracks.setdefault(line.id, {})[colour] = 0
        state = state.with_player(seat, tracks=tracks)
        if benefit == "white":  # RR-13.3: up to 2 advancements of the new white track
            return state, [Step("advance", colour=colour, bonus=False, seat=seat, p=True, optional=True, left=2)]
        return state, []
    if benefit == "worker":  # RR-13.5, RR-13.6
        if player.reserve > 0:
            state = state.with_player(seat, reserve=player.reserve - 1, workers=player.workers + 1,
                                      gained_workers=player.gained_workers + 1)
        return state, []
    if benefit == "token":  # RR-13.9
        return state, [Step("token", seat=seat, p=True)]
    raise ValueError(benefit)


# ---- industry (RR-9) ----------------------------------------------------------------------------


def industry_legal(state: State, seat: int, step: Step) -> list[Any]:
    player = state.players[seat]
    return [mv.MoveMarker(marker=i) for i in range(len(player.markers)) if board.marker_can_move(state, player, i)]


def industry_validate(state: State, seat: int, step: Step, move: Any) -> None:
    player = state.players[seat]
    if move.marker >= len(player.markers):
        raise IllegalMoveError("RR-19.4", "you have no second industry marker")
    if not board.marker_can_move(state, player, move.marker):
        raise IllegalMoveError("RR-9.7", "that industry marker cannot move on: the next space is an empty factory gap, "
                               "the end of the track, or your other marker's")


def industry_apply(state: State, seat: int, step: Step, move: Any) -> State:
    player = state.players[seat]
    markers = list(player.markers)
    markers[move.marker] += 1
    target = markers[move.marker]
    state = state.with_player(seat, markers=tuple(markers))
    lane = board.lane(state)
    gap = board.gap_number(lane, target)
    triggered: list[Step] = []
    if gap is not None:  # RR-9.6: the factory's benefit, at once
        value = player.factories[gap]
        assert value is not None
        factory = state.components.factory(value)
        triggered = steps_for(seat, factory.effects, rule=factory.rule, partial=True, source=f"factory #{value}")
    elif lane[target].token and "industry" not in state.players[seat].claimed:  # RR-13.10
        state = state.with_player(seat, claimed=(*state.players[seat].claimed, "industry"))
        triggered = [Step("token", seat=seat, p=True)]
    return trigger(state, seat, triggered)


industry_otherwise = made_if_forced(industry_legal, industry_apply, "RR-9.7", "no industry marker can advance")


# ---- multipliers (RR-10.2) ----------------------------------------------------------------------


def multiplier(state: State, step: Step) -> State:
    seat = seat_of(step)
    player = state.players[seat]
    if board.multiplier_room(state, player) <= 0:
        rule = "RR-10.3" if player.multipliers >= len(state.components.constants.multiplier_spaces) else "RR-1.4"
        return skip_or_fail(state, step, rule, "no multiplier can be placed: your multiplier spaces are full or the "
                            "supply is empty")
    state = state.with_player(seat, multipliers=player.multipliers + 1)
    return evolve(state, multipliers_left=max(state.multipliers_left - 1, 0))


# ---- gains with nothing to decide ----------------------------------------------------------------


def gain(state: State, step: Step) -> State:
    seat = seat_of(step)
    player = state.players[seat]
    what = step["what"]
    count = int(step.get("count", 1) or 0)
    rule = str(step.get("rule", ""))
    components = state.components
    if what == "rubles":
        return state.with_player(seat, rubles=player.rubles + count)
    if what == "vp":
        return vp_line(state, seat, count, rule, f"{count} VP from {step.get('source') or rule}")
    if what == "temporary_workers":  # RR-10.10, RR-10.12: both, and only two exist (a repeat gives none more)
        placed = sum(p.temporary for p in state.placements)
        return state.with_player(seat, temporary=max(2 - placed, 0))
    if what == "turn_order":  # RR-12.7: the placement itself is the claim
        return state
    if what == "hire":  # RR-11.5
        strip = list(state.strip)
        engineer = strip[-1]
        if engineer is None:
            return skip_or_fail(state, step, "RR-11.5", "no engineer is on the hiring space")
        strip[-1] = None
        state = evolve(state, strip=tuple(strip))
        return state.with_player(seat, engineers=(*player.engineers, engineer))
    if what == "vp_engineer_values":  # RR-23.1
        points = sum(components.engineer(e).value for e in player.engineers)
        return vp_line(state, seat, points, rule, "the values of your engineers")
    if what == "vp_two_best_locomotives":  # RR-23.6
        values = sorted((v for held in player.locomotives.values() for v in held), reverse=True)
        return vp_line(state, seat, sum(values[:2]), rule, "your two best locomotives")
    if what == "black_worker":  # RR-20.3, AMB-32
        return state.with_player(seat, black_worker=True, black_in_supply=True)
    if what == "engineer_and_ruble":  # RR-20.4
        unlettered = [e.id for e in components.engineers if e.deck == "none"]
        engineers = player.engineers + tuple(unlettered[:1])
        return state.with_player(seat, engineers=engineers, rubles=player.rubles + 1)
    if what == "second_industry_marker":  # RR-19.4
        if len(player.markers) >= 2:
            return state
        return state.with_player(seat, markers=(*player.markers, 0))
    if what == "revaluation":  # RR-19.6
        return state.with_player(seat, revalued=True)
    if what == "kiev_medal":  # RR-19.7
        return state.with_player(seat, medal=True)
    raise ValueError(f"unknown gain {what!r}")


# ---- locomotives and factories (RR-7, RR-8) -------------------------------------------------------


def take_legal(state: State, seat: int, step: Step) -> list[Any]:
    player = state.players[seat]
    items = step["items"]
    assert isinstance(items, tuple)
    legal: list[Any] = []
    if "locomotive" in items:
        value = board.lowest_stack(state)
        if value is not None:
            slots = board.locomotive_slots(state, player, value)
            legal.extend(mv.PlaceLocomotive(railway=r, slot=s) for r, s in slots)
            if not slots and state.options.unplaceable_locomotive == "to_pool":  # AMB-11 (a)
                legal.append(mv.PlaceLocomotive(railway="pool", slot=0))
    if "card" in items:
        value = state.components.constants.locomotive_card_value
        legal.extend(mv.PlaceLocomotive(railway=r, slot=s) for r, s in board.locomotive_slots(state, player, value))
    if "factory" in items:
        full = all(f is not None for f in player.factories)
        for from_pool, value in board.factory_sources(state):
            if full:
                legal.extend(mv.TakeFactory(from_pool=from_pool, value=value, replace=i)
                             for i in range(len(player.factories)))
            else:
                legal.append(mv.TakeFactory(from_pool=from_pool, value=value, replace=None))
    return legal


def take_validate(state: State, seat: int, step: Step, move: Any) -> None:
    items = step["items"]
    assert isinstance(items, tuple)
    if isinstance(move, mv.PlaceLocomotive):
        if "locomotive" not in items and "card" not in items:
            raise IllegalMoveError("RR-7.1", "this action gives a factory here, not a locomotive")
        if "card" not in items and board.lowest_stack(state) is None:
            raise IllegalMoveError("RR-7.2", "every locomotive stack is used up (AMB-30)")
        refuse_unless_listed(move, take_legal(state, seat, step), "RR-7.4",
                             "a locomotive goes into an empty slot or replaces a strictly lower one (AMB-11)")
        return
    if "factory" not in items:
        raise IllegalMoveError("RR-7.1", "this action gives a locomotive here, not a factory")
    if move.value is None:
        raise IllegalMoveError("RR-8.3", "name the factory's value (the lowest stack's, or one in the pool)")
    if (move.from_pool, move.value) not in board.factory_sources(state):
        raise IllegalMoveError("RR-8.3", "a factory comes from the lowest locomotive stack or from the face-up pool")
    full = all(f is not None for f in state.players[seat].factories)
    if full and move.replace is None:
        raise IllegalMoveError("RR-8.5", "all five factory spaces are full: name the factory to replace")
    if not full and move.replace is not None:
        raise IllegalMoveError("RR-8.4", "a new factory goes into the leftmost empty factory space")
    refuse_unless_listed(move, take_legal(state, seat, step), "RR-8.5", "there is no such factory space")


def take_apply(state: State, seat: int, step: Step, move: Any) -> State:
    items = step["items"]
    assert isinstance(items, tuple)
    if isinstance(move, mv.PlaceLocomotive):
        if "card" in items:
            value = state.components.constants.locomotive_card_value
        else:
            lowest = board.lowest_stack(state)
            assert lowest is not None
            value = lowest
            stacks = dict(state.stacks)
            stacks[str(value)] -= 1
            state = evolve(state, stacks=stacks)
        if move.railway == "pool":  # AMB-11 (a): it fits nowhere and becomes a face-up factory
            return evolve(state, pool=tuple(sorted((*state.pool, value))))
        return place_locomotive(state, seat, value, move.railway, move.slot)
    player = state.players[seat]
    assert move.value is not None
    if move.from_pool:
        pool = list(state.pool)
        pool.remove(move.value)
        state = evolve(state, pool=tuple(pool))
    else:
        stacks = dict(state.stacks)
        stacks[str(move.value)] -= 1
        state = evolve(state, stacks=stacks)
    factories = list(player.factories)
    if move.replace is None:
        factories[factories.index(None)] = move.value  # RR-8.4
    else:  # RR-8.5: the old one goes to the face-up pool; markers stay (AMB-12)
        old = factories[move.replace]
        assert old is not None
        state = evolve(state, pool=tuple(sorted((*state.pool, old))))
        factories[move.replace] = move.value
    return state.with_player(seat, factories=tuple(factories))


take_otherwise = made_if_forced(take_legal, take_apply, "RR-7.4",
                                "no locomotive can be placed and no factory taken (AMB-11, AMB-30)")


def place_locomotive(state: State, seat: int, value: int, railway: str, slot: int) -> State:
    """RR-7.4 to RR-7.6: into the slot; a displaced locomotive must find another railway."""
    player = state.players[seat]
    held = list(player.locomotives.get(railway, ()))
    displaced: int | None = None
    if slot < len(held):
        displaced = held[slot]
        held[slot] = value
    else:
        held.append(value)
    locomotives = dict(player.locomotives)
    locomotives[railway] = tuple(held)
    state = state.with_player(seat, locomotives=locomotives)
    after = [Step("specials", seat=seat)]
    if displaced is not None:
        after.insert(0, Step("displaced", seat=seat, value=displaced, left=railway))
    return push(state, *after)


def displaced_legal(state: State, seat: int, step: Step) -> list[Any]:
    value = int(step["value"])
    slots = board.locomotive_slots(state, state.players[seat], value, exclude=str(step["left"]))
    return [mv.PlaceLocomotive(railway=r, slot=s) for r, s in slots]


def displaced_validate(state: State, seat: int, step: Step, move: Any) -> None:
    if move.railway == step["left"]:
        raise IllegalMoveError("RR-7.6", "a displaced locomotive goes to another railway than the one it left")
    if move.railway not in {railway.id for railway in state.components.railways}:
        raise IllegalMoveError("RR-7.6", "a displaced locomotive that can be placed must be placed: name a railway")
    refuse_unless_listed(move, displaced_legal(state, seat, step), "RR-7.4",
                         "a locomotive goes into an empty slot or replaces a strictly lower one")


def displaced_apply(state: State, seat: int, step: Step, move: Any) -> State:
    return place_locomotive(state, seat, int(step["value"]), move.railway, move.slot)


def displaced_otherwise(state: State, step: Step) -> State:
    seat = seat_of(step)
    legal = displaced_legal(state, seat, step)
    if len(legal) == 1:
        return displaced_apply(state, seat, step, legal[0])
    value = int(step["value"])
    if board.has_factory_side(state, value):  # RR-7.7: turned over into the face-up pool
        return evolve(state, pool=tuple(sorted((*state.pool, value))))
    return state  # the C4 #9 has no factory side (RR-1.2): it leaves the game


# ---- bonus tokens (RR-19) and face-up cards (RR-20) ------------------------------------------------


def token_legal(state: State, seat: int, step: Step) -> list[Any]:
    used = state.players[seat].tokens
    return [mv.ChooseToken(token=t.id) for t in state.components.tokens if t.id not in used]


def token_validate(state: State, seat: int, step: Step, move: Any) -> None:
    if move.token in state.players[seat].tokens:
        raise IllegalMoveError("RR-13.11", f"you have already used bonus token {move.token}")
    refuse_unless_listed(move, token_legal(state, seat, step), "RR-19.1", f"there is no bonus token {move.token!r}")


def token_apply(state: State, seat: int, step: Step, move: Any) -> State:
    token = state.components.token(move.token)
    state = state.with_player(seat, tokens=(*state.players[seat].tokens, token.id))
    return push(state, *steps_for(seat, token.effects, rule=token.rule, partial=True, source=f"token {token.id}"))


def card_steps(state: State, seat: int, card_id: str) -> tuple[Step, ...]:
    card = state.components.card(card_id)
    steps = steps_for(seat, card.effects, rule=card.rule, partial=not state.options.face_up_cards_in_full,
                      source=f"card {card.id}")
    if state.options.face_up_cards_in_full:
        return all_or_nothing("RR-20.7", *steps)
    return tuple(steps)


def face_up_legal(state: State, seat: int, step: Step) -> list[Any]:
    """RR-20.7: the cards whose own effect can be performed in full now. The machine searches the
    card's effect alone (the rest of the agenda set aside), so a card inside a larger action is
    judged by what it does, not by what follows it."""
    from .tasks import AGENDA

    legal: list[Any] = []
    for card in state.face_up:
        if state.options.face_up_cards_in_full:
            trial = take_card(state, card).with_agenda(card_steps(state, seat, card))
            if not AGENDA.can_finish(trial):
                continue
        legal.append(mv.ChooseCard(card=card))
    return legal


def face_up_validate(state: State, seat: int, step: Step, move: Any) -> None:
    if move.card not in state.face_up:
        raise IllegalMoveError("RR-20.1", f"face-up card {move.card!r} is not on the table")
    refuse_unless_listed(move, face_up_legal(state, seat, step), "RR-20.7",
                         "a face-up card may be taken only if its whole effect can be performed now")


def take_card(state: State, card: str) -> State:
    return evolve(state, face_up=tuple(c for c in state.face_up if c != card))


def face_up_apply(state: State, seat: int, step: Step, move: Any) -> State:
    return push(take_card(state, move.card), *card_steps(state, seat, move.card))


def face_up_needed(state: State, step: Step) -> bool:
    return bool(face_up_legal(state, seat_of(step), step))


# ---- final bonus cards (RR-21.2) --------------------------------------------------------------------


def final_bonus_legal(state: State, seat: int, step: Step) -> list[Any]:
    legal: list[Any] = [mv.TakeBonusCard(card=card) for card in sorted(set(state.bonus_deck))]
    return [*legal, mv.TakeBonusVP()]


def final_bonus_validate(state: State, seat: int, step: Step, move: Any) -> None:
    if isinstance(move, mv.TakeBonusCard) and move.card not in state.bonus_deck:
        raise IllegalMoveError("RR-21.2", "that card is not in the final bonus deck (AMB-27: take the 10 VP)")


def final_bonus_apply(state: State, seat: int, step: Step, move: Any) -> State:
    if isinstance(move, mv.TakeBonusVP):
        return vp_line(state, seat, state.components.constants.final_bonus_vp, "RR-21.2",
                       "10 VP instead of a final bonus card")
    deck = list(state.bonus_deck)
    deck.remove(move.card)
    state = evolve(state, bonus_deck=tuple(deck))
    player = state.players[seat]
    return state.with_player(seat, bonus_cards=(*player.bonus_cards, move.card))


# ---- repeat (RR-22.7, RR-23.4, AMB-29) ---------------------------------------------------------------


def repeatable(state: State, seat: int) -> list[str]:
    """The spaces this seat may repeat: used this round with exactly one worker or ruble, on a
    space that needs exactly one worker, not a turn-order space, not a repeat (AMB-29)."""
    spaces: list[str] = []
    for placement in state.placements:
        if placement.seat != seat or placement.items != 1 or placement.space in spaces:
            continue
        cost = space_cost(state, seat, placement.space)
        if cost is None or cost != (1, 0):
            continue
        effects = space_effects(state, placement.space)
        if any(e.kind in ("turn_order", "repeat") for e in effects):
            continue
        spaces.append(placement.space)
    return spaces


def repeat_legal(state: State, seat: int, step: Step) -> list[Any]:
    return [mv.Repeat(space=space) for space in repeatable(state, seat)]


def repeat_validate(state: State, seat: int, step: Step, move: Any) -> None:
    refuse_unless_listed(move, repeat_legal(state, seat, step), "RR-22.7",
                         "repeat a one-worker space you used this round with exactly one worker or ruble")


def repeat_apply(state: State, seat: int, step: Step, move: Any) -> State:
    effects = space_effects(state, move.space)
    return push(state, *steps_for(seat, effects, rule="RR-22.7", partial=True, source=f"repeat of {move.space}"))


repeat_otherwise = made_if_forced(repeat_legal, repeat_apply, "RR-22.7",
                                  "you used no one-worker space with one worker or ruble this round")


def space_cost(state: State, seat: int, space_id: str) -> tuple[int, int] | None:
    """(workers, rubles) a space needs, for a board space, a changing engineer or an own engineer."""
    components = state.components
    try:
        space = components.space(space_id)
    except KeyError:
        try:
            engineer = components.engineer(space_id)
        except KeyError:
            return None
        return engineer.workers, engineer.rubles
    if space.section == "engineer" and space.effects and space.effects[0].kind == "engineer":
        engineer_id = changing_engineer(state, space.effects[0].count)
        if engineer_id is None:
            return None
        engineer = components.engineer(engineer_id)
        return engineer.workers, engineer.rubles
    return space.workers, space.rubles


def changing_engineer(state: State, number: int) -> str | None:
    """The engineer on changing action space `number` (1 the left, 2 the right), if any (RR-11.4)."""
    slots = state.components.for_players(state.seats).engineer_slots
    changing = [i for i, slot in enumerate(slots) if slot.kind == "changing"]
    if number - 1 >= len(changing):
        return None
    return state.strip[changing[number - 1]]


def space_effects(state: State, space_id: str) -> tuple[Any, ...]:
    components = state.components
    try:
        space = components.space(space_id)
    except KeyError:
        return components.engineer(space_id).effects
    if space.effects and space.effects[0].kind == "engineer":
        engineer_id = changing_engineer(state, space.effects[0].count)
        return components.engineer(engineer_id).effects if engineer_id else ()
    return space.effects


# ---- C1's fourth action (RR-20.2) ------------------------------------------------------------------


def again_legal(state: State, seat: int, step: Step) -> list[Any]:
    options = step["options"]
    assert isinstance(options, tuple)
    return [mv.NextPart(part=str(label)) for label in options]


def again_validate(state: State, seat: int, step: Step, move: Any) -> None:
    refuse_unless_listed(move, again_legal(state, seat, step), "RR-20.2", "do one of the card's three actions again")


def again_apply(state: State, seat: int, step: Step, move: Any) -> State:
    return push(state, *again_steps(seat, move.part, partial=bool(step.get("p"))))


# ---- starting bonus cards (RR-2.20, RR-18) -------------------------------------------------------------


def draft_legal(state: State, seat: int, step: Step) -> list[Any]:
    return [mv.DraftBonus(card=card) for card in state.starting_cards]


def draft_validate(state: State, seat: int, step: Step, move: Any) -> None:
    refuse_unless_listed(move, draft_legal(state, seat, step), "RR-2.20", "that starting bonus card has been taken")


def draft_apply(state: State, seat: int, step: Step, move: Any) -> State:
    card = state.components.starting_card(move.card)
    state = evolve(state, starting_cards=tuple(c for c in state.starting_cards if c != card.id))
    return push(state, *steps_for(seat, card.effects, rule=card.rule, partial=True, source=f"starting card {card.id}"))


def next_part(part: Step) -> mv.NextPart:
    return mv.NextPart(part=part_label(part))


def picks(move: mv.NextPart, part: Step) -> bool:
    return move.part == part_label(part)
