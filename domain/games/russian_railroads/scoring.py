"""Scoring: the scoring phase of every round (§14), the final scoring (§17, §21) and the score sheet.

The engine appends every VP to `state.lines` as it is gained: immediate VP (engineers, passing,
termini, ...) as it resolves them, and the lines built here when it reaches a scoring phase
(`round_lines`) or the final scoring (`final_lines`). The sheet is then just those lines
(`score_sheet`), so every total is explained line by line and a replay re-derives it.

Lines, and why they are cut this way:
- a round gives each seat one line per railway (its track VP), one for each railway's star spaces
  and one for the Kiev medal, then one per industry marker, in the order of RR-14.2 (TS, SP, KV,
  industry). Seats score in seat order: the order does not change any total.
- lines worth 0 VP are left out of a round (a seat with no locomotive on SP gains no line for it,
  EX-25): three railways, stars and markers for every seat and every round would bury the lines
  that score. The final scoring keeps a line for every final bonus card even at 0 VP, because
  the sheet is where the revealed cards are read (RR-17.2), B7 included.
- each line's `detail` says what scored in a player's words; `refs` name the round, the railway,
  the spaces, the marker or the card, so a client can point at the board.

The winner is the seat with the most VP, and tied seats share the victory (RR-17.5): the
kernel's default `result` ranks exactly so, so this module has no `match_result`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from domain.kernel.canonical import JSON
from domain.kernel.contract import ScoreLine, ScoreSheet

from . import board
from .components import FinalBonusCard, IndustrySpace, Railway, RussianRailroadsComponents
from .state import Player, State

RAILWAY = "railway"
INDUSTRY = "industry"
FINAL_BONUS = "final_bonus"
MAJORITY = "majority"
"""The score-line categories: track, star and medal VP of a round; industry VP of a round; final
bonus cards; the engineer majority."""


# ---- tracks (RR-14.3 to RR-14.7, RR-14.10) ----------------------------------------------------


@dataclass(frozen=True)
class SpaceScore:
    """One space of a railway within reach in a scoring phase (RR-14.11)."""

    space: int
    colour: str | None
    """The colour of the track on the space, real or virtual (RR-14.4); None when no track
    marker stands on or ahead of it."""
    vp: int
    """The colour's value (revalued if the seat has the token, RR-19.6), doubled under a
    multiplier (RR-14.6)."""
    doubled: bool
    """A multiplier lies above the space (RR-10.4)."""


def multiplied_railway(components: RussianRailroadsComponents) -> Railway:
    """The railway the multiplier spaces sit above: the Trans-Siberian (RR-10.2, DATA-7), which the
    component set lists first, as RR-0.1 and the player board do."""
    return components.railways[0]


def colour_vp(components: RussianRailroadsComponents, player: Player, colour: str) -> int:
    """RR-14.5, RR-19.6: the value of a colour for this seat."""
    entry = components.colour(colour)
    return entry.revalued_vp if player.revalued else entry.vp


def scored_spaces(state: State, player: Player, railway: Railway) -> tuple[SpaceScore, ...]:
    """The spaces of `railway` that score for `player` (RR-14.3: 1 to the reach, capped by the
    railway's length), each with its real or virtual colour (RR-14.4: the nearest track marker
    on or ahead of it, even one beyond the reach, EX-24's space 8) and its VP."""
    components = state.components
    reach = min(player.reach(railway.id), railway.spaces)
    markers = sorted((position, colour) for colour, position in player.tracks.get(railway.id, {}).items()
                     if position > 0)
    doubled: frozenset[int] = frozenset()
    if railway.id == multiplied_railway(components).id:
        doubled = board.doubled_spaces(state, player)
    spaces: list[SpaceScore] = []
    for space in range(1, reach + 1):
        colour = next((c for position, c in markers if position >= space), None)
        vp = colour_vp(components, player, colour) if colour is not None else 0
        factor = 2 if space in doubled else 1
        spaces.append(SpaceScore(space, colour, vp * factor, space in doubled))
    return tuple(spaces)


def sp_doubled(player: Player, railway: Railway) -> bool:
    """RR-13.7, RR-14.7: the railway's doubling special space is met (St. Petersburg space 7)."""
    return any(s.benefit == "doubling" and board.special_met(player, railway, s) for s in railway.specials)


def track_vp(state: State, player: Player, railway: Railway) -> int:
    """The track VP of one railway in a scoring phase: its spaces (RR-14.3 to RR-14.6), doubled if
    the railway's doubling space is met (RR-14.7)."""
    total = sum(space.vp for space in scored_spaces(state, player, railway))
    return total * 2 if sp_doubled(player, railway) else total


def _runs(spaces: Sequence[SpaceScore]) -> str:
    """'brown 4+2+2, grey 1+1+1+1': the scoring spaces grouped by colour, worthless ones left out."""
    groups: list[tuple[str, list[int]]] = []
    for space in spaces:
        if space.vp == 0 or space.colour is None:
            continue
        if groups and groups[-1][0] == space.colour:
            groups[-1][1].append(space.vp)
        else:
            groups.append((space.colour, [space.vp]))
    return ", ".join(f"{colour} {'+'.join(str(vp) for vp in vps)}" for colour, vps in groups)


def _track_line(state: State, seat: int, round_no: int, railway: Railway) -> ScoreLine | None:
    player = state.players[seat]
    spaces = scored_spaces(state, player, railway)
    base = sum(space.vp for space in spaces)
    if base == 0:
        return None
    detail = f"round {round_no}: {railway.name} spaces 1-{len(spaces)}: {_runs(spaces)}"
    doubled = [space.space for space in spaces if space.doubled and space.vp]
    rule = "RR-14.4"
    if doubled:
        rule = "RR-14.6"
        detail += f" (multiplier over space {', '.join(str(s) for s in doubled)})"
    points = base
    if sp_doubled(player, railway):
        rule = "RR-14.7"
        points = base * 2
        detail += f" = {base}, doubled to {points}"
    if player.revalued:
        detail += " (revalued)"
    return ScoreLine(seat, points, RAILWAY, rule, detail, {"round": round_no, "railway": railway.id})


def _star_line(state: State, seat: int, round_no: int, railway: Railway) -> ScoreLine | None:
    """RR-13.8: every star space the black track and the locomotive reach, in one line (EX-21)."""
    player = state.players[seat]
    stars = [s for s in railway.specials if s.benefit == "star" and board.special_met(player, railway, s)]
    points = sum(s.vp for s in stars)
    if points == 0:
        return None
    detail = (f"round {round_no}: {railway.name} stars on space {', '.join(str(s.space) for s in stars)}: "
              f"{'+'.join(str(s.vp) for s in stars)}")
    refs: dict[str, JSON] = {"round": round_no, "railway": railway.id, "spaces": [s.space for s in stars]}
    return ScoreLine(seat, points, RAILWAY, "RR-13.8", detail, refs)


def _medal_line(state: State, seat: int, round_no: int, railway: Railway) -> ScoreLine | None:
    """RR-19.7, RR-14.8: the Kiev medal, once taken, while the grey track and the locomotive reach
    its space."""
    player = state.players[seat]
    if not player.medal:
        return None
    for special in railway.specials:
        if special.benefit == "medal" and special.vp and board.special_met(player, railway, special):
            detail = f"round {round_no}: Kiev medal under {railway.name} space {special.space}"
            refs: dict[str, JSON] = {"round": round_no, "railway": railway.id, "space": special.space}
            return ScoreLine(seat, special.vp, RAILWAY, "RR-19.7", detail, refs)
    return None


def railway_lines(state: State, seat: int, round_no: int) -> list[ScoreLine]:
    """A seat's railways in a scoring phase (RR-14.2 to RR-14.8, RR-13.8, RR-19.7): for each
    railway in the order of the component set (TS, SP, KV), its track line, then its stars, then
    the medal. Lines worth 0 are left out."""
    lines: list[ScoreLine] = []
    for railway in state.components.railways:
        for make in (_track_line, _star_line, _medal_line):
            line = make(state, seat, round_no, railway)
            if line is not None:
                lines.append(line)
    return lines


# ---- industry (RR-14.9) -----------------------------------------------------------------------


def _place_name(lane: tuple[IndustrySpace, ...], index: int) -> str:
    place = lane[index]
    if place.kind == "gap":
        return f"the factory in gap {(board.gap_number(lane, index) or 0) + 1}"
    if place.vp is None:
        return "the token space" if place.token else f"place {index}"
    return f"the space showing {place.vp}"


def industry_lines(state: State, seat: int, round_no: int) -> list[ScoreLine]:
    """RR-14.9: each industry marker (two after token T3, RR-19.4) scores the VP of its place, or
    of the nearest earlier place that shows one (EX-27). Lines worth 0 (a marker still on the
    start) are left out."""
    lane = board.lane(state)
    lines: list[ScoreLine] = []
    for marker, position in enumerate(state.players[seat].markers):
        points = board.space_vp(lane, position)
        if points == 0:
            continue
        shown = lane[position].kind == "space" and lane[position].vp is not None
        where = _place_name(lane, position)
        detail = f"round {round_no}: industry marker {marker + 1} on {where}"
        if not shown:
            detail += f", which shows no VP: {points} from the nearest earlier space"
        refs: dict[str, JSON] = {"round": round_no, "marker": marker, "place": position}
        lines.append(ScoreLine(seat, points, INDUSTRY, "RR-14.9", detail, refs))
    return lines


def round_lines(state: State, round_no: int) -> tuple[ScoreLine, ...]:
    """The scoring phase of round `round_no` (RR-14.1, RR-14.2): every seat in seat order, its
    railways and then its industry markers."""
    return tuple(line for seat in range(state.seats)
                 for line in (*railway_lines(state, seat, round_no), *industry_lines(state, seat, round_no)))


# ---- final bonus cards (RR-17.2, §21) ---------------------------------------------------------


def _black(components: RussianRailroadsComponents) -> str:
    """The first colour of the fixed order (RR-0.2): black."""
    return components.colours[0].id


def _card_score(state: State, player: Player, card: FinalBonusCard) -> tuple[int, str]:
    """What a card is worth for this seat before its cap, and what it counted, in a player's words."""
    components = state.components
    black = _black(components)
    if card.kind == "flat":
        return card.vp, ""
    if card.kind == "multipliers":
        # RR-21.9: the VP of the highest threshold reached, 0 below the lowest.
        reached = [vp for threshold, vp in card.steps if player.multipliers >= threshold]
        return max(reached, default=0), f"{player.multipliers} multiplier(s)"
    if card.kind == "extra_engineer":
        return 0, "counts as one more engineer for the majority"
    count, said = _card_count(components, player, card, black)
    return count * card.vp, said


def _card_count(components: RussianRailroadsComponents, player: Player, card: FinalBonusCard,
                black: str) -> tuple[int, str]:
    """The units a per-unit card counts (its `vp` each)."""
    if card.kind == "completed_railways":
        # AMB-21 (a): the black track stands on the railway's last space.
        done = [r.name for r in components.railways if player.position(r.id, black) == r.spaces]
        return len(done), f"{len(done)} completed railway(s)" + (f" ({', '.join(done)})" if done else "")
    if card.kind == "factories":
        count = sum(1 for f in player.factories if f is not None)
        return count, f"{count} factory(ies)"
    if card.kind == "extra_workers":
        count = player.gained_workers + (1 if player.black_worker else 0)
        black_note = ", the black worker included" if player.black_worker else ""
        return count, f"{count} extra worker(s){black_note}"
    if card.kind == "black_positions":
        positions = [player.position(r.id, black) or 0 for r in components.railways]
        return sum(positions), f"black tracks on {'+'.join(str(p) for p in positions)}"
    if card.kind == "engineers":
        # AMB-23: every engineer tile owned, the C3 engineer included; B7's pictured one is no tile.
        return len(player.engineers), f"{len(player.engineers)} engineer(s)"
    if card.kind == "locomotive_values":
        values = [v for r in components.railways for v in player.locomotives.get(r.id, ())]
        return sum(values), f"locomotives {'+'.join(str(v) for v in values) or 'none'}"
    if card.kind == "tokens":
        return len(player.tokens), f"{len(player.tokens)} bonus token(s) placed"
    raise ValueError(f"final bonus card {card.id}: unknown kind {card.kind!r}")


def card_vp(state: State, player: Player, card: FinalBonusCard) -> int:
    """RR-21.4 to RR-21.13: the VP of one final bonus card, its cap applied."""
    raw, _ = _card_score(state, player, card)
    return min(raw, card.cap) if card.cap > 0 else raw


def bonus_card_lines(state: State, seat: int) -> list[ScoreLine]:
    """RR-17.2: each final bonus card the seat holds, in the order taken, one line each, 0 VP
    included (the line is where the card is revealed)."""
    player = state.players[seat]
    lines: list[ScoreLine] = []
    for card_id in player.bonus_cards:
        card = state.components.bonus_card(card_id)
        raw, said = _card_score(state, player, card)
        points = card_vp(state, player, card)
        detail = f"final bonus card {card.id} ({card.label})"
        if said:
            detail += f": {said}"
        detail += f": {points} VP"
        if points < raw:
            detail += f" ({raw}, capped at {card.cap})"
        lines.append(ScoreLine(seat, points, FINAL_BONUS, card.rule, detail, {"card": card.id}))
    return lines


# ---- the engineer majority (RR-17.3, RR-17.4) -------------------------------------------------


def engineer_count(state: State, player: Player) -> int:
    """RR-17.3, AMB-23, AMB-24: the engineer tiles owned (hired and the C3 engineer) plus one for
    each extra-engineer card held (B7)."""
    extra = sum(1 for card_id in player.bonus_cards
                if state.components.bonus_card(card_id).kind == "extra_engineer")
    return len(player.engineers) + extra


def highest_engineer(state: State, player: Player) -> int:
    """The highest printed value among the seat's engineer tiles, 0 without a tile (AMB-24: B7
    has no value, so a tied seat with no tile loses the tie-break)."""
    return max((state.components.engineer(e).value for e in player.engineers), default=0)


def majority_ranking(state: State) -> list[tuple[int, tuple[int, int]]]:
    """The seats with a count of at least 1 (RR-17.4, AMB-24), best first, each with its key
    (engineer count, highest engineer value); equal keys keep seat order."""
    keyed = [(seat, (engineer_count(state, p), highest_engineer(state, p))) for seat, p in enumerate(state.players)]
    eligible = [(seat, key) for seat, key in keyed if key[0] >= 1]
    return sorted(eligible, key=lambda item: (-item[1][0], -item[1][1], item[0]))


def majority_lines(state: State) -> list[ScoreLine]:
    """RR-17.4, EX-30: the first-ranked seat gains `majority_vp[0]`, the second `majority_vp[1]`.

    The key is (count, highest value of the seat's tiles). A complete tie (same count and same
    highest value) is possible only between seats with no tile at all (AMB-24) or in a component
    set whose engineers share values; with the default set it cannot happen, since its only
    extra-engineer card is B7 and its engineer values are all different. Our reading for it:
    tied seats share the place, each gains that place's VP, and they use up as many places
    (standard competition ranking: two seats tied first both gain the first VP and nobody gains
    the second; a tie for second gives both the second VP). Seats without any count never place."""
    prizes = state.components.constants.majority_vp
    ranking = majority_ranking(state)
    lines: list[ScoreLine] = []
    for seat, key in ranking:
        place = 1 + sum(1 for _, other in ranking if other > key)
        if place > len(prizes):
            continue
        count, highest = key
        tied = sum(1 for _, other in ranking if other == key) > 1
        ordinal = ("first", "second")[place - 1] if place <= 2 else f"place {place}"
        detail = f"engineer majority: {count} engineer(s), highest value {highest}: {ordinal}"
        if tied:
            detail += " (tied, shared)"
        refs: dict[str, JSON] = {"place": place, "count": count, "highest": highest}
        lines.append(ScoreLine(seat, prizes[place - 1], MAJORITY, "RR-17.4", detail, refs))
    return lines


def final_lines(state: State) -> tuple[ScoreLine, ...]:
    """The final scoring (RR-17.1 to RR-17.4): every seat's final bonus cards in seat order, then
    the engineer majority."""
    cards = [line for seat in range(state.seats) for line in bonus_card_lines(state, seat)]
    return (*cards, *majority_lines(state))


# ---- the sheet ----------------------------------------------------------------------------------


def score_sheet(state: State) -> ScoreSheet:
    """The ruleset's `score`: every line gained so far, as the engine appended them."""
    return ScoreSheet(state.seats, state.lines)
