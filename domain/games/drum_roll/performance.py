"""A performance, from its first performer to the last seat's popcorn seller (DR-11, DR-15, DR-17,
DR-19.4, DR-19.5): the `performance` step and each seat's part of it.

The seats perform one after another, clockwise from the start player (DR-11.1, AMB-38). A seat's
part is the program `seat_performance`: `perform_next` (the seat picks which of its performers
performs next, DR-11.2; with one left it goes by itself), then `applause` (Longer applause cards,
applause.py), `region_bonus` (DR-15, DR-11.11) and `show_helpers` (brass band and popcorn seller,
DR-11.13, DR-19.4, DR-19.5). Each performer is resolved in full before the next (`perform_card`
pushes its reward steps on top of the next `perform_next`, rewards.py): its level (DR-17.4, AMB-35),
the reward and printed fame of that level only (DR-11.4, DR-11.5, DR-11.7, DR-17.1), a dazzling
performer's choice between its reward and a flip (DR-11.6, DR-17.6, DR-17.7), or, with no level,
its firing with severance (DR-11.8, DR-11.9, AMB-12). Performers flipped in an earlier performance
do not perform and are never fired (DR-11.10, AMB-10). Each performer that performed records its
level and the performance (DR-11.14), which Longer applause and the Perfect performance award read.

Before the first seat, the show organiser's return (DR-19.2, performance_end.py); after every seat,
the wages (DR-12, wages.py) and the end of the performance or of the game (DR-13, DR-14;
performance_end.py, end_of_game.py).
"""

from __future__ import annotations

from domain.kernel.agenda import Step, push
from domain.kernel.errors import IllegalMoveError
from domain.kernel.values import evolve

from . import circus
from . import moves as mv
from .sharing import LEVELS, unfilled
from .state import Hired, State

SEAT_PHASES = ("perform_next", "applause", "region_bonus", "show_helpers")
"""A seat's part of the performance, in order (DR-11.2, DR-11.12, DR-11.11, DR-11.13)."""


def seat_of(step: Step) -> int:
    seat = step.seat
    assert seat is not None
    return seat


def begin(state: State, step: Step) -> State:
    """DR-3.5: first the show organiser's return before the show (DR-19.2, AMB-15; it changes who
    starts the next performance, not this one's order); then every seat performs, clockwise from
    the start player (DR-11.1, AMB-38); then the wages (DR-12.1) and the end of the performance or
    of the game (DR-13, DR-14). No wage skip carries over from an earlier performance (DR-18.8: it
    is for the current one)."""
    players = tuple(evolve(player, skipped=()) for player in state.players)
    state = evolve(state, players=players)
    seats = [Step("seat_performance", seat=seat) for seat in state.clockwise()]
    return push(state, Step("organiser_before_show"), *seats, Step("wages"), Step("after_performance"))


# ---- levels (DR-17.4) -------------------------------------------------------------------------


def level_of(state: State, hired: Hired) -> int:
    """DR-17.4, DR-17.5, AMB-35: the highest L such that every requirement of levels 1 to L is
    filled by the cubes on the card; cubes on a higher level do not help a missing lower one."""
    levels = state.components.performer(hired.card).levels
    reached = 0
    for index, level in enumerate(levels):
        if unfilled(level.cubes, hired.cubes[index]):
            break
        reached = index + 1
    return reached


def waiting(state: State, seat: int) -> tuple[str, ...]:
    """The seat's performers still to perform now: not flipped (DR-11.10: one flipped earlier never
    performs again) and not yet performed in this performance."""
    return tuple(hired.card for hired in state.players[seat].performers
                 if hired.flipped is None and hired.performed != state.performance)


# ---- choosing the next performer (DR-11.2) ----------------------------------------------------


def next_legal(state: State, seat: int, step: Step) -> list[mv.Perform]:
    return [mv.Perform(card=card) for card in waiting(state, seat)]


def next_needed(state: State, step: Step) -> bool:
    """A choice only with two or more performers left; one goes by itself, none ends the part."""
    return len(waiting(state, seat_of(step))) > 1


def next_otherwise(state: State, step: Step) -> State:
    left = waiting(state, seat_of(step))
    if not left:
        return state
    return push(state, Step("perform_card", seat=seat_of(step), card=left[0]), step)


def next_validate(state: State, seat: int, step: Step, move: mv.Perform) -> None:
    hired = circus.performer(state, seat, move.card)
    if hired is None:
        raise IllegalMoveError("DR-11.2", f"{move.card} is not a performer in your circus")
    if hired.flipped is not None:
        raise IllegalMoveError("DR-11.10", f"{move.card} was flipped in an earlier performance: it does not perform")
    if hired.performed == state.performance:
        raise IllegalMoveError("DR-11.2", f"{move.card} has already performed in this performance")


def next_apply(state: State, seat: int, step: Step, move: mv.Perform) -> State:
    """DR-11.2: this performer is resolved in full, then the seat picks the next."""
    return push(state, Step("perform_card", seat=seat, card=move.card), step)


# ---- one performer (DR-11.3 to DR-11.9) -------------------------------------------------------


def record(state: State, seat: int, card: str, level: int, **changes: object) -> State:
    """DR-11.14: the level reached (a flip counts 3) and the performance it was reached in."""
    performers = tuple(evolve(hired, level=level, performed=state.performance, **changes) if hired.card == card
                       else hired for hired in state.players[seat].performers)
    return state.with_player(seat, performers=performers)


def perform_card(state: State, step: Step) -> State:
    """DR-11.3: the performer performs at its level. Level 0: fired (DR-11.8). Levels 1 and 2: that
    level's reward and fame (DR-11.4, DR-11.5, DR-11.7). Level 3: the seat chooses (DR-11.6)."""
    seat = seat_of(step)
    card = str(step["card"])
    hired = circus.performer(state, seat, card)
    assert hired is not None
    level = level_of(state, hired)
    if level == 0:
        return fire_unprepared(state, seat, card)
    state = record(state, seat, card, level)
    if level < 3:
        return gain_level(state, seat, card, level)
    return push(state, Step("dazzling", seat=seat, card=card))


def gain_level(state: State, seat: int, card: str, level: int) -> State:
    """DR-11.4, DR-11.5, DR-11.6 (a), DR-17.1: the printed fame of the level reached and its reward
    effects, one step each in the order printed (rewards.py)."""
    performer = state.components.performer(card)
    printed = performer.levels[level - 1]
    state = state.gain_fame(seat, printed.fame, "DR-17.1", "performance",
                            f"{performer.name}: {LEVELS[level - 1]} performance", card=card)
    effects = [Step("reward", seat=seat, card=card, level=level, index=index) for index in range(len(printed.reward))]
    return push(state, *effects)


def fire_unprepared(state: State, seat: int, card: str) -> State:
    """DR-11.8: a performer with no level is fired at once: it leaves the circus (its cubes to the
    general supply, its trailer per DR-20.7), the seat pays a severance of its printed hiring cost
    and loses 1 fame; DR-11.9 (AMB-12): money short, all of it is paid and 1 more fame is lost per
    coin unpaid."""
    performer = state.components.performer(card)
    state = circus.fire(state, seat, card)
    money = state.players[seat].money
    paid = min(money, performer.hire_cost)
    state = state.with_player(seat, money=money - paid)
    state = state.gain_fame(seat, -1, "DR-11.8", "fired", f"{performer.name} gave no performance and was fired",
                            card=card)
    unpaid = performer.hire_cost - paid
    return state.gain_fame(seat, -unpaid, "DR-11.9", "severance",
                           f"{unpaid} of {performer.name}'s severance unpaid", card=card)


# ---- a dazzling performer (DR-11.6, DR-17.6, DR-17.7) -----------------------------------------


def dazzling_legal(state: State, seat: int, step: Step) -> list[mv.ChooseDazzling]:
    return [mv.ChooseDazzling(flip=False), mv.ChooseDazzling(flip=True)]


def dazzling_validate(state: State, seat: int, step: Step, move: mv.ChooseDazzling) -> None:
    hired = circus.performer(state, seat, str(step["card"]))
    if move.flip and (hired is None or hired.flipped is not None):
        raise IllegalMoveError("DR-17.7", "a performer is flipped at most once")


def dazzling_apply(state: State, seat: int, step: Step, move: mv.ChooseDazzling) -> State:
    card = str(step["card"])
    if not move.flip:
        return gain_level(state, seat, card, 3)  # DR-11.6 (a)
    return flip(state, seat, card)


def flip_fame(state: State, seat: int, card: str) -> int:
    """The fame printed for flipping; a bizarre performer's by the number of bizarre performers in
    the circus (DR-18.4: 1, 2, 3 or more), where the data gives that table."""
    performer = state.components.performer(card)
    table = performer.flip_fame_by_bizarre_count
    if not table:
        return performer.flip_fame
    return circus.by_bizarre_count(state, seat, table)


def flip(state: State, seat: int, card: str) -> State:
    """DR-11.6 (b), DR-17.6: the card is flipped for its flip fame; its cubes go back to the general
    supply; it stays in the circus with its trailer (DR-20.5); it counts as dazzling (DR-11.14)."""
    hired = circus.performer(state, seat, card)
    assert hired is not None
    supply = dict(state.cubes)
    for level in hired.cubes:
        for colour in level:
            supply[colour] += 1
    fame = flip_fame(state, seat, card)
    state = record(evolve(state, cubes=supply), seat, card, 3, cubes=((),) * len(hired.cubes),
                   flipped=state.performance)
    name = state.components.performer(card).name
    return state.gain_fame(seat, fame, "DR-11.6", "flip", f"{name} flipped", card=card)


# ---- after the seat's performers (DR-11.11, DR-11.13, DR-15) ----------------------------------


def region_bonus(state: State, step: Step) -> State:
    """DR-11.11, DR-15.2, DR-15.4 (AMB-14): the region the seat performs in gives `fame` for every
    `per` performers of a type in its circus, counted after all its performers have performed:
    fired ones are gone, flipped ones count (option `region_count` "performed_only": only the
    performers that performed in this performance count)."""
    seat = seat_of(step)
    player = state.players[seat]
    if player.region is None:
        return state
    region = state.components.region(player.region)
    only_performed = state.options.region_count == "performed_only"
    names = {kind.id: kind.name for kind in state.components.performer_types}
    for bonus in region.bonuses:
        count = sum(1 for hired in player.performers
                    if circus.type_of(state, hired.card) == bonus.performer_type
                    and (not only_performed or hired.performed == state.performance))
        sets = count // bonus.per
        state = state.gain_fame(seat, sets * bonus.fame, "DR-15.2", "region",
                                f"{region.name}: {count} × {names[bonus.performer_type]}", region=region.id)
    return state


def show_helpers(state: State, step: Step) -> State:
    """DR-11.13 (AMB-13), DR-19.4, DR-19.5: at the end of its owner's performance, before the wages,
    a brass band gives its fame and a popcorn seller its money."""
    seat = seat_of(step)
    for card in state.players[seat].helpers:
        helper = state.components.helper(card)
        if helper.kind == "brass_band":
            state = state.gain_fame(seat, helper.value or 0, "DR-19.4", "helper", helper.name, card=card)
        elif helper.kind == "popcorn_seller":
            state = state.with_player(seat, money=state.players[seat].money + (helper.value or 0))
    return state

