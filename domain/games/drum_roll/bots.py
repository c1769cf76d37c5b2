"""The named bots: "random" (the kernel's uniform choice over legal moves) and "greedy".

The greedy bot looks one decision ahead. For each legal move it applies the move to its planning
world (`blind`, below), lets the chance that follows run with the first outcome of the planning
world (never a real hidden one), stopping at its own investment draw, which the evaluation counts
in expectation, and scores the position reached with `evaluate`: an estimate, in integer tenths of
a fame point, of the seat's prospects. Ties go to the first legal move, so the bot is
deterministic and ignores its generator.

The evaluation reads the component data only (never a card id), so it works for any component
set and for every decision of the game (a performance's choices are judged by the position they
lead to). It counts:
- fame, and money by bands: the coins the next wage bill needs, a working reserve, the rest
  (DR-12.3: every coin short costs a fame point);
- the bank clerk's deposit at its fame at the end (DR-19.6, capped);
- cubes in the cube supply, more for those matching an open requirement of its performers;
- each performer at the expected value of the level it will reach (DR-17.4): the level it has
  now, and each higher level with a chance falling with every cube still missing (nothing once no
  sharing phase is left before it performs). A level is worth its reward and fame in every
  performance still to come, the dazzling level at least its flip (DR-11.6); no level means firing
  (DR-11.8: severance and a fame point); every level pays the wage in each performance left;
- helpers by kind (handyman, brass band, popcorn seller, bank clerk, agents, secretaries, show
  organiser) less their wages;
- investment cards in hand by kind, within the hand limit (DR-21.3);
- the seat's region bonus for the performers it has (DR-15);
- what the seat has placed and not yet resolved (DR-4.4): a cube, a ticket sale, an investment
  draw at the expected value of the cards it cannot see, the best hire it can pay for.
Two decisions are ruled rather than looked ahead: the vote (postpone only when one more sharing
phase is worth more to the seat's performers than the fame a postponement costs, DR-10.7) and the
Double vote (played only when it turns the result the seat's way, DR-21.18).

Bots decide from their seat's view only (the conformance suite checks it counterfactually). The
greedy bot never evaluates the state it is handed: `blind(state, seat)` replaces everything the
seat cannot see with stand-ins chosen from what it can see (see its docstring), and the bot's
answer is remembered per planning world, so two states the seat cannot tell apart give the same
move.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from domain.kernel.agenda import Step, decode_agenda, encode_agenda
from domain.kernel.canonical import JSON
from domain.kernel.contract import Bot
from domain.kernel.errors import IllegalMoveError
from domain.kernel.values import evolve

from . import actions as ac
from . import moves as mv
from . import vote as vt
from .components import Effect, Investment, Performer
from .sharing import ANY, LEVELS, allowance, unfilled
from .state import RESOLVE, HandCard, Hired, Player, State
from .tasks import AGENDA

UNIT = 10
"""Evaluations are in tenths of a fame point, so every weight is an integer."""

# ---- what the seat can know -------------------------------------------------------------------

PERFORM_STAND_IN = vt.PERFORM
"""The stand-in for another seat's ballot cast but not yet revealed (DR-10.2)."""


def blind(state: State, seat: int) -> State:
    """`state` as `seat` can know it: equal in everything the seat sees (views.py), and with
    everything it cannot see replaced by stand-ins that depend only on what it sees:
    - investment cards: the cards the seat cannot locate (not in its hand, the discard pile or a
      step of its own), sorted by id, fill in this order the other seats' hands (each keeps its
      size; uses spent reset to 0), the deck (its size kept), the cards under the deck
      (`investment_bottom`, DR-18.9) and every investment card named in a step of the agenda that
      is not the seat's own (any step whose `seat` is another seat or none, nested steps
      included: a look-at-cards reward holds its cards there);
    - performers: those the seat cannot locate (not in a row, a circus, the discard pile or its
      own draft draw), sorted, fill the other seats' opening-draft draws (DR-2.9; a kept card is
      the first of its seat's stand-ins) and then the deck;
    - helpers: those not in the row, a circus or the discard pile fill the deck;
    - ballots: another seat's ballot cast before every seat has voted reads "perform" (DR-10.2).
    Every count the table sees is kept."""
    components = state.components
    players = list(state.players)
    me = players[seat]
    agenda = encode_agenda(state.agenda)

    # investment cards
    investment_ids = {card.id for card in components.investments}
    mine = [record for record in agenda if _owned(record, seat)]
    seen = Counter(held.card for held in me.hand) + Counter(state.investment_discard)
    seen += Counter(_named(mine, investment_ids))
    pool = _left(sorted(investment_ids), seen)
    for other, player in enumerate(players):
        if other != seat:
            taken, pool = _take(pool, len(player.hand))
            players[other] = evolve(player, hand=tuple(HandCard(card) for card in taken))
    deck, pool = _take(pool, len(state.investment_deck))
    bottom, pool = _take(pool, len(state.investment_bottom))
    blinded: list[JSON] = []
    for record in agenda:
        if _owned(record, seat):
            blinded.append(record)
        else:
            record, pool = _replace_named(record, investment_ids, pool)
            blinded.append(record)

    # performers
    located = Counter(row.card for row in state.performer_row) + Counter(state.performer_discard)
    located += Counter(hired.card for player in state.players for hired in player.performers)
    located += Counter(me.drawn)
    performers = _left(sorted(card.id for card in components.performers), located)
    for other, player in enumerate(players):
        if other != seat and player.drawn:
            taken, performers = _take(performers, len(player.drawn))
            kept = None if player.kept is None else taken[0]
            players[other] = evolve(player, drawn=tuple(taken), kept=kept)
    performer_deck, _ = _take(performers, len(state.performer_deck))

    # helpers
    placed = Counter(row.card for row in state.helper_row) + Counter(state.helper_discard)
    placed += Counter(card for player in state.players for card in player.helpers)
    helpers = _left(sorted(card.id for card in components.helpers), placed)
    helper_deck, _ = _take(helpers, len(state.helper_deck))

    votes = state.votes
    if not all(ballot is not None for ballot in votes):
        votes = tuple(ballot if other == seat or ballot is None else PERFORM_STAND_IN
                      for other, ballot in enumerate(votes))
    return evolve(state, players=tuple(players), investment_deck=tuple(sorted(deck)),
                  investment_bottom=tuple(bottom), performer_deck=tuple(sorted(performer_deck)),
                  helper_deck=tuple(sorted(helper_deck)), votes=votes, agenda=decode_agenda(blinded))


def _owned(record: Any, seat: int) -> bool:
    return isinstance(record, dict) and record.get("seat") == seat


def _left(ids: list[str], located: Counter[str]) -> list[str]:
    """`ids` less one copy of each card located."""
    count = Counter(located)
    left = []
    for card in ids:
        if count[card] > 0:
            count[card] -= 1
        else:
            left.append(card)
    return left


def _take(pool: list[str], count: int) -> tuple[list[str], list[str]]:
    """The first `count` stand-ins, and the rest. A pool too short (a card somewhere blind does not
    know of) is padded by repeating its cards, never with a real hidden card."""
    if count <= len(pool):
        return pool[:count], pool[count:]
    padding = pool or ["?"]
    return [*pool, *(padding[i % len(padding)] for i in range(count - len(pool)))], []


def _named(records: Iterable[Any], ids: set[str]) -> list[str]:
    """Every string in `ids` anywhere in `records` (nested lists, objects and steps included)."""
    found: list[str] = []
    for record in records:
        if isinstance(record, str):
            if record in ids:
                found.append(record)
        elif isinstance(record, dict):
            found += _named(record.values(), ids)
        elif isinstance(record, (list, tuple)):
            found += _named(record, ids)
    return found


def _replace_named(record: Any, ids: set[str], pool: list[str]) -> tuple[Any, list[str]]:
    """`record` with every string in `ids` replaced by the next stand-in of `pool`."""
    if isinstance(record, str):
        if record in ids:
            taken, pool = _take(pool, 1)
            return taken[0], pool
        return record, pool
    if isinstance(record, dict):
        out: dict[str, Any] = {}
        for key, value in record.items():
            out[key], pool = _replace_named(value, ids, pool)
        return out, pool
    if isinstance(record, (list, tuple)):
        items = []
        for value in record:
            item, pool = _replace_named(value, ids, pool)
            items.append(item)
        return items, pool
    return record, pool


def unseen_investments(state: State, seat: int) -> list[str]:
    """The investment cards `seat` cannot locate, sorted (a card drawn now is one of these)."""
    ids = {card.id for card in state.components.investments}
    mine = [step.to_json() for step in state.agenda if step.seat == seat]
    seen = Counter(held.card for held in state.players[seat].hand) + Counter(state.investment_discard)
    seen += Counter(_named(mine, ids))
    return _left(sorted(ids), seen)


# ---- the evaluation ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Weights:
    """The evaluation's prices, in tenths of a fame point."""

    coin_short: int = 8
    """Per coin up to the seat's next wage bill (DR-12.3: a coin short is a fame point lost)."""
    coin: int = 5
    """Per coin of a working reserve beyond it (hires, investments)."""
    reserve: int = 10
    """The working reserve's size, in coins."""
    coin_rich: int = 3
    """Per coin beyond the reserve."""
    cube: int = 3
    """Per cube in the cube supply (what it is worth to a performer is in the performer's reach)."""
    reward_cube: int = 6
    """A cube gained as a reward."""
    reward_cube_choice: int = 7
    """A cube of a colour chosen from several."""
    held: int = 900
    """The chance (per mille) that a missing requirement the seat holds a cube for is filled before
    the performance, while a sharing phase is left."""
    unheld: int = 750
    """The same for a requirement it holds no cube for, with two or more sharing phases left
    (a cube action or a reward must bring the cube first); `unheld_last` with one left."""
    unheld_last: int = 450
    fire: int = 10
    """The fame point lost when a performer is fired (DR-11.8), besides its severance."""
    investment: int = 8
    """An investment card looked at and kept, when its kind is not known yet."""
    handyman_phase: int = 3
    """The handyman's extra cube per sharing phase left (DR-19.3)."""
    exchange_phase: int = 1
    """An agent's or secretary's exchange per sharing phase left (DR-19.7, DR-19.8)."""
    organiser_round: int = 1
    """The show organiser per round left (DR-19.2)."""
    bank_clerk: int = 10
    """The bank clerk's room for later deposits (DR-19.6)."""
    double_vote: int = 5
    hire_discount: int = 8
    """Tenths of a placed hire's value counted before it resolves (others may hire the card first)."""


WEIGHTS = Weights()


def performances_left(state: State) -> int:
    """Performances still to be played, the current one included if it has not been played."""
    total = state.components.constants.performances
    if state.over:
        return 0
    return max(total - max(state.performance, 1) + 1, 0)


def sharing_left(state: State, seat: int) -> int:
    """The sharing phases in which the seat can still place cubes before the coming performance:
    this round's if not done, the rounds up to the earliest vote (DR-3.4), and every further round
    already decided (a postponement)."""
    rounds_min = state.components.constants.rounds_min
    pending = any(step.kind == "sharing" or (step.kind == "share" and step.seat == seat)
                  or (step.kind == "prep_round" and step.get("round") == state.round)
                  for step in state.agenda)
    later = {step.get("round") for step in state.agenda if step.kind == "prep_round"}
    extra = sum(1 for number in later if isinstance(number, int) and number > max(state.round, rounds_min))
    return (1 if pending else 0) + max(rounds_min - state.round, 0) + extra


def reward_value(effects: Sequence[Effect], performances: int, w: Weights = WEIGHTS) -> int:
    """One level's reward (DR-18), read from its effects."""
    value = 0
    for effect in effects:
        kind = effect.effect
        if kind == "money":
            value += w.coin * effect.count
        elif kind == "cube":
            value += w.reward_cube * effect.count
        elif kind == "cube_choice":
            value += (w.reward_cube_choice if len(effect.colours) > 1 or ANY in effect.colours
                      else w.reward_cube) * effect.count
        elif kind == "investment_look":
            value += w.investment * effect.keep + 2 * (effect.look - effect.keep)
        elif kind == "trailer":
            value += max(w.coin * (performances - effect.pay_money), 0) * effect.count
        elif kind == "skip_wage":
            value += max(2 * w.coin - w.reward_cube * effect.pay_cubes, 0) * effect.count
        elif kind == "cubes_for_money":
            value += max(w.coin * effect.count - w.cube * effect.pay_cubes, 0)
    return value


def _same_type(state: State, player: Player, card: Performer) -> int:
    return sum(1 for other in player.performers if state.components.performer(other.card).type == card.type)


def base_wage(state: State, player: Player, hired: Hired) -> int:
    """The wage the card will cost in the next payment (DR-17.8, DR-20.2; bizarre performers by their
    count, DR-18.4). The payment itself is another module's; this is the bot's estimate."""
    card = state.components.performer(hired.card)
    wage = card.secondary_wage if hired.flipped is not None and hired.flipped < state.performance else card.wage
    if card.wage_by_bizarre_count and hired.flipped is None:
        table = card.wage_by_bizarre_count
        wage = table[min(max(_same_type(state, player, card), 1), len(table)) - 1]
    if hired.trailer or hired.shares_trailer_of is not None:
        wage -= 1
    return max(wage, 0)


def wage_bill(state: State, player: Player) -> int:
    """The next wage payment (DR-12.2), less the cards whose wage is skipped (DR-18.8)."""
    helpers = sum(state.components.helper(card).wage for card in player.helpers if card not in player.skipped)
    return helpers + sum(base_wage(state, player, hired) for hired in player.performers
                         if hired.card not in player.skipped)


def money_value(money: int, bill: int, w: Weights = WEIGHTS) -> int:
    short = min(money, bill)
    reserve = min(max(money - bill, 0), w.reserve)
    rich = max(money - bill - w.reserve, 0)
    return w.coin_short * short + w.coin * reserve + w.coin_rich * rich


def level_now(state: State, hired: Hired) -> int:
    """DR-17.4: the consecutive levels filled from the lowest."""
    card = state.components.performer(hired.card)
    reached = 0
    for index, level in enumerate(card.levels):
        if unfilled(level.cubes, hired.cubes[index]):
            break
        reached = index + 1
    return reached


def flip_fame(state: State, player: Player, card: Performer) -> int:
    if card.flip_fame_by_bizarre_count:
        table = card.flip_fame_by_bizarre_count
        return table[min(max(_same_type(state, player, card), 1), len(table)) - 1]
    return card.flip_fame


def _shows(state: State, hired: Hired) -> int:
    """The performances this performer still performs in."""
    played = hired.performed is not None and hired.performed >= state.performance
    return performances_left(state) - (1 if played else 0)


def reach(state: State, seat: int, player: Player, phases: int, w: Weights = WEIGHTS) -> dict[int, list[int]]:
    """Per performer (by position in the circus): the chance, per mille, of reaching each level
    1 to 3 by its next performance (DR-17.4). Every missing requirement is filled with a chance:
    `held` if the seat holds a cube for it (held cubes go to the lowest levels first), else
    `unheld`; none once no sharing phase is left. When the missing cubes outnumber what the
    sharing phases left can place (DR-8.1, DR-8.2), every chance shrinks in proportion."""
    cubes = Counter({colour: count for colour, count in player.cubes.items() if count > 0})
    slots: dict[int, list[list[bool]]] = {}
    rounds_min = state.components.constants.rounds_min
    for level in range(len(LEVELS)):
        for position, hired in enumerate(player.performers):
            if hired.flipped is not None:
                continue
            card = state.components.performer(hired.card)
            open_ = unfilled(card.levels[level].cubes, hired.cubes[level])
            mine = slots.setdefault(position, [[], [], []])
            for colour in sorted(open_.elements(), key=lambda c: (c == ANY, c)):  # a colour before "any"
                if colour != ANY and cubes[colour] > 0:
                    cubes[colour] -= 1
                    mine[level].append(True)
                elif colour == ANY and +cubes:
                    cubes[min(+cubes)] -= 1
                    mine[level].append(True)
                else:
                    mine[level].append(False)
    missing = sum(len(level) for levels in slots.values() for level in levels)
    capacity = allowance(state, seat) * (phases or rounds_min)  # none left: the next performance's
    scale = 1000 if missing <= capacity else max(capacity * 1000 // missing, 300)
    chances: dict[int, list[int]] = {}
    for position, levels in slots.items():
        hired = player.performers[position]
        own = rounds_min if _shows(state, hired) < performances_left(state) else phases
        chance = 1000
        out = []
        for needs in levels:
            for held in needs:
                if own == 0:
                    chance = 0
                p = w.held if held else (w.unheld if own >= 2 else w.unheld_last)
                chance = chance * p * scale // 1_000_000
            out.append(chance)
        chances[position] = out
    return chances


def performer_value(state: State, player: Player, hired: Hired, chances: list[int], w: Weights = WEIGHTS) -> int:
    """The expected worth of a performer in the seat's circus (see the module docstring)."""
    card = state.components.performer(hired.card)
    shows = _shows(state, hired)
    if shows <= 0:
        return 0
    payments = shows - (1 if hired.card in player.skipped else 0)  # DR-18.8: this wage is skipped
    burden = w.coin * base_wage(state, player, hired) * max(payments, 0)
    if hired.flipped is not None:
        return -burden
    values = [-(w.fire + w.coin * card.hire_cost)]
    for index, level in enumerate(card.levels):
        value = shows * (reward_value(level.reward, shows, w) + UNIT * level.fame)
        if index == len(card.levels) - 1:
            saving = w.coin * max(card.wage - card.secondary_wage, 0) * (shows - 1)
            value = max(value, UNIT * flip_fame(state, player, card) + saving)
        values.append(value - burden)
    steps = [1000, *chances, 0]
    return sum((steps[level] - steps[level + 1]) * value for level, value in enumerate(values)) // 1000


def circus_value(state: State, seat: int, player: Player, phases: int, w: Weights = WEIGHTS) -> int:
    """The performers of `player` (the seat's, perhaps changed) and the cubes in its supply."""
    chances = reach(state, seat, player, phases, w)
    value = sum(performer_value(state, player, hired, chances.get(position, [0, 0, 0]), w)
                for position, hired in enumerate(player.performers))
    if performances_left(state) > 0:
        value += w.cube * sum(player.cubes.values())
    return value + region_value(state, player)


def helper_value(state: State, seat: int, card_id: str, w: Weights = WEIGHTS) -> int:
    helper = state.components.helper(card_id)
    shows = performances_left(state)
    if shows == 0:
        return 0
    rounds = state.components.constants.rounds_min
    phases = sharing_left(state, seat) + rounds * (shows - 1)
    kind = helper.kind
    if kind == "handyman":
        value = w.handyman_phase * phases
    elif kind == "brass_band":
        value = UNIT * (helper.value or 0) * shows
    elif kind == "popcorn_seller":
        value = w.coin * (helper.value or 0) * shows
    elif kind == "bank_clerk":
        value = w.bank_clerk
    elif kind in ("agent", "personal_secretary"):
        value = w.exchange_phase * phases
    else:
        value = w.organiser_round * phases
    payments = shows - (1 if card_id in state.players[seat].skipped else 0)  # DR-18.8
    return value - w.coin * helper.wage * max(payments, 0)


def investment_value(state: State, seat: int, card: Investment, w: Weights = WEIGHTS) -> int:
    """A card in hand, by kind: what playing it brings, at least the fame it gives unused (DR-21)."""
    player = state.players[seat]
    shows = performances_left(state)
    kind = card.kind
    use = 0
    if kind == "extra_income":
        use = w.coin * (card.amount or 0)
    elif kind == "extra_income_cube":
        use = w.coin * (card.coins or 0) - w.reward_cube * (card.pay_cubes or 0)
    elif kind == "extra_resource":
        use = max((w.reward_cube * option.count for option in card.options), default=0)
    elif kind == "double_vote":
        use = w.double_vote
    elif kind == "trailer":
        use = w.coin * shows
    elif kind in ("fire_performer", "unlock_action"):
        use = 5
    elif kind == "longer_applause":
        levels = [level_now(state, hired) for hired in player.performers
                  if state.components.performer(hired.card).type == card.performer_type and hired.flipped is None]
        use = UNIT * ((card.per_outstanding or 0) * levels.count(3) + (card.per_poor or 0) * levels.count(1))
    elif kind == "trailer_bonus":
        use = UNIT * (card.amount or 1) * sum(1 for hired in player.performers if hired.trailer)
    elif kind == "helper_bonus":
        use = UNIT * (card.amount or 1) * len(player.helpers)
    elif kind == "resource_bonus":
        use = UNIT * (card.amount or 1) * (sum(player.cubes.values()) // 3)
    return max(use, UNIT * (card.fame_if_unused or 0), 0)


def hand_limit(state: State, player: Player) -> int:
    """DR-21.3: 2 plus one per magician in the circus (a magician: a performer whose rewards bring
    investment cards)."""
    constants = state.components.constants
    magicians = sum(1 for hired in player.performers
                    if any(effect.effect == "investment_look"
                           for level in state.components.performer(hired.card).levels for effect in level.reward))
    return constants.hand_limit + constants.hand_limit_per_magician * magicians


def hand_value(state: State, seat: int, w: Weights = WEIGHTS) -> int:
    player = state.players[seat]
    values = sorted((investment_value(state, seat, state.components.investment(held.card), w)
                     for held in player.hand), reverse=True)
    return sum(values[:hand_limit(state, player)])


def expected_draw(state: State, seat: int, w: Weights = WEIGHTS) -> int:
    """The expected worth of an investment card drawn now: the mean over the cards the seat
    cannot locate."""
    pool = unseen_investments(state, seat)
    if not pool:
        return 0
    return sum(investment_value(state, seat, state.components.investment(card), w) for card in pool) // len(pool)


def region_scored(state: State, player: Player) -> bool:
    """Whether the seat's region bonus of the current performance is behind it: it gained one
    (a "region" fame entry), or every performer of its circus has performed in it (DR-11.11)."""
    if any(entry.category == "region" and entry.performance == state.performance for entry in player.ledger):
        return True
    unflipped = [hired for hired in player.performers if hired.flipped is None or hired.flipped == state.performance]
    return bool(unflipped) and all(hired.performed == state.performance for hired in unflipped)


def region_value(state: State, player: Player) -> int:
    """DR-15: the seat's region bonus for the performers it has, and half a bonus's share for each
    performer towards the next one; nothing once this performance's bonus is behind it (the
    region token it gets next is not counted)."""
    if player.region is None or performances_left(state) == 0 or region_scored(state, player):
        return 0
    kinds = Counter(state.components.performer(hired.card).type for hired in player.performers)
    value = 0
    for bonus in state.components.region(player.region).bonuses:
        count = kinds[bonus.performer_type]
        value += UNIT * bonus.fame * (count // bonus.per)
        value += UNIT * bonus.fame * (count % bonus.per) // (2 * bonus.per)
    return value


def _placed(state: State, seat: int) -> list[Step]:
    """The seat's placed markers not resolved yet: held in the `resolve` step, or pushed by it."""
    found: list[Step] = []
    for step in state.agenda:
        if step.kind == RESOLVE:
            found += [held for held in state.placements() if held.seat == seat]
        elif step.kind in ac.ORDER and step.seat == seat:
            found.append(step)
    return found


def pending_value(state: State, seat: int, phases: int, base: int, w: Weights = WEIGHTS) -> int:
    """What the seat's placed markers will bring when they resolve (DR-6.1), beyond `base` (the
    circus's value now)."""
    player = state.players[seat]
    value = 0
    tickets = player.ticket
    money = player.money
    cubes = dict(player.cubes)
    hires: list[str] = []
    for step in _placed(state, seat):
        kind = step.kind
        if kind == ac.CUBE:
            colour = str(step["colour"])
            if state.cubes.get(colour, 0) > 0:
                cubes[colour] = cubes.get(colour, 0) + 1
        elif kind == ac.TICKET:
            track = state.components.ticket_track.spaces
            if tickets < len(track):
                value += w.coin * track[tickets]
                money += track[tickets]
                tickets += 1
        elif kind == ac.INVESTMENT:
            cost = state.components.constants.investment_cost
            if money >= cost:
                value += expected_draw(state, seat, w) - w.coin * cost
        else:
            hires.append(kind)
    if cubes != dict(player.cubes):
        value += circus_value(state, seat, evolve(player, cubes=cubes), phases, w) - base
    for kind in hires:
        best = (_best_performer_hire(state, seat, money, phases, base, w) if kind == ac.HIRE_PERFORMER
                else _best_helper_hire(state, seat, money, w))
        value += w.hire_discount * best // 10
    return value


def _best_performer_hire(state: State, seat: int, money: int, phases: int, base: int, w: Weights) -> int:
    player = state.players[seat]
    best = 0
    for row_card in state.performer_row:
        cost = ac.performer_cost(state, row_card)
        if cost <= money:
            more = evolve(player, performers=(*player.performers, Hired(row_card.card)))
            best = max(best, circus_value(state, seat, more, phases, w) - base - w.coin * cost)
    return best


def _best_helper_hire(state: State, seat: int, money: int, w: Weights) -> int:
    best = 0
    for row_card in state.helper_row:
        cost = ac.helper_cost(state, row_card)
        if cost <= money and state.organiser_returned != seat:
            best = max(best, helper_value(state, seat, row_card.card, w) - w.coin * cost)
    return best


def evaluate(state: State, seat: int, w: Weights = WEIGHTS) -> int:
    """The seat's prospects in tenths of a fame point, from its planning world (see the module
    docstring)."""
    player = state.players[seat]
    components = state.components
    value = UNIT * player.fame
    value += money_value(player.money, wage_bill(state, player), w)
    clerk = next((components.helper(card) for card in player.helpers
                  if components.helper(card).kind == "bank_clerk"), None)
    if clerk is not None and clerk.coins_per_fame:
        value += UNIT * min(clerk.max_fame or 0, player.deposit // clerk.coins_per_fame)
    phases = sharing_left(state, seat)
    circus = player
    if player.kept is not None and not player.performers:  # the opening draft (DR-2.9)
        circus = evolve(player, performers=(Hired(player.kept),))
        value -= w.coin * components.performer(player.kept).hire_cost
    base = circus_value(state, seat, circus, phases, w)
    value += base
    value += sum(helper_value(state, seat, card, w) for card in player.helpers)
    value += hand_value(state, seat, w)
    value += pending_value(state, seat, phases, base, w)
    return value


# ---- choosing ---------------------------------------------------------------------------------

SETTLE_LIMIT = 24
"""Chance events the look-ahead resolves after a move before it evaluates."""


def settle(state: State, seat: int) -> State:
    """Let the chance after a move happen in the planning world with the first outcome of each
    draw (its stand-ins, never a real hidden card), until a seat must decide. The seat's own
    investment draw is left pending: the evaluation counts it in expectation."""
    for _ in range(SETTLE_LIMIT):
        decision = AGENDA.decision(state)
        if decision.over or decision.chance is None:
            break
        head = state.agenda[0] if state.agenda else None
        if head is not None and head.kind == ac.INVESTMENT and head.seat == seat:
            break
        state = AGENDA.resolve(state, decision.chance.outcomes[0][0])
    return state


def vote_gain(state: State, seat: int, w: Weights = WEIGHTS) -> int:
    """What one more preparation round's sharing phase is worth to the seat's performers."""
    player = state.players[seat]
    phases = sharing_left(state, seat)
    return circus_value(state, seat, player, phases + 1, w) - circus_value(state, seat, player, phases, w)


def vote_cost(state: State, seat: int) -> int:
    """DR-10.7: after the last vote but one (round 6), a postpone voter loses a fame point."""
    last_vote = state.components.constants.rounds_max - 1
    return UNIT if state.vote_round >= last_vote else 0


def _ruled(world: State, seat: int, moves: Sequence[Any], w: Weights) -> Any | None:
    """The vote and the Double vote, decided by rule rather than look-ahead (the count uses every
    ballot, which the seat cannot see before it votes)."""
    first = moves[0]
    if isinstance(first, mv.CastVote):
        postpone = vote_gain(world, seat, w) > vote_cost(world, seat)
        return next(move for move in moves if move.postpone == postpone)
    if isinstance(first, mv.PlayDoubleVote):
        head = world.agenda[0] if world.agenda else None
        number = int(head["round"]) if head is not None and "round" in head else world.vote_round
        mine = world.votes[seat]
        doubled = tuple(True if other == seat else flag for other, flag in enumerate(world.doubled))
        play = (mine is not None and vt.result(world, number) != mine
                and vt.result(evolve(world, doubled=doubled), number) == mine)
        return next(move for move in moves if move.play == play)
    return None


def move_scores(state: State, seat: int, w: Weights = WEIGHTS) -> list[tuple[Any, int]]:
    """Each legal move of `seat` with the evaluation of where it leads, in its planning world."""
    world = blind(state, seat)
    return _scores(world, seat, AGENDA.legal_moves(world, seat), w)


def _scores(world: State, seat: int, moves: Sequence[Any], w: Weights) -> list[tuple[Any, int]]:
    return [(move, evaluate(settle(AGENDA.apply(world, seat, move), seat), seat, w)) for move in moves]


def choose(state: State, seat: int, w: Weights = WEIGHTS) -> Any:
    """The greedy move for `seat`: the best-scored, the first one on a tie; remembered per
    planning world, so states the seat cannot tell apart ask the same question.

    A safety net for what the planning world may get wrong (a hidden card the seat does see, kept
    somewhere `blind` does not know of): the move is validated on the real state, and if the rules
    refuse it there, the seat's real legal moves (which it knows) are scored in the planning world
    instead, any that cannot be played there last."""
    world = blind(state, seat)
    move = _chosen(_Plan(world, seat, w))
    try:
        AGENDA.validate(state, seat, move)
    except IllegalMoveError:
        return _fallback(world, seat, AGENDA.legal_moves(state, seat), w)
    return move


def _fallback(world: State, seat: int, moves: Sequence[Any], w: Weights) -> Any:
    best, best_score = moves[0], None
    for move in moves:
        try:
            score = evaluate(settle(AGENDA.apply(world, seat, move), seat), seat, w)
        except IllegalMoveError:
            continue
        if best_score is None or score > best_score:
            best, best_score = move, score
    return best


class _Plan:
    """A question to the greedy bot, hashable by what decides its answer: the seat, the weights and
    the planning world (its encoding and match configuration). The world is kept, so the
    components' identity stays unique while the answer is remembered."""

    __slots__ = ("key", "seat", "weights", "world")

    def __init__(self, world: State, seat: int, weights: Weights) -> None:
        config = world.config
        encoded = json.dumps(world.to_json(), sort_keys=True, separators=(",", ":")).encode()
        self.world, self.seat, self.weights = world, seat, weights
        self.key = (seat, weights, config.variant, config.seats, config.options, id(config.components),
                    hashlib.blake2b(encoded, digest_size=20).digest())

    def __hash__(self) -> int:
        return hash(self.key)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Plan) and self.key == other.key


@lru_cache(maxsize=16_384)
def _chosen(plan: _Plan) -> Any:
    world, seat, weights = plan.world, plan.seat, plan.weights
    moves = AGENDA.legal_moves(world, seat)
    if len(moves) == 1:
        return moves[0]
    ruled = _ruled(world, seat, moves, weights)
    if ruled is not None:
        return ruled
    scored = _scores(world, seat, moves, weights)
    best_index, best_score = 0, scored[0][1]
    for index, (_, score) in enumerate(scored[1:], start=1):
        if score > best_score:
            best_index, best_score = index, score
    return moves[best_index]


def greedy_with(weights: Weights) -> Bot:
    """A greedy bot with other weights (for comparing weightings)."""
    def bot(state: State, seat: int, rng: random.Random) -> Any:
        return choose(state, seat, weights)
    return bot


def greedy_bot(state: State, seat: int, rng: random.Random) -> Any:
    """The kernel's bot signature; the generator is not needed (ties go to the first move)."""
    return choose(state, seat)


def bots(rules: Any) -> dict[str, Bot]:
    """The named bots of the game (the ruleset's `bots`): "random" first, as every game has it."""
    return {"random": rules.random_bot, "greedy": greedy_bot}
