"""The reward effects of a performer level (`components.Effect`), one step each, in the order
printed (DR-11.4 to DR-11.7, DR-18, DR-20.6, DR-16.1).

A level's reward is a list of effects; `performance.gain_level` pushes one `reward` step per effect
and this module interprets them, asking the seat only what an effect leaves open, one small
decision at a time so that every legal list stays short:
- `money`: the coins at once (DR-18.3);
- `cube`: that many cubes of its colour, as many as the general supply has (DR-16.1, AMB-31);
- `cube_choice`: each cube's colour chosen in turn from the colours shown ("any": all five), only
  colours the general supply still has (`reward_cube`; DR-18.5, DR-16.1);
- `investment_look`: the top `look` investment cards drawn one by one, each seen by the seat alone
  (`look`, `look_draw`), then `keep` of them kept, one per move (`look_keep`), the rest put under
  the deck in the order drawn (DR-18.2, DR-18.9, AMB-37), then the hand limit (DR-21.4);
- `trailer`: for each of `count` trailers, optionally pay `pay_money` and place it
  (`reward_trailer`); with no place for it or no money, it cannot be taken and nothing is paid
  (DR-20.6, AMB-19, DR-16.4);
- `skip_wage`: optionally pay `pay_cubes` cubes of the seat's choice (`reward_payment`), then name
  the card of its own circus whose wage is skipped this performance (`skip_wage`; DR-18.8, AMB-36);
- `cubes_for_money`: optionally pay `pay_cubes` cubes of the seat's choice for `count` money
  (`reward_payment`; DR-18.6, AMB-39).
Cubes gained go to the seat's cube supply, cubes paid to the general supply (DR-18.7).
"""

from __future__ import annotations

from itertools import combinations_with_replacement

from domain.kernel.agenda import Step, push
from domain.kernel.canonical import JSON
from domain.kernel.contract import ChanceSpec
from domain.kernel.errors import IllegalMoveError
from domain.kernel.values import evolve

from . import circus
from . import investments as inv
from . import moves as mv
from .components import ANY, Effect
from .state import HandCard, State

CONVERSION = "cubes_for_money"
SKIP_WAGE = "skip_wage"


def seat_of(step: Step) -> int:
    seat = step.seat
    assert seat is not None
    return seat


def effect_of(state: State, step: Step) -> Effect:
    performer = state.components.performer(str(step["card"]))
    return performer.levels[int(step["level"]) - 1].reward[int(step["index"])]


def gain_money(state: State, seat: int, amount: int) -> State:
    return state.with_player(seat, money=state.players[seat].money + amount)


def gain_cubes(state: State, seat: int, colour: str, count: int) -> State:
    """DR-16.1 (AMB-31), DR-18.7: up to `count` cubes of `colour` from the general supply to the
    seat's cube supply; what the supply lacks is lost."""
    count = min(count, state.cubes.get(colour, 0))
    if count <= 0:
        return state
    supply = dict(state.cubes)
    supply[colour] -= count
    own = dict(state.players[seat].cubes)
    own[colour] = own.get(colour, 0) + count
    return evolve(state, cubes=supply).with_player(seat, cubes=own)


def reward(state: State, step: Step) -> State:
    """One effect of the reward being gained: done at once, or the decision it needs pushed."""
    seat = seat_of(step)
    card = str(step["card"])
    effect = effect_of(state, step)
    if effect.effect == "money":
        return gain_money(state, seat, effect.count)
    if effect.effect == "cube":
        return gain_cubes(state, seat, effect.colours[0], effect.count)
    if effect.effect == "cube_choice":
        colours = state.components.colours() if ANY in effect.colours else \
            tuple(colour for colour in state.components.colours() if colour in effect.colours)
        return push(state, Step("reward_cube", seat=seat, card=card, left=effect.count, colours=list(colours)))
    if effect.effect == "investment_look":
        return push(state, Step("look", seat=seat, card=card, left=effect.look, keep=effect.keep, cards=[]))
    if effect.effect == "trailer":
        return push(state, Step("reward_trailer", seat=seat, card=card, left=effect.count, pay=effect.pay_money))
    if effect.effect == SKIP_WAGE:
        if effect.pay_cubes:
            return push(state, Step("reward_payment", seat=seat, card=card, effect=SKIP_WAGE,
                                    pay=effect.pay_cubes, gain=effect.count))
        return push(state, Step(SKIP_WAGE, seat=seat, card=card, left=effect.count, optional=True))
    assert effect.effect == CONVERSION
    if effect.pay_cubes:
        return push(state, Step("reward_payment", seat=seat, card=card, effect=CONVERSION,
                                pay=effect.pay_cubes, gain=effect.count))
    return gain_money(state, seat, effect.count)


# ---- a cube of a chosen colour (DR-18.5, DR-16.1) ---------------------------------------------


def offered(step: Step) -> tuple[str, ...]:
    colours = step["colours"]
    assert isinstance(colours, tuple)
    return tuple(str(colour) for colour in colours)


def cube_colours(state: State, step: Step) -> tuple[str, ...]:
    """The colours this cube can be: shown by the reward and still in the general supply."""
    return tuple(colour for colour in offered(step) if state.cubes.get(colour, 0) > 0)


def cube_legal(state: State, seat: int, step: Step) -> list[mv.TakeRewardCube]:
    return [mv.TakeRewardCube(colour=colour) for colour in cube_colours(state, step)]


def cube_needed(state: State, step: Step) -> bool:
    """A choice only between two or more colours; one goes by itself, none is lost (DR-16.1)."""
    return int(step["left"]) > 0 and len(cube_colours(state, step)) > 1


def cube_otherwise(state: State, step: Step) -> State:
    colours = cube_colours(state, step)
    if int(step["left"]) < 1 or not colours:
        return state  # DR-16.1: the rest of the gain is lost
    return _take_cube(state, step, colours[0])


def cube_validate(state: State, seat: int, step: Step, move: mv.TakeRewardCube) -> None:
    if move.colour not in offered(step):
        raise IllegalMoveError("DR-18.5", f"this reward gives a cube of {', '.join(offered(step))}, not {move.colour}")
    if state.cubes.get(move.colour, 0) < 1:
        raise IllegalMoveError("DR-16.1", f"the general supply has no {move.colour} cube")


def cube_apply(state: State, seat: int, step: Step, move: mv.TakeRewardCube) -> State:
    return _take_cube(state, step, move.colour)


def _take_cube(state: State, step: Step, colour: str) -> State:
    state = gain_cubes(state, seat_of(step), colour, 1)
    left = int(step["left"]) - 1
    return push(state, step.but(left=left)) if left > 0 else state


# ---- looking at investment cards (DR-18.2, DR-18.9) -------------------------------------------


def looked(step: Step) -> tuple[str, ...]:
    cards = step["cards"]
    assert isinstance(cards, tuple)
    return tuple(str(card) for card in cards)


def look(state: State, step: Step) -> State:
    """The next card of the look, while there is one to draw; then the choice of those to keep."""
    if int(step["left"]) > 0 and inv.draw_spec(state, seat_of(step)) is not None:
        return push(state, Step("look_draw", **step.fields))
    cards = looked(step)
    return push(state, Step("look_keep", seat=seat_of(step), card=str(step["card"]),
                            keep=min(int(step["keep"]), len(cards)), cards=list(cards)))


def look_spec(state: State, step: Step) -> ChanceSpec | None:
    """The top investment card, seen by the looking seat alone (DR-18.9): from the deck, the cards
    under it, or the reshuffled discards, as every investment draw (investments.draw_spec, DR-16.3)."""
    return inv.draw_spec(state, seat_of(step))


def look_resolve(state: State, step: Step, outcome: JSON) -> State:
    card = str(outcome)
    state = inv.take_drawn(state, card)
    return push(state, Step("look", **{**step.fields, "left": int(step["left"]) - 1,
                                       "cards": [*looked(step), card]}))


def keep_legal(state: State, seat: int, step: Step) -> list[mv.KeepInvestment]:
    return [mv.KeepInvestment(index=index) for index in range(len(looked(step)))]


def keep_needed(state: State, step: Step) -> bool:
    """A choice only when there are more cards than may be kept."""
    return 0 < int(step["keep"]) < len(looked(step))


def keep_otherwise(state: State, step: Step) -> State:
    """Every card looked at is kept (no more than may be) and the hand limit applies (DR-21.4)."""
    cards = looked(step)
    if not cards:
        return state
    seat = seat_of(step)
    hand = (*state.players[seat].hand, *(HandCard(card) for card in cards))
    return push(state.with_player(seat, hand=hand), inv.check_hand(seat))


def keep_validate(state: State, seat: int, step: Step, move: mv.KeepInvestment) -> None:
    count = len(looked(step))
    if move.index >= count:
        raise IllegalMoveError("DR-18.9", f"you are looking at {count} investment cards: keep one of positions "
                                          f"0 to {count - 1}")


def keep_apply(state: State, seat: int, step: Step, move: mv.KeepInvestment) -> State:
    """DR-18.9: the card joins the hand; when enough are kept, the rest go under the investment
    deck in the order drawn (AMB-37), then the hand limit (DR-21.4)."""
    cards = list(looked(step))
    card = cards.pop(move.index)
    state = state.with_player(seat, hand=(*state.players[seat].hand, HandCard(card)))
    keep = int(step["keep"]) - 1
    if keep > 0 and cards:
        return push(state, step.but(keep=keep, cards=cards))
    state = evolve(state, investment_bottom=(*state.investment_bottom, *cards))
    return push(state, inv.check_hand(seat))


def hide_looks(agenda: list[JSON], viewer_seat: int | None) -> None:
    """Views (views.py): the cards of a look pending on the agenda are the looking seat's alone;
    everyone else sees how many (DR-18.9). Changes the encoded agenda in place."""
    for record in agenda:
        assert isinstance(record, dict)
        if record.get("t") in LOOK_KINDS and record.get("seat") != viewer_seat:
            cards = record["cards"]
            assert isinstance(cards, list)
            record["cards"] = {"count": len(cards)}


LOOK_KINDS = ("look", "look_draw", "look_keep")
"""The step kinds that hold the cards of a look (`cards`), hidden from the other seats."""


# ---- a trailer for money (DR-18.4, DR-20.6) ---------------------------------------------------


def trailer_legal(state: State, seat: int, step: Step) -> list[mv.TakeTrailer | mv.DeclineReward]:
    spots = [mv.TakeTrailer(performer=performer, shared_by=shared) for performer, shared in
             circus.trailer_spots(state, seat)]
    return [*spots, mv.DeclineReward()]


def trailer_needed(state: State, step: Step) -> bool:
    """DR-20.6, AMB-19: with nowhere to put it, no trailer in the supply (DR-16.4) or not the money
    to pay for it, it cannot be taken and nothing is paid."""
    seat = seat_of(step)
    return (int(step["left"]) > 0 and bool(circus.trailer_spots(state, seat))
            and state.players[seat].money >= int(step["pay"]))


def trailer_validate(state: State, seat: int, step: Step, move: mv.TakeTrailer | mv.DeclineReward) -> None:
    if isinstance(move, mv.DeclineReward):
        return
    target = circus.performer(state, seat, move.performer)
    if target is None:
        raise IllegalMoveError("DR-20.6", f"{move.performer} is not a performer in your circus")
    if target.trailer or target.shares_trailer_of is not None:
        raise IllegalMoveError("DR-20.1", f"{move.performer} already has a trailer")
    if move.shared_by is not None:
        if circus.type_of(state, move.performer) != circus.BIZARRE:
            raise IllegalMoveError("DR-20.3", "only a bizarre performer's trailer may be shared")
        sharer = circus.performer(state, seat, move.shared_by)
        if sharer is None or move.shared_by == move.performer:
            raise IllegalMoveError("DR-20.3", f"{move.shared_by} is not another performer in your circus")
        if sharer.trailer or sharer.shares_trailer_of is not None:
            raise IllegalMoveError("DR-20.3", f"{move.shared_by} already has a trailer; only one without any may share")


def trailer_apply(state: State, seat: int, step: Step, move: mv.TakeTrailer | mv.DeclineReward) -> State:
    if isinstance(move, mv.DeclineReward):
        return state
    state = state.with_player(seat, money=state.players[seat].money - int(step["pay"]))
    state = circus.assign_trailer(state, seat, move.performer, move.shared_by)
    left = int(step["left"]) - 1
    return push(state, step.but(left=left)) if left > 0 else state


# ---- cubes paid for a reward (DR-18.6, DR-18.8) -----------------------------------------------


def _payment_rule(step: Step) -> str:
    return "DR-18.8" if step["effect"] == SKIP_WAGE else "DR-18.6"


def payments(state: State, seat: int, pay: int) -> list[tuple[str, ...]]:
    """Every way to pay `pay` cubes from the seat's cube supply, each in colour order."""
    own = state.players[seat].cubes
    colours = [colour for colour in state.components.colours() if own.get(colour, 0) > 0]
    return [combo for combo in combinations_with_replacement(colours, pay)
            if all(combo.count(colour) <= own[colour] for colour in set(combo))]


def payment_legal(state: State, seat: int, step: Step) -> list[mv.PayCubes | mv.DeclineReward]:
    return [*(mv.PayCubes(cubes=combo) for combo in payments(state, seat, int(step["pay"]))), mv.DeclineReward()]


def payment_needed(state: State, step: Step) -> bool:
    """A seat short of cubes cannot pay (DR-18.8: the cost must be paid to use the effect); a wage
    skip needs a card to skip."""
    seat = seat_of(step)
    if sum(state.players[seat].cubes.values()) < int(step["pay"]):
        return False
    return step["effect"] != SKIP_WAGE or bool(skippable(state, seat))


def payment_validate(state: State, seat: int, step: Step, move: mv.PayCubes | mv.DeclineReward) -> None:
    if isinstance(move, mv.DeclineReward):
        return
    rule = _payment_rule(step)
    pay = int(step["pay"])
    if len(move.cubes) != pay:
        raise IllegalMoveError(rule, f"this reward costs {pay} cube(s), not {len(move.cubes)}")
    colours = state.components.colours()
    for colour in move.cubes:
        if colour not in colours:
            raise IllegalMoveError(rule, f"{colour!r} is not a cube colour")
    if list(move.cubes) != sorted(move.cubes, key=colours.index):
        raise IllegalMoveError(rule, f"name the cubes in colour order: {', '.join(colours)}")
    own = state.players[seat].cubes
    for colour in set(move.cubes):
        if move.cubes.count(colour) > own.get(colour, 0):
            raise IllegalMoveError(rule, f"your cube supply has {own.get(colour, 0)} {colour} cube(s)")


def payment_apply(state: State, seat: int, step: Step, move: mv.PayCubes | mv.DeclineReward) -> State:
    """DR-18.6, DR-18.7: the cubes go from the cube supply to the general supply; then the money, or
    the choice of the wage to skip."""
    if isinstance(move, mv.DeclineReward):
        return state
    own = dict(state.players[seat].cubes)
    supply = dict(state.cubes)
    for colour in move.cubes:
        own[colour] -= 1
        supply[colour] += 1
    state = evolve(state, cubes=supply).with_player(seat, cubes=own)
    if step["effect"] == CONVERSION:
        return gain_money(state, seat, int(step["gain"]))
    return push(state, Step(SKIP_WAGE, seat=seat, card=str(step["card"]), left=int(step["gain"]), optional=False))


# ---- a skipped wage (DR-18.8, AMB-36) ---------------------------------------------------------


def skippable(state: State, seat: int) -> tuple[str, ...]:
    """The cards of the seat's circus whose wage is not skipped yet: its performers and helpers."""
    player = state.players[seat]
    cards = (*(hired.card for hired in player.performers), *player.helpers)
    return tuple(card for card in cards if card not in player.skipped)


def skip_legal(state: State, seat: int, step: Step) -> list[mv.SkipWage | mv.DeclineReward]:
    cards = [mv.SkipWage(card=card) for card in skippable(state, seat)]
    return [*cards, mv.DeclineReward()] if step["optional"] else list(cards)


def skip_needed(state: State, step: Step) -> bool:
    return int(step["left"]) > 0 and bool(skippable(state, seat_of(step)))


def skip_validate(state: State, seat: int, step: Step, move: mv.SkipWage | mv.DeclineReward) -> None:
    if isinstance(move, mv.DeclineReward):
        if not step["optional"]:
            raise IllegalMoveError("DR-18.8", "the wage skip is paid for: name the card whose wage is skipped")
        return
    player = state.players[seat]
    if circus.performer(state, seat, move.card) is None and move.card not in player.helpers:
        raise IllegalMoveError("DR-18.8", f"{move.card} is not a helper or performer in your circus")
    if move.card in player.skipped:
        raise IllegalMoveError("DR-18.8", f"{move.card}'s wage is already skipped in this performance")


def skip_apply(state: State, seat: int, step: Step, move: mv.SkipWage | mv.DeclineReward) -> State:
    if isinstance(move, mv.DeclineReward):
        return state
    state = state.with_player(seat, skipped=(*state.players[seat].skipped, move.card))
    left = int(step["left"]) - 1
    return push(state, step.but(left=left)) if left > 0 else state
