"""Scenario tables through the engine: every region of the shipped data (DR-15, EX-4), every helper
kind (DR-19, DR-1.10), every investment card kind (DR-21.9 to DR-21.20) and the vote in every
player count with its ties (DR-10.4, DR-10.7, DR-22.5, AMB-8)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from domain.games.drum_roll import RULESET
from domain.games.drum_roll.components import default_components
from domain.games.drum_roll.state import HandCard, Hired, State
from domain.games.drum_roll.tasks import AGENDA
from domain.kernel.agenda import Step
from domain.kernel.values import evolve

from .builders import illegal, move
from .performing import SEAT, hired, show
from .test_actions import pass_, place, placing
from .test_end_of_game import investments, scored
from .test_investments import bizarre_circus, hand, play, unlock
from .test_round_end import ending, organiser_owned
from .test_setup import cubes_taken
from .test_sharing import cube, exchange, place_cube, sharing
from .test_vote import performing
from .test_wages import circus, table

TYPES = ("magician", "acrobat", "juggler", "tamer", "bizarre")
FIRST_CARD = {"magician": 1, "acrobat": 10, "juggler": 19, "tamer": 28, "bizarre": 37}
"""The default data numbers its performers by type: P01-P09 magicians, P10-P18 acrobats, ..."""


def troupe(counts: dict[str, int]) -> tuple[Hired, ...]:
    """`counts[type]` performers of each type, all flipped in performance 1 (so in performance 2 none
    performs and nothing is decided: only the region bonus is scored)."""
    cards = [(kind, f"P{FIRST_CARD[kind] + index:02d}") for kind in TYPES for index in range(counts.get(kind, 0))]
    assert all(default_components().performer(card).type == kind for kind, card in cards)
    return tuple(hired(card, 0, flipped=1) for _, card in cards)


# ---- regions (DR-15, EX-4) --------------------------------------------------------------------

MIXED = {"magician": 3, "acrobat": 2, "juggler": 1, "tamer": 2, "bizarre": 4}
ONE_EACH = dict.fromkeys(TYPES, 1)
WIDE = {"magician": 2, "acrobat": 5, "juggler": 4, "tamer": 3, "bizarre": 2}


@pytest.mark.parametrize(("region", "counts", "fame"), [
    ("moscow", MIXED, 4), ("paris", MIXED, 4), ("london", MIXED, 4), ("vienna", MIXED, 2), ("rome", MIXED, 6),
    ("moscow", ONE_EACH, 0), ("paris", ONE_EACH, 0), ("london", ONE_EACH, 0), ("vienna", ONE_EACH, 0),
    ("rome", ONE_EACH, 0),
    ("moscow", WIDE, 4), ("paris", WIDE, 6), ("london", WIDE, 6), ("vienna", WIDE, 8), ("rome", WIDE, 4),
])
def test_dr_15_2_dr_15_4_every_region_scores_the_bonus_its_data_prescribes(
        region: str, counts: dict[str, int], fame: int) -> None:
    """DR-15.2, DR-15.4, DR-11.11: the bonus equals, for each of the region's bonuses in the data,
    its fame times the whole sets of `per` performers of its type (computed here from the data),
    and the exact value expected for the default data."""
    data = default_components().region(region)
    expected = sum(bonus.fame * (counts.get(bonus.performer_type, 0) // bonus.per) for bonus in data.bonuses)
    assert expected == fame
    state = show(*troupe(counts), region=region, performance=2)
    assert state.over and state.players[SEAT].fame == fame
    lines = [(e.points, e.rule, dict(e.refs)) for e in state.players[SEAT].ledger]
    assert sum(points for points, _, _ in lines) == fame
    assert all(rule == "DR-15.2" and refs == {"region": region} for _, rule, refs in lines)
    assert [p.fame for seat, p in enumerate(state.players) if seat != SEAT] == [0, 0]


def test_every_region_of_the_data_is_in_the_table() -> None:
    """The table above covers every region token of the shipped data (DR-1.2: 5)."""
    assert sorted(region.id for region in default_components().regions) == sorted(
        ["moscow", "paris", "london", "vienna", "rome"])


@pytest.mark.parametrize(("magicians", "trainers", "fame"), [(3, 2, 4), (1, 1, 0), (2, 0, 2), (4, 5, 8)])
def test_dr_15_5_ex_4_moscow(magicians: int, trainers: int, fame: int) -> None:
    """DR-15.5, EX-4: Moscow, +2 per 2 magicians and +2 per pair of animal trainers: 3 and 2 give
    exactly 4, 1 and 1 give 0."""
    state = show(*troupe({"magician": magicians, "tamer": trainers}), region="moscow", performance=2)
    assert state.players[SEAT].fame == fame


# ---- helper kinds (DR-19, DR-1.10) ------------------------------------------------------------


def organiser_scenario() -> None:
    """DR-19.2: returning the show organiser makes its owner (seat 0) start round 2, not seat 2."""
    kept = move(ending(organiser_owned()), 0, {"type": "return_organiser", "returned": False})
    assert kept.start_player == 2
    state = move(ending(organiser_owned()), 0, {"type": "return_organiser", "returned": True})
    assert state.start_player == 0 and state.players[0].helpers == () and state.helper_row[-1].card == "H01"


def handyman_scenario() -> None:
    """DR-19.3, DR-8.2: the handyman's owner places a third cube; without it the third is refused."""
    state = sharing(blue=2).with_player(1, helpers=("H02", "H10"))
    state = cube(cube(cube(state, 1, "P07", "poor", "yellow"), 1, "P06", "poor", "white"), 1, "P07", "good", "blue")
    assert [h.cubes for h in state.players[1].performers] == [(("yellow",), ("blue",), ()), (("white",), (), ())]
    without = sharing(blue=2).with_player(1, helpers=("H10",))
    without = cube(cube(without, 1, "P07", "poor", "yellow"), 1, "P06", "poor", "white")
    illegal(without, 1, place_cube("P07", "good", "blue"), "DR-8.1")


def brass_band_scenario() -> None:
    """DR-19.4: +2 fame at the end of its owner's performance."""
    assert show(hired("P10", 1), helpers=("H03",)).players[SEAT].fame == 2
    assert show(hired("P10", 1)).players[SEAT].fame == 0


def popcorn_scenario() -> None:
    """DR-19.5: +3 money at the end of its owner's performance (weak P10 pays 2)."""
    assert show(hired("P10", 1), helpers=("H04",)).players[SEAT].money == 10 + 2 + 3
    assert show(hired("P10", 1)).players[SEAT].money == 10 + 2


def bank_clerk_scenario() -> None:
    """DR-19.6, DR-3.3: a deposit at a round's start is locked; at the end 7 deposited give 3 fame."""
    state = ending(sharing().with_player(2, helpers=("H05",)))
    state = move(state, 2, {"type": "deposit", "amount": 4})
    assert (state.players[2].money, state.players[2].deposit) == (6, 4)
    end = scored(circus(table(), 1, helpers=("H05",), deposit=7))
    assert end.players[1].fame == 3


def agent_scenario() -> None:
    """DR-19.7: the white/yellow agent swaps any own cube (yellow) for white from the general supply."""
    state = move(sharing().with_player(1, helpers=("H06",)), 1, exchange("H06", "yellow", "white"))
    assert state.players[1].cubes == {"white": 2, "yellow": 0}
    assert (state.cubes["white"], state.cubes["yellow"]) == (21, 23)


def secretary_scenario() -> None:
    """DR-19.8: the white secretary gives white only, for another colour."""
    state = sharing().with_player(1, helpers=("H11",))
    illegal(state, 1, exchange("H11", "yellow", "red"), "DR-19.8")
    state = move(state, 1, exchange("H11", "white", "red"))
    assert state.players[1].cubes == {"white": 0, "yellow": 1, "red": 1}
    assert (state.cubes["white"], state.cubes["red"]) == (23, 24)


@pytest.mark.parametrize(("kind", "card", "scenario"), [
    ("show_organiser", "H01", organiser_scenario),
    ("handyman", "H02", handyman_scenario),
    ("brass_band", "H03", brass_band_scenario),
    ("popcorn_seller", "H04", popcorn_scenario),
    ("bank_clerk", "H05", bank_clerk_scenario),
    ("agent", "H06", agent_scenario),
    ("personal_secretary", "H11", secretary_scenario),
])
def test_dr_19_every_helper_kind_has_its_effect(kind: str, card: str, scenario: Callable[[], None]) -> None:
    """DR-19.2 to DR-19.8 (DR-1.10): one scenario per helper kind, through the engine."""
    assert default_components().helper(card).kind == kind
    scenario()


def test_dr_1_10_every_helper_kind_is_in_the_table() -> None:
    """DR-1.10: the seven kinds of the table are all the kinds of the shipped helpers."""
    assert {helper.kind for helper in default_components().helpers} == {
        "show_organiser", "handyman", "brass_band", "popcorn_seller", "bank_clerk", "agent", "personal_secretary"}


# ---- investment card kinds (DR-21.9 to DR-21.20) -----------------------------------------------


def unlock_scenario() -> None:
    """DR-21.10: an occupied cube action taken again; both markers give a white cube."""
    state = move(hand(place(placing(), 1, "white"), 2, "I01"), 2, unlock("white", "I01"))
    for _ in range(7):
        state = pass_(state, RULESET.decision(state).seats[0])
    assert (state.players[1].cubes["white"], state.players[2].cubes["white"], state.cubes["white"]) == (2, 2, 20)


def trailer_scenario() -> None:
    """DR-21.11: a trailer from the supply onto a performer without one."""
    state = move(hand(bizarre_circus(placing(), 1), 1, "I03"), 1, play("I03", performer="P10"))
    assert state.players[1].performers == (Hired("P37"), Hired("P10", trailer=True)) and state.trailers == 17


def fire_scenario() -> None:
    """DR-21.12: a performer fired with no severance and no fame lost."""
    state = hand(sharing(), 1, "I05")
    money = state.players[1].money
    state = move(state, 1, play("I05", performer="P07"))
    assert [h.card for h in state.players[1].performers] == ["P06"]
    assert (state.players[1].money, state.players[1].fame) == (money, 0)


def trailer_bonus_scenario() -> None:
    """DR-21.13: +1 fame per trailer at the end of the game."""
    performers = (Hired("P10", trailer=True), Hired("P11", trailer=True), Hired("P12"))
    state = scored(circus(table(), 0, *performers, hand=(HandCard("I07"),)))
    assert investments(state, 0) == [("I07", 2, "DR-21.13")]


def applause_scenario() -> None:
    """DR-21.14: +1 per dazzling acrobat (P10, P11), -1 per weak one (P12)."""
    state = show(hired("P10", 3), hired("P11", 3), hired("P12", 1), hand=("I09",))
    for card in ("P10", "P11"):
        state = move(state, SEAT, {"type": "perform", "card": card})
        state = move(state, SEAT, {"type": "choose_dazzling", "flip": False})
    assert state.agenda[0].kind == "applause"  # P12 went by itself
    state = move(state, SEAT, {"type": "play_longer_applause", "card": "I09"})
    assert state.players[SEAT].fame == 2 - 1 and state.players[SEAT].money == 10 + 5 + 5 + 2


def helper_bonus_scenario() -> None:
    """DR-21.15: +1 fame per helper at the end of the game."""
    state = scored(circus(table(), 2, helpers=("H02", "H03"), hand=(HandCard("I13"),)))
    assert investments(state, 2) == [("I13", 2, "DR-21.15")]


def resource_bonus_scenario() -> None:
    """DR-21.16: +1 fame per 3 cubes in the cube supply: 7 cubes give 2."""
    state = scored(circus(table(), 0, cubes={"red": 4, "green": 3}, hand=(HandCard("I14"),)))
    assert investments(state, 0) == [("I14", 2, "DR-21.16")]


def extra_resource_scenario() -> None:
    """DR-21.17: the yellow card gives 2 yellow cubes."""
    state = move(hand(placing(), 1, "I17"), 1, play("I17", colours=["yellow", "yellow"]))
    assert state.players[1].cubes == {"white": 1, "yellow": 3} and state.cubes["yellow"] == 20


def double_vote_scenario() -> None:
    """DR-21.18: the start player (seat 1) votes perform against 2 postpones and doubles it: 2 : 2,
    and the start player's vote decides (AMB-8): the performance begins."""
    state = vote_table(3, 1, 5, hands={1: "I25"})
    for seat, postpone in ((1, False), (2, True), (0, True)):
        state = move(state, seat, {"type": "cast_vote", "postpone": postpone})
    state = move(state, 1, {"type": "play_double_vote", "play": True})
    assert performing(state) and state.round == 5


def income_scenario() -> None:
    """DR-21.19: +4 money."""
    state = move(hand(placing(), 1, "I27"), 1, play("I27"))
    assert state.players[1].money == 6 + 4


def income_cube_scenario() -> None:
    """DR-21.20: pay 1 cube, +5 money."""
    state = move(hand(placing(), 1, "I29"), 1, play("I29", colours=["yellow"]))
    assert state.players[1].money == 6 + 5 and state.players[1].cubes == {"white": 1, "yellow": 0}


@pytest.mark.parametrize(("kind", "card", "scenario"), [
    ("unlock_action", "I01", unlock_scenario),
    ("trailer", "I03", trailer_scenario),
    ("fire_performer", "I05", fire_scenario),
    ("trailer_bonus", "I07", trailer_bonus_scenario),
    ("longer_applause", "I09", applause_scenario),
    ("helper_bonus", "I13", helper_bonus_scenario),
    ("resource_bonus", "I14", resource_bonus_scenario),
    ("extra_resource", "I17", extra_resource_scenario),
    ("double_vote", "I25", double_vote_scenario),
    ("extra_income", "I27", income_scenario),
    ("extra_income_cube", "I29", income_cube_scenario),
])
def test_dr_21_9_every_investment_kind_has_its_effect(kind: str, card: str, scenario: Callable[[], None]) -> None:
    """DR-21.9 to DR-21.20: one scenario per investment card kind, through the engine."""
    assert default_components().investment(card).kind == kind
    scenario()


def test_dr_21_9_every_investment_kind_is_in_the_table() -> None:
    """DR-21.9: the eleven kinds of the table are all the kinds of the shipped cards."""
    assert len({card.kind for card in default_components().investments}) == 11


# ---- the vote in every player count (DR-10.4, DR-10.7, DR-22.5, AMB-8) ---------------------------


def vote_table(seats: int, start: int, after_round: int, hands: dict[int, str] | None = None) -> State:
    """The vote after `after_round` (5 or 6), start player `start`, everyone at 0 fame."""
    state = cubes_taken(seats, start_player=start)
    for seat, card in (hands or {}).items():
        state = state.with_player(seat, hand=(HandCard(card),))
    return AGENDA.advance(evolve(state, round=after_round, agenda=(Step("after_sharing", round=after_round),)))


P, N = True, False
"""A ballot: P postpones, N performs now."""


@pytest.mark.parametrize(("seats", "start", "after_round", "ballots", "doubled", "postponed"), [
    # 2 players: the imaginary postpone vote after round 5 (DR-22.5, EX-10)
    (2, 0, 5, {0: N, 1: P}, None, True),
    (2, 0, 5, {0: N, 1: N}, None, False),
    (2, 1, 5, {0: P, 1: P}, None, True),
    (2, 0, 6, {0: N, 1: P}, None, False),  # 1 : 1, the start player (seat 0) performs
    (2, 1, 6, {0: N, 1: P}, None, True),  # 1 : 1, the start player (seat 1) postpones
    # 3 players
    (3, 1, 5, {0: N, 1: P, 2: N}, None, False),
    (3, 1, 5, {0: P, 1: P, 2: P}, None, True),
    (3, 0, 5, {0: N, 1: P, 2: P}, None, True),
    (3, 1, 5, {0: N, 1: P, 2: P}, 0, True),  # 2 : 2 by a Double vote, the start player (seat 1) postpones
    (3, 1, 6, {0: P, 1: N, 2: P}, 1, False),  # 2 : 2, the start player (seat 1) performs
    (3, 2, 6, {0: N, 1: P, 2: N}, 1, False),  # 2 : 2, the start player (seat 2) performs
    # 4 players: an even split is a tie without any card
    (4, 2, 5, {0: N, 1: N, 2: P, 3: P}, None, True),
    (4, 2, 5, {0: P, 1: N, 2: N, 3: P}, None, False),
    (4, 0, 5, {0: N, 1: P, 2: P, 3: P}, None, True),
    (4, 0, 6, {0: N, 1: N, 2: N, 3: P}, None, False),
    (4, 3, 6, {0: N, 1: P, 2: N, 3: P}, None, True),  # 2 : 2, the start player (seat 3) postpones
    (4, 3, 6, {0: N, 1: P, 2: P, 3: N}, 2, True),  # 3 : 2 with seat 2's Double vote
])
def test_dr_10_4_dr_10_7_dr_22_5_amb_8_the_vote_in_every_player_count(
        seats: int, start: int, after_round: int, ballots: dict[int, bool], doubled: int | None,
        postponed: bool) -> None:
    """DR-10.4, DR-10.7, DR-22.5, AMB-8: the votes are counted by weight (a Double vote counts 2,
    DR-21.18), two players add an imaginary postpone after round 5, a tie goes the start player's
    way; after round 6 every postpone voter loses 1 fame, after round 5 nobody does."""
    state = vote_table(seats, start, after_round, hands={doubled: "I25"} if doubled is not None else None)
    for seat in state.clockwise():
        assert RULESET.decision(state).seats == (seat,)
        state = move(state, seat, {"type": "cast_vote", "postpone": ballots[seat]})
    if doubled is not None:
        state = move(state, doubled, {"type": "play_double_vote", "play": True})
    if postponed:
        assert not performing(state) and state.round == after_round + 1
    else:
        assert performing(state) and state.round == after_round
    fame = [-1 if after_round == 6 and ballots[seat] else 0 for seat in range(seats)]
    assert [player.fame for player in state.players] == fame
