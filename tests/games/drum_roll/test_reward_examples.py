"""The rulebook's reward icons (EX-5, EX-6) in the reward vocabulary (`components.Effect`) and
carried out by the engine with exact numbers (DR-18, DR-11.4 to DR-11.6, AMB-36, AMB-37, AMB-39).

Each test loads a copy of `data/default.json` in which one performer's level reward is exactly the
icon (and that level prints no fame), performs that performer at that level as the only card of
seat 1's circus (`performing.show`), makes the reward's choices with moves and reads money, cubes
(the seat's cube supply and the general supply), trailers, `Player.skipped`, the hand and
`investment_bottom` afterwards.

The general supply holds 25 cubes of each colour less those on the performer's levels
(`performing.show`); its level cubes are the printed colours of the default set (unchanged here).
"""

from __future__ import annotations

import copy
import json
from importlib import resources
from typing import Any, get_args

import pytest

from domain.games.drum_roll import RULESET
from domain.games.drum_roll.components import DrumRollComponents, Effect, EffectKind, load_components
from domain.games.drum_roll.state import HandCard, State

from .builders import chance, config, illegal, move
from .performing import SEAT, circus_of, hired, show, total_cubes, total_trailers

COLOURS = ("white", "yellow", "green", "blue", "red")

# The icons, as reward data of the default set's JSON, and where each is put: (card, level).
EX_5_A_CONVERSION = [{"effect": "cubes_for_money", "pay_cubes": 1, "count": 4}]
EX_5_A_GAIN = [{"effect": "cube_choice", "colours": ["any"], "count": 1}, {"effect": "money", "count": 4}]
EX_5_B = [{"effect": "cube_choice", "colours": ["blue", "yellow"], "count": 1}]
EX_5_C = [{"effect": "cube_choice", "colours": ["any"], "count": 1},
          {"effect": "cube", "colours": ["white"], "count": 1}]
EX_6_A = [{"effect": "trailer", "pay_money": 2, "count": 1}]
EX_6_B = [{"effect": "skip_wage", "pay_cubes": 1, "count": 1}]
EX_6_C = [{"effect": "cube_choice", "colours": ["any"], "count": 2}]
EX_6_D = [{"effect": "investment_look", "look": 3, "keep": 1}]
EX_6_E = [{"effect": "skip_wage", "count": 1}]

ICONS: dict[str, tuple[list[dict[str, Any]], str, int]] = {
    "EX-5(a) pay any cube, gain 4 money": (EX_5_A_CONVERSION, "P28", 2),  # an animal trainer
    "EX-5(a) gain any cube and 4 money": (EX_5_A_GAIN, "P10", 2),  # an acrobat
    "EX-5(b) gain 1 blue or 1 yellow cube": (EX_5_B, "P20", 1),  # a juggler
    "EX-5(c) gain 1 cube of any colour and 1 white cube": (EX_5_C, "P21", 2),  # a juggler
    "EX-6(a) pay 2 money: gain 1 trailer": (EX_6_A, "P38", 1),  # bizarre
    "EX-6(b) pay any 1 cube: skip someone's wage": (EX_6_B, "P38", 2),  # bizarre
    "EX-6(c) choose 2 cubes of any colours": (EX_6_C, "P20", 3),  # a juggler
    "EX-6(d) look at the top 3 investment cards, keep 1, rest to the bottom": (EX_6_D, "P02", 3),  # a magician
    "EX-6(e) skip someone's wage": (EX_6_E, "P38", 3),  # bizarre
}


def _default_data() -> dict[str, Any]:
    text = resources.files("domain.games.drum_roll").joinpath("data/default.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def icon_set(card: str, level: int, reward: list[dict[str, Any]]) -> DrumRollComponents:
    """The default set with `card`'s `level` rewarding exactly `reward` and printing no fame."""
    data = copy.deepcopy(_default_data())
    printed = next(entry for entry in data["performers"] if entry["id"] == card)["levels"][level - 1]
    printed["reward"] = copy.deepcopy(reward)
    printed["fame"] = 0
    components = load_components(data)
    assert components.performer(card).levels[level - 1].reward == [Effect.model_validate(e) for e in reward]
    return components


def perform(icon: str, **table: Any) -> State:
    """Seat 1 performs the icon's performer, its only card, at the icon's level, under the icon's
    set: at the first decision of the reward (a dazzling performer takes its reward, DR-11.6 (a))."""
    reward, card, level = ICONS[icon]
    components = icon_set(card, level, reward)
    state = show(hired(card, level), config=config(3, components=components, start_player=1), **table)
    assert state.components is components
    if level == 3:
        assert legal(state) == [{"type": "choose_dazzling", "flip": False}, {"type": "choose_dazzling", "flip": True}]
        state = move(state, SEAT, {"type": "choose_dazzling", "flip": False})
    return state


def legal(state: State) -> list[dict[str, Any]]:
    return [m.model_dump() for m in RULESET.legal_moves(state, SEAT)]


def supply(**changes: int) -> dict[str, int]:
    """The general supply: 25 of each colour, with `changes`."""
    return {colour: 25 for colour in COLOURS} | changes


def decline() -> dict[str, Any]:
    return {"type": "decline_reward"}


def unchanged_apart_from_cubes(state: State) -> None:
    player = state.players[SEAT]
    assert player.money == 10 and player.fame == 0 and player.hand == () and player.skipped == ()
    assert state.trailers == 18 and state.investment_bottom == () and len(state.investment_deck) == 30


# ---- the vocabulary (DR-18.1) -----------------------------------------------------------------


@pytest.mark.parametrize("icon", list(ICONS))
def test_ex_5_ex_6_dr_18_1_every_icon_is_a_reward_in_the_effect_vocabulary(icon: str) -> None:
    """EX-5, EX-6, DR-18.1, AMB-39: each icon is a list of `Effect`s of the vocabulary, loads as a
    level's reward through `load_components`, and round-trips through the set's JSON."""
    reward, card, level = ICONS[icon]
    effects = [Effect.model_validate(entry) for entry in reward]
    assert all(effect.effect in get_args(EffectKind) for effect in effects)
    components = icon_set(card, level, reward)
    assert components.performer(card).levels[level - 1].reward == effects
    assert load_components(components.model_dump(mode="json")).performer(card).levels[level - 1].reward == effects


# ---- EX-5 (performer level rewards) -----------------------------------------------------------


@pytest.mark.parametrize("paid", ["white", "blue"])
def test_ex_5_a_amb_39_dr_18_6_pay_any_cube_gain_four_money(paid: str) -> None:
    """EX-5 (a), AMB-39 (the conversion reading), DR-18.6, DR-18.7: any one cube of the seat's
    cube supply goes to the general supply for 4 money."""
    state = perform("EX-5(a) pay any cube, gain 4 money", cubes={"white": 1, "blue": 1})  # P28 good: green, red
    assert state.cubes == supply(white=24, green=24, blue=24, red=24)
    assert legal(state) == [{"type": "pay_cubes", "cubes": ("white",)}, {"type": "pay_cubes", "cubes": ("blue",)},
                            decline()]
    illegal(state, SEAT, {"type": "pay_cubes", "cubes": ["white", "blue"]}, "DR-18.6")  # one cube, not two
    illegal(state, SEAT, {"type": "pay_cubes", "cubes": ["red"]}, "DR-18.6")  # not in the cube supply
    state = move(state, SEAT, {"type": "pay_cubes", "cubes": [paid]})
    player = state.players[SEAT]
    assert state.over and player.money == 14
    assert player.cubes == {"white": 1, "blue": 1} | {paid: 0}
    assert state.cubes == supply(white=24, green=24, blue=24, red=24) | {paid: 25}
    assert total_cubes(state) == 125 and player.skipped == () and player.hand == () and state.trailers == 18


def test_ex_5_a_amb_39_dr_18_6_the_conversion_needs_a_cube_and_may_be_declined() -> None:
    """EX-5 (a), AMB-39, DR-18.6: declined, nothing is paid or gained; with no cube it is not offered."""
    state = move(perform("EX-5(a) pay any cube, gain 4 money", cubes={"red": 1}), SEAT, decline())
    assert state.over and state.players[SEAT].money == 10 and state.players[SEAT].cubes == {"red": 1}
    assert state.cubes == supply(green=24, red=23)
    empty = perform("EX-5(a) pay any cube, gain 4 money")
    assert empty.over and empty.players[SEAT].cubes == {}
    unchanged_apart_from_cubes(empty)


@pytest.mark.parametrize("colour", COLOURS)
def test_ex_5_a_amb_39_dr_18_7_gain_any_cube_and_four_money(colour: str) -> None:
    """EX-5 (a), AMB-39 (the gain reading), DR-18.5, DR-18.7, DR-18.3: a cube of the colour chosen
    from the general supply to the cube supply, then 4 money."""
    state = perform("EX-5(a) gain any cube and 4 money")  # P10 good: red, yellow
    assert legal(state) == [{"type": "take_reward_cube", "colour": c} for c in COLOURS]
    assert state.players[SEAT].money == 10  # the money comes after the cube, in the order printed
    state = move(state, SEAT, {"type": "take_reward_cube", "colour": colour})
    player = state.players[SEAT]
    assert state.over and player.money == 14 and player.cubes == {colour: 1}
    base = supply(yellow=24, red=24)
    assert state.cubes == base | {colour: base[colour] - 1} and total_cubes(state) == 125
    assert player.skipped == () and player.hand == () and state.trailers == 18


@pytest.mark.parametrize("colour", ["blue", "yellow"])
def test_ex_5_b_dr_18_5_gain_one_blue_or_one_yellow_cube(colour: str) -> None:
    """EX-5 (b), DR-18.5, DR-18.7: one cube, blue or yellow, the seat's choice."""
    state = perform("EX-5(b) gain 1 blue or 1 yellow cube")  # P20 weak: red
    assert legal(state) == [{"type": "take_reward_cube", "colour": "yellow"},
                            {"type": "take_reward_cube", "colour": "blue"}]
    illegal(state, SEAT, {"type": "take_reward_cube", "colour": "red"}, "DR-18.5")
    state = move(state, SEAT, {"type": "take_reward_cube", "colour": colour})
    assert state.over and state.players[SEAT].cubes == {colour: 1}
    assert state.cubes == supply(red=24) | {colour: 24} and total_cubes(state) == 125
    unchanged_apart_from_cubes(state)


@pytest.mark.parametrize(("colour", "cubes"), [("red", {"red": 1, "white": 1}), ("white", {"white": 2})])
def test_ex_5_c_dr_18_5_gain_one_cube_of_any_colour_and_one_white_cube(colour: str, cubes: dict[str, int]) -> None:
    """EX-5 (c), DR-18.5, DR-18.7: a cube of the colour chosen, then a white cube without a choice."""
    state = perform("EX-5(c) gain 1 cube of any colour and 1 white cube")  # P21 good: white, yellow
    assert legal(state) == [{"type": "take_reward_cube", "colour": c} for c in COLOURS]
    assert state.players[SEAT].cubes == {}
    state = move(state, SEAT, {"type": "take_reward_cube", "colour": colour})
    assert state.over and state.players[SEAT].cubes == cubes
    base = supply(white=24, yellow=24)
    assert state.cubes == {c: base[c] - cubes.get(c, 0) for c in COLOURS} and total_cubes(state) == 125
    unchanged_apart_from_cubes(state)


# ---- EX-6 (type abilities) --------------------------------------------------------------------


@pytest.mark.parametrize("take", [True, False])
def test_ex_6_a_dr_18_4_dr_20_6_pay_two_money_gain_one_trailer(take: bool) -> None:
    """EX-6 (a), DR-18.4, DR-20.6: 2 money for a trailer from the supply onto a performer; declined,
    nothing is paid."""
    state = perform("EX-6(a) pay 2 money: gain 1 trailer")  # P38 weak: green
    assert legal(state) == [{"type": "take_trailer", "performer": "P38", "shared_by": None}, decline()]
    state = move(state, SEAT, {"type": "take_trailer", "performer": "P38"} if take else decline())
    player = state.players[SEAT]
    assert state.over and player.money == (8 if take else 10)
    assert circus_of(state)["P38"].trailer is take
    assert state.trailers == (17 if take else 18) and total_trailers(state) == 18
    assert player.cubes == {} and state.cubes == supply(green=24)
    assert player.skipped == () and player.hand == () and state.investment_bottom == ()


def test_ex_6_a_amb_19_dr_20_6_with_less_than_two_money_no_trailer_is_gained() -> None:
    """EX-6 (a), DR-20.6, AMB-19: short of the 2 money, the trailer cannot be taken and nothing is paid."""
    state = perform("EX-6(a) pay 2 money: gain 1 trailer", money=1)
    assert state.over and state.players[SEAT].money == 1 and state.trailers == 18
    assert not circus_of(state)["P38"].trailer


@pytest.mark.parametrize(("paid", "skipped"), [("blue", "P38"), ("red", "H02")])
def test_ex_6_b_dr_18_8_amb_36_pay_any_cube_skip_someones_wage(paid: str, skipped: str) -> None:
    """EX-6 (b), DR-18.8, AMB-36, DR-18.7: any one cube to the general supply, then a card of the
    seat's own circus (performer or helper) whose wage is not paid in this performance."""
    state = perform("EX-6(b) pay any 1 cube: skip someone's wage", cubes={"blue": 1, "red": 1},
                    helpers=("H02",))  # P38 good: green, yellow
    assert legal(state) == [{"type": "pay_cubes", "cubes": ("blue",)}, {"type": "pay_cubes", "cubes": ("red",)},
                            decline()]
    illegal(state, SEAT, {"type": "pay_cubes", "cubes": ["blue", "red"]}, "DR-18.8")
    state = move(state, SEAT, {"type": "pay_cubes", "cubes": [paid]})
    assert state.players[SEAT].cubes == {"blue": 1, "red": 1} | {paid: 0}
    assert state.cubes == supply(green=24, yellow=24, blue=24, red=24) | {paid: 25}
    assert legal(state) == [{"type": "skip_wage", "card": "P38"}, {"type": "skip_wage", "card": "H02"}]
    illegal(state, SEAT, decline(), "DR-18.8")  # paid for: a card must be named
    illegal(state, SEAT, {"type": "skip_wage", "card": "H01"}, "DR-18.8")  # not in this circus
    state = move(state, SEAT, {"type": "skip_wage", "card": skipped})
    player = state.players[SEAT]
    assert state.over and player.skipped == (skipped,) and player.money == 10
    assert total_cubes(state) == 125 and player.hand == () and state.trailers == 18


def test_ex_6_b_dr_18_8_declined_or_without_a_cube_no_wage_is_skipped() -> None:
    """EX-6 (b), DR-18.8: the cost must be paid to use the effect."""
    state = move(perform("EX-6(b) pay any 1 cube: skip someone's wage", cubes={"red": 1}), SEAT, decline())
    assert state.over and state.players[SEAT].skipped == () and state.players[SEAT].cubes == {"red": 1}
    empty = perform("EX-6(b) pay any 1 cube: skip someone's wage")
    assert empty.over and empty.players[SEAT].cubes == {}
    unchanged_apart_from_cubes(empty)


@pytest.mark.parametrize(("first", "second"), [("green", "green"), ("yellow", "red"), ("red", "yellow")])
def test_ex_6_c_dr_18_5_choose_two_cubes_of_any_colours(first: str, second: str) -> None:
    """EX-6 (c), DR-18.5, DR-18.7: two cubes, each of the colour chosen, one choice at a time."""
    state = perform("EX-6(c) choose 2 cubes of any colours")  # P20 dazzling: red, blue, white
    assert legal(state) == [{"type": "take_reward_cube", "colour": c} for c in COLOURS]
    state = move(state, SEAT, {"type": "take_reward_cube", "colour": first})
    assert not state.over and state.players[SEAT].cubes == {first: 1}
    assert legal(state) == [{"type": "take_reward_cube", "colour": c} for c in COLOURS]
    state = move(state, SEAT, {"type": "take_reward_cube", "colour": second})
    gained = {first: 1} | {second: 2 if first == second else 1}
    assert state.over and state.players[SEAT].cubes == gained
    base = supply(white=24, blue=24, red=24)
    assert state.cubes == {c: base[c] - gained.get(c, 0) for c in COLOURS} and total_cubes(state) == 125
    unchanged_apart_from_cubes(state)


@pytest.mark.parametrize("index", [0, 1, 2])
def test_ex_6_d_dr_18_9_look_at_three_keep_one_rest_under_the_deck(index: int) -> None:
    """EX-6 (d), DR-18.2, DR-18.9, AMB-37, DR-21.4: the top 3 investment cards are drawn, seen by
    the seat alone; one is kept into the hand, the other 2 go under the deck in the order drawn."""
    state = perform("EX-6(d) look at the top 3 investment cards, keep 1, rest to the bottom")  # P02 dazzling
    spec = RULESET.decision(state).chance
    assert spec is not None and spec.visible_to == (SEAT,) and spec.total_weight() == 30
    drawn = ("I05", "I20", "I27")
    state = chance(state, *drawn)
    assert len(state.investment_deck) == 27 and not set(drawn) & set(state.investment_deck)
    assert legal(state) == [{"type": "keep_investment", "index": i} for i in range(3)]
    illegal(state, SEAT, {"type": "keep_investment", "index": 3}, "DR-18.9")
    state = move(state, SEAT, {"type": "keep_investment", "index": index})
    player = state.players[SEAT]
    assert player.hand == (HandCard(drawn[index]),)  # within the hand limit: 2, +1 for the magician
    assert state.investment_bottom == tuple(card for card in drawn if card != drawn[index])
    assert len(state.investment_deck) == 27
    assert player.money == 10 and player.cubes == {} and player.skipped == () and state.trailers == 18
    assert state.cubes == supply(yellow=24, green=24, blue=24)


@pytest.mark.parametrize("skipped", ["P38", "H02", None])
def test_ex_6_e_dr_18_8_amb_36_skip_someones_wage(skipped: str | None) -> None:
    """EX-6 (e), DR-18.8, AMB-36: free, so optional; the card named (performer or helper of the
    seat's own circus) pays no wage in this performance."""
    state = perform("EX-6(e) skip someone's wage", helpers=("H02",))  # P38 dazzling: green, yellow, blue
    assert legal(state) == [{"type": "skip_wage", "card": "P38"}, {"type": "skip_wage", "card": "H02"}, decline()]
    illegal(state, SEAT, {"type": "skip_wage", "card": "P37"}, "DR-18.8")  # not in this circus
    state = move(state, SEAT, {"type": "skip_wage", "card": skipped} if skipped else decline())
    player = state.players[SEAT]
    assert state.over and player.skipped == ((skipped,) if skipped else ())
    assert player.money == 10 and player.cubes == {} and player.hand == () and state.trailers == 18
    assert state.cubes == supply(green=24, yellow=24, blue=24) and state.investment_bottom == ()
