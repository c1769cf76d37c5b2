"""Russian Railroads positions: the table between two turns of the action phase, as a player
describes it (docs/positions.md).

A position is the round, the turn-order track (each seat's position), who has passed and whose turn
it is, everything on the action spaces this round (in the order placed), each player's board
(tracks per railway and colour, locomotives, factories, industry markers, multipliers, workers in
supply and reserve, the temporary and black workers, rubles, engineers, bonus tokens used, one-time
special spaces already claimed, revaluation, Kiev medal, final bonus cards), the engineer strip,
the locomotive stacks, the face-up factory pool, the multipliers left, the face-up cards left, the
final bonus deck and the cards removed at setup, and the points scored so far.

Two things are written although no later turn reads them, so that a match from a position is the
very state the original was in: the starting bonus cards nobody drafted (RR-2.20) and the engineers
of decks X and Y that were never turned up (RR-2.8). The deck, the removed cards and the unseen
engineers are multisets with no order; only the arbiter sees them, and each seat sees only its own
final bonus cards (views.py). Positions describe the table between turns only: during the setup's
draws and draft, in the middle of an action, between the action phase and the next round (turn-order
workers to move) and after the game there is none.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Any

from pydantic import Field

from domain.kernel.agenda import Step
from domain.kernel.contract import PositionModel, ScoreLine
from domain.kernel.errors import InvalidPositionError, PositionUnavailableError
from domain.kernel.positions import RULE, counted, position_line
from domain.kernel.viewers import Viewer

from . import board
from .components import RussianRailroadsComponents
from .parts import space_cost, space_effects
from .state import Placement, Player, State

Ids = tuple[str, ...]
HIDDEN = ("bonus_deck", "removed_bonus", "unseen_engineers")
"""The parts only the arbiter sees (RR-2.3, RR-2.8, RR-21.2)."""


class PlacementPosition(PositionModel):
    """What one seat put on an action space this round (RR-5.2, RR-5.6)."""

    space: str = Field(min_length=1, max_length=64, description="a board action space, or an own engineer's id")
    seat: int = Field(ge=0, le=3)
    workers: int = Field(default=0, ge=0, le=10, description="own-colour workers")
    temporary: int = Field(default=0, ge=0, le=2)
    black: int = Field(default=0, ge=0, le=1)
    rubles: int = Field(default=0, ge=0, le=10)


class PlayerPosition(PositionModel):
    """One player's board and personal supply."""

    tracks: dict[str, dict[str, int]] = Field(max_length=10, description=(
        "railway -> colour -> the track's position (0: acquired, beside the railway, RR-0.3)"))
    locomotives: dict[str, tuple[int, ...]] = Field(max_length=10, description=(
        "railway -> the locomotive values in its slots, in slot order (RR-7.3)"))
    factories: tuple[int | None, ...] = Field(max_length=10, description=(
        "each factory space of the industry track, left to right: a factory (its locomotive value) or null"))
    markers: tuple[int, ...] = Field(min_length=1, max_length=2, description=(
        "the industry markers' places on the industry track (a second one after token T3)"))
    multipliers: int = Field(ge=0, le=20)
    workers: int = Field(ge=0, le=20, description="own-colour workers in the personal supply")
    reserve: int = Field(ge=0, le=20, description="own-colour workers still in the reserve")
    gained_workers: int = Field(default=0, ge=0, le=20, description="workers gained from the reserve (B4)")
    temporary: int = Field(default=0, ge=0, le=2, description="temporary workers in the personal supply")
    black_worker: bool = Field(default=False, description="owns the black worker (card C2)")
    black_in_supply: bool = Field(default=False, description="the black worker is in the personal supply")
    rubles: int = Field(ge=0, le=1_000)
    engineers: Ids = Field(default=(), max_length=20, description="engineers owned, in the order gained")
    tokens: Ids = Field(default=(), max_length=10, description="bonus tokens used, in the order used")
    claimed: Ids = Field(default=(), max_length=40, description=(
        "one-time spaces already gained, in the order gained: railway:space, railway:terminus, industry"))
    revalued: bool = False
    medal: bool = False
    bonus_cards: Ids = Field(default=(), max_length=10, description="final bonus cards, face down")
    passed: bool = False


class RussianRailroadsPosition(PositionModel):
    """A Russian Railroads table between two turns of the action phase."""

    round: int = Field(ge=1, le=12, description="the round being played, from 1")
    to_move: int = Field(ge=0, le=3, description="whose turn it is (a seat that has not passed)")
    turn_order: tuple[int, ...] = Field(min_length=2, max_length=4, description=(
        "each seat's position on the turn-order track, 1 first"))
    placements: tuple[PlacementPosition, ...] = Field(default=(), max_length=200, description=(
        "everything on the action spaces this round, in the order placed"))
    players: tuple[PlayerPosition, ...] = Field(min_length=2, max_length=4)
    engineer_strip: tuple[str | None, ...] = Field(max_length=10, description=(
        "the engineer on each space of the engineer area, left to right (the hiring space last)"))
    stacks: dict[str, int] = Field(max_length=20, description="locomotives left in each stack, by value")
    factory_pool: tuple[int, ...] = Field(default=(), max_length=50, description="the face-up factory pool")
    multipliers_left: int = Field(ge=0, le=100)
    face_up_cards: Ids = Field(default=(), max_length=10, description="face-up cards still in play")
    bonus_deck: Ids = Field(max_length=20, description="the final bonus deck (a multiset)")
    removed_bonus: Ids = Field(max_length=20, description="the final bonus cards removed unseen at setup")
    unseen_engineers: Ids = Field(default=(), max_length=30, description=(
        "engineers of decks X and Y never turned up (they left the game unseen, RR-2.8)"))
    scores: tuple[int, ...] = Field(min_length=2, max_length=4, description="each seat's points so far")


def _fail(path: str, rule: str, reason: str) -> InvalidPositionError:
    return InvalidPositionError(path, rule, reason)


def _card_with(components: RussianRailroadsComponents, kind: str) -> str | None:
    """The face-up card that carries an effect of `kind` (C2's black worker, C3's engineer, C4's #9)."""
    return next((c.id for c in components.face_up_cards if any(e.kind == kind for e in c.effects)), None)


def _token_with(components: RussianRailroadsComponents, kind: str) -> str | None:
    """The bonus token that carries an effect of `kind` (T3, T5, T6)."""
    return next((t.id for t in components.tokens if any(e.kind == kind for e in t.effects)), None)


def _tail(round_: int) -> tuple[Step, ...]:
    """What follows the action phase of `round_`: the round's closing phases, the next rounds and
    the final scoring (the agenda the round program and the rounds step leave, tasks.py)."""
    return (Step("reorganise", round=round_), Step("reuse", round=round_), Step("scoring", round=round_),
            Step("cleanup", round=round_), Step("game", round=round_ + 1), Step("final_scoring"))


def _agenda(state: State, to_move: int) -> tuple[Step, ...]:
    order = state.order()
    return (Step("turn", round=state.round, seat=to_move),
            Step("actions", round=state.round, at=(order.index(to_move) + 1) % len(order)), *_tail(state.round))


def _to_move(state: State) -> int | None:
    """The seat whose turn it is when the match waits for a turn of the action phase, else None."""
    agenda = state.agenda
    if state.over or state.round < 1 or not agenda or agenda[0].kind != "turn":
        return None
    seat = agenda[0].seat
    if seat is None or agenda != _agenda(state, seat):
        return None
    return seat


def position_of(state: State) -> dict[str, Any]:
    """The state as a position (normal form: the deck, the removed cards and the unseen engineers
    sorted, the rest in the order the table holds it)."""
    seat = _to_move(state)
    if seat is None:
        raise PositionUnavailableError(
            "the game is over" if state.over else
            "Russian Railroads positions describe the table between two turns of the action phase, and this is not "
            "one (the setup, an action or the end of a round is in progress)")
    totals = [0] * state.seats
    for line in state.lines:
        totals[line.seat] += line.points
    components = state.components
    position = RussianRailroadsPosition(
        round=state.round, to_move=seat, turn_order=state.positions,
        placements=tuple(PlacementPosition(space=p.space, seat=p.seat, workers=p.workers, temporary=p.temporary,
                                           black=p.black, rubles=p.rubles) for p in state.placements),
        players=tuple(_player_position(components, player) for player in state.players),
        engineer_strip=state.strip, stacks=dict(state.stacks), factory_pool=state.pool,
        multipliers_left=state.multipliers_left, face_up_cards=state.face_up,
        bonus_deck=tuple(sorted(state.bonus_deck)),
        removed_bonus=tuple(sorted(state.removed_bonus)),
        unseen_engineers=tuple(sorted(e for deck in state.decks.values() for e in deck)),
        scores=tuple(totals),
    )
    data: dict[str, Any] = position.model_dump(mode="json")
    return data


def _player_position(components: RussianRailroadsComponents, player: Player) -> PlayerPosition:
    return PlayerPosition(
        tracks={r.id: {c: player.tracks[r.id][c] for c in r.colours if c in player.tracks[r.id]}
                for r in components.railways if r.id in player.tracks},
        locomotives={r.id: player.locomotives[r.id] for r in components.railways if player.locomotives.get(r.id)},
        factories=player.factories, markers=player.markers, multipliers=player.multipliers, workers=player.workers,
        reserve=player.reserve, gained_workers=player.gained_workers, temporary=player.temporary,
        black_worker=player.black_worker, black_in_supply=player.black_in_supply, rubles=player.rubles,
        engineers=player.engineers, tokens=player.tokens, claimed=player.claimed, revalued=player.revalued,
        medal=player.medal, bonus_cards=player.bonus_cards, passed=player.passed)


def hide_position(position: dict[str, Any], viewer: Viewer) -> dict[str, Any]:
    """As the view hides them (views.py): other seats' final bonus cards are counted, not shown
    (RR-21.2); the deck, the removed cards and the unseen engineers are counted for everyone but the
    arbiter (RR-2.3, RR-2.8). Between turns no seat is looking through the deck."""
    return counted(position, viewer, HIDDEN, "bonus_cards")


# ---- building the state -------------------------------------------------------------------------


def from_position(base: State, position: RussianRailroadsPosition) -> State:
    """The state `position` describes, built on `base` (the setup of the same match config: its
    components, options and seat count); refuses an inconsistent position with an
    InvalidPositionError naming the field and the rule."""
    seats = base.seats
    for name in ("players", "turn_order", "scores"):
        if len(getattr(position, name)) != seats:
            raise _fail(name, RULE, f"one entry for each of the {seats} players, not {len(getattr(position, name))}")
    negative = [seat for seat, points in enumerate(position.scores) if points < 0]
    if negative:
        raise _fail(f"scores.{negative[0]}", RULE, "no rule takes points away")
    if position.round > base.rounds:
        raise _fail("round", "RR-3.1", f"a {seats}-player game lasts {base.rounds} rounds, not {position.round}")
    if sorted(position.turn_order) != list(range(1, seats + 1)):
        raise _fail("turn_order", "RR-2.18", f"the seats hold the turn-order positions 1 to {seats}, each once")
    if position.to_move >= seats:
        raise _fail("to_move", RULE, f"there is no seat {position.to_move} among {seats}")
    if position.players[position.to_move].passed:
        raise _fail("to_move", "RR-12.3", "a player who has passed takes no more turns this round")
    players = tuple(_player(base, position, seat) for seat in range(seats))
    state = replace(base, round=position.round, positions=tuple(position.turn_order), players=players,
                    placements=(), over=False)
    state = replace(state, strip=_strip(state, position))
    placements = _placements(state, position)
    state = replace(state, placements=placements)
    _workers(state, position)
    _engineers(state, position)
    state = _cards(state, position)
    _locomotives(state, position)
    multipliers = sum(player.multipliers for player in players)
    supply = base.components.constants.multiplier_supply
    if base.options.multiplier_limit and multipliers > supply:
        raise _fail("multipliers_left", "RR-1.4", f"{multipliers} multipliers are placed, and the supply has {supply}")
    if position.multipliers_left != max(supply - multipliers, 0):
        raise _fail("multipliers_left", "RR-1.4", f"{supply} multipliers less the {multipliers} placed leave "
                                                  f"{max(supply - multipliers, 0)}")
    decks = {deck: tuple(sorted(e for e in position.unseen_engineers if base.components.engineer(e).deck == deck))
             for deck in base.decks}
    state = replace(state, stacks=dict(position.stacks), pool=tuple(sorted(position.factory_pool)),
                    multipliers_left=position.multipliers_left, decks=decks, lines=_lines(position))
    return replace(state, agenda=_agenda(state, position.to_move))


def _lines(position: RussianRailroadsPosition) -> tuple[ScoreLine, ...]:
    """The points from before the position, one line per seat that has any."""
    lines = (position_line(seat, points) for seat, points in enumerate(position.scores))
    return tuple(line for line in lines if line.points)


def _player(base: State, position: RussianRailroadsPosition, seat: int) -> Player:
    given = position.players[seat]
    path = f"players.{seat}"
    components = base.components
    _tracks(base, given, path)
    locomotives: dict[str, tuple[int, ...]] = {}
    values = {int(value) for value in components.locomotives}
    for railway_id, held in given.locomotives.items():
        try:
            railway = components.railway(railway_id)
        except KeyError:
            raise _fail(f"{path}.locomotives", "RR-0.1", f"there is no railway {railway_id!r}") from None
        if len(held) > railway.locomotive_slots:
            raise _fail(f"{path}.locomotives.{railway_id}", "RR-7.3",
                        f"the {railway.name} holds at most {railway.locomotive_slots} locomotive"
                        f"{'s' if railway.locomotive_slots != 1 else ''}, not {len(held)}")
        for index, value in enumerate(held):
            if value not in values:
                raise _fail(f"{path}.locomotives.{railway_id}.{index}", "RR-1.2", f"there is no #{value} locomotive")
        if held:
            locomotives[railway_id] = tuple(held)
    _industry(base, given, path)
    spaces = len(components.constants.multiplier_spaces)
    if given.multipliers > spaces:
        raise _fail(f"{path}.multipliers", "RR-10.3", f"a player board has {spaces} multiplier spaces")
    _tokens(base, given, path)
    _claimed(base, given, path, locomotives)
    return Player(
        tracks={r.id: {c: given.tracks[r.id][c] for c in r.colours if c in given.tracks[r.id]}
                for r in components.railways if r.id in given.tracks},
        locomotives=locomotives, factories=tuple(given.factories), markers=tuple(given.markers),
        multipliers=given.multipliers, workers=given.workers, reserve=given.reserve,
        gained_workers=given.gained_workers, temporary=given.temporary, black_worker=given.black_worker,
        black_in_supply=given.black_in_supply, rubles=given.rubles, engineers=tuple(given.engineers),
        tokens=tuple(given.tokens), claimed=tuple(given.claimed), revalued=given.revalued, medal=given.medal,
        bonus_cards=tuple(given.bonus_cards), passed=given.passed)


def _tracks(base: State, given: PlayerPosition, path: str) -> None:
    """RR-0.3, RR-2.13, RR-6.1, RR-6.4, RR-6.7: a black track on each railway from space 1; only the
    railway's colours; at most one marker a space; each colour behind the one before it; a colour
    owned on every railway that has it once the TS space that hands it out was reached."""
    components = base.components
    for railway_id in given.tracks:
        if railway_id not in {r.id for r in components.railways}:
            raise _fail(f"{path}.tracks", "RR-0.1", f"there is no railway {railway_id!r}")
    order = [c.id for c in components.colours]
    for railway in components.railways:
        where = f"{path}.tracks.{railway.id}"
        held = given.tracks.get(railway.id, {})
        for colour in held:
            if colour not in order:
                raise _fail(f"{where}.{colour}", "RR-0.2", f"there is no {colour!r} track")
            if colour not in railway.colours:
                raise _fail(f"{where}.{colour}", "RR-6.1", f"the {railway.name} has no {colour} track")
        if held.get(order[0], 0) < 1:
            raise _fail(f"{where}.{order[0]}", "RR-2.13", f"the {order[0]} track stands on the {railway.name} from "
                                                           "space 1 on")
        seen: dict[int, str] = {}
        for colour in railway.colours:
            if colour not in held:
                continue
            spot = held[colour]
            if not 0 <= spot <= railway.spaces:
                raise _fail(f"{where}.{colour}", "RR-6.4", f"the {railway.name} has spaces 1 to {railway.spaces}")
            if spot and spot in seen:
                raise _fail(f"{where}.{colour}", "RR-0.3", f"space {spot} already holds the {seen[spot]} track")
            seen[spot] = colour
            before = board.preceding(components, colour)
            if before is not None:
                ahead = held.get(before)
                if ahead is None:
                    raise _fail(f"{where}.{colour}", "RR-6.7", f"a {colour} track comes after the {before} one")
                if spot and spot >= ahead:
                    raise _fail(f"{where}.{colour}", "RR-6.4", f"the {colour} track must stay behind the {before} "
                                                               f"track (space {ahead})")


def _industry(base: State, given: PlayerPosition, path: str) -> None:
    """RR-8.4, RR-8.8: one factory space per gap, filled from the left; RR-9.3, RR-9.5, RR-19.4: the
    markers on the track, not past an empty gap, not on the same space but the start, the second
    one only with token T3."""
    components = base.components
    slots = components.constants.factory_slots
    if len(given.factories) != slots:
        raise _fail(f"{path}.factories", "RR-8.8", f"the industry track has {slots} factory spaces")
    for index, value in enumerate(given.factories):
        if value is None:
            continue
        if index and given.factories[index - 1] is None:
            raise _fail(f"{path}.factories.{index}", "RR-8.4", "factory spaces are filled from left to right")
        if not any(f.locomotive == value for f in components.factories):
            raise _fail(f"{path}.factories.{index}", "RR-8.1", f"there is no factory #{value}")
    lane = board.lane(base)
    gaps = [index for index, place in enumerate(lane) if place.kind == "gap"]
    empty = [gap for number, gap in enumerate(gaps) if given.factories[number] is None]
    end = empty[0] if empty else len(lane)
    for index, marker in enumerate(given.markers):
        if not 0 <= marker < end:
            raise _fail(f"{path}.markers.{index}", "RR-9.3", "an industry marker stands on the track, never on or "
                                                             "past a factory space without a factory")
    if len(given.markers) == 2 and given.markers[0] == given.markers[1] != 0:
        raise _fail(f"{path}.markers.1", "RR-9.5", "the two industry markers never share a space")
    if (len(given.markers) == 2) != (_token_with(components, "second_industry_marker") in given.tokens):
        raise _fail(f"{path}.markers", "RR-19.4", "a player has a second industry marker once token T3 is used, "
                                                  "and only then")


def _tokens(base: State, given: PlayerPosition, path: str) -> None:
    """RR-13.11, RR-19.1: each of the player's tokens once; RR-19.6, RR-19.7: the revaluation and the
    Kiev medal are those tokens."""
    known = {t.id for t in base.components.tokens}
    for index, token in enumerate(given.tokens):
        if token not in known:
            raise _fail(f"{path}.tokens.{index}", "RR-19.1", f"there is no bonus token {token!r}")
        if token in given.tokens[:index]:
            raise _fail(f"{path}.tokens.{index}", "RR-13.11", f"bonus token {token} is used once")
    if given.revalued != (_token_with(base.components, "revaluation") in given.tokens):
        raise _fail(f"{path}.revalued", "RR-19.6", "the revaluation comes with token T5, and only with it")
    if given.medal != (_token_with(base.components, "kiev_medal") in given.tokens):
        raise _fail(f"{path}.medal", "RR-19.7", "the Kiev medal comes with token T6, and only with it")


def _claimed(base: State, given: PlayerPosition, path: str, locomotives: dict[str, tuple[int, ...]]) -> None:
    """RR-13.1, RR-13.4, RR-13.10: a one-time space is gained the moment its conditions hold, once;
    RR-6.7: the colours handed out by TS spaces are owned exactly when those spaces were gained;
    RR-13.11: one token for each token space gained."""
    components = base.components
    player = Player(tracks=given.tracks, locomotives=locomotives, factories=given.factories, markers=given.markers,
                    multipliers=0, workers=0, reserve=0, gained_workers=0, temporary=0, black_worker=False,
                    black_in_supply=False, rubles=0, engineers=(), tokens=(), claimed=(), revalued=False,
                    medal=False, bonus_cards=(), passed=False)
    due: dict[str, str] = {}
    token_spaces = 0
    for railway in components.railways:
        for special in railway.specials:
            if special.benefit in ("doubling", "star", "medal"):
                continue
            key = board.key(railway, special)
            if board.special_met(player, railway, special):
                due[key] = special.rule
            if special.benefit == "token" and key in given.claimed:
                token_spaces += 1
            if special.benefit in ("tracks", "white"):
                owns = [special.colour in given.tracks.get(r.id, {}) for r in components.railways
                        if special.colour in r.colours]
                if any(owns) != (key in given.claimed) or not (all(owns) or not any(owns)):
                    raise _fail(f"{path}.tracks", "RR-6.7", f"the {special.colour} tracks are owned, one on each "
                                                            f"railway that has them, once space {special.space} of "
                                                            f"the {railway.name} is reached")
        if (given.tracks.get(railway.id, {}).get("black") or 0) >= railway.spaces:
            due[board.terminus_key(railway)] = "RR-13.4"
    lane = board.lane(base)
    if any(place.token and any(marker >= index for marker in given.markers) for index, place in enumerate(lane)):
        due["industry"] = "RR-13.10"
        token_spaces += "industry" in given.claimed
    for index, key in enumerate(given.claimed):
        if key not in due:
            raise _fail(f"{path}.claimed.{index}", "RR-13.1", f"{key!r} is not a one-time space this board has reached")
        if key in given.claimed[:index]:
            raise _fail(f"{path}.claimed.{index}", "RR-13.1", f"{key} is gained once")
    for key, rule in due.items():
        if key not in given.claimed:
            raise _fail(f"{path}.claimed", rule, f"{key} is reached, so its benefit was gained at once")
    if len(given.tokens) != token_spaces:
        raise _fail(f"{path}.tokens", "RR-13.11", f"one bonus token for each of the {token_spaces} token spaces "
                                                  "gained")


def _strip(state: State, position: RussianRailroadsPosition) -> tuple[str | None, ...]:
    """RR-2.8, RR-15.4: the engineers move one space right at each cleanup, so by round r the r - 1
    leftmost spaces are empty and each other holds at most the engineer its deck put r - 1 spaces
    further left at setup."""
    slots = state.components.for_players(state.seats).engineer_slots
    strip = position.engineer_strip
    if len(strip) != len(slots):
        raise _fail("engineer_strip", "RR-11.1", f"the engineer area has {len(slots)} spaces")
    shift = position.round - 1
    for index, engineer_id in enumerate(strip):
        if engineer_id is None:
            continue
        try:
            engineer = state.components.engineer(engineer_id)
        except KeyError:
            raise _fail(f"engineer_strip.{index}", RULE, f"there is no engineer {engineer_id!r}") from None
        origin = slots[index - shift].deck if index >= shift else None
        if origin is None or engineer.deck != origin:
            raise _fail(f"engineer_strip.{index}", "RR-15.4", f"in round {position.round} this space holds an engineer "
                                                              f"of deck {origin} or none" if origin else
                                                              f"in round {position.round} this space is empty")
    return tuple(strip)


def _placements(state: State, position: RussianRailroadsPosition) -> tuple[Placement, ...]:
    """RR-0.7, RR-3.6, RR-16.1, RR-5.3, RR-11.6: spaces of this board and round, each occupied once
    (the reusable one excepted), own engineers by their owner; RR-5.2: each paid in full."""
    components = state.components
    placed: list[Placement] = []
    for index, given in enumerate(position.placements):
        path = f"placements.{index}"
        if given.seat >= state.seats:
            raise _fail(f"{path}.seat", RULE, f"there is no seat {given.seat} among {state.seats}")
        try:
            space = components.space(given.space)
        except KeyError:
            space = None
            if given.space not in state.players[given.seat].engineers:
                raise _fail(f"{path}.space", "RR-11.6", f"{given.space!r} is neither an action space nor an engineer "
                                                        f"of seat {given.seat}") from None
        if space is not None:
            if state.seats not in space.players:
                raise _fail(f"{path}.space", "RR-3.6", f"{space.name} is blocked on the {state.seats}-player board")
            if space.last_round == "never" and state.last_round:
                raise _fail(f"{path}.space", "RR-16.1", "the last-round marker covers the turn-order spaces")
            if space.last_round == "only" and not state.last_round:
                raise _fail(f"{path}.space", "RR-16.2", "the last-round action opens only in the last round")
            if not space.reusable and any(p.space == given.space for p in placed):
                raise _fail(f"{path}.space", "RR-5.3", f"{space.name} is occupied once a round")
        elif state.options.own_engineers == "once_per_round" and any(p.space == given.space for p in placed):
            raise _fail(f"{path}.space", "RR-11.6", "an own engineer's action is used once a round (AMB-16)")
        cost = space_cost(state, given.seat, given.space)
        paid = given.workers + given.temporary + given.black + given.rubles
        if cost is None:
            raise _fail(f"{path}.space", "RR-11.4", "there is no engineer on that changing action space")
        if paid != sum(cost) or given.rubles < cost[1]:
            raise _fail(path, "RR-5.2", f"this space takes {cost[0]} worker{'s' if cost[0] != 1 else ''} and "
                                        f"{cost[1]} ruble{'s' if cost[1] != 1 else ''} (RR-10.6: a ruble may stand "
                                        f"for a worker), not {paid} items")
        placed.append(Placement(given.space, given.seat, given.workers, given.temporary, given.black, given.rubles))
    claimers = [p.seat for p in placed if any(e.kind == "turn_order" for e in space_effects(state, p.space))]
    if len(set(claimers)) != len(claimers):
        raise _fail("placements", "RR-12.8", f"seat {claimers[-1]} holds both turn-order spaces")
    return tuple(placed)


def _workers(state: State, position: RussianRailroadsPosition) -> None:
    """RR-0.8, RR-13.12: each player's own workers are in the supply, on the board or in the
    reserve, as many as at the start; RR-10.12: two temporary workers; RR-20.3: one black worker,
    with the player who took card C2."""
    count = state.components.for_players(state.seats)
    owners = [seat for seat, player in enumerate(state.players) if player.black_worker]
    for seat, player in enumerate(state.players):
        path = f"players.{seat}"
        placed = sum(p.workers for p in state.placements if p.seat == seat)
        if player.reserve > count.reserve or player.gained_workers != count.reserve - player.reserve:
            raise _fail(f"{path}.reserve", "RR-13.12", f"the reserve starts with {count.reserve} workers, and those "
                                                       "gained leave it")
        if player.workers + placed + player.reserve != count.workers + count.reserve:
            raise _fail(f"{path}.workers", "RR-0.8", f"a player has {count.workers + count.reserve} own workers in "
                                                     f"supply, reserve and on the board, not "
                                                     f"{player.workers + placed + player.reserve}")
        black = sum(p.black for p in state.placements if p.seat == seat)
        if black and not player.black_worker:
            raise _fail(f"{path}.black_worker", "RR-20.3", "only the owner of the black worker places it")
        if player.black_worker and player.black_in_supply == bool(black):
            raise _fail(f"{path}.black_in_supply", "RR-20.3", "the black worker is either in its owner's supply or on "
                                                              "an action space")
        if player.black_in_supply and not player.black_worker:
            raise _fail(f"{path}.black_in_supply", "RR-20.3", "only the owner of the black worker has it")
    if len(owners) > 1:
        raise _fail(f"players.{owners[1]}.black_worker", "RR-20.3", "there is one black worker")
    card = _card_with(state.components, "black_worker")
    if card is not None and bool(owners) == (card in position.face_up_cards):
        raise _fail("face_up_cards", "RR-20.1", "the black worker lies on card C2 until a player takes the card")
    temporary = sum(p.temporary for p in state.placements) + sum(p.temporary for p in state.players)
    if temporary > 2:
        raise _fail("players", "RR-10.12", f"there are 2 temporary workers, not {temporary}")


def _engineers(state: State, position: RussianRailroadsPosition) -> None:
    """RR-1.3, RR-2.8, RR-11.5, RR-20.4: every engineer is in one place at most; the unlettered one
    belongs to the player who took card C3; the engineers never turned up are those their decks kept."""
    components = state.components
    seen: dict[str, str] = {}
    places = [(f"engineer_strip.{i}", e) for i, e in enumerate(state.strip) if e is not None]
    places += [(f"players.{seat}.engineers.{i}", e) for seat, player in enumerate(state.players)
               for i, e in enumerate(player.engineers)]
    places += [(f"unseen_engineers.{i}", e) for i, e in enumerate(position.unseen_engineers)]
    for path, engineer_id in places:
        try:
            engineer = components.engineer(engineer_id)
        except KeyError:
            raise _fail(path, RULE, f"there is no engineer {engineer_id!r}") from None
        if engineer_id in seen:
            raise _fail(path, RULE, f"engineer {engineer_id} is also at {seen[engineer_id]}")
        seen[engineer_id] = path
        if path.startswith("unseen") and engineer.deck == "none":
            raise _fail(path, "RR-20.4", f"engineer {engineer_id} lies on card C3, in no deck")
    slots = components.for_players(state.seats).engineer_slots
    for deck in ("X", "Y"):
        unseen = sum(1 for e in position.unseen_engineers if components.engineer(e).deck == deck)
        kept = sum(1 for e in components.engineers if e.deck == deck) - sum(1 for s in slots if s.deck == deck)
        if unseen != kept:
            raise _fail("unseen_engineers", "RR-2.8", f"deck {deck} keeps {kept} engineers unseen after setup, "
                                                      f"not {unseen}")
    unlettered = [e.id for e in components.engineers if e.deck == "none"]
    owned = any(e in player.engineers for e in unlettered for player in state.players)
    card = _card_with(components, "engineer_and_ruble")
    if unlettered and card is not None and owned == (card in position.face_up_cards):
        raise _fail("face_up_cards", "RR-20.4", f"engineer {unlettered[0]} lies on card C3 until a player takes it")


def _cards(state: State, position: RussianRailroadsPosition) -> State:
    """RR-20.1: each face-up card once; RR-2.3, RR-21.1: the final bonus cards are in the deck,
    removed (two of them) or taken, each once; RR-2.20: the starting cards nobody drafted."""
    components = state.components
    known = [c.id for c in components.face_up_cards]
    for index, card in enumerate(position.face_up_cards):
        if card not in known:
            raise _fail(f"face_up_cards.{index}", "RR-20.1", f"there is no face-up card {card!r}")
        if card in position.face_up_cards[:index]:
            raise _fail(f"face_up_cards.{index}", "RR-20.1", f"card {card} is listed twice")
    if list(position.face_up_cards) != [c for c in known if c in position.face_up_cards]:
        raise _fail("face_up_cards", RULE, f"face-up cards are listed in the order {', '.join(known)}")
    bonus = Counter(c.id for c in components.final_bonus_cards)
    seen: Counter[str] = Counter()
    places = [(f"bonus_deck.{i}", c) for i, c in enumerate(position.bonus_deck)]
    places += [(f"removed_bonus.{i}", c) for i, c in enumerate(position.removed_bonus)]
    places += [(f"players.{seat}.bonus_cards.{i}", c) for seat, player in enumerate(state.players)
               for i, c in enumerate(player.bonus_cards)]
    for path, card in places:
        seen[card] += 1
        if seen[card] > bonus[card]:
            raise _fail(path, "RR-21.1", f"{card!r} is not a final bonus card, or is in two places"
                        if bonus[card] else f"there is no final bonus card {card!r}")
    removed = components.constants.final_bonus_removed
    if len(position.removed_bonus) != removed:
        raise _fail("removed_bonus", "RR-2.3", f"{removed} final bonus cards are removed at setup")
    if seen != bonus:
        raise _fail("bonus_deck", "RR-21.1", "every final bonus card is in the deck, removed or with a player")
    return replace(state, face_up=tuple(position.face_up_cards), bonus_deck=tuple(sorted(position.bonus_deck)),
                   removed_bonus=tuple(sorted(position.removed_bonus)), starting_cards=())


def _locomotives(state: State, position: RussianRailroadsPosition) -> None:
    """RR-1.2, less those RR-3.2 and RR-3.7 put back in the box: no more locomotives of a value on
    the boards, in factories, in the pool and in the stacks than the game has (one #9 lies on card C4
    while it is face up)."""
    components = state.components
    count = components.for_players(state.seats)
    values = sorted(components.locomotives, key=int)
    if sorted(position.stacks, key=int) != values:
        raise _fail("stacks", RULE, f"one stack for each locomotive value {', '.join(values)}")
    used: Counter[int] = Counter(position.factory_pool)
    for player in state.players:
        used.update(v for held in player.locomotives.values() for v in held)
        used.update(v for v in player.factories if v is not None)
    for value, number in components.locomotives.items():
        if position.stacks[value] < 0:
            raise _fail(f"stacks.{value}", RULE, "a stack holds no fewer than 0 locomotives")
        total = max(number - count.locomotives_removed, 0)
        on_card = int(int(value) == components.constants.locomotive_card_value
                      and _card_with(components, "locomotive_card") in position.face_up_cards)
        held = position.stacks[value] + used[int(value)] + on_card
        if held > total:
            back = f" ({count.locomotives_removed} went back to the box at setup)" \
                if count.locomotives_removed else ""
            raise _fail(f"stacks.{value}", "RR-1.2", f"{total} #{value} locomotives are in this game{back}, and "
                                                     f"{held} are in the stacks, on the boards, in factories and "
                                                     "the pool")
    for index, factory in enumerate(position.factory_pool):
        if not any(f.locomotive == factory for f in components.factories):
            raise _fail(f"factory_pool.{index}", "RR-1.2", f"there is no factory #{factory}")
