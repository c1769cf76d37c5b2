"""Seat decisions: legal moves, validation (each refusal names its rule) and application.

The decision at the head of the agenda decides which moves are acceptable; every function here
dispatches on that task's kind. Event-card decisions live in events.py.
"""

from __future__ import annotations

from collections import Counter, deque
from dataclasses import replace
from itertools import product
from typing import Literal

from domain.kernel.errors import IllegalMoveError

from . import events as ev
from .components import ActionCard, Constants
from .flow import (
    add_city_talents,
    gain_talent,
    lose_talent,
    refill_if_empty,
    remove_city_talent,
    return_to_pool,
    take_from_pool,
)
from .moves import (
    BlockLink,
    BuyAfterFailure,
    BuyFromPool,
    ChooseStart,
    ClaimCharacter,
    Hire,
    KeepTalent,
    LongSteal,
    Pass,
    Perform,
    PickTalent,
    PlayCard,
    PocketWages,
    RestBonus,
    ReturnTalent,
    SendFired,
    Steal,
    UseSam,
)
from .scoring import gain_vp, owns_power, performance_level, wage_of
from .state import State, Task, add_sorted, multiset_contains, remove_many, remove_one, sorted_tuple

Source = Literal["hand", "replay", "eddie"]
REWARDS: tuple[Literal["reputation", "vp"], ...] = ("reputation", "vp")
FAMOUS: tuple[Literal["clown", "acrobat"], ...] = ("clown", "acrobat")

STEP_WHAT = {
    "pick": "pick a starting talent",
    "start": "place your train on a start city",
    "turn": "play an action card",
    "claim": "claim the Special Character or pass",
    "ph": "perform or hire",
    "hire_more": "hire another talent here or stop",
    "buy": "buy the talent for $10 or pass",
    "special": "make a Special Hire or pass",
    "keep": "choose the talent you keep and pay",
    "fired_city": "choose the city for the fired talent",
    "long_steal": "take one talent from an opponent or pass",
    "rest": "choose the Rest bonus or pass",
    "block_link": "block a rail link",
    "return": "return one talent counter",
}
"""What the decision at the head of the agenda asks for, to say so in a refusal."""
EXPECTED: dict[str, tuple[type, ...]] = {
    "pick": (PickTalent,),
    "start": (ChooseStart,),
    "turn": (PlayCard, PocketWages, UseSam),
    "claim": (ClaimCharacter, Pass),
    "ph": (Perform, Hire, Pass),
    "hire_more": (Hire, Pass),
    "buy": (BuyAfterFailure, Pass),
    "special": (Hire, Steal, BuyFromPool, Pass),
    "keep": (KeepTalent,),
    "fired_city": (SendFired,),
    "long_steal": (LongSteal, Pass),
    "rest": (RestBonus, Pass),
}


def constants_of(state: State) -> Constants:
    return state.catalog.components.constants


def _illegal(rule: str, reason: str) -> IllegalMoveError:
    return IllegalMoveError(rule, reason)


# ---- movement ---------------------------------------------------------------------------------


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
        raise _illegal(rule, f"{card.name} moves at most {most} cities, not {len(path)}")
    if len(path) < fewest:
        raise _illegal(rule, f"{card.name} must move at least {fewest} city")
    here = state.players[seat].city
    assert here is not None
    for city in path:
        if city not in state.catalog.cities:
            raise _illegal("CT-8.2", f"{city!r} is not a city on the map")
        if city not in state.catalog.neighbours[here]:
            raise _illegal("CT-8.2", f"{city} is not connected by rail to {here}")
        if blocked(state, here, city):
            raise _illegal("CT-21.18", f"the link {here}-{city} is blocked by this month's event")
        here = city


# ---- what is possible -------------------------------------------------------------------------


def quarantined(state: State, city: str | None) -> bool:
    return city is not None and city == state.marks.get("blocked_city")


def perform_error(state: State, seat: int) -> IllegalMoveError | None:
    player = state.players[seat]
    city = player.city
    counter = state.news.get(city or "")
    if counter is None or not state.catalog.is_request(counter):
        return _illegal("CT-9.1", f"there is no Performance Request in {city}")
    if quarantined(state, city):
        return _illegal("CT-21.18", f"this month's event forbids performing in {city}")
    for other, rival in enumerate(state.players):
        if other != seat and rival.show == city:
            return _illegal("CT-9.17", f"player {other}'s two-week show holds the request in {city}")
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


def rep_bounds(state: State) -> tuple[int, int]:
    levels = state.catalog.rep_levels
    return levels[0], levels[-1]


def change_reputation(state: State, seat: int, delta: int) -> State:
    low, high = rep_bounds(state)
    value = min(high, max(low, state.players[seat].reputation + delta))
    return state.update_player(seat, reputation=value)


def keep_error(state: State, seat: int, kept: tuple[str, ...]) -> IllegalMoveError | None:
    player = state.players[seat]
    typed = tuple(t for t in player.circus if state.catalog.is_talent_type(t))
    if any(item in state.catalog.characters for item in kept):
        return _illegal("CT-21.8", "Special Characters draw no wage: they are neither kept nor fired at wages")
    if not multiset_contains(typed, kept):
        return _illegal("CT-11.3", "you can keep only talent counters you own")
    cost = sum(wage_of(state, seat, t, state.solitaire) for t in kept)
    if cost > player.money:
        return _illegal("CT-11.3", f"keeping these costs ${cost} but you have ${player.money}")
    if not state.advanced:
        fired = remove_many(typed, kept)
        left = player.money - cost
        for talent in fired:
            if wage_of(state, seat, talent, state.solitaire) <= left:
                return _illegal(
                    "CT-11.3",
                    f"you could still pay the {talent} (${left} left): you may fire only talent you cannot pay",
                )
    return None


# ---- needs_decision -----------------------------------------------------------------------------


def needs_decision(state: State, task: Task) -> bool:
    kind = task["t"]
    if kind in ev.MOVE_TASKS:
        return ev.needs_decision(state, task)
    seat = task.get("seat", 0)
    if kind == "ph":
        return perform_hire_possible(state, seat)
    if kind == "hire_more":
        return bool(_untried_here(state, task))
    if kind == "buy":
        return state.players[seat].money >= state.catalog.components.constants.buy_after_failed_hire
    if kind == "special":
        return True
    if kind == "long_steal":
        return bool(_long_victims(state, seat))
    if kind == "rest":
        player = state.players[seat]
        return state.advanced and player.city in state.catalog.canada
    if kind == "claim":
        city = state.players[seat].city
        return city in state.characters
    return True


def _untried_here(state: State, task: Task) -> list[str]:
    here = Counter(hireable(state, task["seat"]))
    result: list[str] = []
    untried: Counter[str] = Counter(task["untried"])
    for talent, count in sorted(untried.items()):
        result.extend([talent] * min(count, here[talent]))
    return result


def _long_victims(state: State, seat: int) -> list[int]:
    me = state.players[seat]
    return [
        other
        for other, player in enumerate(state.players)
        if other != seat and player.circus and (not state.advanced or player.reputation <= me.reputation)
    ]


# ---- legal moves --------------------------------------------------------------------------------


def _multiset_subsets(items: tuple[str, ...], low: int, high: int) -> list[tuple[str, ...]]:
    counts = sorted(Counter(items).items())
    result = []
    for combo in product(*[range(n + 1) for _, n in counts]):
        size = sum(combo)
        if low <= size <= high:
            result.append(sorted_tuple(t for (t, _), k in zip(counts, combo, strict=True) for _ in range(k)))
    return result


def _card_moves(state: State, seat: int, card_id: str, source: Source) -> list[PlayCard]:
    catalog = state.catalog
    card = catalog.cards[card_id]
    player = state.players[seat]
    assert player.city is not None
    moves: list[PlayCard] = []
    if card.effect == "basic_transit":
        fewest, most = allowance(state, seat, card)
        for path in destinations(state, player.city, most, fewest):
            moves.append(PlayCard(card=card_id, path=path, option="move", source=source))
        if perform_hire_possible(state, seat):
            moves.append(PlayCard(card=card_id, option="perform_hire", source=source))
        if state.advanced and player.money >= catalog.components.constants.parade_cost:
            for reward in REWARDS:
                moves.append(PlayCard(card=card_id, option="parade", parade_reward=reward, source=source))
        return moves
    _, most = allowance(state, seat, card)
    for path in destinations(state, player.city, most):
        moves.append(PlayCard(card=card_id, path=path, source=source))
    return moves


def legal_moves(state: State, seat: int) -> list[object]:
    task = state.head()
    if task is None or state.over or task.get("seat") != seat:
        return []
    kind = task["t"]
    if kind in ev.MOVE_TASKS:
        return ev.legal_moves(state, seat, task)
    catalog = state.catalog
    player = state.players[seat]
    moves: list[object] = []
    if kind == "pick":
        moves = [
            PickTalent(talent=t) for t in catalog.components.constants.starting_pick_types if state.pool.get(t, 0) > 0
        ]
    elif kind == "start":
        moves = [ChooseStart(city=c) for c in catalog.start_cities]
    elif kind == "turn":
        for card_id in sorted(set(player.hand)):
            if catalog.cards[card_id].effect == "rest" and state.week == 0:
                continue
            moves.extend(_card_moves(state, seat, card_id, "hand"))
        if state.advanced:
            if _replay_error(state, seat) is None:
                for card_id in sorted(set(player.discard)):
                    moves.extend(_card_moves(state, seat, card_id, "replay"))
            low, _ = rep_bounds(state)
            if not state.solitaire and state.month.name in catalog.components.constants.pocket_months:
                for bills in range(1, player.reputation - low + 1):
                    moves.append(PocketWages(bills=bills))
            if owns_power(state, seat, "free_hire") is not None:
                moves.append(UseSam())
        if owns_power(state, seat, "free_replay") is not None:
            for card_id in sorted(set(player.discard)):
                moves.extend(_card_moves(state, seat, card_id, "eddie"))
    elif kind == "claim":
        moves = [ClaimCharacter(), Pass()]
    elif kind == "ph":
        if perform_error(state, seat) is None:
            moves.append(Perform())
            if owns_power(state, seat, "famous_clown_or_acrobat") is not None:
                moves.extend(Perform(famous=t) for t in FAMOUS if player.count(t) >= 1)
        moves.extend(_hire_moves(state, seat, sorted(set(hireable(state, seat)))))
        if task["optional"]:
            moves.append(Pass())
    elif kind == "hire_more":
        moves = [*_hire_moves(state, seat, sorted(set(_untried_here(state, task)))), Pass()]
    elif kind == "buy":
        moves = [BuyAfterFailure(), Pass()]
    elif kind == "special":
        moves.extend(_hire_moves(state, seat, sorted(set(hireable(state, seat)))))
        for victim, rival in enumerate(state.players):
            if victim != seat and rival.city == player.city and rival.circus:
                top = catalog.components.constants.steal_max_talents
                for subset in _multiset_subsets(rival.circus, 1, top):
                    moves.append(Steal(victim=victim, talents=subset))
        price = special_price(state)
        if player.money >= price:
            moves.extend(BuyFromPool(talent=t) for t in catalog.talent_ids if state.pool.get(t, 0) > 0)
            if _characters_buyable(state):
                moves.extend(BuyFromPool(talent=c) for c in sorted(set(state.reserve)))
        moves.append(Pass())
    elif kind == "keep":
        typed = tuple(t for t in player.circus if catalog.is_talent_type(t))
        for kept in _multiset_subsets(typed, 0, len(typed)):
            if keep_error(state, seat, kept) is None:
                moves.append(KeepTalent(talents=kept))
    elif kind == "fired_city":
        moves = [SendFired(city=c) for c in state.talent_cities()]
    elif kind == "long_steal":
        for victim in _long_victims(state, seat):
            moves.extend(LongSteal(victim=victim, talent=t) for t in sorted(set(state.players[victim].circus)))
        moves.append(Pass())
    elif kind == "rest":
        moves = [RestBonus(bonus=t) for t in catalog.components.constants.rest_talents if state.pool.get(t, 0) > 0]
        moves += [RestBonus(bonus="reputation"), Pass()]
    return moves


def _hire_moves(state: State, seat: int, talents: list[str]) -> list[Hire]:
    moves = [Hire(talent=t) for t in talents]
    if owns_power(state, seat, "free_hire") is not None:
        moves += [Hire(talent=t, sam=True) for t in talents]
    return moves


def _characters_buyable(state: State) -> bool:
    """CT-21.9, A-34: reserve Special Characters may be bought in the last season's months."""
    months = state.catalog.months
    return state.options.special_characters and bool(state.reserve) and state.month.season == months[-1].season


# ---- validate -----------------------------------------------------------------------------------


WAITING_RULES = {
    "first_player": "CT-5.12",
    "pick": "CT-5.14",
    "init_card": "CT-5.15",
    "init_counter": "CT-5.15",
    "fill_card": "CT-5.16",
    "start": "CT-5.20",
    "news_draw": "CT-13.1",
    "news_card": "CT-13.1",
    "news_redraw": "CT-13.1",
    "sc_second": "CT-21.4",
    "fired_city": "CT-11.4",
    "long_steal": "CT-15.2",
    "event_draw": "CT-21.18",
    "event_dest": "CT-21.18",
    "block_link": "CT-21.18",
    "return": "CT-21.18",
}
DIE_RULES = {"hire": "CT-9.21", "steal": "CT-10.4", "claim": "CT-21.6", "event_loss": "CT-21.18"}


def waiting_rule(task: Task) -> str:
    """The rule that gives the pending decision to someone else (a seat or chance): turn order in
    the Ringmaster Phase (CT-7.1), the setup order, the chooser of fired talent's city, the draw or
    roll that comes first."""
    if task["t"] == "die":
        return DIE_RULES.get(task.get("purpose", ""), "CT-0.13")
    return WAITING_RULES.get(task["t"], "CT-7.1")


def out_of_step(state: State, seat: int, task: Task, move: object) -> IllegalMoveError:
    """A move of a kind the decision in progress does not take: cite the rule that says when such a
    move may be made (the rule it breaks), not the rule of the step in progress."""
    kind = task["t"]
    now = f"now you must {STEP_WHAT.get(kind, kind)}"
    what = getattr(move, "type", type(move).__name__)
    if kind == "claim":
        return _illegal("CT-21.6", f"a Special Character is claimed (or not) before anything else is done here; {now}")
    if isinstance(move, PickTalent):
        return _illegal("CT-5.14", f"starting talent is picked only during setup; {now}")
    if isinstance(move, ChooseStart):
        return _illegal("CT-5.20", f"trains are placed on start cities only during setup; {now}")
    if isinstance(move, PlayCard):
        if state.advanced:
            return _illegal("CT-19.4", f"one card is played (or replayed) at the start of a turn, no more; {now}")
        return _illegal("CT-7.2", f"exactly one action card is played at the start of a turn; {now}")
    if isinstance(move, PocketWages):
        return _illegal("CT-19.4", f"wages are pocketed instead of playing a card, at the start of a turn; {now}")
    if isinstance(move, UseSam):
        return _illegal("CT-21.13", f"Smuggler Sam is spent for reputation at the start of a turn (A-33); {now}")
    if isinstance(move, ClaimCharacter):
        return _illegal("CT-21.6", f"a claim is tried only on ending a movement in the Special Character's city; {now}")
    if isinstance(move, Perform):
        if kind in ("hire_more", "buy"):
            return _illegal("CT-0.10", f"a Perform/Hire action is a performance or a hire, never both (A-9); {now}")
        if kind == "special":
            return _illegal("CT-0.10", f"a Special Hire is not a Perform/Hire action: nothing is performed; {now}")
        return _illegal("CT-9.1", f"a performance needs a Perform/Hire action; {now}")
    if isinstance(move, Hire):
        if kind == "buy":
            return _illegal("CT-9.22", "the $10 purchase is decided right after the failed roll, before any other "
                            "attempt: buy_after_failure or pass")
        return _illegal("CT-9.20", f"a hire needs a Perform/Hire action or a Special Hire; {now}")
    if isinstance(move, BuyAfterFailure):
        return _buy_out_of_step(state, seat, task, now)
    if isinstance(move, (Steal, BuyFromPool)):
        return _illegal("CT-10.1", f"stealing and buying from the pool are Special Hire options; {now}")
    if isinstance(move, KeepTalent):
        return _illegal("CT-11.1", f"wages are paid after Wage & Transit's movement; {now}")
    if isinstance(move, SendFired):
        return _illegal("CT-11.4", f"the player to the right chooses a city only for talent just fired; {now}")
    if isinstance(move, LongSteal):
        return _illegal("CT-15.2", f"the long-month steal comes only after a 5-week month's scoring; {now}")
    if isinstance(move, RestBonus):
        return _illegal("CT-19.11", f"the Rest bonus follows playing Rest in Canada; {now}")
    if isinstance(move, (BlockLink, ReturnTalent)):
        return _illegal("CT-21.18", f"that is an event card's decision, and no event asks for it; {now}")
    if isinstance(move, Pass):
        if kind == "turn":
            if state.advanced:
                return _illegal("CT-19.4", "a turn plays or replays a card, or pockets wages: it cannot be passed")
            return _illegal("CT-7.2", "playing a card is compulsory, even when its action would do nothing")
        if kind == "pick":
            return _illegal("CT-5.14", "each player takes two starting talent counters")
        if kind == "start":
            return _illegal("CT-5.20", "each player places their train on a start city")
        if kind == "keep":
            return _illegal("CT-11.1", "Wage & Transit's wages must be paid: choose the talent you keep")
        if kind == "fired_city":
            return _illegal("CT-11.4", "the fired group must go to one of the cities holding talent")
    return _illegal("CT-7.2", f"{what} is not a Circus Train decision; {now}")


def _buy_out_of_step(state: State, seat: int, task: Task, now: str) -> IllegalMoveError:
    """The $10 purchase outside its moment (CT-9.22): with no money for it after a failed roll, the
    money rule (CT-0.11); for a Special Character in the city, CT-21.6; otherwise CT-9.22."""
    constants = state.catalog.components.constants
    player = state.players[seat]
    cost = constants.buy_after_failed_hire
    failed = task.get("failed") if task["t"] == "hire_more" else None
    if failed is not None and player.money < cost:
        return _illegal("CT-0.11", f"buying the {failed} after the failed roll costs ${cost}; you have ${player.money}")
    if failed is not None:
        return _illegal("CT-9.22", f"the {failed} was not bought right after its failed roll, the only moment to")
    if player.city in state.characters:
        return _illegal("CT-21.6", "a Special Character on the board is taken only by a claim roll; after a failed "
                        "claim it stays in the city and cannot be bought for $10 (A-41)")
    return _illegal("CT-9.22", f"the $10 purchase is possible only right after a failed hire roll; {now}")


def validate(state: State, seat: int, move: object) -> None:
    task = state.head()
    if task is None or state.over:
        raise _illegal("CT-6.2", "the match is over")
    kind = task["t"]
    if kind in ev.MOVE_TASKS:
        if not isinstance(move, (BlockLink, ReturnTalent, Pass)):
            raise out_of_step(state, seat, task, move)
        ev.validate(state, seat, task, move)
        return
    if not isinstance(move, EXPECTED[kind]):
        raise out_of_step(state, seat, task, move)
    catalog = state.catalog
    player = state.players[seat]
    if isinstance(move, PickTalent):
        if move.talent not in catalog.components.constants.starting_pick_types:
            raise _illegal(
                "CT-5.14",
                "starting picks must be one of " + ", ".join(constants_of(state).starting_pick_types),
            )
        if state.pool.get(move.talent, 0) <= 0:
            raise _illegal("CT-14.1", f"no {move.talent} is left in the Talent Pool")
    elif isinstance(move, ChooseStart):
        if move.city not in catalog.start_cities:
            raise _illegal("CT-5.20", f"trains start in {', '.join(catalog.start_cities)}")
    elif isinstance(move, PlayCard):
        _validate_play(state, seat, move)
    elif isinstance(move, PocketWages):
        _validate_pocket(state, seat, move)
    elif isinstance(move, UseSam):
        if not state.advanced:
            raise _illegal("CT-21.13", "Smuggler Sam gives reputation only in the advanced game")
        if owns_power(state, seat, "free_hire") is None:
            raise _illegal("CT-21.13", "you do not own Smuggler Sam")
    elif isinstance(move, ClaimCharacter):
        pass
    elif isinstance(move, Perform):
        error = perform_error(state, seat)
        if error is not None:
            raise error
        if move.famous is not None:
            if owns_power(state, seat, "famous_clown_or_acrobat") is None:
                raise _illegal("CT-21.12", "only the owner of Ringmaster Ronald may declare talent famous")
            if player.count(move.famous) < 1:
                raise _illegal("CT-21.12", f"you need at least one {move.famous} to declare it famous")
    elif isinstance(move, Hire):
        pool = _untried_here(state, task) if kind == "hire_more" else list(hireable(state, seat))
        if quarantined(state, player.city):
            raise _illegal("CT-21.18", "this month's event forbids hiring here")
        if move.talent in catalog.characters:
            raise _illegal("CT-9.25", "a Special Character on the board is claimed, not hired")
        if move.talent not in pool:
            if move.talent in state.talents.get(player.city or "", ()):
                raise _illegal("CT-9.23", f"each counter may be tried once per action: no untried {move.talent}")
            raise _illegal("CT-9.20", f"there is no {move.talent} to hire in {player.city}")
        if move.sam and owns_power(state, seat, "free_hire") is None:
            raise _illegal("CT-21.13", "you do not own Smuggler Sam")
    elif isinstance(move, BuyAfterFailure):
        cost = catalog.components.constants.buy_after_failed_hire
        if player.money < cost:
            raise _illegal("CT-0.11", f"buying costs ${cost}; you have ${player.money}")
    elif isinstance(move, Steal):
        _validate_steal(state, seat, move)
    elif isinstance(move, BuyFromPool):
        price = special_price(state)
        if player.money < price:
            raise _illegal("CT-0.11", f"a purchase costs ${price} this month (CT-10.3); you have ${player.money}")
        if move.talent in catalog.characters:
            if not _characters_buyable(state) or move.talent not in state.reserve:
                raise _illegal("CT-21.9", "Special Characters are bought only from the reserve in August and September")
        elif move.talent not in catalog.talent_types:
            raise _illegal("CT-10.2", f"{move.talent!r} is not a talent type")
        elif state.pool.get(move.talent, 0) <= 0:
            raise _illegal("CT-14.1", f"no {move.talent} is left in the Talent Pool")
    elif isinstance(move, KeepTalent):
        error = keep_error(state, seat, sorted_tuple(move.talents))
        if error is not None:
            raise error
    elif isinstance(move, SendFired):
        if move.city not in state.talent_cities():
            raise _illegal("CT-11.4", f"fired talent must join a city holding talent; {move.city} holds none")
    elif isinstance(move, LongSteal):
        if move.victim not in _long_victims(state, seat):
            rule_id = "CT-19.21" if state.advanced else "CT-15.2"
            raise _illegal(rule_id, f"you may not take talent from player {move.victim}")
        if move.talent not in state.players[move.victim].circus:
            raise _illegal("CT-15.2", f"player {move.victim} has no {move.talent}")
    elif isinstance(move, Pass):
        if kind == "ph" and not task["optional"]:
            raise _illegal("CT-7.8", "Basic Transit's Perform/Hire was chosen instead of moving: take it (A-5)")
    elif isinstance(move, RestBonus):
        if move.bonus == "reputation":
            pass
        elif move.bonus not in catalog.components.constants.rest_talents:
            raise _illegal("CT-19.11", "the Rest bonus is a Clown, an Acrobat or +1 reputation")
        elif state.pool.get(move.bonus, 0) <= 0:
            raise _illegal("CT-14.1", f"no {move.bonus} is left in the Talent Pool")


def _validate_play(state: State, seat: int, move: PlayCard) -> None:
    catalog = state.catalog
    player = state.players[seat]
    card = catalog.cards.get(move.card)
    if card is None:
        raise _illegal("CT-7.2", f"{move.card!r} is not an action card")
    if move.source == "hand":
        if move.card not in player.hand:
            raise _illegal("CT-7.2", f"{card.name} is not in your hand")
    else:
        if move.source == "replay" and not state.advanced:
            raise _illegal("CT-19.4", "replaying a discarded card belongs to the advanced game")
        if move.card not in player.discard:
            raise _illegal(
                "CT-19.5" if move.source == "replay" else "CT-21.14",
                f"{card.name} is not in your discard pile",
            )
        if move.source == "eddie":
            if owns_power(state, seat, "free_replay") is None:
                raise _illegal("CT-21.14", "you do not own Engineer Eddie")
        else:
            _validate_replay_cost(state, seat)
    if card.effect == "rest" and state.week == 0:
        raise _illegal("CT-19.12", "no player may rest in the first week (A-25)")
    if card.effect == "basic_transit":
        if move.option is None:
            raise _illegal("CT-7.8", "Basic Transit needs an option: move, perform_hire (or parade)")
        if move.option == "move":
            check_path(state, seat, card, move.path)
        elif move.path and move.option == "parade":
            raise _illegal("CT-19.16", "a Circus Parade is held where the train stands: the card gives no movement")
        elif move.path:
            raise _illegal("CT-7.8", "Basic Transit moves or performs/hires, never both")
        elif move.option == "perform_hire":
            if not perform_hire_possible(state, seat):
                raise _illegal("CT-7.8", "nothing can be performed or hired here, so Basic Transit must move (A-5)")
        else:
            if not state.advanced:
                raise _illegal("CT-19.16", "the Circus Parade belongs to the advanced game")
            cost = catalog.components.constants.parade_cost
            if player.money < cost:
                raise _illegal("CT-19.17", f"a parade costs ${cost}; you have ${player.money}")
            if move.parade_reward is None:
                raise _illegal("CT-19.16", "a parade gives +1 reputation or +2 VP: choose one")
        if move.option != "parade" and move.parade_reward is not None:
            raise _illegal("CT-19.16", "a parade reward needs the parade option")
        return
    if move.option is not None or move.parade_reward is not None:
        raise _illegal("CT-7.8", "only Basic Transit takes an option")
    check_path(state, seat, card, move.path)


def _replay_error(state: State, seat: int) -> IllegalMoveError | None:
    try:
        _validate_replay_cost(state, seat)
    except IllegalMoveError as error:
        return error
    return None


def _validate_replay_cost(state: State, seat: int) -> None:
    if not state.advanced:
        raise _illegal("CT-19.4", "replaying a discarded card belongs to the advanced game")
    constants = state.catalog.components.constants
    player = state.players[seat]
    low, _ = rep_bounds(state)
    if state.solitaire:
        if player.money < constants.solitaire_replay_cost:
            raise _illegal("CT-20.7", f"a solitaire replay costs ${constants.solitaire_replay_cost}")
        if player.reputation - constants.replay_reputation_cost < low:
            raise _illegal("CT-20.7", "a replay would take reputation below the bottom box")
        return
    if state.month.name in constants.replay_vp_cost_months:
        if player.vp < constants.replay_vp_cost:
            raise _illegal("CT-19.6", f"a replay costs {constants.replay_vp_cost} VP now; you have {player.vp} (A-23)")
    elif player.reputation - constants.replay_reputation_cost < low:
        raise _illegal("CT-19.6", "a replay would take reputation below the bottom box")


def _validate_pocket(state: State, seat: int, move: PocketWages) -> None:
    if not state.advanced:
        raise _illegal("CT-19.4", "pocketing wages belongs to the advanced game")
    if state.solitaire:
        raise _illegal("CT-20.6", "pocketing wages is never allowed in solitaire")
    if state.month.name not in state.catalog.components.constants.pocket_months:
        raise _illegal("CT-19.9", f"wages cannot be pocketed in {state.month.name}")
    low, _ = rep_bounds(state)
    spare = state.players[seat].reputation - low
    if spare <= 0:
        raise _illegal("CT-19.9", "your reputation is already at the bottom box")
    if not 1 <= move.bills <= spare:
        raise _illegal("CT-19.8", f"take between 1 and {spare} bills (A-24)")


def _validate_steal(state: State, seat: int, move: Steal) -> None:
    player = state.players[seat]
    if not 0 <= move.victim < state.seats or move.victim == seat:
        raise _illegal("CT-10.4", "steal from another player")
    victim = state.players[move.victim]
    if victim.city != player.city:
        raise _illegal("CT-10.2", f"player {move.victim}'s train is not in your city")
    top = state.catalog.components.constants.steal_max_talents
    if not 1 <= len(move.talents) <= top:
        raise _illegal("CT-10.4", f"steal 1 to {top} counters (A-10)")
    if not multiset_contains(victim.circus, move.talents):
        raise _illegal("CT-10.4", f"player {move.victim} does not own those counters")


# ---- apply --------------------------------------------------------------------------------------


def apply(state: State, seat: int, move: object) -> State:
    from .flow import advance

    task = state.head()
    assert task is not None
    kind = task["t"]
    if kind in ev.MOVE_TASKS:
        return advance(ev.apply(state, seat, task, move))
    if isinstance(move, UseSam):
        sam = owns_power(state, seat, "free_hire")
        assert sam is not None
        state = lose_talent(state, seat, sam)
        state = replace(state, reserve=add_sorted(state.reserve, sam))
        return advance(change_reputation(state, seat, +1))
    state = state.pop()
    catalog = state.catalog
    constants = catalog.components.constants
    player = state.players[seat]
    if isinstance(move, PickTalent):
        state = take_from_pool(state, move.talent)
        state = gain_talent(state, seat, move.talent)
        if task["left"] > 1:
            state = state.push({"t": "pick", "seat": seat, "left": task["left"] - 1})
    elif isinstance(move, ChooseStart):
        state = state.update_player(seat, city=move.city)
    elif isinstance(move, PlayCard):
        state = _apply_play(state, seat, move)
    elif isinstance(move, PocketWages):
        state = state.update_player(seat, money=player.money + move.bills * constants.pocket_bill)
        state = change_reputation(state, seat, -move.bills)
        state = state.push({"t": "end_turn", "seat": seat})
    elif isinstance(move, ClaimCharacter):
        state = state.push({"t": "die", "purpose": "claim", "seat": seat})
    elif isinstance(move, Perform):
        state = _perform(state, seat, move)
    elif isinstance(move, Hire):
        untried = list(task["untried"]) if kind == "hire_more" else list(hireable(state, seat))
        untried.remove(move.talent)
        city = player.city
        assert city is not None
        if move.sam:
            sam = owns_power(state, seat, "free_hire")
            assert sam is not None
            state = lose_talent(state, seat, sam)
            state = replace(state, reserve=add_sorted(state.reserve, sam))
            state = remove_city_talent(state, city, move.talent)
            state = gain_talent(state, seat, move.talent)
            state = state.push({"t": "hire_more", "seat": seat, "untried": untried})
        else:
            state = state.push(
                {"t": "die", "purpose": "hire", "seat": seat, "talent": move.talent},
                {"t": "hire_more", "seat": seat, "untried": untried},
            )
    elif isinstance(move, BuyAfterFailure):
        city = player.city
        assert city is not None
        state = state.update_player(seat, money=player.money - constants.buy_after_failed_hire)
        state = remove_city_talent(state, city, task["talent"])
        state = gain_talent(state, seat, task["talent"])
    elif isinstance(move, Steal):
        state = state.push(
            {
                "t": "die",
                "purpose": "steal",
                "seat": seat,
                "victim": move.victim,
                "talents": list(move.talents),
                "stolen": 0,
            }
        )
    elif isinstance(move, BuyFromPool):
        state = state.update_player(seat, money=player.money - special_price(state))
        if move.talent in catalog.characters:
            state = replace(state, reserve=remove_one(state.reserve, move.talent))
        else:
            state = take_from_pool(state, move.talent)
        state = gain_talent(state, seat, move.talent)
    elif isinstance(move, KeepTalent):
        state = _pay_wages(state, seat, sorted_tuple(move.talents))
    elif isinstance(move, SendFired):
        state = add_city_talents(state, move.city, task["group"])
    elif isinstance(move, LongSteal):
        state = lose_talent(state, move.victim, move.talent)
        state = gain_talent(state, seat, move.talent)
    elif isinstance(move, Pass):
        if kind == "ph" and not task["optional"]:
            raise _illegal("CT-7.8", "Basic Transit's Perform/Hire was chosen instead of moving: take it (A-5)")
    elif isinstance(move, RestBonus):
        if move.bonus == "reputation":
            state = change_reputation(state, seat, constants.rest_reputation)
        else:
            state = take_from_pool(state, move.bonus)
            state = gain_talent(state, seat, move.bonus)
    return advance(state)


def _apply_play(state: State, seat: int, move: PlayCard) -> State:
    catalog = state.catalog
    constants = catalog.components.constants
    card = catalog.cards[move.card]
    player = state.players[seat]
    if move.source == "hand":
        hand = remove_one(player.hand, move.card)
        discard = add_sorted(player.discard, move.card)
        if hand:
            state = state.update_player(seat, hand=hand, discard=discard)
        else:  # CT-7.4: the last card played brings the whole pile back
            state = state.update_player(seat, hand=discard, discard=(), refill_week=state.week)
    elif move.source == "eddie":
        eddie = owns_power(state, seat, "free_replay")
        assert eddie is not None
        state = lose_talent(state, seat, eddie)
        state = replace(state, reserve=add_sorted(state.reserve, eddie))
    else:
        if state.solitaire:
            state = state.update_player(seat, money=player.money - constants.solitaire_replay_cost)
            state = change_reputation(state, seat, -constants.replay_reputation_cost)
        elif state.month.name in constants.replay_vp_cost_months:
            state = gain_vp(state, seat, -constants.replay_vp_cost, "replay", "CT-19.5", f"replayed {card.name}")
        else:
            state = change_reputation(state, seat, -constants.replay_reputation_cost)
    if move.path:
        state = state.update_player(seat, city=move.path[-1])
    if move.option == "parade":
        state = state.update_player(seat, money=state.players[seat].money - constants.parade_cost)
        if move.parade_reward == "vp":
            state = gain_vp(state, seat, constants.parade_vp, "parade", "CT-19.16", "Circus Parade")
        else:
            state = change_reputation(state, seat, constants.parade_reputation)
        return state.push({"t": "end_turn", "seat": seat})
    follow: Task | None = None
    if card.effect in ("move_then_perform_hire", "hold"):
        follow = {"t": "ph", "seat": seat, "optional": True}
    elif card.effect == "basic_transit" and move.option == "perform_hire":
        follow = {"t": "ph", "seat": seat, "optional": False}
    elif card.effect == "move_then_special_hire":
        follow = {"t": "special", "seat": seat}
    elif card.effect == "move_then_wages":
        follow = {"t": "wages", "seat": seat}
    elif card.effect == "rest":
        follow = {"t": "rest", "seat": seat}
    return state.push(
        {"t": "arrive", "seat": seat, "moved": bool(move.path), "then": follow},
        {"t": "end_turn", "seat": seat},
    )


def _perform(state: State, seat: int, move: Perform) -> State:
    catalog = state.catalog
    constants = catalog.components.constants
    player = state.players[seat]
    city = player.city
    assert city is not None
    counter_id = state.news[city]
    request = catalog.request(counter_id)
    if request.two_week and not (player.show == city and not player.show_fresh):
        return state.update_player(seat, show=city, show_fresh=True)  # CT-9.14
    level = performance_level(state, seat, request, move.famous, city)
    state = replace(state, news={k: v for k, v in state.news.items() if k != city})
    raised = level > player.best
    state = state.update_player(
        seat,
        requests=(*player.requests, counter_id),
        best=max(player.best, level),
        show=None,
        show_fresh=False,
    )
    if state.solitaire:
        earned = level * constants.solitaire_money_per_point
    else:
        earned = catalog.seasons[request.season].performance_money
        if raised:
            earned += constants.best_performance_raise_money
    earned += ev.performance_money(state)
    return state.update_player(seat, money=state.players[seat].money + earned)


def _pay_wages(state: State, seat: int, kept: tuple[str, ...]) -> State:
    catalog = state.catalog
    constants = catalog.components.constants
    player = state.players[seat]
    typed = tuple(t for t in player.circus if catalog.is_talent_type(t))
    fired = remove_many(typed, kept)
    cost = sum(wage_of(state, seat, t, state.solitaire) for t in kept)
    circus = sorted_tuple([*kept, *(t for t in player.circus if not catalog.is_talent_type(t))])
    state = state.update_player(seat, money=player.money - cost, circus=circus)
    if not fired:
        return state
    if state.advanced:
        if state.month.name in constants.wage_removal_vp_months:
            state = gain_vp(
                state,
                seat,
                -constants.wage_removal_vp_cost * len(fired),
                "wage_removal",
                "CT-19.15",
                f"{len(fired)} talent removed at wages",
            )
        else:
            state = change_reputation(state, seat, -constants.wage_removal_reputation_cost * len(fired))
        return return_to_pool(state, fired)  # CT-19.13
    cities = state.talent_cities()  # a Special Character's city too (CT-21.7)
    if not cities:
        return return_to_pool(state, fired)
    if len(cities) == 1:
        return add_city_talents(state, cities[0], fired)
    return state.push({"t": "fired_city", "seat": state.right_of(seat), "owner": seat, "group": list(fired)})


def resolve_die(state: State, task: Task, roll: int) -> State:
    purpose = task["purpose"]
    seat = task["seat"]
    if purpose == "hire":
        city = state.players[seat].city
        assert city is not None
        if roll <= hire_range(state, seat):
            state = remove_city_talent(state, city, task["talent"])
            return gain_talent(state, seat, task["talent"])
        if state.agenda and state.agenda[0]["t"] == "hire_more":  # remembered for refusals (out_of_step)
            state = replace(state, agenda=({**state.agenda[0], "failed": task["talent"]}, *state.agenda[1:]))
        return state.push({"t": "buy", "seat": seat, "talent": task["talent"]})
    if purpose == "claim":
        city = state.players[seat].city
        assert city is not None
        if roll <= claim_range(state, seat):
            character = state.characters[city]
            state = replace(state, characters={k: v for k, v in state.characters.items() if k != city})
            return gain_talent(state, seat, character)
        return state
    if purpose == "steal":
        victim = task["victim"]
        talents = list(task["talents"])
        talent = talents.pop(0)
        stolen = task["stolen"]
        modifier = 1 if state.advanced and state.players[victim].reputation > state.players[seat].reputation else 0
        if roll + modifier <= min(6, steal_range(state, seat)):  # CT-19.19: a modified 7 fails
            state = lose_talent(state, victim, talent)
            state = gain_talent(state, seat, talent)
            stolen += 1
        if talents:
            return state.push({**task, "talents": talents, "stolen": stolen})
        return state.push({"t": "steal_done", "seat": seat, "victim": victim, "stolen": stolen})
    return ev.resolve_die(state, task, roll)


__all__ = ["apply", "legal_moves", "needs_decision", "refill_if_empty", "resolve_die", "validate"]
