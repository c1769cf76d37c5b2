"""Scoring: the Performance Level, VP changes with the floor, month-end and final scoring, results.

Every VP change goes through `gain_vp`, which applies the floor of 0 (CT-0.12), converts VP to money
in solitaire (CT-20.5) and drops VP in the simpler variant (CT-21.21), and records one score line
(the kernel's `ScoreLine`) with the rule ID that produced it, so the score sheet always adds up to
the VP markers.
"""

from __future__ import annotations

from domain.kernel.contract import Result, ScoreLine, ScoreSheet
from domain.kernel.values import evolve

from .components import RequestCounter
from .state import PlayerState, State


def gain_vp(state: State, seat: int, delta: int, category: str, rule: str, detail: str = "") -> State:
    """Change a player's VP by `delta` (floored at 0), recording the line actually applied."""
    if delta == 0 or state.options.simpler:
        return state
    player = state.players[seat]
    if state.solitaire:
        per_vp = state.catalog.components.constants.solitaire_money_per_vp
        money = max(0, player.money + delta * per_vp)
        return state.update_player(seat, money=money)
    vp = max(0, player.vp + delta)
    line = ScoreLine(seat, vp - player.vp, category, rule, detail)
    state = state.update_player(seat, vp=vp)
    return evolve(state, lines=(*state.lines, line))


# ---- performing -------------------------------------------------------------------------------


def famous_types(state: State, seat: int, famous: str | None) -> set[str]:
    """Types counting as famous: 3+ counters (CT-9.4), or one declared with Ronald (CT-21.12)."""
    player = state.players[seat]
    threshold = state.catalog.components.constants.famous_threshold
    result = {t for t in state.catalog.talent_ids if player.count(t) >= threshold}
    if famous is not None and player.count(famous) >= 1:
        result.add(famous)
    return result


def owns_power(state: State, seat: int, power: str) -> str | None:
    """The Special Character with this power that `seat` owns, if any."""
    for item in state.players[seat].circus:
        character = state.catalog.characters.get(item)
        if character is not None and character.power == power:
            return item
    return None


def performance_level(
    state: State, seat: int, request: RequestCounter, famous: str | None = None, city: str | None = None
) -> int:
    """CT-9.6: B + Σ bonus (doubled when famous) + Σ fame of held requests (+ Big Bertha, events)."""
    catalog = state.catalog
    constants = catalog.components.constants
    player = state.players[seat]
    famous_set = famous_types(state, seat, famous)
    level = request.base_points
    effect = catalog.events[state.event].effect if state.event is not None else None
    for talent, value in sorted(request.bonuses.items()):
        if player.count(talent) < 1:
            continue
        bonus = value
        if effect is not None and effect.type == "talent_bonus_modifier" and effect.talent == talent:
            bonus += effect.delta
        if effect is not None and effect.type == "talent_bonus_zero" and effect.talent == talent:
            bonus = 0
        level += bonus * (constants.famous_multiplier if talent in famous_set else 1)
    for held in player.requests:
        level += catalog.request(held).base_points
    bertha = owns_power(state, seat, "performance_bonus")
    if bertha is not None:
        level += catalog.characters[bertha].value
    if (
        effect is not None
        and effect.type == "performance_penalty_at_cities"
        and city in state.marks.get("penalised", [])
    ):
        level = max(0, level + effect.delta)
    return level


# ---- month end --------------------------------------------------------------------------------


def place_awards(values: list[int], awards: tuple[int, ...], third_tie: int | None) -> list[int]:
    """CT-16.4 to CT-16.6: awards by place with tied groups sharing (sum / k, rounded down); a tied
    group starting at 3rd place gets `third_tie` each."""
    order = sorted(range(len(values)), key=lambda i: -values[i])
    result = [0] * len(values)
    place = 0
    index = 0
    while index < len(order):
        group = [i for i in order if values[i] == values[order[index]]]
        k = len(group)
        if place == 2 and k >= 2 and third_tie is not None:
            share = third_tie
        else:
            share = sum(awards[p] if p < len(awards) else 0 for p in range(place, place + k)) // k
        for seat in group:
            result[seat] = share
        place += k
        index += k
    return result


def most_talent(players: tuple[PlayerState, ...], talent_ids: tuple[str, ...], minimum: int) -> list[int]:
    """CT-16.1, CT-16.2: per type, a lone leader with at least `minimum` scores that count."""
    points = [0] * len(players)
    for talent in talent_ids:
        counts = [p.count(talent) for p in players]
        top = max(counts)
        if top >= minimum and counts.count(top) == 1:
            points[counts.index(top)] += top
    return points


def solitaire_scored(state: State) -> bool:
    """A-29 (b): with one player, month-end and final scoring run, paid in money (CT-20.10)."""
    return state.options.solitaire_scoring == "month_end_and_final"


def month_end_scoring(state: State, month_index: int) -> State:
    """Section 16 at the end of a month: never in the simpler variant (CT-21.20); in solitaire only
    Most Talent, paid $5 a VP (CT-16.11, A-29), or nothing under the "none" reading."""
    if state.options.simpler or (state.solitaire and not solitaire_scored(state)):
        return state
    catalog = state.catalog
    constants = catalog.components.constants
    month = catalog.months[month_index]
    for talent in catalog.talent_ids:
        counts = [p.count(talent) for p in state.players]
        top = max(counts)
        if top >= constants.most_talent_min_counters and counts.count(top) == 1:
            seat = counts.index(top)
            state = gain_vp(state, seat, top, "most_talent", "CT-16.1", f"{month.name}: most {talent} ({top})")
    if state.solitaire:  # no Best Performance markers, so no Best Performance or April award (CT-20.2)
        return state
    if state.seats >= 3 and month_index == 0:
        for seat, player in enumerate(state.players):
            if player.requests:
                state = gain_vp(
                    state,
                    seat,
                    constants.april_performed_vp,
                    "april_performed",
                    "CT-16.8",
                    f"{month.name}: performed at least once",
                )
        return state
    bests = [p.best for p in state.players]
    if state.seats == 2:
        awards = place_awards(bests, constants.two_player_best_performance_vp, None)
        rule = "CT-16.7"
    else:
        awards = place_awards(bests, constants.month_end_best_performance_vp, constants.tie_for_third_vp)
        rule = "CT-16.4"
    for seat, points in enumerate(awards):
        state = gain_vp(state, seat, points, "best_performance", rule, f"{month.name}: Best Performance {bests[seat]}")
    return state


# ---- final scoring ----------------------------------------------------------------------------


def wage_of(state: State, seat: int, talent: str, doubled: bool) -> int:
    """One counter's wage (CT-11.6), doubled in solitaire (CT-20.4), with Trainer Ted (CT-21.16)
    and a wage event; Special Characters draw none (CT-21.8)."""
    catalog = state.catalog
    kind = catalog.talent_types.get(talent)
    if kind is None:
        return 0
    wage = kind.solitaire_wage if doubled else kind.wage
    ted = owns_power(state, seat, "elephant_wage_cut")
    if ted is not None and talent == "elephant":
        wage -= catalog.characters[ted].value
    if state.event is not None:
        effect = catalog.events[state.event].effect
        if effect.type == "wage_modifier" and talent in effect.talents:
            wage += effect.delta
    return max(0, wage)


def wage_bill(state: State, seat: int, talents: tuple[str, ...] | None = None, factor: int = 1) -> int:
    player = state.players[seat]
    items = player.circus if talents is None else talents
    return sum(wage_of(state, seat, t, state.solitaire) * factor for t in items)


def _award_most(
    state: State,
    values: list[int],
    minimum: int,
    full: int,
    tie: int,
    category: str,
    rule: str,
    eligible: list[bool] | None = None,
) -> State:
    top = max(values)
    if top < minimum:
        return state
    leaders = [seat for seat, value in enumerate(values) if value == top]
    points = full if len(leaders) == 1 else tie
    for seat in leaders:
        if eligible is None or eligible[seat]:
            state = gain_vp(state, seat, points, category, rule, f"{category}: {top}")
    return state


def end_of_game(state: State) -> State:
    """After September's month-end scoring (CT-15.6): in solitaire the doubled wages come first
    (CT-20.8), then, under A-29 (b), final scoring's award steps paid in money (CT-20.10); with
    2-5 players, final scoring (section 17)."""
    if state.solitaire:
        state = solitaire_final_wages(state)
        if state.options.simpler or not solitaire_scored(state):
            return state
    return final_scoring(state)


def final_scoring(state: State) -> State:
    """Section 17 in its order (plus CT-19.22), each step floored as it goes. With one player each
    award for "the most" is a threshold (A-17) and every VP is $5 (CT-20.5, CT-20.10); the
    end-of-game wages stand in for Step 1 (end_of_game)."""
    if state.options.simpler:
        return state
    catalog = state.catalog
    final = catalog.components.constants.final
    wage_cards = catalog.card_with_effect("move_then_wages")
    last_week = catalog.total_weeks - 1
    if state.seats == 2:
        for seat, player in enumerate(state.players):
            holds = any(card in player.hand for card in wage_cards) and player.refill_week != last_week
            if holds:
                state = gain_vp(
                    state, seat, final.two_player_tax_vp, "taxes", "CT-17.2", "Wage & Transit still in hand"
                )
                owed = 2 * wage_bill(state, seat)
                money = state.players[seat].money
                state = state.update_player(seat, money=max(0, money - owed))
    clowns = [p.count("clown") for p in state.players]
    state = _award_most(state, clowns, 1, final.most_clowns, final.tie_share, "most_clowns", "CT-17.3")
    for seat, count in enumerate(clowns):
        if count == 0:
            state = gain_vp(state, seat, final.no_clowns, "no_clowns", "CT-17.4", "no Clown")
    for seat in range(state.seats):
        for animal in catalog.animals:
            if state.players[seat].count(animal) == 0:
                state = gain_vp(state, seat, final.missing_animal_type, "no_animals", "CT-17.5", f"no {animal}")
    riches = [p.money for p in state.players]
    eligible = None
    if state.advanced:
        need = catalog.components.reputation.min_level_for_most_money
        eligible = [p.reputation >= need for p in state.players]
    state = _award_most(
        state,
        riches,
        1,
        final.most_money,
        final.tie_share,
        "most_money",
        "CT-19.22" if state.advanced else "CT-17.6",
        eligible,
    )
    performances = [len(p.requests) for p in state.players]
    state = _award_most(
        state, performances, 1, final.most_performances, final.tie_share, "most_performances", "CT-17.7"
    )
    if state.advanced:
        reputation = [p.reputation for p in state.players]
        state = _award_most(
            state,
            reputation,
            -(10**9),
            final.highest_reputation_advanced,
            final.tie_share,
            "highest_reputation",
            "CT-19.22",
        )
    return state


def solitaire_final_wages(state: State) -> State:
    """CT-20.8: pay every (doubled) wage once more, firing nothing; short money ends at $0 (A-30)."""
    owed = wage_bill(state, 0)
    return state.update_player(0, money=max(0, state.players[0].money - owed))


def solitaire_band(state: State) -> str:
    """CT-20.9: the result band of the final money."""
    money = state.players[0].money
    for band in state.catalog.components.constants.solitaire_success_table:
        if money >= band.low and (band.high is None or money <= band.high):
            return band.result
    return ""


# ---- sheet and result -------------------------------------------------------------------------


def score_sheet(state: State) -> ScoreSheet:
    """The ruleset's `score`: money in solitaire, the Best Performance markers in the simpler
    variant, otherwise every VP line scored so far."""
    if state.solitaire:
        money = state.players[0].money
        rule = "CT-20.9" if state.over else "CT-20.2"
        detail = f"final money: {solitaire_band(state)}" if state.over else "money so far"
        return ScoreSheet(1, (ScoreLine(0, money, "money", rule, detail),))
    if state.options.simpler:
        return ScoreSheet(
            state.seats,
            tuple(
                ScoreLine(seat, p.best, "best_performance", "CT-21.20", "Best Performance marker")
                for seat, p in enumerate(state.players)
            ),
        )
    return ScoreSheet(state.seats, state.lines)


def match_result(state: State, sheet: ScoreSheet) -> Result:
    """The ruleset's `result`: ranks with the tie-breaks of CT-18.2 (CT-21.21 in the simpler variant)."""
    totals = sheet.totals()
    players = state.players
    if state.solitaire:
        return Result(ranks=(1,), totals=totals, tiebreaks=(solitaire_band(state),))
    if state.options.simpler:
        simple = [(p.best, p.money, len(p.requests)) for p in players]
        return Result.from_keys(totals, simple, ("CT-21.21: money, then requests held",))
    keys = [(totals[seat], p.best, p.money, len(p.requests)) for seat, p in enumerate(players)]
    return Result.from_keys(totals, keys, ("CT-18.2: Best Performance, money, requests held",))
