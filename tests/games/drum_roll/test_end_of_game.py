"""The end of the game (DR-14): the four awards with ties (DR-14.3 to DR-14.7, DR-14.9, AMB-11),
the bank clerk (DR-19.6, AMB-16, EX-7), the investment cards in hand (DR-14.2, DR-21.7, DR-21.8,
DR-21.10 to DR-21.16, AMB-21, AMB-25), and whole random matches through three performances."""

from __future__ import annotations

import pytest

from domain.games.drum_roll import RULESET
from domain.games.drum_roll.end_of_game import end_of_game
from domain.games.drum_roll.state import HandCard, Hired, State
from domain.kernel.agenda import Step
from domain.kernel.values import evolve

from .builders import move, random_match
from .test_wages import circus, run, table

# Award fame (default data): Largest Show 3, Variety 3, Perfect Show 4, Large Troupe 2. Types:
# P01-P09 magicians, P10-P18 acrobats, P19-P27 jugglers, P28-P36 tamers, P37-P45 bizarre.
# Investments: I01, I02 Unlock, I03, I04 Trailer, I05, I06 Fire performer (1 fame if never used),
# I07 Trailer bonus, I13 Helper bonus, I14 Resource bonus (per 3 cubes), I25 Double vote.

ONE_OF_EACH = ("P01", "P10", "P19", "P28", "P37")


def last(state: State) -> State:
    """The 3rd performance's wages are paid: nobody else scores anything."""
    return evolve(state, performance=3, round=7)


def scored(state: State) -> State:
    return end_of_game(last(state), Step("end_of_game"))


def awards(state: State, seat: int) -> list[tuple[str, int, str]]:
    return [(dict(e.refs)["award"], e.points, e.rule) for e in state.players[seat].ledger if e.category == "award"]


def test_dr_14_3_dr_14_7_largest_show_goes_to_every_tied_leader() -> None:
    """Rules: DR-14.7."""
    state = circus(table(), 0, "P01", "P02", "P11", "P12")
    state = circus(state, 1, "P20", "P21", "P29", Hired("P30", flipped=1))  # DR-14.9: a flipped one counts
    state = circus(state, 2, "P38", "P39", "P40")
    state = scored(state)
    assert awards(state, 0) == [("largest_show", 3, "DR-14.3")]
    assert awards(state, 1) == [("largest_show", 3, "DR-14.3")]
    assert awards(state, 2) == []


def test_dr_14_3_a_lone_leader_gets_largest_show_alone() -> None:
    state = scored(circus(circus(table(), 0, "P01", "P02"), 2, "P38", "P39", "P40"))
    assert (awards(state, 0), awards(state, 2)) == ([], [("largest_show", 3, "DR-14.3")])


def test_dr_14_4_dr_14_7_dr_14_9_variety_for_everyone_with_all_five_types() -> None:
    """Rules: DR-14.7, DR-14.9."""
    state = circus(table(), 0, *ONE_OF_EACH)
    state = circus(state, 1, "P02", "P11", "P20", "P29", Hired("P38", flipped=2), "P39")
    state = circus(state, 2, "P03", "P12", "P21", "P30", "P31", "P32")  # no bizarre performer
    state = scored(state)
    assert ("variety", 3, "DR-14.4") in awards(state, 0)
    assert ("variety", 3, "DR-14.4") in awards(state, 1)
    assert [a for a in awards(state, 2) if a[0] == "variety"] == []


def perfect_for(*performers: Hired) -> list[tuple[str, int, str]]:
    state = scored(circus(table(), 0, *performers))
    return [a for a in awards(state, 0) if a[0] == "perfect_show"]


def test_dr_14_5_perfect_show_needs_every_performer_dazzling_in_the_3rd_performance() -> None:
    assert perfect_for(Hired("P01", level=3, performed=3), Hired("P10", level=3, performed=3)) == [
        ("perfect_show", 4, "DR-14.5")]
    assert perfect_for(Hired("P01", level=3, performed=3), Hired("P10", level=2, performed=3)) == []
    assert perfect_for(Hired("P01", level=3, performed=2), Hired("P10", level=3, performed=3)) == []  # not in the 3rd
    assert perfect_for(Hired("P01"), Hired("P10", level=3, performed=3)) == []  # never performed


def test_dr_14_5_amb_11_flipped_performers_count_as_dazzling() -> None:
    in_the_third = Hired("P01", flipped=3, level=3, performed=3)
    earlier = Hired("P10", flipped=1, level=3, performed=1)
    assert perfect_for(in_the_third, earlier, Hired("P19", level=3, performed=3)) == [("perfect_show", 4, "DR-14.5")]
    assert perfect_for(earlier) == [("perfect_show", 4, "DR-14.5")]
    assert perfect_for(earlier, Hired("P19", level=1, performed=3)) == []


def test_dr_14_5_amb_11_perfect_show_needs_at_least_one_performer() -> None:
    """Rules: DR-14.5."""
    assert perfect_for() == []


def test_dr_14_6_dr_14_7_large_troupe_for_everyone_with_8_performers_or_more() -> None:
    """Rules: DR-14.7."""
    eight = ("P01", "P02", "P11", "P12", "P20", "P21", "P29", "P30")
    state = circus(table(), 0, *eight)
    state = circus(state, 1, *("P03", "P13", "P22", "P31", "P38", "P39", "P40"), Hired("P41", flipped=1))
    state = circus(state, 2, *("P04", "P14", "P23", "P32", "P42", "P43", "P44"))
    state = scored(state)
    assert ("large_troupe", 2, "DR-14.6") in awards(state, 0)
    assert ("large_troupe", 2, "DR-14.6") in awards(state, 1)  # DR-14.9: the flipped one counts
    assert [a for a in awards(state, 2) if a[0] == "large_troupe"] == []
    assert ("largest_show", 3, "DR-14.3") in awards(state, 0) and ("largest_show", 3, "DR-14.3") in awards(state, 1)


@pytest.mark.parametrize(("deposit", "fame"), [(7, 3), (10, 5), (14, 5), (1, 0), (0, 0)])
def test_dr_19_6_amb_16_ex_7_the_bank_clerk_turns_the_deposit_into_fame(deposit: int, fame: int) -> None:
    state = scored(circus(table(), 1, helpers=("H05",), deposit=deposit))
    assert state.players[1].fame == fame
    lines = [(e.points, e.rule, e.category) for e in state.players[1].ledger]
    assert lines == ([(fame, "DR-19.6", "bank clerk")] if fame else [])


def hand(*cards: str | HandCard) -> tuple[HandCard, ...]:
    return tuple(HandCard(c) if isinstance(c, str) else c for c in cards)


def investments(state: State, seat: int) -> list[tuple[str, int, str]]:
    return [(str(dict(e.refs)["card"]), e.points, e.rule) for e in state.players[seat].ledger
            if e.category == "investment"]


def test_dr_21_13_dr_20_8_the_trailer_bonus_counts_each_token_once() -> None:
    """Rules: DR-20.8."""
    performers = (Hired("P43", trailer=True), Hired("P01", shares_trailer_of="P43"), Hired("P10", trailer=True), "P19")
    state = scored(circus(table(), 0, *performers, hand=hand("I07")))
    assert investments(state, 0) == [("I07", 2, "DR-21.13")]


def test_dr_21_15_the_helper_bonus_counts_helpers() -> None:
    state = scored(circus(table(), 2, helpers=("H02", "H03", "H05"), hand=hand("I13")))
    assert investments(state, 2) == [("I13", 3, "DR-21.15")]


@pytest.mark.parametrize(("cubes", "fame"), [(8, 2), (9, 3), (2, 0)])
def test_dr_21_16_the_resource_bonus_counts_the_cube_supply_by_threes(cubes: int, fame: int) -> None:
    placed = Hired("P01", cubes=(("red",), ("white",), ("yellow",)))  # cubes on performers do not count
    supply = {"white": cubes - cubes // 2, "blue": cubes // 2}
    state = scored(circus(table(), 0, placed, cubes=supply, hand=hand("I14")))
    assert investments(state, 0) == ([("I14", fame, "DR-21.16")] if fame else [])


def test_dr_21_7_dr_21_10_to_dr_21_12_amb_21_a_never_used_card_scores_its_fame() -> None:
    """Rules: DR-21.7."""
    cards = hand("I01", "I03", "I05", HandCard("I06", used=1), "I25")
    state = scored(circus(table(), 1, "P01", hand=cards))
    assert investments(state, 1) == [("I01", 1, "DR-21.10"), ("I03", 1, "DR-21.11"), ("I05", 1, "DR-21.12")]


def test_dr_21_8_amb_25_only_cards_in_hand_score() -> None:
    """Rules: DR-21.8."""
    state = evolve(circus(table(), 0, Hired("P01", trailer=True), helpers=("H02",)), investment_discard=("I07", "I13"))
    assert investments(scored(state), 0) == []


def test_dr_14_1_dr_14_2_the_end_of_game_follows_the_3rd_performances_wages() -> None:
    # Every performer was flipped in performance 2, so none performs in the 3rd (DR-11.10) and each
    # costs its secondary wage (0 for these cards, DR-17.8); seat 0 holds a card, so it is asked
    # about Longer applause (DR-21.14) and declines.
    """Rules: DR-14.1, DR-14.2."""
    flipped = tuple(Hired(card, flipped=2) for card in ONE_OF_EACH)
    state = circus(table(), 0, *flipped, helpers=("H05",), deposit=10, money=20, hand=hand("I01"))
    state = run(last(state), Step("performance"))
    state = move(state, 0, {"type": "done_applause"})
    assert state.over
    player = state.players[0]
    assert player.money == 20 - 1  # the bank clerk's wage; the flipped performers' secondary wages are 0
    assert [(e.category, e.points, e.rule) for e in player.ledger] == [
        ("award", 3, "DR-14.3"), ("award", 3, "DR-14.4"), ("award", 4, "DR-14.5"),  # AMB-11: flipped earlier
        ("bank clerk", 5, "DR-19.6"), ("investment", 1, "DR-21.10")]
    assert player.fame == 16 == sum(e.points for e in player.ledger)


# ---- whole matches --------------------------------------------------------------------------------


def conserved(state: State) -> None:
    placed = sum(len(level) for p in state.players for h in p.performers for level in h.cubes)
    cubes = sum(state.cubes.values()) + sum(sum(p.cubes.values()) for p in state.players) + placed
    assert cubes == 125  # DR-1.6: every cube is in the supply, a cube supply or on a card
    tokens = state.discounts + sum(c.discounts for c in (*state.performer_row, *state.helper_row))
    assert tokens == 44  # DR-1.2
    trailers = state.trailers + sum(1 for p in state.players for h in p.performers if h.trailer)
    assert trailers == 18  # DR-1.2


@pytest.mark.parametrize("seats", [2, 3, 4])
@pytest.mark.parametrize("seed", [1, 2])
def test_dr_3_1_dr_14_1_a_random_match_plays_three_performances_to_its_end(seats: int, seed: int) -> None:
    """Rules: DR-3.1, DR-14.1."""
    state, kinds = random_match(seats, seed)
    assert RULESET.decision(state).over and state.over and state.agenda == ()
    assert state.performance == 3 and state.round in (5, 6, 7)
    assert "ballot" in kinds and "share" in kinds
    conserved(state)
    cards = [h.card for p in state.players for h in p.performers]
    every = (*cards, *state.performer_deck, *state.performer_discard, *(c.card for c in state.performer_row))
    assert sorted(every) == sorted(card.id for card in state.components.performers)  # no card lost or doubled
    helpers = (*(c for p in state.players for c in p.helpers), *state.helper_deck, *state.helper_discard,
               *(c.card for c in state.helper_row))
    assert sorted(helpers) == sorted(card.id for card in state.components.helpers)
    sheet = RULESET.score(state)
    assert sheet.totals() == tuple(p.fame for p in state.players)
    assert all(entry.performance in (1, 2, 3) for p in state.players for entry in p.ledger)


@pytest.mark.parametrize("preset", ["secondary-wage-delayed", "postpone-fame-if-postponed"])
def test_amb_40_amb_7_the_presets_play_to_the_end(preset: str) -> None:
    options = RULESET.option_presets()[preset]
    state, _ = random_match(3, 5, **options)
    assert state.over and state.options.model_dump(exclude_defaults=True) == options
    conserved(state)
