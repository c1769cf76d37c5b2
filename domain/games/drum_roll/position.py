"""Drum Roll positions: the table between two turns of a preparation round's action phase, as a
player describes it (docs/positions.md).

A position is the performance and preparation round, the start player, whose turn it is to place
an action marker, the markers placed so far this round (in placement order, which is each space's
stack order, DR-6.1), each circus (money, the bank clerk's deposit, fame, ticket, region, cube
supply, performers with their cubes level by level, flips, trailers and last levels, helpers,
investment hand, markers left), the two rows with their discount tokens, the general supply
(cubes, discount tokens, trailers), the decks and discard piles, the two-player game's imaginary
region, and who returned the show organiser at the end of the last round (DR-19.2: that player may
not hire it this round).

Why only there: between turns of the action phase nothing is half done. Elsewhere (the setup's
draws and draft, resolving the markers, the sharing phase, the end of round, a vote, a
performance, the end) a table would have to describe a step in progress, and there is none.
The decks are multisets with no order (state.py); the cards put under the investment deck after
a look (DR-18.9) are drawn in the order they went there, which the players saw, so that pile keeps
its order. Only the arbiter sees the decks, and each seat only its own hand (views.py).

Fame before the position is one ledger entry per seat under the kernel's rule POSITION, so the
score sheet carries it as the position's line (docs/positions.md, "What the record holds").
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from pydantic import Field

from domain.kernel.agenda import Step, hold
from domain.kernel.contract import PositionModel
from domain.kernel.errors import IllegalMoveError, InvalidPositionError, PositionUnavailableError
from domain.kernel.positions import RULE, counted
from domain.kernel.values import evolve
from domain.kernel.viewers import Viewer

from . import actions
from .round_end import BANK_CLERK, SHOW_ORGANISER
from .sharing import unfilled
from .state import RESOLVE, FameEntry, HandCard, Hired, Player, RowCard, State

Ids = tuple[str, ...]
DECKS = ("performer_deck", "helper_deck", "investment_deck", "investment_bottom")
"""The parts only the arbiter sees (DR-2.2: nobody looks into a deck)."""
BIZARRE = "bizarre"
"""The performer type whose trailer may be shared (DR-20.3): a type id the rules name."""
PHASES = ("upkeep", "sharing", "after_sharing")
"""What follows the resolution in a preparation round (tasks.py's `prep_round` program)."""


class HiredPosition(PositionModel):
    """A performer in a circus."""

    card: str = Field(min_length=1, max_length=16)
    cubes: tuple[Ids, Ids, Ids] = Field(default=((), (), ()), description=(
        "the cubes placed on the poor, good and outstanding levels, by colour, in the order placed"))
    flipped: int | None = Field(default=None, ge=1, le=3, description="the performance it was flipped in")
    trailer: bool = Field(default=False, description="it has a trailer of its own")
    shares_trailer_of: str | None = Field(default=None, max_length=16, description=(
        "the bizarre performer of the same circus whose trailer it shares (DR-20.3)"))
    level: int | None = Field(default=None, ge=0, le=3, description=(
        "the level reached in its latest performance (3: flipped), null before its first"))
    performed: int | None = Field(default=None, ge=1, le=3, description="the performance `level` was reached in")


class HandPosition(PositionModel):
    """An investment card in hand and the uses of it spent (DR-21.6)."""

    card: str = Field(min_length=1, max_length=16)
    used: int = Field(default=0, ge=0, le=20)


class PlayerPosition(PositionModel):
    """One circus and its player's supply."""

    money: int = Field(ge=0, le=10_000)
    deposit: int = Field(default=0, ge=0, le=10_000, description="money locked on the bank clerk (DR-19.6)")
    fame: int = Field(default=0, ge=-1_000, le=10_000, description="fame so far (it may be below 0, DR-0.4)")
    ticket: int = Field(default=0, ge=0, le=50, description="the ticket cube's space: 0 the start (DR-5.5)")
    region: str = Field(min_length=1, max_length=32)
    cubes: dict[str, int] = Field(max_length=10, description="the cube supply on the player board, by colour")
    performers: tuple[HiredPosition, ...] = Field(max_length=45)
    helpers: Ids = Field(default=(), max_length=15)
    hand: tuple[HandPosition, ...] = Field(default=(), max_length=30, description="investment cards in hand")
    markers: int = Field(ge=0, le=10, description="action markers not yet placed or passed this round")


class PlacedPosition(PositionModel):
    """An action marker placed this round (DR-4.4: it waits for the resolution)."""

    space: str = Field(min_length=1, max_length=32, description=(
        "a cube action (its colour), ticket, investment, hire_performer or hire_helper"))
    seat: int = Field(ge=0, le=3)
    unlocked: bool = Field(default=False, description=(
        "placed with an Unlock occupied action card on a cube action already taken or closed (DR-21.10)"))


class RowPosition(PositionModel):
    card: str = Field(min_length=1, max_length=16)
    discounts: int = Field(default=0, ge=0, le=50)


class DrumRollPosition(PositionModel):
    """A Drum Roll table between two turns of a preparation round's action phase."""

    performance: int = Field(ge=1, le=3, description="the performance being prepared, from 1")
    round: int = Field(ge=1, le=10, description="the preparation round, from 1")
    start_player: int = Field(ge=0, le=3)
    to_move: int = Field(ge=0, le=3, description="the seat to place (or pass with) an action marker")
    placed: tuple[PlacedPosition, ...] = Field(default=(), max_length=20, description=(
        "the markers placed this round, in the order placed"))
    players: tuple[PlayerPosition, ...] = Field(min_length=2, max_length=4)
    performer_row: tuple[RowPosition, ...] = Field(max_length=10)
    helper_row: tuple[RowPosition, ...] = Field(max_length=10)
    cubes: dict[str, int] = Field(max_length=10, description="the general supply's cubes, by colour")
    discounts: int = Field(ge=0, le=100, description="discount tokens in the general supply")
    trailers: int = Field(ge=0, le=100, description="trailers in the general supply")
    performer_deck: Ids = Field(max_length=100, description="a multiset")
    helper_deck: Ids = Field(max_length=100, description="a multiset")
    investment_deck: Ids = Field(max_length=100, description="a multiset")
    investment_bottom: Ids = Field(default=(), max_length=100, description=(
        "cards put under the investment deck after a look (DR-18.9), first put there first"))
    performer_discard: Ids = Field(default=(), max_length=100)
    helper_discard: Ids = Field(default=(), max_length=100)
    investment_discard: Ids = Field(default=(), max_length=100)
    neutral_region: str | None = Field(default=None, max_length=32, description=(
        "two players: the imaginary third player's region (DR-22.1)"))
    organiser_returned: int | None = Field(default=None, ge=0, le=3, description=(
        "the seat that returned the show organiser at the end of the last round, or just before the last "
        "performance when this is round 1 of the next (DR-19.2)"))


def _fail(path: str, rule: str, reason: str) -> InvalidPositionError:
    return InvalidPositionError(path, rule, reason)


# ---- reading a state ----------------------------------------------------------------------------


def _agenda(state: State, to_move: int, held: tuple[Step, ...]) -> tuple[Step, ...]:
    """The agenda at `to_move`'s turn to place a marker: its turn, the rotation going on from the
    next seat clockwise from the start player (DR-4.1), the resolution holding the markers placed,
    then the rest of the round (tasks.py)."""
    order = state.clockwise()
    number = state.round
    resolve = Step(RESOLVE, round=number, held=held) if held else Step(RESOLVE, round=number)
    return (Step("place_marker", round=number, seat=to_move),
            Step("placement", round=number, at=(order.index(to_move) + 1) % len(order)), resolve,
            *(Step(kind, round=number) for kind in PHASES))


def _to_move(state: State) -> int | None:
    """The seat whose marker turn the match waits for, or None when it waits for something else."""
    agenda = state.agenda
    if state.over or state.performance < 1 or state.round < 1 or state.start_player is None or not agenda:
        return None
    head = agenda[0]
    if head.kind != "place_marker" or head.seat is None:
        return None
    if agenda != _agenda(state, head.seat, state.placements()):
        return None
    return head.seat


def _unlocked(state: State) -> list[bool]:
    """Per marker placed this round, whether an Unlock card placed it: a cube action taken earlier
    this round (DR-5.2) or closed by the player-count limit (DR-5.3) takes a marker only with one
    (DR-21.10). The card is spent by then, so the placement order is what tells."""
    limit = state.components.for_players(state.seats).cube_actions
    taken: list[str] = []
    flags = []
    for step in state.placements():
        colour = str(step["colour"]) if step.kind == actions.CUBE else None
        flags.append(colour is not None and (colour in taken or len(set(taken)) >= limit))
        if colour is not None:
            taken.append(colour)
    return flags


def position_of(state: State) -> dict[str, Any]:
    """The state as a position (normal form: decks and discard piles sorted, cube supplies listing
    every colour in the component set's order, the rest in the order the table holds it)."""
    seat = _to_move(state)
    if seat is None:
        raise PositionUnavailableError(
            "the game is over" if state.over else
            "Drum Roll positions describe the table between two turns of a preparation round's action phase, and "
            "this is not one (the setup, a resolution, a sharing phase, an end of round, a vote or a performance "
            "is in progress)")
    assert state.start_player is not None
    colours = state.components.colours()
    position = DrumRollPosition(
        performance=state.performance, round=state.round, start_player=state.start_player, to_move=seat,
        placed=tuple(PlacedPosition(space=str(step["colour"]) if step.kind == actions.CUBE else step.kind,
                                    seat=step.seat if step.seat is not None else 0, unlocked=unlocked)
                     for step, unlocked in zip(state.placements(), _unlocked(state), strict=True)),
        players=tuple(_player_position(player, colours) for player in state.players),
        performer_row=tuple(RowPosition(card=c.card, discounts=c.discounts) for c in state.performer_row),
        helper_row=tuple(RowPosition(card=c.card, discounts=c.discounts) for c in state.helper_row),
        cubes={colour: state.cubes.get(colour, 0) for colour in colours},
        discounts=state.discounts, trailers=state.trailers,
        performer_deck=tuple(sorted(state.performer_deck)), helper_deck=tuple(sorted(state.helper_deck)),
        investment_deck=tuple(sorted(state.investment_deck)), investment_bottom=state.investment_bottom,
        performer_discard=tuple(sorted(state.performer_discard)), helper_discard=tuple(sorted(state.helper_discard)),
        investment_discard=tuple(sorted(state.investment_discard)),
        neutral_region=state.neutral_region, organiser_returned=state.organiser_returned)
    data: dict[str, Any] = position.model_dump(mode="json")
    return data


def _player_position(player: Player, colours: tuple[str, ...]) -> PlayerPosition:
    return PlayerPosition(
        money=player.money, deposit=player.deposit, fame=player.fame, ticket=player.ticket,
        region=player.region or "", cubes={colour: player.cubes.get(colour, 0) for colour in colours},
        performers=tuple(HiredPosition(card=h.card, cubes=(h.cubes[0], h.cubes[1], h.cubes[2]), flipped=h.flipped,
                                       trailer=h.trailer, shares_trailer_of=h.shares_trailer_of, level=h.level,
                                       performed=h.performed) for h in player.performers),
        helpers=player.helpers, hand=tuple(HandPosition(card=c.card, used=c.used) for c in player.hand),
        markers=player.markers)


def hide_position(position: dict[str, Any], viewer: Viewer) -> dict[str, Any]:
    """As the view hides them (views.py): the decks and the cards under the investment deck are
    counted for everyone but the arbiter; another seat's investment hand is counted (DR-21)."""
    return counted(position, viewer, DECKS, "hand")


# ---- building the state -------------------------------------------------------------------------


def from_position(base: State, position: DrumRollPosition) -> State:
    """The state `position` describes, built on `base` (the setup of the same match config: its
    components, options and seat count); refuses an inconsistent position with an
    InvalidPositionError naming the field and the rule."""
    _table(base, position)
    _cards(base, position)
    _rows(base, position)
    for seat in range(base.seats):
        _circus(base, position, seat)
    _supply(base, position)
    _markers(base, position)
    colours = base.components.colours()
    players = tuple(
        Player(money=given.money, fame=given.fame, deposit=given.deposit, ticket=given.ticket,
               cubes={colour: given.cubes.get(colour, 0) for colour in colours},
               performers=tuple(Hired(card=h.card, cubes=tuple(tuple(level) for level in h.cubes), flipped=h.flipped,
                                      trailer=h.trailer, shares_trailer_of=h.shares_trailer_of, level=h.level,
                                      performed=h.performed) for h in given.performers),
               helpers=tuple(given.helpers), hand=tuple(HandCard(c.card, c.used) for c in given.hand),
               region=given.region, markers=given.markers,
               ledger=(FameEntry(given.fame, RULE, "position", "fame before the position"),) if given.fame else ())
        for given in position.players)
    state = evolve(
        base, performance=position.performance, round=position.round, start_player=position.start_player,
        players=players,
        performer_deck=tuple(sorted(position.performer_deck)), helper_deck=tuple(sorted(position.helper_deck)),
        investment_deck=tuple(sorted(position.investment_deck)), investment_bottom=tuple(position.investment_bottom),
        performer_discard=tuple(sorted(position.performer_discard)),
        helper_discard=tuple(sorted(position.helper_discard)),
        investment_discard=tuple(sorted(position.investment_discard)),
        performer_row=tuple(RowCard(c.card, c.discounts) for c in position.performer_row),
        helper_row=tuple(RowCard(c.card, c.discounts) for c in position.helper_row),
        regions=(), neutral_region=position.neutral_region,
        cubes={colour: position.cubes.get(colour, 0) for colour in colours},
        discounts=position.discounts, trailers=position.trailers,
        votes=(None,) * base.seats, doubled=(False,) * base.seats, vote_round=0,
        organiser_returned=position.organiser_returned, over=False)
    state = evolve(state, agenda=_agenda(state, position.to_move, ()))
    return _placements(state, position)


def _table(base: State, position: DrumRollPosition) -> None:
    """One entry per seat; the performance and round the rules have (DR-3.1, DR-3.4); seats that
    exist; the regions (DR-2.8, DR-22.1); the show organiser's returner (DR-19.2)."""
    seats = base.seats
    components = base.components
    if len(position.players) != seats:
        raise _fail("players", RULE, f"one entry for each of the {seats} players, not {len(position.players)}")
    constants = components.constants
    if position.performance > constants.performances:
        raise _fail("performance", "DR-3.1", f"the game has {constants.performances} performances")
    if position.round > constants.rounds_max:
        raise _fail("round", "DR-3.4", f"a performance has at most {constants.rounds_max} preparation rounds")
    for name in ("start_player", "to_move", "organiser_returned"):
        seat = getattr(position, name)
        if seat is not None and seat >= seats:
            raise _fail(name, RULE, f"there is no seat {seat} among {seats}")
    known = {region.id for region in components.regions}
    seen: dict[str, str] = {}
    wanted = [(f"players.{seat}.region", player.region) for seat, player in enumerate(position.players)]
    neutral = components.for_players(seats).neutral_region
    if neutral != (position.neutral_region is not None):
        raise _fail("neutral_region", "DR-22.1", "two players, and only two, have an imaginary third player's "
                                                 "region")
    if position.neutral_region is not None:
        wanted.append(("neutral_region", position.neutral_region))
    for path, region in wanted:
        if region not in known:
            raise _fail(path, "DR-2.8", f"there is no region {region!r}")
        if region in seen:
            raise _fail(path, "DR-2.8", f"region {region} is also at {seen[region]}: each token is in one place")
        seen[region] = path
    if position.organiser_returned is not None:
        if position.round == 1 and position.performance == 1:
            raise _fail("organiser_returned", "DR-19.2", "the show organiser is returned at the end of a round or "
                                                         "just before a performance, so not before the first round")
        if position.round > 1 and not any(_helper_kind(base, c.card) == SHOW_ORGANISER for c in position.helper_row):
            raise _fail("organiser_returned", "DR-19.2", "the show organiser returned at the end of the last round "
                                                         "is in the helper row")
        if position.start_player != position.organiser_returned:
            raise _fail("organiser_returned", "DR-19.2", "the player who returned the show organiser starts the "
                                                         "round")


def _helper_kind(base: State, card: str) -> str | None:
    try:
        return base.components.helper(card).kind
    except KeyError:
        return None


def _cards(base: State, position: DrumRollPosition) -> None:
    """DR-1.5: every card of the set once, in one place: a circus, a hand, a row, a deck, a discard
    pile; no card the set does not have."""
    components = base.components
    for kind, cards, places in (
            ("performer", [c.id for c in components.performers], _performer_places(position)),
            ("helper", [c.id for c in components.helpers], _helper_places(position)),
            ("investment", [c.id for c in components.investments], _investment_places(position))):
        known = set(cards)
        where: dict[str, str] = {}
        for path, card in places:
            if card not in known:
                raise _fail(path, RULE, f"there is no {kind} card {card!r} in this component set")
            if card in where:
                raise _fail(path, "DR-1.5", f"{kind} card {card} is also at {where[card]}: each card is in one place")
            where[card] = path
        missing = sorted(known - set(where))
        if missing:
            raise _fail(f"{kind}_deck", "DR-1.5", f"{kind} card {missing[0]} is nowhere: every card is in a circus, "
                                                  "a hand, a row, a deck or a discard pile")


def _listed(path: str, cards: tuple[str, ...]) -> list[tuple[str, str]]:
    return [(f"{path}.{index}", card) for index, card in enumerate(cards)]


def _performer_places(position: DrumRollPosition) -> list[tuple[str, str]]:
    places = [(f"players.{seat}.performers.{index}.card", hired.card)
              for seat, player in enumerate(position.players) for index, hired in enumerate(player.performers)]
    places += [(f"performer_row.{index}.card", c.card) for index, c in enumerate(position.performer_row)]
    return places + _listed("performer_deck", position.performer_deck) + \
        _listed("performer_discard", position.performer_discard)


def _helper_places(position: DrumRollPosition) -> list[tuple[str, str]]:
    places = [(f"players.{seat}.helpers.{index}", card)
              for seat, player in enumerate(position.players) for index, card in enumerate(player.helpers)]
    places += [(f"helper_row.{index}.card", c.card) for index, c in enumerate(position.helper_row)]
    return places + _listed("helper_deck", position.helper_deck) + _listed("helper_discard", position.helper_discard)


def _investment_places(position: DrumRollPosition) -> list[tuple[str, str]]:
    places = [(f"players.{seat}.hand.{index}.card", held.card)
              for seat, player in enumerate(position.players) for index, held in enumerate(player.hand)]
    return places + _listed("investment_deck", position.investment_deck) + \
        _listed("investment_bottom", position.investment_bottom) + \
        _listed("investment_discard", position.investment_discard)


def _rows(base: State, position: DrumRollPosition) -> None:
    """DR-2.5, DR-9.3: at most N + 1 performers in the row, of no type more than the limit (DR-2.6,
    DR-22.4); DR-2.4, DR-9.2: at most N helpers, one more while a returned show organiser is there;
    DR-7.1: a card already free at an upkeep was discarded, so no card holds more tokens than its
    printed cost."""
    components = base.components
    count = components.for_players(base.seats)
    if len(position.performer_row) > count.performer_row:
        raise _fail("performer_row", "DR-9.3", f"the performer row holds at most {count.performer_row} cards")
    # A returned show organiser joins a full row (DR-9.2: the refill never removes a card) and stays
    # there until hired or discarded, so a row holding it may hold one card more.
    extra = 1 if any(_helper_kind(base, c.card) == SHOW_ORGANISER for c in position.helper_row) else 0
    if len(position.helper_row) > count.helper_row + extra:
        raise _fail("helper_row", "DR-9.2", f"the helper row holds at most {count.helper_row + extra} cards")
    types: Counter[str] = Counter()
    limit_rule = "DR-22.4" if count.players == 2 else "DR-2.6"
    for index, row_card in enumerate(position.performer_row):
        performer = components.performer(row_card.card)
        types[performer.type] += 1
        if types[performer.type] > count.type_limit:
            raise _fail(f"performer_row.{index}", limit_rule, f"at most {count.type_limit} performers of a type in "
                                                              "the row")
        if row_card.discounts > performer.hire_cost:
            raise _fail(f"performer_row.{index}.discounts", "DR-7.1", "a card already free at an upkeep was "
                                                                      "discarded, so it gains no more tokens")
    for index, row_card in enumerate(position.helper_row):
        if row_card.discounts > components.helper(row_card.card).hire_cost:
            raise _fail(f"helper_row.{index}.discounts", "DR-7.1", "a card already free at an upkeep was "
                                                                   "discarded, so it gains no more tokens")


def _circus(base: State, position: DrumRollPosition, seat: int) -> None:
    """One circus: cube colours of the set; the ticket on the track (DR-5.5); a deposit only on a
    bank clerk (DR-19.6); cubes on a level only for its requirements (DR-8.3), none on a flipped
    performer (DR-8.4); flips and last levels in past performances (DR-17.7, DR-11.14); trailers
    (DR-20.1, DR-20.3); hand cards with uses left (DR-21.6)."""
    components = base.components
    given = position.players[seat]
    path = f"players.{seat}"
    colours = set(components.colours())
    for colour in given.cubes:
        if colour not in colours:
            raise _fail(f"{path}.cubes.{colour}", "DR-0.5", f"there is no {colour!r} cube")
        if given.cubes[colour] < 0:
            raise _fail(f"{path}.cubes.{colour}", "DR-1.6", "a cube supply holds no fewer than 0 cubes")
    track = len(components.ticket_track.spaces)
    if given.ticket > track:
        raise _fail(f"{path}.ticket", "DR-5.5", f"the ticket track has {track} spaces after the start")
    if given.deposit and not any(_helper_kind(base, card) == BANK_CLERK for card in given.helpers):
        raise _fail(f"{path}.deposit", "DR-19.6", "money is deposited only on a bank clerk in the circus")
    if given.markers > components.constants.markers:
        raise _fail(f"{path}.markers", "DR-1.7", f"a player has {components.constants.markers} action markers")
    own = {hired.card: hired for hired in given.performers}
    sharers: Counter[str] = Counter()
    for index, hired in enumerate(given.performers):
        where = f"{path}.performers.{index}"
        performer = components.performer(hired.card)
        for level, placed in enumerate(hired.cubes):
            for colour in placed:
                if colour not in colours:
                    raise _fail(f"{where}.cubes.{level}", "DR-0.5", f"there is no {colour!r} cube")
            required = performer.levels[level].cubes
            if len(placed) > len(required) or unfilled(required, tuple(placed)).total() != \
                    len(required) - len(placed):
                raise _fail(f"{where}.cubes.{level}", "DR-8.3", f"the {performer.levels[level].level} level takes "
                                                                f"{', '.join(required)}, not {', '.join(placed)}")
        if hired.flipped is not None:
            if hired.flipped >= position.performance:
                raise _fail(f"{where}.flipped", "DR-17.7", "a performer is flipped in a performance already played")
            if any(hired.cubes):
                raise _fail(f"{where}.cubes", "DR-8.4", "the cubes on a flipped performer went back to the supply")
        if (hired.level is None) != (hired.performed is None):
            raise _fail(f"{where}.level", "DR-11.14", "a level reached comes with the performance it was reached in")
        if hired.performed is not None and hired.performed >= position.performance:
            raise _fail(f"{where}.performed", "DR-11.14", "a level is reached in a performance already played")
        if hired.shares_trailer_of is not None:
            other = own.get(hired.shares_trailer_of)
            if hired.trailer:
                raise _fail(f"{where}.shares_trailer_of", "DR-20.1", "a performer has at most one trailer")
            if other is None or not other.trailer or other.shares_trailer_of is not None or \
                    components.performer(other.card).type != BIZARRE:
                raise _fail(f"{where}.shares_trailer_of", "DR-20.3", "a trailer is shared only from a bizarre "
                                                                     "performer of the same circus that has one")
            sharers[hired.shares_trailer_of] += 1
            if sharers[hired.shares_trailer_of] > 1:
                raise _fail(f"{where}.shares_trailer_of", "DR-20.3", "a trailer is shared by one other performer")
    for index, held in enumerate(given.hand):
        uses = components.investment(held.card).uses
        if uses is not None and held.used >= uses:
            raise _fail(f"{path}.hand.{index}.used", "DR-21.6", "a card with no use left was discarded")


def _supply(base: State, position: DrumRollPosition) -> None:
    """Conservation (DR-1.2, DR-1.6, DR-0.6): every cube, discount token and trailer is in the
    general supply, a cube supply, on a performer or on a row card; none is made or lost."""
    components = base.components
    for colour in position.cubes:
        if colour not in components.colours():
            raise _fail(f"cubes.{colour}", "DR-0.5", f"there is no {colour!r} cube")
    for resource in components.resources:
        colour = resource.id
        held = sum(player.cubes.get(colour, 0) for player in position.players)
        placed = sum(level.count(colour) for player in position.players for hired in player.performers
                     for level in hired.cubes)
        supply = position.cubes.get(colour, 0)
        if supply + held + placed != resource.supply:
            raise _fail(f"cubes.{colour}", "DR-1.6", f"{resource.supply} {colour} cubes in all: {supply} in the "
                                                     f"general supply, {held} in cube supplies and {placed} on "
                                                     "performers")
    constants = components.constants
    on_rows = sum(c.discounts for c in (*position.performer_row, *position.helper_row))
    if position.discounts + on_rows != constants.discount_tokens:
        raise _fail("discounts", "DR-1.2", f"{constants.discount_tokens} discount tokens in all: {position.discounts} "
                                           f"in the general supply and {on_rows} on the rows")
    owned = sum(1 for player in position.players for hired in player.performers if hired.trailer)
    if position.trailers + owned != constants.trailers:
        raise _fail("trailers", "DR-1.2", f"{constants.trailers} trailers in all: {position.trailers} in the general "
                                          f"supply and {owned} in the circuses")


def _markers(base: State, position: DrumRollPosition) -> None:
    """DR-4.1: markers are placed one at a time clockwise from the start player, so the seats before
    `to_move` in this lap have used one marker more than it and the seats after it; `to_move` has
    one left; no seat placed more markers than it used."""
    seats = base.seats
    order = [(position.start_player + offset) % seats for offset in range(seats)]
    turn = order.index(position.to_move)
    total = base.components.constants.markers
    used = [total - player.markers for player in position.players]
    lap = used[position.to_move]
    if position.players[position.to_move].markers < 1:
        raise _fail(f"players.{position.to_move}.markers", "DR-4.1", "the seat to move has a marker to place")
    for index, seat in enumerate(order):
        wanted = lap + 1 if index < turn else lap
        if used[seat] != wanted:
            raise _fail(f"players.{seat}.markers", "DR-4.1",
                        f"markers go round clockwise from the start player: seat {seat} has used {wanted}, "
                        f"so it has {total - wanted} left")
    placed = Counter(p.seat for p in position.placed)
    for seat in range(seats):
        if placed[seat] > used[seat]:
            raise _fail("placed", "DR-4.1", f"seat {seat} placed {placed[seat]} markers and has used {used[seat]}")


def _placements(state: State, position: DrumRollPosition) -> State:
    """The markers placed this round, held for the resolution in order, each checked against the
    limits of DR-5 as it was placed (the action phase's own check, actions.refusal)."""
    colours = state.components.colours()
    for index, placed in enumerate(position.placed):
        if placed.seat >= state.seats:
            raise _fail(f"placed.{index}.seat", RULE, f"there is no seat {placed.seat} among {state.seats}")
        error = actions.refusal(state, placed.seat, placed.space)
        if placed.unlocked:  # DR-21.10: the card opens a taken or closed cube action, nothing else
            if error is None:
                error = IllegalMoveError("DR-21.10", f"the {placed.space} action was open: no Unlock card is needed")
            elif error.rule in ("DR-5.2", "DR-5.3"):
                error = actions.unlocked_refusal(state, placed.seat, placed.space)
        if error is not None:
            raise _fail(f"placed.{index}.space", error.rule, error.reason)
        step = Step(actions.CUBE, seat=placed.seat, colour=placed.space) if placed.space in colours else \
            Step(placed.space, seat=placed.seat)
        state = hold(state, RESOLVE, step)
    if not actions.place_needed(state, state.agenda[0]):
        raise _fail("to_move", "DR-5.17", f"seat {position.to_move} has no space open for its marker, so it has "
                                          "passed with it at once: that is not a turn")
    return state
