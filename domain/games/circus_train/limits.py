"""What a seat may do now: the movement an action card allows and the walks it can take, what can
be performed or hired where a train stands, the dice ranges and prices of the moment, and what
wages leave possible.

Why here: the decisions (decisions.py), the refusals (refusals.py) and the bots all ask these
questions, and each answer must be the same wherever it is asked. Nothing here changes the state.
"""

from __future__ import annotations

from collections import Counter, deque

from domain.kernel.agenda import Step
from domain.kernel.errors import IllegalMoveError

from . import events as ev
from .board import rep_bounds
from .components import ActionCard, Constants
from .scoring import owns_power, wage_of
from .state import State, multiset_contains, remove_many


def constants_of(state: State) -> Constants:
    return state.catalog.components.constants


def blocked(state: State, a: str, b: str) -> bool:
    links = state.marks.get("blocked_links", [])
    return [a, b] in links or [b, a] in links


def allowance(state: State, seat: int, card: ActionCard) -> tuple[int, int]:
    """(fewest, most) cities this card's movement may take (CT-7.5 to CT-7.11, CT-21.11, A-37)."""
    most = card.move_max
    fewest = 0
    here = state.players[seat].city or ""
    if card.effect == "basic_transit" and any(
        not blocked(state, here, nxt) for nxt in state.catalog.neighbours.get(here, ())
    ):
        fewest = 1  # CT-8.1; with every link blocked by an event the card is played for nothing (CT-7.2)
    if most > 0 and owns_power(state, seat, "extra_move") is not None:
        most += state.catalog.characters[owns_power(state, seat, "extra_move") or ""].value
    most = ev.movement_allowance(state, card, most)
    return fewest, most


def destinations(state: State, start: str, most: int, fewest: int = 0) -> list[tuple[str, ...]]:
    """One canonical walk per reachable (final city, moved) pair; passing through has no effect."""
    neighbours = state.catalog.neighbours
    paths: list[tuple[str, ...]] = []
    if fewest == 0:
        paths.append(())
    if most <= 0:
        return paths
    parent: dict[str, tuple[str, ...]] = {start: ()}
    queue = deque([start])
    while queue:
        city = queue.popleft()
        walk = parent[city]
        if len(walk) >= most:
            continue
        for nxt in neighbours[city]:
            if nxt in parent or blocked(state, city, nxt):
                continue
            parent[nxt] = (*walk, nxt)
            queue.append(nxt)
    for city in sorted(parent):
        if city != start and len(parent[city]) >= max(fewest, 1):
            paths.append(parent[city])
    if most >= 2:
        for nxt in neighbours[start]:
            if not blocked(state, start, nxt):
                paths.append((nxt, start))
                break
    return paths


def check_path(state: State, seat: int, card: ActionCard, path: tuple[str, ...]) -> None:
    rule = card.rule
    fewest, most = allowance(state, seat, card)
    if len(path) > most:
        raise IllegalMoveError(rule, f"{card.name} moves at most {most} cities, not {len(path)}")
    if len(path) < fewest:
        raise IllegalMoveError(rule, f"{card.name} must move at least {fewest} city")
    here = state.players[seat].city
    assert here is not None
    for city in path:
        if city not in state.catalog.cities:
            raise IllegalMoveError("CT-8.2", f"{city!r} is not a city on the map")
        if city not in state.catalog.neighbours[here]:
            raise IllegalMoveError("CT-8.2", f"{city} is not connected by rail to {here}")
        if blocked(state, here, city):
            raise IllegalMoveError("CT-21.18", f"the link {here}-{city} is blocked by this month's event")
        here = city


def quarantined(state: State, city: str | None) -> bool:
    return city is not None and city == state.marks.get("blocked_city")


def perform_error(state: State, seat: int) -> IllegalMoveError | None:
    player = state.players[seat]
    city = player.city
    counter = state.news.get(city or "")
    if counter is None or not state.catalog.is_request(counter):
        return IllegalMoveError("CT-9.1", f"there is no Performance Request in {city}")
    if quarantined(state, city):
        return IllegalMoveError("CT-21.18", f"this month's event forbids performing in {city}")
    for other, rival in enumerate(state.players):
        if other != seat and rival.show == city:
            return IllegalMoveError("CT-9.17", f"player {other}'s two-week show holds the request in {city}")
    return None


def hireable(state: State, seat: int) -> tuple[str, ...]:
    city = state.players[seat].city
    if city is None or quarantined(state, city):
        return ()
    return state.talents.get(city, ())


def perform_hire_possible(state: State, seat: int) -> bool:
    """A-5: a Perform/Hire action is possible when a request may be performed or talent hired."""
    return perform_error(state, seat) is None or bool(hireable(state, seat))


def hire_range(state: State, seat: int) -> int:
    """Highest die face that hires (CT-9.21, CT-19.18), with this month's event (if any)."""
    constants = state.catalog.components.constants
    limit = (
        state.catalog.rep_range[state.players[seat].reputation] if state.advanced else constants.hire_success_at_most
    )
    return limit + ev.roll_modifier(state)


def claim_range(state: State, seat: int) -> int:
    constants = state.catalog.components.constants
    return (
        state.catalog.rep_range[state.players[seat].reputation] if state.advanced else constants.claim_success_at_most
    )


def steal_range(state: State, seat: int) -> int:
    constants = state.catalog.components.constants
    limit = (
        state.catalog.rep_range[state.players[seat].reputation] if state.advanced else constants.steal_success_at_most
    )
    return limit + ev.roll_modifier(state)


def special_price(state: State) -> int:
    base = state.catalog.seasons[state.month.season].special_hire_cost
    return ev.price(state, base)


def keep_error(state: State, seat: int, kept: tuple[str, ...]) -> IllegalMoveError | None:
    player = state.players[seat]
    typed = tuple(t for t in player.circus if state.catalog.is_talent_type(t))
    if any(item in state.catalog.characters for item in kept):
        return IllegalMoveError("CT-21.8", "Special Characters draw no wage: they are neither kept nor fired at wages")
    if not multiset_contains(typed, kept):
        return IllegalMoveError("CT-11.3", "you can keep only talent counters you own")
    cost = sum(wage_of(state, seat, t, state.solitaire) for t in kept)
    # CT-0.11: nobody pays more than they hold, and a purse below $0 holds nothing. Such a purse is
    # one this engine lets a solitaire replay's Circus Parade leave ($20 then $10, CT-20.7,
    # CT-19.16; see docs/games/circus-train.md): it pays no wage, so keeping nothing (CT-11.3) is
    # always a move, and the wage payment never waits for a move nobody can make.
    held = max(player.money, 0)
    if cost > held:
        return IllegalMoveError("CT-11.3", f"keeping these costs ${cost} but you have ${held}")
    if not state.advanced:
        fired = remove_many(typed, kept)
        left = held - cost
        for talent in fired:
            if wage_of(state, seat, talent, state.solitaire) <= left:
                return IllegalMoveError(
                    "CT-11.3",
                    f"you could still pay the {talent} (${left} left): you may fire only talent you cannot pay",
                )
    return None


def untried_here(state: State, step: Step) -> list[str]:
    """CT-9.23: the counters of this Perform/Hire action (a `hire_more` step) not yet tried that are
    still here to try."""
    here = Counter(hireable(state, step["seat"]))
    result: list[str] = []
    untried: Counter[str] = Counter(step["untried"])
    for talent, count in sorted(untried.items()):
        result.extend([talent] * min(count, here[talent]))
    return result


def long_victims(state: State, seat: int) -> list[int]:
    """CT-15.2, CT-19.21: the players the long-month steal may take a talent counter from."""
    me = state.players[seat]
    return [
        other
        for other, player in enumerate(state.players)
        if other != seat and player.circus and (not state.advanced or player.reputation <= me.reputation)
    ]


def characters_buyable(state: State) -> bool:
    """CT-21.9, A-34: reserve Special Characters may be bought in the last season's months."""
    months = state.catalog.months
    return state.options.special_characters and bool(state.reserve) and state.month.season == months[-1].season


def replay_error(state: State, seat: int) -> IllegalMoveError | None:
    """Why a discarded card cannot be replayed now (CT-19.4, CT-19.6, CT-20.7), or None."""
    try:
        validate_replay_cost(state, seat)
    except IllegalMoveError as error:
        return error
    return None


def validate_replay_cost(state: State, seat: int) -> None:
    """The replay's cost can be paid: reputation in April-July, VP in August-September, money and
    reputation in solitaire."""
    if not state.advanced:
        raise IllegalMoveError("CT-19.4", "replaying a discarded card belongs to the advanced game")
    constants = state.catalog.components.constants
    player = state.players[seat]
    low, _ = rep_bounds(state)
    if state.solitaire:
        if player.money < constants.solitaire_replay_cost:
            raise IllegalMoveError("CT-20.7", f"a solitaire replay costs ${constants.solitaire_replay_cost}")
        if player.reputation - constants.replay_reputation_cost < low:
            raise IllegalMoveError("CT-20.7", "a replay would take reputation below the bottom box")
        return
    if state.month.name in constants.replay_vp_cost_months:
        if player.vp < constants.replay_vp_cost:
            raise IllegalMoveError(
                "CT-19.6", f"a replay costs {constants.replay_vp_cost} VP now; you have {player.vp} (A-23)"
            )
    elif player.reputation - constants.replay_reputation_cost < low:
        raise IllegalMoveError("CT-19.6", "a replay would take reputation below the bottom box")
