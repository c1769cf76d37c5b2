"""Definitions, components and setup rules as the engine and the shipped data realise them: the
player counts and clockwise order (DR-0.1, DR-0.2), money (DR-0.3, DR-1.3, DR-16.5), the names of
colours, supplies, circus, rows, levels and rounds (DR-0.5 to DR-0.12), the component counts
(DR-1.1 to DR-1.10), the markers and decks at setup (DR-2.1, DR-2.2, DR-2.7), and other rules
stated as definitions: cube actions (DR-5.1), discounts and row upkeep (DR-7.2, DR-7.3, DR-7.5),
the sharing phase's leftovers (DR-8.7), the round marker (DR-9.5, DR-9.7), the two-player vote
(DR-10.8), the performance (DR-11.3, DR-11.12), award values (DR-14.8), regions (DR-15.1, DR-15.3,
DR-15.5), flipped performers (DR-17.2, DR-17.9), rewards (DR-18.1, DR-18.3), helpers (DR-19.1,
DR-19.10) and investment cards (DR-21.1, DR-21.9, DR-21.21)."""

from __future__ import annotations

import copy
import json
from collections import Counter
from importlib import resources
from typing import Any, get_args

import pytest

from domain.games.drum_roll import RULESET
from domain.games.drum_roll.actions import spaces
from domain.games.drum_roll.components import DrumRollComponents, Investment, default_components, load_components
from domain.games.drum_roll.performance import begin
from domain.games.drum_roll.performance_end import pass_regions
from domain.games.drum_roll.state import HandCard, Hired, RowCard, State
from domain.games.drum_roll.tasks import AGENDA
from domain.games.drum_roll.wages import wage_bill, wage_of
from domain.kernel.agenda import Step
from domain.kernel.errors import InvalidComponentsError, InvalidOptionsError, InvalidSeatsError
from domain.kernel.header import seats_refusal
from domain.kernel.values import evolve

from .builders import chance, config, illegal, move
from .performing import SEAT, circus_of, hired, show
from .test_actions import pass_, place, placing, resolving
from .test_end_of_game import awards, investments, scored
from .test_setup import cubes_taken, through_regions, through_rows
from .test_sharing import done, exchange, sharing
from .test_vote import ballot, performing, two_players, voting
from .test_wages import circus, run, table

COLOURS = ("white", "yellow", "green", "blue", "red")
TYPES = ("magician", "acrobat", "juggler", "tamer", "bizarre")


def _data() -> dict[str, Any]:
    text = resources.files("domain.games.drum_roll").joinpath("data/default.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def changed(change: Any) -> DrumRollComponents:
    """The default set with `change` applied to a copy of its JSON data."""
    data = copy.deepcopy(_data())
    change(data)
    return load_components(data)


def with_set(state: State, components: DrumRollComponents) -> State:
    """The same table under another component set (start player seat 1, as the builders use)."""
    return RULESET.decode_state(RULESET.encode_state(state), config(3, components=components, start_player=1))


def pass_all(state: State, count: int) -> State:
    for _ in range(count):
        state = pass_(state, RULESET.decision(state).seats[0])
    return state


# ---- DR-0: conventions and definitions --------------------------------------------------------


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_dr_0_1_two_three_and_four_players_are_accepted(seats: int) -> None:
    """DR-0.1: the variant takes 2 to 4 players, the data has a row for each count, setup runs."""
    assert seats_refusal(RULESET, "standard", seats) is None
    assert default_components().for_players(seats).players == seats
    state = cubes_taken(seats, start_player=0)
    assert state.seats == seats and len(state.players) == seats
    assert (state.performance, state.round) == (1, 1)


@pytest.mark.parametrize("seats", [1, 5])
def test_dr_0_1_one_and_five_players_are_refused(seats: int) -> None:
    """DR-0.1: 1 or 5 players are refused by the variant's seat limits; the data has no row for them."""
    refusal = seats_refusal(RULESET, "standard", seats)
    assert refusal is not None and isinstance(refusal.error, InvalidSeatsError)
    assert "2–4" in str(refusal.error)
    with pytest.raises(KeyError):
        default_components().for_players(seats)


def test_dr_0_2_clockwise_is_the_next_seat_and_turns_run_clockwise() -> None:
    """DR-0.2: the left neighbour is the next seat (wrapping), and placing runs clockwise from the
    start player (4 players, start player seat 3: seats 3, 0, 1, 2)."""
    state = cubes_taken(4, start_player=3)
    assert [state.left_of(seat) for seat in range(4)] == [1, 2, 3, 0]
    assert state.clockwise() == (3, 0, 1, 2)
    seen = []
    for _ in range(5):
        seat = RULESET.decision(state).seats[0]
        seen.append(seat)
        state = pass_(state, seat)
    assert seen == [3, 0, 1, 2, 3]


def test_dr_0_3_money_never_goes_negative_a_short_wage_costs_fame() -> None:
    """DR-0.3 (with DR-12.3): a wage larger than the money takes all of it, to 0, never below."""
    state = run(circus(table(), 0, "P08", "P09", money=2), Step("wages"))  # wages 3 + 3
    assert (state.players[0].money, state.players[0].fame) == (0, -4)


def test_dr_0_3_money_never_goes_negative_a_short_severance_costs_fame() -> None:
    """DR-0.3 (with DR-11.9): a severance of 5 with 1 money leaves 0 money and costs 4 more fame."""
    state = show(hired("P16", 0), money=1)
    assert (state.players[SEAT].money, state.players[SEAT].fame) == (0, -5)


def test_dr_0_3_money_never_goes_negative_a_hire_not_affordable_is_refused() -> None:
    """DR-0.3 (with DR-5.15): a hire the player cannot pay in full is refused, money unchanged."""
    state = chance(resolving(), "I27", "I15").with_player(1, money=1)
    illegal(state, 1, {"type": "hire_performer", "card": "P10"}, "DR-5.15")
    assert state.players[1].money == 1


def test_dr_0_5_the_five_colours_their_names_and_their_actions() -> None:
    """DR-0.5: five colours with the published action names; the five cube actions are the colours."""
    components = default_components()
    assert {resource.id: resource.name for resource in components.resources} == {
        "white": "Rehearsal", "yellow": "Equipment", "green": "Promotion", "blue": "Costume", "red": "Supplies"}
    assert spaces(placing())[:5] == COLOURS


@pytest.mark.parametrize("colour", COLOURS)
def test_dr_5_1_dr_0_5_a_cube_action_gives_one_cube_of_its_colour(colour: str) -> None:
    """DR-5.1, DR-0.5, DR-0.6: resolving a cube action moves exactly 1 cube of its colour from the
    general supply into the player's cube supply; nothing else changes colour."""
    state = place(placing(), 1, colour)
    before_general = dict(state.cubes)
    before_own = dict(state.players[1].cubes)
    state = pass_all(state, 8)  # every other marker passed: the round resolves
    own = state.players[1].cubes
    assert own.get(colour, 0) == before_own.get(colour, 0) + 1
    assert state.cubes[colour] == before_general[colour] - 1
    for other in COLOURS:
        if other != colour:
            assert own.get(other, 0) == before_own.get(other, 0)
            assert state.cubes[other] == before_general[other]


def test_dr_0_6_the_general_supply_holds_what_no_player_owns() -> None:
    """DR-0.6: at the start the general supply holds every cube but the starting ones (2 a seat),
    every discount token and every trailer."""
    state = cubes_taken(3, start_player=1)
    assert sum(state.cubes.values()) == 125 - 3 * 2
    assert state.cubes == {"white": 22, "yellow": 22, "green": 25, "blue": 25, "red": 25}
    assert all(player.cubes == {"white": 1, "yellow": 1} for player in state.players)
    assert (state.discounts, state.trailers) == (44, 18)


def test_dr_0_7_hand_cards_money_and_cubes_are_not_part_of_the_circus() -> None:
    """DR-0.7: the circus is the performers, helpers and trailers: the wage bill counts performers
    and helpers only, and Largest show counts performers, however many cards, coins and cubes."""
    state = circus(table(), 0, "P08", helpers=("H03",), money=40, cubes={"red": 9},
                   hand=(HandCard("I27"), HandCard("I28")))
    state = circus(state, 1, "P01", "P10")
    assert wage_bill(state, 0) == 3 + 2
    state = scored(state)
    assert awards(state, 1) == [("largest_show", 3, "DR-14.3")] and awards(state, 0) == []


def test_dr_0_8_the_performer_row_holds_performers_and_the_helper_row_helpers() -> None:
    """DR-0.8: the face-up rows; a helper cannot be hired as a performer."""
    state = through_rows(4)
    components = default_components()
    performers = {card.id for card in components.performers}
    helpers = {card.id for card in components.helpers}
    assert len(state.performer_row) == 5 and {c.card for c in state.performer_row} <= performers
    assert len(state.helper_row) == 4 and {c.card for c in state.helper_row} <= helpers
    hiring = chance(resolving(), "I27", "I15")
    illegal(hiring, 1, {"type": "hire_performer", "card": "H02"}, "DR-5.11")


def test_dr_0_10_the_levels_are_poor_good_outstanding_in_that_order() -> None:
    """DR-0.10: every performer of the data has the levels poor, good, outstanding; a set with them
    out of order is refused under DR-0.10."""
    for performer in default_components().performers:
        assert [level.level for level in performer.levels] == ["poor", "good", "outstanding"]

    def swap(data: dict[str, Any]) -> None:
        levels = data["performers"][0]["levels"]
        levels[0]["level"], levels[1]["level"] = "good", "poor"

    with pytest.raises(InvalidComponentsError) as caught:
        changed(swap)
    assert "DR-0.10" in str(caught.value)


def test_dr_0_11_the_component_files_words_animal_trainer_is_tamer() -> None:
    """DR-0.11: the data's words: the animal trainer is the "tamer" (Animal Tamer), and Moscow's
    animal trainers (DR-15.5) are tamers."""
    components = default_components()
    names = {kind.id: kind.name for kind in components.performer_types}
    assert names == {"magician": "Magician", "acrobat": "Acrobat", "juggler": "Juggler", "tamer": "Animal Tamer",
                     "bizarre": "Bizarre"}
    assert [bonus.performer_type for bonus in components.region("moscow").bonuses] == ["magician", "tamer"]


def test_dr_0_12_a_round_is_a_preparation_round_and_a_performance_includes_its_wages() -> None:
    """DR-0.12: `round` counts the preparation rounds of the current performance (5 to 7 of them),
    and a performance's agenda holds its wage payment before its end."""
    constants = default_components().constants
    assert (constants.rounds_min, constants.rounds_max, constants.performances) == (5, 7, 3)
    state = pass_all(placing(), 9)
    for seat in (1, 2, 0):
        state = done(state, seat)
    assert (state.performance, state.round) == (1, 2)  # a new preparation round, the same performance
    kinds = [step.kind for step in begin(show(hired("P10", 1)), Step("performance")).agenda]
    assert kinds.index("wages") < kinds.index("after_performance")
    assert kinds.count("seat_performance") == 3 and kinds.index("seat_performance") < kinds.index("wages")


# ---- DR-1: components -------------------------------------------------------------------------


def test_dr_1_1_four_player_boards_one_start_player() -> None:
    """DR-1.1: 4 player boards: at most 4 seats, a start player seat up to 3, and one start player."""
    assert RULESET.variants["standard"].max_seats == 4
    with pytest.raises(InvalidOptionsError):
        RULESET.parse_options({"start_player": 4})
    state = cubes_taken(4, start_player=3)
    assert state.start_player == 3


def test_dr_1_3_dr_16_5_money_is_unlimited() -> None:
    """DR-1.3, DR-16.5 (AMB-34): the engine keeps no coin supply; a pass still pays 1 money when the
    players already hold far more than the 130 coins of the 58 tokens."""
    state = placing()
    assert not any("money" in key or "coin" in key for key in state.to_json())
    for seat in range(3):
        state = state.with_player(seat, money=1000)
    state = pass_(state, 1)
    assert [p.money for p in state.players] == [1000, 1001, 1000]


def test_dr_1_4_dr_2_1_round_and_performance_markers_start_on_their_first_spaces() -> None:
    """DR-1.4, DR-2.1: before setup ends neither marker is placed (0); when round 1 starts the round
    marker is on 1 and the performance marker on 1."""
    assert (through_rows(3).performance, through_rows(3).round) == (0, 0)
    state = cubes_taken(3, start_player=1)
    assert (state.performance, state.round) == (1, 1)


def test_dr_1_6_dr_1_2_the_cube_token_and_trailer_counts() -> None:
    """DR-1.6, DR-1.2: 125 cubes, 25 of each colour; 44 discount tokens; 18 trailers; 5 regions."""
    components = default_components()
    assert {resource.id: resource.supply for resource in components.resources} == dict.fromkeys(COLOURS, 25)
    assert (components.constants.discount_tokens, components.constants.trailers, len(components.regions)) == (
        44, 18, 5)


def test_dr_1_7_dr_2_7_three_action_markers_score_and_ticket_markers_at_the_start() -> None:
    """DR-1.7, DR-2.7: each player has 3 action markers, a score marker on 0 and a ticket marker on
    the starting ticket space."""
    assert default_components().constants.markers == 3
    for seats in (2, 3, 4):
        state = cubes_taken(seats, start_player=0)
        for player in state.players:
            assert (player.markers, player.fame, player.ticket, player.ledger) == (3, 0, 0, ())


def test_dr_1_8_the_main_board_action_spaces_ticket_track_and_player_board() -> None:
    """DR-1.8: the five cube actions, Ticket sale, Investment, Hire performer, Hire helper; a ticket
    track; each player board a region space and a cube supply."""
    state = placing()
    assert spaces(state) == (*COLOURS, "ticket", "investment", "hire_performer", "hire_helper")
    assert default_components().ticket_track.spaces == [1, 2, 2, 3, 3, 4]
    assert [(player.region, dict(player.cubes)) for player in state.players] == [
        ("moscow", {"white": 1, "yellow": 1}), ("paris", {"white": 1, "yellow": 1}),
        ("london", {"white": 1, "yellow": 1})]


def test_dr_1_9_five_performer_types_nine_cards_each() -> None:
    """DR-1.9 (DR-1.5): five types; the 45 performers are 9 of each in the default data."""
    components = default_components()
    assert tuple(kind.id for kind in components.performer_types) == TYPES
    assert Counter(card.type for card in components.performers) == dict.fromkeys(TYPES, 9)
    assert [kind.cards for kind in components.performer_types] == [9, 9, 9, 9, 9]


def test_dr_1_10_the_fifteen_helpers() -> None:
    """DR-1.10: 1 show organiser, 1 handyman, 1 brass band, 1 popcorn seller, 1 bank clerk, 5 agents
    all different, 5 personal secretaries all different."""
    helpers = default_components().helpers
    assert len(helpers) == 15
    assert Counter(helper.kind for helper in helpers) == {
        "show_organiser": 1, "handyman": 1, "brass_band": 1, "popcorn_seller": 1, "bank_clerk": 1,
        "agent": 5, "personal_secretary": 5}
    for kind in ("agent", "personal_secretary"):
        exchanges = {(tuple(h.exchange.give), tuple(h.exchange.take))
                     for h in helpers if h.kind == kind and h.exchange is not None}
        assert len(exchanges) == 5


# ---- DR-2: setup ------------------------------------------------------------------------------


def test_dr_2_2_decks_are_shuffled_each_draw_is_chance_over_the_whole_deck() -> None:
    """DR-2.2: every helper, performer and investment draw is a chance event, each card left in the
    deck equally likely (no order is kept)."""
    state = RULESET.setup(config(3))
    spec = RULESET.decision(state).chance
    assert spec is not None and len(spec.outcomes) == 15 and {w for _, w in spec.outcomes} == {1}
    state = chance(state, "H05", "H11", "H02")
    spec = RULESET.decision(state).chance
    assert spec is not None and len(spec.outcomes) == 45 and {w for _, w in spec.outcomes} == {1}
    spec = RULESET.decision(resolving()).chance
    assert spec is not None and spec.kind == "investment card drawn"
    assert len(spec.outcomes) == 30 and {w for _, w in spec.outcomes} == {1}
    assert state.helper_deck == tuple(sorted(state.helper_deck))  # a multiset: no secret order


# ---- DR-7: discount tokens and row upkeep -----------------------------------------------------


def upkept(state: State, times: int) -> State:
    for _ in range(times):
        state = AGENDA.advance(evolve(state, agenda=(Step("upkeep"),), over=False))
    return state


def test_dr_7_2_discounts_build_up_and_each_lowers_the_cost_by_one() -> None:
    """DR-7.2: two unhired rounds put 2 tokens on P03 (printed cost 3); it is then hired for 1."""
    hiring = chance(resolving(), "I27", "I15")
    rows = upkept(evolve(hiring, performer_row=(RowCard("P03"),), helper_row=()), 2)
    assert rows.performer_row == (RowCard("P03", 2),) and rows.discounts == 42
    state = evolve(hiring, performer_row=rows.performer_row, discounts=rows.discounts)
    assert state.players[1].money == 7
    state = move(state, 1, {"type": "hire_performer", "card": "P03"})
    assert state.players[1].money == 6 and state.discounts == 44


def test_dr_7_3_a_free_card_stays_one_round_then_is_discarded() -> None:
    """DR-7.3: P03 (cost 3) with 2 tokens gets a third and stays, free; one more unhired round and
    it is discarded with its 3 tokens returned. While free it is hired for 0."""
    start = evolve(placing(), performer_row=(RowCard("P03", 2),), helper_row=(), discounts=42)
    free = upkept(start, 1)
    assert free.performer_row == (RowCard("P03", 3),) and free.discounts == 41
    gone = upkept(free, 1)
    assert gone.performer_row == () and gone.performer_discard[-1] == "P03" and gone.discounts == 44
    hiring = chance(resolving(), "I27", "I15")
    hiring = evolve(hiring, performer_row=(RowCard("P03", 3),), discounts=41)
    hired_free = move(hiring, 1, {"type": "hire_performer", "card": "P03"})
    assert hired_free.players[1].money == 7


def test_dr_7_5_rows_are_refilled_only_at_the_end_of_round() -> None:
    """DR-7.5: hired cards leave gaps through resolution, upkeep and the sharing phase; the rows are
    refilled (by public draws) only in the end of round."""
    state = chance(resolving(), "I27", "I15")
    state = move(state, 1, {"type": "hire_performer", "card": "P01"})
    state = move(state, 2, {"type": "hire_performer", "card": "P19"})
    state = move(state, 2, {"type": "hire_helper", "card": "H01"})
    assert [c.card for c in state.performer_row] == ["P10", "P28"]
    assert [c.card for c in state.helper_row] == ["H02", "H03"]
    for seat in (1, 2, 0):
        assert RULESET.decision(state).chance is None and len(state.performer_row) == 2
        state = done(state, seat)
    state = move(state, 2, {"type": "return_organiser", "returned": False})  # seat 2 hired H01
    spec = RULESET.decision(state).chance
    assert spec is not None and spec.kind == "helper drawn into the row" and state.round == 1
    state = chance(state, "H04", "P02", "P20")
    assert [c.card for c in state.helper_row] == ["H02", "H03", "H04"]
    assert [c.card for c in state.performer_row] == ["P10", "P28", "P02", "P20"]
    assert state.round == 2 and RULESET.decision(state).chance is None


# ---- DR-8, DR-9: leftovers and the round marker -----------------------------------------------


def test_dr_8_7_unplaced_cubes_stay_in_the_cube_supply_with_no_limit() -> None:
    """DR-8.7: a seat that places nothing keeps its cubes into the next round, however many."""
    state = sharing().with_player(1, cubes={"white": 20, "red": 13})
    state = done(state, 1)
    assert state.players[1].cubes == {"white": 20, "red": 13}
    state = done(done(state, 2), 0)
    assert state.round == 2 and state.players[1].cubes == {"white": 20, "red": 13}
    assert state.players[0].cubes == {"white": 1, "yellow": 1}


def test_dr_9_5_dr_9_7_the_round_marker_advances_each_end_of_round_and_the_next_round_begins() -> None:
    """DR-9.5, DR-9.7: after rounds 1 and 2 the round marker moves to 2 then 3, and each new round
    begins with 3 markers a seat and no placement, its start player placing first."""
    state = placing()
    for expected in (2, 3):
        state = pass_all(state, 9)
        for _ in range(3):
            state = done(state, RULESET.decision(state).seats[0])
        assert state.round == expected and state.performance == 1
        assert [p.markers for p in state.players] == [3, 3, 3] and state.placements() == ()
        assert RULESET.decision(state).seats == (state.start_player,)
    assert state.start_player == 0  # 1, then 2, then 0 (DR-9.6)


# ---- DR-10.8: the two-player vote -------------------------------------------------------------


def test_dr_10_8_two_players_add_an_imaginary_postpone_vote_after_round_5() -> None:
    """DR-10.8 (DR-22.5): with 2 players, 1 perform against 1 postpone is 1 : 2 after round 5
    (postponed); 2 perform votes still win 2 : 1. Three players have no imaginary vote."""
    postponed = ballot(ballot(AGENDA.advance(two_players()), 0, False), 1, True)
    assert postponed.round == 6 and not performing(postponed)
    performed = ballot(ballot(AGENDA.advance(two_players()), 0, False), 1, False)
    assert performing(performed) and performed.round == 5
    three = ballot(ballot(ballot(voting(5), 1, True), 2, False), 0, False)
    assert performing(three)


# ---- DR-11: the performance -------------------------------------------------------------------


def test_dr_11_3_every_unflipped_performer_performs_at_its_cube_level() -> None:
    """DR-11.3: P10 with two levels filled gives its good reward (3), P11 with one its weak (2)."""
    state = show(hired("P10", 2), hired("P11", 1))
    state = move(state, SEAT, {"type": "perform", "card": "P10"})  # P11 goes by itself
    performers = circus_of(state)
    assert (performers["P10"].level, performers["P11"].level) == (2, 1)
    assert state.players[SEAT].money == 10 + 3 + 2


def test_dr_11_12_longer_applause_is_played_during_the_performance() -> None:
    """DR-11.12 (DR-21.14): the card is offered in its owner's performance (a weak acrobat: -1 fame)
    and refused as an ordinary play in the action phase."""
    state = show(hired("P10", 1), hand=("I09",))
    assert state.agenda[0].kind == "applause"
    state = move(state, SEAT, {"type": "play_longer_applause", "card": "I09"})
    assert state.players[SEAT].fame == -1 and state.investment_discard == ("I09",)
    placing_state = placing().with_player(1, hand=(HandCard("I09"),))
    illegal(placing_state, 1, {"type": "play_investment", "card": "I09"}, "DR-21.14")


# ---- DR-14.8: award values come from the data --------------------------------------------------


def test_dr_14_8_award_values_are_read_from_the_data() -> None:
    """DR-14.8: the default set's Largest show is worth 3; a set printing 9 gives 9."""
    assert {award.id: award.fame for award in default_components().awards} == {
        "largest_show": 3, "variety": 3, "perfect_show": 4, "large_troupe": 2}

    def nine(data: dict[str, Any]) -> None:
        data["awards"][0]["fame"] = 9

    for components, fame in ((default_components(), 3), (changed(nine), 9)):
        state = scored(circus(table(components=components), 0, "P01", "P02"))
        assert awards(state, 0) == [("largest_show", fame, "DR-14.3")]


# ---- DR-15: regions ---------------------------------------------------------------------------


@pytest.mark.parametrize(("region", "fame"), [("paris", 2), ("moscow", 0), (None, 0)])
def test_dr_15_1_the_token_on_the_board_is_the_region_performed_in(region: str | None, fame: int) -> None:
    """DR-15.1: two acrobats score Paris's acrobat bonus in Paris and nothing elsewhere."""
    state = show(hired("P10", 0, flipped=1), hired("P11", 0, flipped=1), region=region, performance=2)
    assert state.players[SEAT].fame == fame


@pytest.mark.parametrize(("seats", "in_play"), [(2, 3), (3, 3), (4, 4)])
def test_dr_15_3_regions_in_play_and_three_regions_each(seats: int, in_play: int) -> None:
    """DR-15.3: 4 players use 4 of the 5 tokens, 3 players 3, 2 players 3 (one neutral); the rest
    are out of the game, and passing them twice shows every player 3 different regions."""
    state = through_regions(seats)
    used = [player.region for player in state.players] + ([state.neutral_region] if state.neutral_region else [])
    assert len(used) == in_play and len(set(used)) == in_play and state.regions == ()
    seen: list[set[str | None]] = [{player.region} for player in state.players]
    for _ in range(2):
        state = pass_regions(state, Step("pass_regions"))
        for seat, player in enumerate(state.players):
            seen[seat].add(player.region)
    assert [len(regions) for regions in seen] == [3] * seats


def test_dr_15_5_moscow_is_the_described_region() -> None:
    """DR-15.5: Moscow gives +2 fame per 2 magicians and +2 per 2 animal trainers (from the rulebook)."""
    moscow = default_components().region("moscow")
    assert moscow.confidence == "rulebook"
    assert [(b.performer_type, b.per, b.fame) for b in moscow.bonuses] == [("magician", 2, 2), ("tamer", 2, 2)]
    others = [region for region in default_components().regions if region.id != "moscow"]
    assert {region.confidence for region in others} == {"filled-in"}


# ---- DR-17: flipped performers ----------------------------------------------------------------


@pytest.mark.parametrize("card", [performer.id for performer in default_components().performers])
def test_dr_17_2_the_flip_performance_pays_the_base_wage(card: str) -> None:
    """DR-17.2 (AMB-40): flipped in performance 2, a performer is paid its unflipped wage in that
    performance (the printed wage, or the bizarre count's), and its secondary wage in the 3rd."""
    printed = default_components().performer(card)
    state = evolve(circus(table(), 0, Hired(card, flipped=2)), performance=2)
    flipped = state.players[0].performers[0]
    base = printed.wage_by_bizarre_count[0] if printed.wage_by_bizarre_count else printed.wage
    assert wage_of(state, 0, flipped) == wage_of(state, 0, Hired(card)) == base
    assert wage_of(evolve(state, performance=3), 0, flipped) == printed.secondary_wage


def test_dr_17_9_a_flipped_performer_gives_no_more_rewards() -> None:
    """DR-17.9: in performance 2 the acrobat flipped in performance 1 earns nothing; P11 earns 2."""
    state = show(hired("P10", 0, flipped=1, level=3, performed=1), hired("P11", 1), performance=2)
    assert state.over
    assert state.players[SEAT].money == 10 + 2 and state.players[SEAT].fame == 0
    assert (circus_of(state)["P10"].level, circus_of(state)["P10"].performed) == (3, 1)


# ---- DR-18: rewards ---------------------------------------------------------------------------


def test_dr_18_1_rewards_are_per_card_and_level_in_the_data() -> None:
    """DR-18.1: the Tightrope Walker's dazzling reward is the data's: 5 money by default, 9 in a set
    that prints 9."""
    def richer(data: dict[str, Any]) -> None:
        walker = next(card for card in data["performers"] if card["id"] == "P10")
        walker["levels"][2]["reward"] = [{"effect": "money", "count": 9}]

    default = move(show(hired("P10", 3)), SEAT, {"type": "choose_dazzling", "flip": False})
    assert default.players[SEAT].money == 10 + 5
    state = with_set(show(hired("P10", 3)), changed(richer))
    state = move(state, SEAT, {"type": "choose_dazzling", "flip": False})
    assert state.players[SEAT].money == 10 + 9


ACROBATS = [card.id for card in default_components().performers if card.type == "acrobat"]


@pytest.mark.parametrize("level", [1, 2, 3])
@pytest.mark.parametrize("card", ACROBATS)
def test_dr_18_3_every_acrobat_level_pays_its_money(card: str, level: int) -> None:
    """DR-18.3: acrobats bring money: every level of every acrobat pays money, and the engine pays
    exactly that amount."""
    reward = default_components().performer(card).levels[level - 1].reward
    money = sum(effect.count for effect in reward if effect.effect == "money")
    assert money >= 2 and all(effect.effect == "money" for effect in reward)
    state = show(hired(card, level))
    if level == 3:
        state = move(state, SEAT, {"type": "choose_dazzling", "flip": False})
    assert state.players[SEAT].money == 10 + money


def test_dr_18_3_the_tumbler_pays_2_3_5() -> None:
    """DR-18.3: P12 (Tumbler): weak 2, good 3, dazzling 5 money."""
    paid = [show(hired("P12", 1)).players[SEAT].money, show(hired("P12", 2)).players[SEAT].money,
            move(show(hired("P12", 3)), SEAT, {"type": "choose_dazzling", "flip": False}).players[SEAT].money]
    assert paid == [12, 13, 15]


# ---- DR-19: helpers ---------------------------------------------------------------------------


def test_dr_19_1_a_helper_is_discounted_like_a_performer() -> None:
    """DR-19.1 (DR-7): the upkeep puts a token on an unhired helper; the Brass band (cost 5) with 2
    tokens is hired for 3 and its tokens go back."""
    rows = upkept(evolve(placing(), performer_row=(), helper_row=(RowCard("H03"),)), 2)
    assert rows.helper_row == (RowCard("H03", 2),) and rows.discounts == 42
    state = chance(resolving(), "I27", "I15")
    state = move(state, 1, {"type": "decline"})
    state = move(state, 2, {"type": "hire_performer", "card": "P19"})
    state = evolve(state, helper_row=(RowCard("H03", 2),), discounts=42)
    assert state.players[2].money == 6
    state = move(state, 2, {"type": "hire_helper", "card": "H03"})
    assert state.players[2].helpers == ("H03",) and state.players[2].money == 3
    # H03's 2 tokens went back: the supply lacks only the tokens the upkeep then put on the rows
    assert state.discounts == 44 - sum(c.discounts for c in (*state.performer_row, *state.helper_row))


def test_dr_19_1_a_helpers_wage_is_paid_in_every_performance() -> None:
    """DR-19.1 (DR-12): the Brass band's wage 2 is paid in performances 1, 2 and 3."""
    state = circus(table(), 0, helpers=("H03",), money=10)
    paid = []
    for performance in (1, 2, 3):
        state = run(evolve(state, performance=performance, over=False), Step("wages"))
        paid.append(state.players[0].money)
    assert paid == [8, 6, 4] and state.players[0].helpers == ("H03",)


def test_dr_19_10_exchanges_come_from_the_data() -> None:
    """DR-19.10: an agent's exchange is its card data: H10 takes red or white by default; in a set
    where it takes green only, green is allowed and red refused."""
    assert (default_components().helper("H10").exchange or pytest.fail()).take == ["red", "white"]

    def green(data: dict[str, Any]) -> None:
        agent = next(card for card in data["helpers"] if card["id"] == "H10")
        agent["exchange"]["take"] = ["green"]

    state = with_set(sharing().with_player(1, helpers=("H10",)), changed(green))
    illegal(state, 1, exchange("H10", "yellow", "red"), "DR-19.7")
    state = move(state, 1, exchange("H10", "yellow", "green"))
    assert state.players[1].cubes == {"white": 1, "yellow": 0, "green": 1}


# ---- DR-21: investment cards ------------------------------------------------------------------


def test_dr_21_1_uses_and_fame_are_printed_on_each_card() -> None:
    """DR-21.1: every card's uses and fame are data: Unlock, Trailer and Fire performer are single
    use worth 1 fame if unused; the end-game bonus cards have no usage mark; a set printing 3 fame
    on I01 scores 3 for it unused."""
    cards = default_components().investments
    for card in cards:
        if card.kind in ("unlock_action", "trailer", "fire_performer"):
            assert (card.uses, card.fame_if_unused) == (1, 1), card.id
        if card.kind in ("trailer_bonus", "helper_bonus", "resource_bonus"):
            assert card.uses is None, card.id

    def three(data: dict[str, Any]) -> None:
        data["investments"][0]["fame_if_unused"] = 3

    state = scored(circus(table(components=changed(three)), 1, "P01", hand=(HandCard("I01"),)))
    assert investments(state, 1) == [("I01", 3, "DR-21.10")]


def test_dr_21_9_the_eleven_card_kinds() -> None:
    """DR-21.9: the data's kinds are exactly the eleven types of DR-21.10 to DR-21.20, each present."""
    kinds = {"unlock_action", "trailer", "fire_performer", "trailer_bonus", "longer_applause", "helper_bonus",
             "resource_bonus", "extra_resource", "double_vote", "extra_income", "extra_income_cube"}
    allowed = set(get_args(Investment.model_fields["kind"].annotation))
    assert allowed == kinds and len(allowed) == 11
    assert {card.kind for card in default_components().investments} == kinds


def test_dr_21_21_five_longer_applause_ten_extra_resource_fifteen_others() -> None:
    """DR-21.21: 5 Longer applause (one per performer type), 10 Extra resource (2 per colour), and
    the other 15 of the 30 cards split over the other 9 kinds."""
    cards = default_components().investments
    applause = [str(card.performer_type) for card in cards if card.kind == "longer_applause"]
    assert sorted(applause) == sorted(TYPES)
    extra = Counter(option.colour for card in cards if card.kind == "extra_resource"
                    for option in card.options if option.colour != "any")
    assert extra == dict.fromkeys(COLOURS, 2) and sum(card.kind == "extra_resource" for card in cards) == 10
    others = Counter(card.kind for card in cards if card.kind not in ("longer_applause", "extra_resource"))
    assert sum(others.values()) == 15 and len(others) == 9
