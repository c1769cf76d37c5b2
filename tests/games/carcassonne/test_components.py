"""The component set: expansion tiles, tokens and the validator that refuses broken sets."""

from __future__ import annotations

import json
from importlib import resources

import pytest

from domain.games.carcassonne.catalog import catalog_for
from domain.games.carcassonne.components import CarcassonneComponents, default_components
from domain.kernel.components import load_components
from domain.kernel.errors import InvalidComponentsError

from .helpers import new_game


def raw() -> dict:
    text = resources.files("domain.games.carcassonne").joinpath("data/default.json").read_text("utf-8")
    return json.loads(text)


def expansion_tiles():
    return [t for t in default_components().tiles if t.expansion == "under_the_big_top"]


def test_bt_1_1_and_bt_0_3_bt_0_4_twenty_tiles_twelve_circus_eight_acrobat() -> None:
    """BT-1.1: 20 land tiles, 12 circus tiles (BT-0.3, one circus space) and 8 acrobat tiles
    (BT-0.4, two acrobat spaces forming one pyramid)."""
    tiles = expansion_tiles()
    assert sum(t.count for t in tiles) == 20
    assert sum(t.count for t in tiles if t.kind == "circus") == 12
    assert sum(t.count for t in tiles if t.kind == "acrobat") == 8


def test_bt_1_2_bt_10_3_bt_10_4_animal_tokens() -> None:
    """BT-1.2, BT-10.3: 1 elephant, 2 tigers, 3 bears, 5 seals, 4 monkeys, 1 flea. BT-10.4 and
    AMB-24: each animal has its own value; seal = 4 (EX-3) and elephant = 7."""
    components = default_components()
    counts = {t.animal: t.count for t in components.animal_tokens}
    assert counts == {"elephant": 1, "tiger": 2, "bear": 3, "seal": 5, "monkey": 4, "flea": 1}
    values = {t.animal: t.value for t in components.animal_tokens}
    assert values == {"flea": 1, "monkey": 3, "seal": 4, "bear": 5, "tiger": 6, "elephant": 7}
    assert len(set(values.values())) == 6
    assert components.token_value("seal") == 4


def test_bt_1_5_expansion_tiles_are_marked() -> None:
    """BT-1.5: the 16 designs carry the expansion mark (kept as `expansion`)."""
    assert len(expansion_tiles()) == 16
    assert all(t.id.startswith("UBT-") for t in expansion_tiles())


def test_bt_10_1_bt_10_5_designs_copies_and_kinds() -> None:
    """BT-10.1: 16 designs with 1,1,3,2,1 | 1,1,1,1,1,1,2,1,1,1,1 copies. BT-10.5: T01-T05 are
    UBT-A..E (acrobat), T06-T16 are UBT-F..P (circus); none has a monastery or a pennant."""
    tiles = expansion_tiles()
    assert [t.seed_design for t in tiles] == [f"T{n:02d}" for n in range(1, 17)]
    assert [t.count for t in tiles] == [1, 1, 3, 2, 1, 1, 1, 1, 1, 1, 1, 2, 1, 1, 1, 1]
    assert [t.kind for t in tiles] == ["acrobat"] * 5 + ["circus"] * 11
    for tile in tiles:
        assert all(f.type != "monastery" for f in tile.features)
        assert all(getattr(f, "pennants", 0) == 0 for f in tile.features)


def test_bt_10_2_illustrations_are_stored_without_rules_effect() -> None:
    """BT-10.2, AMB-23: the picture letters per copy are kept as attributes, but copies of one
    design are one tile type in the stack."""
    tiles = {t.id: t for t in expansion_tiles()}
    assert tiles["UBT-C"].illustrations == ("S", "", "")
    assert tiles["UBT-L"].illustrations == ("W", "T")
    assert default_components().illustration_letters["K"] == "cowshed"
    assert new_game().stack["UBT-L"] == 2


def test_bt_4_10_tokens_never_run_out_and_sets_that_would_are_refused() -> None:
    """BT-4.10: 12 circus tiles and 16 tokens, so the stack cannot run dry; a set with fewer
    tokens than circus tiles is refused."""
    data = raw()
    data["animal_tokens"] = [{"animal": "seal", "value": 4, "count": 11}]
    with pytest.raises(InvalidComponentsError):
        load_components(CarcassonneComponents, data)
    assert sum(t.count for t in default_components().animal_tokens) == 16


def test_geometry_is_validated() -> None:
    """A road on a field edge, or a field over a city edge, is refused at load time."""
    data = raw()
    data["tiles"][0]["edges"] = "FFFF"  # tile A: its road now leads to a field edge
    with pytest.raises(InvalidComponentsError):
        load_components(CarcassonneComponents, data)
    data = raw()
    data["tiles"][1]["count"] = 0
    with pytest.raises(InvalidComponentsError):
        load_components(CarcassonneComponents, data)


def test_another_set_can_be_loaded() -> None:
    """A user set with other token values loads and is used by scoring."""
    data = raw()
    data["name"] = "house-rules"
    data["animal_tokens"] = [{"animal": "lion", "value": 10, "count": 16}]
    components = load_components(CarcassonneComponents, data)
    assert catalog_for(components).token_values == {"lion": 10}


def test_rotations_are_precomputed() -> None:
    catalog = catalog_for(default_components())
    assert catalog.get("E", 0).edges == "CFFF"
    assert catalog.get("E", 1).edges == "FCFF"
    assert catalog.get("E", 2).edges == "FFCF"
    assert catalog.distinct_rotations["B"] == (0,)
    assert catalog.distinct_rotations["V"] == (0, 1, 2, 3)
