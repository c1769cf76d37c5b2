"""The Drum Roll component set: the default loads, a changed set loads, a broken set is refused."""

from __future__ import annotations

import copy
import json
from importlib import resources
from typing import Any

import pytest

from domain.games.drum_roll.components import default_components, load_components
from domain.kernel.errors import InvalidComponentsError


def _data() -> dict[str, Any]:
    text = resources.files("domain.games.drum_roll").joinpath("data/default.json").read_text(encoding="utf-8")
    return json.loads(text)


def test_dr_1_5_dr_1_2_the_default_set_has_every_card_and_token() -> None:
    """Rules: DR-1.5, DR-1.2."""
    components = default_components()
    assert len(components.performers) == 45
    assert len(components.helpers) == 15
    assert len(components.investments) == 30
    assert len(components.regions) == 5
    assert components.colours() == ("white", "yellow", "green", "blue", "red")
    assert [resource.supply for resource in components.resources] == [25, 25, 25, 25, 25]
    assert components.constants.discount_tokens == 44
    assert components.constants.trailers == 18
    assert components.constants.starting_money == 15
    assert components.constants.markers == 3


def test_dr_5_3_dr_2_4_dr_2_5_dr_22_3_the_player_count_constants() -> None:
    """Rules: DR-5.3, DR-2.4, DR-2.5, DR-22.3."""
    rows = {count.players: count for count in default_components().player_counts}
    assert [rows[n].cube_actions for n in (2, 3, 4)] == [2, 3, 4]
    assert [rows[n].helper_row for n in (2, 3, 4)] == [3, 3, 4]
    assert [rows[n].performer_row for n in (2, 3, 4)] == [3, 4, 5]
    assert [rows[n].type_limit for n in (2, 3, 4)] == [1, 2, 2]
    assert [rows[n].neutral_region for n in (2, 3, 4)] == [True, False, False]


def test_dr_21_14_dr_21_17_investment_copies_and_confidence_marks() -> None:
    """Rules: DR-21.14, DR-21.17."""
    components = default_components()
    kinds = [card.kind for card in components.investments]
    assert kinds.count("longer_applause") == 5
    assert kinds.count("extra_resource") == 10
    assert components.region("moscow").confidence == "rulebook"
    assert components.region("paris").confidence == "filled-in"
    assert all(card.confidence == "filled-in" for card in components.performers)


def test_amb_35_a_level_requirement_is_a_list_of_colours() -> None:
    walker = default_components().performer("P10")
    assert walker.name == "Tightrope Walker"
    assert [level.cubes for level in walker.levels] == [["red"], ["yellow"], ["white"]]
    assert walker.levels[2].reward[0].effect == "money"
    assert walker.levels[2].reward[0].count == 5


def test_dr_19_7_dr_19_8_agent_and_secretary_exchanges() -> None:
    """Rules: DR-19.7, DR-19.8."""
    components = default_components()
    agent = components.helper("H06")
    secretary = components.helper("H11")
    assert agent.exchange is not None and agent.exchange.give == ["any"] and agent.exchange.take == ["white", "yellow"]
    assert secretary.exchange is not None and secretary.exchange.give == ["white"]
    assert secretary.exchange.take == ["yellow", "green", "blue", "red"]


def test_a_changed_set_loads() -> None:
    data = _data()
    data["name"] = "variation"
    data["performers"][0]["hire_cost"] = 6
    data["regions"][1]["bonuses"] = [{"performer_type": "bizarre", "per": 3, "fame": 4}]
    data["performers"][1]["levels"][2]["cubes"] = ["red", "any"]
    components = load_components(data)
    assert components.performer("P01").hire_cost == 6
    assert components.region("paris").bonuses[0].per == 3
    assert components.performer("P02").levels[2].cubes == ["red", "any"]
    assert components.content_hash() != default_components().content_hash()


def _broken(change: Any) -> str:
    data = copy.deepcopy(_data())
    change(data)
    with pytest.raises(InvalidComponentsError) as caught:
        load_components(data)
    return str(caught.value)


def test_an_unknown_colour_is_refused() -> None:
    message = _broken(lambda data: data["performers"][3]["levels"][0].__setitem__("cubes", ["purple"]))
    assert "unknown colour 'purple'" in message and "P04" in message


def test_a_duplicate_id_is_refused() -> None:
    message = _broken(lambda data: data["helpers"][1].__setitem__("id", "H01"))
    assert "duplicate card id 'H01'" in message


def test_dr_1_5_a_wrong_count_is_refused() -> None:
    message = _broken(lambda data: data["performers"].pop())
    assert "45 performers are needed (DR-1.5), 44 found" in message


def test_dr_21_14_a_missing_longer_applause_is_refused() -> None:
    message = _broken(lambda data: data["investments"][7].__setitem__("kind", "double_vote"))
    assert "5 Longer applause cards are needed (DR-21.14)" in message


def test_a_float_is_refused() -> None:
    message = _broken(lambda data: data["performers"][0].__setitem__("wage", 1.5))
    assert "float" in message


def test_an_unknown_field_is_refused() -> None:
    message = _broken(lambda data: data["helpers"][0].__setitem__("colour", "red"))
    assert "helpers.0.colour" in message
