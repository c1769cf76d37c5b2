"""A seat's decisions, one kind at a time: for each kind of decision step, whether it needs
deciding, its legal moves, the checks of a move (each refusal names its rule) and what the move
does. The table (tasks.py) gives each kind its row from these; event-card decisions live in
events.py.

Every `apply_*` gets the state with its step already taken off the agenda, and pushes what the
move resolves to (a die roll, the card's action, the end of the turn). A move the step does not
take never gets here: the table's refusals (refusals.py) answer it.
"""

from __future__ import annotations

from collections import Counter
from itertools import product
from typing import Literal

from domain.kernel.agenda import Step
from domain.kernel.canonical import JSON
from domain.kernel.errors import IllegalMoveError
from domain.kernel.values import evolve

from . import events as ev
from . import moves as mv
from .board import (
    add_city_talents,
    change_reputation,
    gain_talent,
    lose_talent,
    remove_city_talent,
    rep_bounds,
    return_to_pool,
    take_from_pool,
)
from .limits import (
    allowance,
    characters_buyable,
    check_path,
    claim_range,
    constants_of,
    destinations,
    hire_range,
    hireable,
    keep_error,
    long_victims,
    perform_error,
    perform_hire_possible,
    quarantined,
    replay_error,
    special_price,
    steal_range,
    untried_here,
    validate_replay_cost,
)
from .scoring import gain_vp, owns_power, performance_level, wage_of
from .state import State, add_sorted, multiset_contains, remove_many, remove_one, sorted_tuple

Source = Literal["hand", "replay", "eddie"]
REWARDS: tuple[Literal["reputation", "vp"], ...] = ("reputation", "vp")
FAMOUS: tuple[Literal["clown", "acrobat"], ...] = ("clown", "acrobat")


def nothing(state: State, seat: int, step: Step, move: object) -> None:
    """A decision whose moves need no check beyond their type (a claim or a pass)."""


def _spend_sam(state: State, seat: int) -> State:
    """CT-21.13: Smuggler Sam, once used, goes to the reserve."""
    sam = owns_power(state, seat, "free_hire")
    assert sam is not None
    state = lose_talent(state, seat, sam)
    return evolve(state, reserve=add_sorted(state.reserve, sam))


# ---- pick: a starting talent counter (CT-5.14) ----------------------------------------------------


def pick_moves(state: State, seat: int, step: Step) -> list[object]:
    types = state.catalog.components.constants.starting_pick_types
    return [mv.PickTalent(talent=t) for t in types if state.pool.get(t, 0) > 0]


def validate_pick(state: State, seat: int, step: Step, move: object) -> None:
    assert isinstance(move, mv.PickTalent)
    if move.talent not in state.catalog.components.constants.starting_pick_types:
        raise IllegalMoveError(
            "CT-5.14",
            "starting picks must be one of " + ", ".join(constants_of(state).starting_pick_types),
        )
    if state.pool.get(move.talent, 0) <= 0:
        raise IllegalMoveError("CT-14.1", f"no {move.talent} is left in the Talent Pool")


def apply_pick(state: State, seat: int, step: Step, move: object) -> State:
    assert isinstance(move, mv.PickTalent)
    state = take_from_pool(state, move.talent)
    state = gain_talent(state, seat, move.talent)
    if step["left"] > 1:
        state = state.push(Step("pick", seat=seat, left=step["left"] - 1))
    return state


# ---- start: a train on a start city (CT-5.20) -----------------------------------------------------


def start_moves(state: State, seat: int, step: Step) -> list[object]:
    return [mv.ChooseStart(city=c) for c in state.catalog.start_cities]


def validate_start(state: State, seat: int, step: Step, move: object) -> None:
    assert isinstance(move, mv.ChooseStart)
    if move.city not in state.catalog.start_cities:
        raise IllegalMoveError("CT-5.20", f"trains start in {', '.join(state.catalog.start_cities)}")


def apply_start(state: State, seat: int, step: Step, move: object) -> State:
    assert isinstance(move, mv.ChooseStart)
    return state.update_player(seat, city=move.city)


# ---- turn: play (or replay) an action card, pocket wages, or spend Sam (CT-7.2, CT-19.4) ----------


def _card_moves(state: State, seat: int, card_id: str, source: Source) -> list[mv.PlayCard]:
    catalog = state.catalog
    card = catalog.cards[card_id]
    player = state.players[seat]
    assert player.city is not None
    moves: list[mv.PlayCard] = []
    if card.effect == "basic_transit":
        fewest, most = allowance(state, seat, card)
        for path in destinations(state, player.city, most, fewest):
            moves.append(mv.PlayCard(card=card_id, path=path, option="move", source=source))
        if perform_hire_possible(state, seat):
            moves.append(mv.PlayCard(card=card_id, option="perform_hire", source=source))
        if state.advanced and player.money >= catalog.components.constants.parade_cost:
            for reward in REWARDS:
                moves.append(mv.PlayCard(card=card_id, option="parade", parade_reward=reward, source=source))
        return moves
    _, most = allowance(state, seat, card)
    for path in destinations(state, player.city, most):
        moves.append(mv.PlayCard(card=card_id, path=path, source=source))
    return moves


def turn_moves(state: State, seat: int, step: Step) -> list[object]:
    catalog = state.catalog
    player = state.players[seat]
    moves: list[object] = []
    for card_id in sorted(set(player.hand)):
        if catalog.cards[card_id].effect == "rest" and state.week == 0:
            continue
        moves.extend(_card_moves(state, seat, card_id, "hand"))
    if state.advanced:
        if replay_error(state, seat) is None:
            for card_id in sorted(set(player.discard)):
                moves.extend(_card_moves(state, seat, card_id, "replay"))
        low, _ = rep_bounds(state)
        if not state.solitaire and state.month.name in catalog.components.constants.pocket_months:
            for bills in range(1, player.reputation - low + 1):
                moves.append(mv.PocketWages(bills=bills))
        if owns_power(state, seat, "free_hire") is not None:
            moves.append(mv.UseSam())
    if owns_power(state, seat, "free_replay") is not None:
        for card_id in sorted(set(player.discard)):
            moves.extend(_card_moves(state, seat, card_id, "eddie"))
    return moves


def validate_turn(state: State, seat: int, step: Step, move: object) -> None:
    if isinstance(move, mv.PlayCard):
        _validate_play(state, seat, move)
    elif isinstance(move, mv.PocketWages):
        _validate_pocket(state, seat, move)
    else:
        assert isinstance(move, mv.UseSam)
        if not state.advanced:
            raise IllegalMoveError("CT-21.13", "Smuggler Sam gives reputation only in the advanced game")
        if owns_power(state, seat, "free_hire") is None:
            raise IllegalMoveError("CT-21.13", "you do not own Smuggler Sam")


def _validate_play(state: State, seat: int, move: mv.PlayCard) -> None:
    catalog = state.catalog
    player = state.players[seat]
    card = catalog.cards.get(move.card)
    if card is None:
        raise IllegalMoveError("CT-7.2", f"{move.card!r} is not an action card")
    if move.source == "hand":
        if move.card not in player.hand:
            raise IllegalMoveError("CT-7.2", f"{card.name} is not in your hand")
    else:
        if move.source == "replay" and not state.advanced:
            raise IllegalMoveError("CT-19.4", "replaying a discarded card belongs to the advanced game")
        if move.card not in player.discard:
            raise IllegalMoveError(
                "CT-19.5" if move.source == "replay" else "CT-21.14",
                f"{card.name} is not in your discard pile",
            )
        if move.source == "eddie":
            if owns_power(state, seat, "free_replay") is None:
                raise IllegalMoveError("CT-21.14", "you do not own Engineer Eddie")
        else:
            validate_replay_cost(state, seat)
    if card.effect == "rest" and state.week == 0:
        raise IllegalMoveError("CT-19.12", "no player may rest in the first week (A-25)")
    if card.effect == "basic_transit":
        if move.option is None:
            raise IllegalMoveError("CT-7.8", "Basic Transit needs an option: move, perform_hire (or parade)")
        if move.option == "move":
            check_path(state, seat, card, move.path)
        elif move.path and move.option == "parade":
            raise IllegalMoveError(
                "CT-19.16", "a Circus Parade is held where the train stands: the card gives no movement"
            )
        elif move.path:
            raise IllegalMoveError("CT-7.8", "Basic Transit moves or performs/hires, never both")
        elif move.option == "perform_hire":
            if not perform_hire_possible(state, seat):
                raise IllegalMoveError(
                    "CT-7.8", "nothing can be performed or hired here, so Basic Transit must move (A-5)"
                )
        else:
            if not state.advanced:
                raise IllegalMoveError("CT-19.16", "the Circus Parade belongs to the advanced game")
            cost = catalog.components.constants.parade_cost
            if player.money < cost:
                raise IllegalMoveError("CT-19.17", f"a parade costs ${cost}; you have ${player.money}")
            if move.parade_reward is None:
                raise IllegalMoveError("CT-19.16", "a parade gives +1 reputation or +2 VP: choose one")
        if move.option != "parade" and move.parade_reward is not None:
            raise IllegalMoveError("CT-19.16", "a parade reward needs the parade option")
        return
    if move.option is not None or move.parade_reward is not None:
        raise IllegalMoveError("CT-7.8", "only Basic Transit takes an option")
    check_path(state, seat, card, move.path)


def _validate_pocket(state: State, seat: int, move: mv.PocketWages) -> None:
    if not state.advanced:
        raise IllegalMoveError("CT-19.4", "pocketing wages belongs to the advanced game")
    if state.solitaire:
        raise IllegalMoveError("CT-20.6", "pocketing wages is never allowed in solitaire")
    if state.month.name not in state.catalog.components.constants.pocket_months:
        raise IllegalMoveError("CT-19.9", f"wages cannot be pocketed in {state.month.name}")
    low, _ = rep_bounds(state)
    spare = state.players[seat].reputation - low
    if spare <= 0:
        raise IllegalMoveError("CT-19.9", "your reputation is already at the bottom box")
    if not 1 <= move.bills <= spare:
        raise IllegalMoveError("CT-19.8", f"take between 1 and {spare} bills (A-24)")


def apply_turn(state: State, seat: int, step: Step, move: object) -> State:
    if isinstance(move, mv.UseSam):  # Sam is spent instead of nothing; the turn is still to play
        state = _spend_sam(state, seat)
        return change_reputation(state.push(step), seat, +1)
    if isinstance(move, mv.PocketWages):
        constants = state.catalog.components.constants
        state = state.update_player(seat, money=state.players[seat].money + move.bills * constants.pocket_bill)
        state = change_reputation(state, seat, -move.bills)
        return state.push(Step("end_turn", seat=seat))
    assert isinstance(move, mv.PlayCard)
    return _apply_play(state, seat, move)


def _apply_play(state: State, seat: int, move: mv.PlayCard) -> State:
    catalog = state.catalog
    constants = catalog.components.constants
    card = catalog.cards[move.card]
    player = state.players[seat]
    moved = False
    if move.source == "hand":
        hand = remove_one(player.hand, move.card)
        discard = add_sorted(player.discard, move.card)
        if hand:
            changes: dict[str, object] = {"hand": hand, "discard": discard}
        else:  # CT-7.4: the last card played brings the whole pile back
            changes = {"hand": discard, "discard": (), "refill_week": state.week}
        if move.path:  # the train moves too: one change of the player (nothing else happens between)
            changes["city"] = move.path[-1]
            moved = True
        state = state.update_player(seat, **changes)
    elif move.source == "eddie":
        eddie = owns_power(state, seat, "free_replay")
        assert eddie is not None
        state = lose_talent(state, seat, eddie)
        state = evolve(state, reserve=add_sorted(state.reserve, eddie))
    else:
        if state.solitaire:
            state = state.update_player(seat, money=player.money - constants.solitaire_replay_cost)
            state = change_reputation(state, seat, -constants.replay_reputation_cost)
        elif state.month.name in constants.replay_vp_cost_months:
            state = gain_vp(state, seat, -constants.replay_vp_cost, "replay", "CT-19.5", f"replayed {card.name}")
        else:
            state = change_reputation(state, seat, -constants.replay_reputation_cost)
    if move.path and not moved:
        state = state.update_player(seat, city=move.path[-1])
    if move.option == "parade":
        state = state.update_player(seat, money=state.players[seat].money - constants.parade_cost)
        if move.parade_reward == "vp":
            state = gain_vp(state, seat, constants.parade_vp, "parade", "CT-19.16", "Circus Parade")
        else:
            state = change_reputation(state, seat, constants.parade_reputation)
        return state.push(Step("end_turn", seat=seat))
    follow: Step | None = None
    if card.effect in ("move_then_perform_hire", "hold"):
        follow = Step("ph", seat=seat, optional=True)
    elif card.effect == "basic_transit" and move.option == "perform_hire":
        follow = Step("ph", seat=seat, optional=False)
    elif card.effect == "move_then_special_hire":
        follow = Step("special", seat=seat)
    elif card.effect == "move_then_wages":
        follow = Step("wages", seat=seat)
    elif card.effect == "rest":
        follow = Step("rest", seat=seat)
    return state.push(
        Step("arrive", seat=seat, moved=bool(move.path), then=follow),
        Step("end_turn", seat=seat),
    )


# ---- claim: try for the Special Character here, or not (CT-21.6) -----------------------------------


def claim_needed(state: State, step: Step) -> bool:
    return state.players[step["seat"]].city in state.characters


def claim_moves(state: State, seat: int, step: Step) -> list[object]:
    return [mv.ClaimCharacter(), mv.Pass()]


def apply_claim(state: State, seat: int, step: Step, move: object) -> State:
    if isinstance(move, mv.ClaimCharacter):
        return state.push(Step("die", purpose="claim", seat=seat))
    return state


# ---- hiring: shared by Perform/Hire, its further hires, and a Special Hire (CT-9.20 to CT-9.25) ----


def _hire_moves(state: State, seat: int, talents: list[str]) -> list[mv.Hire]:
    moves = [mv.Hire(talent=t) for t in talents]
    if owns_power(state, seat, "free_hire") is not None:
        moves += [mv.Hire(talent=t, sam=True) for t in talents]
    return moves


def _validate_hire(state: State, seat: int, move: mv.Hire, pool: list[str]) -> None:
    player = state.players[seat]
    if quarantined(state, player.city):
        raise IllegalMoveError("CT-21.18", "this month's event forbids hiring here")
    if move.talent in state.catalog.characters:
        raise IllegalMoveError("CT-9.25", "a Special Character on the board is claimed, not hired")
    if move.talent not in pool:
        if move.talent in state.talents.get(player.city or "", ()):
            raise IllegalMoveError("CT-9.23", f"each counter may be tried once per action: no untried {move.talent}")
        raise IllegalMoveError("CT-9.20", f"there is no {move.talent} to hire in {player.city}")
    if move.sam and owns_power(state, seat, "free_hire") is None:
        raise IllegalMoveError("CT-21.13", "you do not own Smuggler Sam")


def _apply_hire(state: State, seat: int, move: mv.Hire, untried: list[str]) -> State:
    """A hire attempt: Sam takes the counter outright (CT-21.13), otherwise a die decides (CT-9.21);
    either way the action may go on with the counters not yet tried (CT-9.23)."""
    untried.remove(move.talent)
    city = state.players[seat].city
    assert city is not None
    if move.sam:
        state = _spend_sam(state, seat)
        state = remove_city_talent(state, city, move.talent)
        state = gain_talent(state, seat, move.talent)
        return state.push(Step("hire_more", seat=seat, untried=untried))
    return state.push(
        Step("die", purpose="hire", seat=seat, talent=move.talent),
        Step("hire_more", seat=seat, untried=untried),
    )


# ---- ph: a Perform/Hire action (CT-0.10, CT-9.1) --------------------------------------------------


def ph_needed(state: State, step: Step) -> bool:
    return perform_hire_possible(state, step["seat"])


def ph_moves(state: State, seat: int, step: Step) -> list[object]:
    player = state.players[seat]
    moves: list[object] = []
    if perform_error(state, seat) is None:
        moves.append(mv.Perform())
        if owns_power(state, seat, "famous_clown_or_acrobat") is not None:
            moves.extend(mv.Perform(famous=t) for t in FAMOUS if player.count(t) >= 1)
    moves.extend(_hire_moves(state, seat, sorted(set(hireable(state, seat)))))
    if step["optional"]:
        moves.append(mv.Pass())
    return moves


def validate_ph(state: State, seat: int, step: Step, move: object) -> None:
    if isinstance(move, mv.Perform):
        error = perform_error(state, seat)
        if error is not None:
            raise error
        if move.famous is not None:
            if owns_power(state, seat, "famous_clown_or_acrobat") is None:
                raise IllegalMoveError("CT-21.12", "only the owner of Ringmaster Ronald may declare talent famous")
            if state.players[seat].count(move.famous) < 1:
                raise IllegalMoveError("CT-21.12", f"you need at least one {move.famous} to declare it famous")
    elif isinstance(move, mv.Hire):
        _validate_hire(state, seat, move, list(hireable(state, seat)))
    elif not step["optional"]:
        raise IllegalMoveError("CT-7.8", "Basic Transit's Perform/Hire was chosen instead of moving: take it (A-5)")


def apply_ph(state: State, seat: int, step: Step, move: object) -> State:
    if isinstance(move, mv.Perform):
        return _perform(state, seat, move)
    if isinstance(move, mv.Hire):
        return _apply_hire(state, seat, move, list(hireable(state, seat)))
    if not step["optional"]:
        raise IllegalMoveError("CT-7.8", "Basic Transit's Perform/Hire was chosen instead of moving: take it (A-5)")
    return state


def _perform(state: State, seat: int, move: mv.Perform) -> State:
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
    state = evolve(state, news={k: v for k, v in state.news.items() if k != city})
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


# ---- hire_more: another hire in the same action, or stop (CT-9.23) --------------------------------


def hire_more_needed(state: State, step: Step) -> bool:
    return bool(untried_here(state, step))


def hire_more_moves(state: State, seat: int, step: Step) -> list[object]:
    return [*_hire_moves(state, seat, sorted(set(untried_here(state, step)))), mv.Pass()]


def validate_hire_more(state: State, seat: int, step: Step, move: object) -> None:
    if isinstance(move, mv.Hire):
        _validate_hire(state, seat, move, untried_here(state, step))


def apply_hire_more(state: State, seat: int, step: Step, move: object) -> State:
    if isinstance(move, mv.Hire):
        return _apply_hire(state, seat, move, list(step["untried"]))
    return state


# ---- buy: the $10 purchase after a failed hire roll (CT-9.22) --------------------------------------


def buy_needed(state: State, step: Step) -> bool:
    return state.players[step["seat"]].money >= state.catalog.components.constants.buy_after_failed_hire


def buy_moves(state: State, seat: int, step: Step) -> list[object]:
    return [mv.BuyAfterFailure(), mv.Pass()]


def validate_buy(state: State, seat: int, step: Step, move: object) -> None:
    if isinstance(move, mv.BuyAfterFailure):
        cost = state.catalog.components.constants.buy_after_failed_hire
        player = state.players[seat]
        if player.money < cost:
            raise IllegalMoveError("CT-0.11", f"buying costs ${cost}; you have ${player.money}")


def apply_buy(state: State, seat: int, step: Step, move: object) -> State:
    if not isinstance(move, mv.BuyAfterFailure):
        return state
    player = state.players[seat]
    city = player.city
    assert city is not None
    state = state.update_player(seat, money=player.money - state.catalog.components.constants.buy_after_failed_hire)
    state = remove_city_talent(state, city, step["talent"])
    return gain_talent(state, seat, step["talent"])


# ---- special: a Special Hire, a steal or a purchase from the pool (CT-10.1 to CT-10.5) -------------


def _multiset_subsets(items: tuple[str, ...], low: int, high: int) -> list[tuple[str, ...]]:
    counts = sorted(Counter(items).items())
    result = []
    for combo in product(*[range(n + 1) for _, n in counts]):
        size = sum(combo)
        if low <= size <= high:
            result.append(sorted_tuple(t for (t, _), k in zip(counts, combo, strict=True) for _ in range(k)))
    return result


def special_moves(state: State, seat: int, step: Step) -> list[object]:
    catalog = state.catalog
    player = state.players[seat]
    moves: list[object] = []
    moves.extend(_hire_moves(state, seat, sorted(set(hireable(state, seat)))))
    for victim, rival in enumerate(state.players):
        if victim != seat and rival.city == player.city and rival.circus:
            top = catalog.components.constants.steal_max_talents
            for subset in _multiset_subsets(rival.circus, 1, top):
                moves.append(mv.Steal(victim=victim, talents=subset))
    price = special_price(state)
    if player.money >= price:
        moves.extend(mv.BuyFromPool(talent=t) for t in catalog.talent_ids if state.pool.get(t, 0) > 0)
        if characters_buyable(state):
            moves.extend(mv.BuyFromPool(talent=c) for c in sorted(set(state.reserve)))
    moves.append(mv.Pass())
    return moves


def validate_special(state: State, seat: int, step: Step, move: object) -> None:
    if isinstance(move, mv.Hire):
        _validate_hire(state, seat, move, list(hireable(state, seat)))
    elif isinstance(move, mv.Steal):
        _validate_steal(state, seat, move)
    elif isinstance(move, mv.BuyFromPool):
        _validate_buy_from_pool(state, seat, move)


def _validate_steal(state: State, seat: int, move: mv.Steal) -> None:
    player = state.players[seat]
    if not 0 <= move.victim < state.seats or move.victim == seat:
        raise IllegalMoveError("CT-10.4", "steal from another player")
    victim = state.players[move.victim]
    if victim.city != player.city:
        raise IllegalMoveError("CT-10.2", f"player {move.victim}'s train is not in your city")
    top = state.catalog.components.constants.steal_max_talents
    if not 1 <= len(move.talents) <= top:
        raise IllegalMoveError("CT-10.4", f"steal 1 to {top} counters (A-10)")
    if not multiset_contains(victim.circus, move.talents):
        raise IllegalMoveError("CT-10.4", f"player {move.victim} does not own those counters")


def _validate_buy_from_pool(state: State, seat: int, move: mv.BuyFromPool) -> None:
    catalog = state.catalog
    player = state.players[seat]
    price = special_price(state)
    if player.money < price:
        raise IllegalMoveError("CT-0.11", f"a purchase costs ${price} this month (CT-10.3); you have ${player.money}")
    if move.talent in catalog.characters:
        if not characters_buyable(state) or move.talent not in state.reserve:
            raise IllegalMoveError(
                "CT-21.9", "Special Characters are bought only from the reserve in August and September"
            )
    elif move.talent not in catalog.talent_types:
        raise IllegalMoveError("CT-10.2", f"{move.talent!r} is not a talent type")
    elif state.pool.get(move.talent, 0) <= 0:
        raise IllegalMoveError("CT-14.1", f"no {move.talent} is left in the Talent Pool")


def apply_special(state: State, seat: int, step: Step, move: object) -> State:
    if isinstance(move, mv.Hire):
        return _apply_hire(state, seat, move, list(hireable(state, seat)))
    if isinstance(move, mv.Steal):
        return state.push(
            Step("die", purpose="steal", seat=seat, victim=move.victim, talents=list(move.talents), stolen=0)
        )
    if isinstance(move, mv.BuyFromPool):
        state = state.update_player(seat, money=state.players[seat].money - special_price(state))
        if move.talent in state.catalog.characters:
            state = evolve(state, reserve=remove_one(state.reserve, move.talent))
        else:
            state = take_from_pool(state, move.talent)
        return gain_talent(state, seat, move.talent)
    return state


# ---- keep: the talent kept and paid at Wage & Transit (CT-11.3, CT-19.14) --------------------------


def keep_moves(state: State, seat: int, step: Step) -> list[object]:
    player = state.players[seat]
    typed = tuple(t for t in player.circus if state.catalog.is_talent_type(t))
    return [
        mv.KeepTalent(talents=kept)
        for kept in _multiset_subsets(typed, 0, len(typed))
        if keep_error(state, seat, kept) is None
    ]


def validate_keep(state: State, seat: int, step: Step, move: object) -> None:
    assert isinstance(move, mv.KeepTalent)
    error = keep_error(state, seat, sorted_tuple(move.talents))
    if error is not None:
        raise error


def apply_keep(state: State, seat: int, step: Step, move: object) -> State:
    assert isinstance(move, mv.KeepTalent)
    return _pay_wages(state, seat, sorted_tuple(move.talents))


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
    return state.push(Step("fired_city", seat=state.right_of(seat), owner=seat, group=list(fired)))


# ---- fired_city: where fired talent goes (CT-11.4) -------------------------------------------------


def fired_city_moves(state: State, seat: int, step: Step) -> list[object]:
    return [mv.SendFired(city=c) for c in state.talent_cities()]


def validate_fired_city(state: State, seat: int, step: Step, move: object) -> None:
    assert isinstance(move, mv.SendFired)
    if move.city not in state.talent_cities():
        raise IllegalMoveError("CT-11.4", f"fired talent must join a city holding talent; {move.city} holds none")


def apply_fired_city(state: State, seat: int, step: Step, move: object) -> State:
    assert isinstance(move, mv.SendFired)
    return add_city_talents(state, move.city, list(step["group"]))


# ---- long_steal: the long-month steal (CT-15.2, CT-19.21) ------------------------------------------


def long_steal_needed(state: State, step: Step) -> bool:
    return bool(long_victims(state, step["seat"]))


def long_steal_moves(state: State, seat: int, step: Step) -> list[object]:
    moves: list[object] = []
    for victim in long_victims(state, seat):
        moves.extend(mv.LongSteal(victim=victim, talent=t) for t in sorted(set(state.players[victim].circus)))
    moves.append(mv.Pass())
    return moves


def validate_long_steal(state: State, seat: int, step: Step, move: object) -> None:
    if not isinstance(move, mv.LongSteal):
        return
    if move.victim not in long_victims(state, seat):
        rule_id = "CT-19.21" if state.advanced else "CT-15.2"
        raise IllegalMoveError(rule_id, f"you may not take talent from player {move.victim}")
    if move.talent not in state.players[move.victim].circus:
        raise IllegalMoveError("CT-15.2", f"player {move.victim} has no {move.talent}")


def apply_long_steal(state: State, seat: int, step: Step, move: object) -> State:
    if not isinstance(move, mv.LongSteal):
        return state
    state = lose_talent(state, move.victim, move.talent)
    return gain_talent(state, seat, move.talent)


# ---- rest: the Rest bonus in Canada (CT-19.11) -----------------------------------------------------


def rest_needed(state: State, step: Step) -> bool:
    return state.advanced and state.players[step["seat"]].city in state.catalog.canada


def rest_moves(state: State, seat: int, step: Step) -> list[object]:
    constants = state.catalog.components.constants
    moves: list[object] = [mv.RestBonus(bonus=t) for t in constants.rest_talents if state.pool.get(t, 0) > 0]
    return [*moves, mv.RestBonus(bonus="reputation"), mv.Pass()]


def validate_rest(state: State, seat: int, step: Step, move: object) -> None:
    if not isinstance(move, mv.RestBonus) or move.bonus == "reputation":
        return
    if move.bonus not in state.catalog.components.constants.rest_talents:
        raise IllegalMoveError("CT-19.11", "the Rest bonus is a Clown, an Acrobat or +1 reputation")
    if state.pool.get(move.bonus, 0) <= 0:
        raise IllegalMoveError("CT-14.1", f"no {move.bonus} is left in the Talent Pool")


def apply_rest(state: State, seat: int, step: Step, move: object) -> State:
    if not isinstance(move, mv.RestBonus):
        return state
    if move.bonus == "reputation":
        return change_reputation(state, seat, state.catalog.components.constants.rest_reputation)
    state = take_from_pool(state, move.bonus)
    return gain_talent(state, seat, move.bonus)


# ---- the dice of a turn: hire, claim and steal rolls -----------------------------------------------


def resolve_roll(state: State, step: Step, outcome: JSON) -> State:
    """A die step's roll: a hire (CT-9.21), a claim (CT-21.6), one counter of a steal (CT-10.4,
    CT-19.19), or an event's talent loss roll (CT-21.18)."""
    roll = int(outcome)
    purpose = step["purpose"]
    seat = step["seat"]
    if purpose == "hire":
        city = state.players[seat].city
        assert city is not None
        if roll <= hire_range(state, seat):
            state = remove_city_talent(state, city, step["talent"])
            return gain_talent(state, seat, step["talent"])
        if state.agenda and state.agenda[0].kind == "hire_more":  # remembered for refusals (out_of_step)
            state = state.with_agenda((state.agenda[0].but(failed=step["talent"]), *state.agenda[1:]))
        return state.push(Step("buy", seat=seat, talent=step["talent"]))
    if purpose == "claim":
        city = state.players[seat].city
        assert city is not None
        if roll <= claim_range(state, seat):
            character = state.characters[city]
            state = evolve(state, characters={k: v for k, v in state.characters.items() if k != city})
            return gain_talent(state, seat, character)
        return state
    if purpose == "steal":
        victim = step["victim"]
        talents = list(step["talents"])
        talent = talents.pop(0)
        stolen = step["stolen"]
        modifier = 1 if state.advanced and state.players[victim].reputation > state.players[seat].reputation else 0
        if roll + modifier <= min(6, steal_range(state, seat)):  # CT-19.19: a modified 7 fails
            state = lose_talent(state, victim, talent)
            state = gain_talent(state, seat, talent)
            stolen += 1
        if talents:
            return state.push(step.but(talents=talents, stolen=stolen))
        return state.push(Step("steal_done", seat=seat, victim=victim, stolen=stolen))
    return ev.resolve_loss_roll(state, step, roll)
