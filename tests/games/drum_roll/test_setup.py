"""The setup (DR-2, DR-22): the rows, the regions, the opening draft, cubes, money, start player."""

from __future__ import annotations

import pytest

from domain.games.drum_roll import RULESET
from domain.games.drum_roll.state import State
from domain.kernel.errors import InvalidOptionsError
from domain.kernel.viewers import Viewer

from .builders import chance, config, illegal, move

HELPERS = ("H01", "H02", "H03", "H04")
ROW_3P = ("P01", "P10", "P19", "P28")  # magician, acrobat, juggler, tamer


def through_rows(seats: int) -> State:
    """Setup up to the region draws: helpers H01.., performers of four different types."""
    state = RULESET.setup(config(seats))
    rows = {2: 3, 3: 3, 4: 4}[seats]
    performers = {2: 3, 3: 4, 4: 5}[seats]
    return chance(state, *HELPERS[:rows], *("P01", "P10", "P19", "P28", "P37")[:performers])


def through_regions(seats: int) -> State:
    state = through_rows(seats)
    return chance(state, *("moscow", "paris", "london", "rome")[: seats + (1 if seats == 2 else 0)])


def test_dr_2_4_dr_2_5_the_rows_for_three_players() -> None:
    """Rules: DR-2.4, DR-2.5."""
    state = through_rows(3)
    assert [card.card for card in state.helper_row] == ["H01", "H02", "H03"]
    assert [card.card for card in state.performer_row] == list(ROW_3P)
    assert all(card.discounts == 0 for card in (*state.helper_row, *state.performer_row))
    assert len(state.performer_deck) == 41 and len(state.helper_deck) == 12
    assert RULESET.decision(state).chance is not None
    assert RULESET.decision(state).chance.kind == "region token drawn"  # type: ignore[union-attr]


def test_dr_2_4_dr_2_5_the_rows_for_four_players() -> None:
    """Rules: DR-2.4, DR-2.5."""
    state = through_rows(4)
    assert len(state.helper_row) == 4 and len(state.performer_row) == 5


def test_dr_22_3_two_players_draw_three_helpers() -> None:
    """Rules: DR-22.3."""
    state = through_rows(2)
    assert [card.card for card in state.helper_row] == ["H01", "H02", "H03"]
    assert len(state.performer_row) == 3


def test_dr_2_3_dr_2_5_row_draws_are_public_chance_over_the_deck() -> None:
    """Rules: DR-2.3, DR-2.5."""
    state = RULESET.setup(config(3))
    state = chance(state, "H01", "H02", "H03")
    spec = RULESET.decision(state).chance
    assert spec is not None and spec.kind == "performer drawn from the bottom of the deck"
    assert spec.visible_to == "all" and spec.total_weight() == 45


def test_dr_2_6_amb_5_a_third_performer_of_a_type_is_discarded_and_redrawn() -> None:
    """Rules: DR-2.6."""
    state = chance(RULESET.setup(config(3)), "H01", "H02", "H03")
    state = chance(state, "P01", "P02", "P03")  # three magicians: the last drawn is discarded
    assert [card.card for card in state.performer_row] == ["P01", "P02"]
    assert state.performer_discard == ("P03",)
    state = chance(state, "P10", "P19")
    assert [card.card for card in state.performer_row] == ["P01", "P02", "P10", "P19"]
    assert state.performer_discard == ("P03",)
    assert len(state.performer_deck) == 40


def test_dr_22_4_two_players_need_three_different_types() -> None:
    """Rules: DR-22.4."""
    state = chance(RULESET.setup(config(2)), "H01", "H02", "H03")
    state = chance(state, "P01", "P02", "P10", "P11", "P19")
    assert [card.card for card in state.performer_row] == ["P01", "P10", "P19"]
    assert state.performer_discard == ("P02", "P11")


def test_dr_2_8_amb_30_one_region_each_the_rest_out_of_the_game() -> None:
    """Rules: DR-2.8."""
    state = through_regions(3)
    assert [player.region for player in state.players] == ["moscow", "paris", "london"]
    assert state.neutral_region is None and state.regions == ()


def test_dr_22_1_two_players_draw_a_neutral_region() -> None:
    """Rules: DR-22.1."""
    state = through_regions(2)
    assert [player.region for player in state.players] == ["moscow", "paris"]
    assert state.neutral_region == "london" and state.regions == ()


def drafted(seats: int = 3) -> State:
    """Regions drawn, then each seat draws two performers: seat 0 P05 P06, seat 1 P07 P08, seat 2 P03 P04."""
    state = through_regions(seats)
    draws = {0: ("P05", "P06"), 1: ("P07", "P08"), 2: ("P03", "P04"), 3: ("P11", "P12")}
    return chance(state, *(card for seat in range(seats) for card in draws[seat]))


def test_dr_2_9_draft_draws_are_seen_by_their_seat_alone() -> None:
    """Rules: DR-2.9."""
    state = through_regions(3)
    spec = RULESET.decision(state).chance
    assert spec is not None and spec.kind == "performer drawn for the opening draft"
    assert spec.visible_to == (0,)
    state = chance(state, "P05", "P06")
    spec = RULESET.decision(state).chance
    assert spec is not None and spec.visible_to == (1,)


def test_dr_2_9_each_seat_keeps_one_in_private() -> None:
    """Rules: DR-2.9."""
    state = drafted()
    assert [player.drawn for player in state.players] == [("P05", "P06"), ("P07", "P08"), ("P03", "P04")]
    decision = RULESET.decision(state)
    assert decision.seats == (0,)
    assert [m.card for m in RULESET.legal_moves(state, 0)] == ["P05", "P06"]  # type: ignore[attr-defined]
    keep = RULESET.parse_move({"type": "keep_performer", "card": "P05"})
    choice = RULESET.private_choice(state, 0, keep)
    assert choice is not None and choice.until == "draft" and choice.fields is None
    state = move(state, 0, {"type": "keep_performer", "card": "P05"})
    assert RULESET.reveals(state) == ()
    other = RULESET.view(state, Viewer("seat", 1))
    assert other["players"][0]["drawn"] == {"count": 2} and other["players"][0]["kept"] == "kept"
    own = RULESET.view(state, Viewer("seat", 0))
    assert own["players"][0]["drawn"] == ["P05", "P06"] and own["players"][0]["kept"] == "P05"
    assert other["performer_deck"] == {"count": 35}  # 45 - 4 in the row - 6 drawn


def test_dr_2_9_a_card_not_drawn_cannot_be_kept() -> None:
    state = drafted()
    illegal(state, 0, {"type": "keep_performer", "card": "P07"}, "DR-2.9")


def test_dr_2_9_cubes_cannot_be_taken_during_the_draft() -> None:
    """Rules: DR-2.9."""
    state = drafted()
    illegal(state, 0, {"type": "take_cubes", "colours": ["red", "red"]}, "DR-2.10")


def kept_all(seats: int = 3) -> State:
    state = drafted(seats)
    keeps = {0: "P05", 1: "P07", 2: "P04", 3: "P11"}
    for seat in range(seats):
        state = move(state, seat, {"type": "keep_performer", "card": keeps[seat]})
    return state


def test_dr_2_9_the_passed_card_goes_to_the_left_neighbour_all_revealed_together() -> None:
    """Rules: DR-2.9."""
    state = kept_all(3)
    assert RULESET.reveals(state) == ("draft",)
    circus = [[hired.card for hired in player.performers] for player in state.players]
    # seat 2 kept P04 and passed P03 to seat 0; seat 0 passed P06 to seat 1; seat 1 passed P08 to seat 2
    assert circus == [["P05", "P03"], ["P07", "P06"], ["P04", "P08"]]
    assert all(player.drawn == () and player.kept is None for player in state.players)
    assert RULESET.view(state, Viewer("seat", 1))["players"][0]["performers"][1]["card"] == "P03"


def test_dr_22_6_two_players_pass_to_each_other() -> None:
    """Rules: DR-22.6."""
    state = kept_all(2)
    circus = [[hired.card for hired in player.performers] for player in state.players]
    assert circus == [["P05", "P08"], ["P07", "P06"]]


def test_dr_2_10_two_starting_cubes_of_choice() -> None:
    """Rules: DR-2.10."""
    state = kept_all(3)
    assert RULESET.decision(state).seats == (0,)
    assert len(RULESET.legal_moves(state, 0)) == 15  # 5 colours, two with repetition
    state = move(state, 0, {"type": "take_cubes", "colours": ["red", "red"]})
    assert state.players[0].cubes == {"red": 2} and state.cubes["red"] == 23
    state = move(state, 1, {"type": "take_cubes", "colours": ["white", "blue"]})
    assert state.players[1].cubes == {"white": 1, "blue": 1}


def test_dr_2_10_three_cubes_or_an_unknown_colour_are_refused() -> None:
    state = kept_all(3)
    illegal(state, 0, {"type": "take_cubes", "colours": ["red", "red", "red"]}, "DR-2.10")
    illegal(state, 0, {"type": "take_cubes", "colours": ["red", "purple"]}, "DR-2.10")
    illegal(state, 0, {"type": "keep_performer", "card": "P05"}, "DR-2.9")


def cubes_taken(seats: int = 3, **options: object) -> State:
    state = RULESET.setup(config(seats, **options))
    state = chance(state, *HELPERS[: {2: 3, 3: 3, 4: 4}[seats]], *("P01", "P10", "P19", "P28", "P37")[: seats + 1])
    state = chance(state, *("moscow", "paris", "london", "rome")[: seats + (1 if seats == 2 else 0)])
    draws = {0: ("P05", "P06"), 1: ("P07", "P08"), 2: ("P03", "P04"), 3: ("P11", "P12")}
    state = chance(state, *(card for seat in range(seats) for card in draws[seat]))
    keeps = {0: "P05", 1: "P07", 2: "P04", 3: "P11"}
    for seat in range(seats):
        state = move(state, seat, {"type": "keep_performer", "card": keeps[seat]})
    for seat in range(seats):
        state = move(state, seat, {"type": "take_cubes", "colours": ["white", "yellow"]})
    return state


def test_dr_2_11_ex_1_fifteen_money_minus_the_two_printed_costs() -> None:
    """Rules: DR-2.11."""
    state = cubes_taken(3)
    # seat 0 holds P05 (cost 4) and P03 (cost 3): 15 - 4 - 3 = 8, as EX-1
    assert RULESET.default_components().performer("P05").hire_cost == 4  # type: ignore[attr-defined]
    assert RULESET.default_components().performer("P03").hire_cost == 3  # type: ignore[attr-defined]
    assert state.players[0].money == 8
    assert state.players[1].money == 15 - 5 - 4  # P07 5, P06 4
    assert state.players[2].money == 15 - 3 - 5  # P04 3, P08 5


def test_dr_2_12_a_random_start_player() -> None:
    """Rules: DR-2.12."""
    state = cubes_taken(3)
    spec = RULESET.decision(state).chance
    assert spec is not None and spec.kind == "start player"
    assert spec.outcomes == ((0, 1), (1, 1), (2, 1)) and spec.visible_to == "all"
    state = chance(state, 2)
    assert state.start_player == 2


def test_dr_2_12_a_start_player_named_by_the_options() -> None:
    """Rules: DR-2.12."""
    state = cubes_taken(3, start_player=1)
    assert state.start_player == 1
    assert not any(step.kind == "start_player" for step in state.agenda)


def test_dr_2_12_a_start_player_beyond_the_seats_is_refused() -> None:
    """Rules: DR-2.12."""
    with pytest.raises(InvalidOptionsError):
        RULESET.setup(config(2, start_player=3))


def test_dr_2_13_everyone_starts_with_no_fame_helpers_cards_or_trailers() -> None:
    """Rules: DR-2.13."""
    state = cubes_taken(3)
    for player in state.players:
        assert player.fame == 0 and player.helpers == () and player.hand == ()
        assert all(not hired.trailer and hired.cubes == ((), (), ()) for hired in player.performers)
    assert state.trailers == 18 and state.discounts == 44
