"""The base game rules CB-1 .. CB-6, each checked on a small table."""

from __future__ import annotations

from dataclasses import replace

import pytest

from domain.games.carcassonne.moves import Pass, PlaceFollower, PlaceTile
from domain.kernel.contract import ScoreLine, ScoreSheet
from domain.kernel.errors import IllegalMoveError, ImpossibleOutcomeError

from .helpers import RULES, figures, lay, new_game, new_lines, summary, turn


def rule_of(call: object) -> str:
    assert callable(call)
    with pytest.raises(IllegalMoveError) as caught:
        call()
    return caught.value.rule


def drawn(state, tile: str):
    return RULES.resolve(state, tile)


# ---- CB-1 components and setup ----------------------------------------------------------------
def test_cb_1_1_start_tile_and_stack() -> None:
    """CB-1.1: 72 base tiles in 24 types; the start tile (a D copy) lies face up, the other 71
    are the stack."""
    state = new_game(variant="base")
    components = state.catalog.components
    base = [t for t in components.tiles if t.kind == "base"]
    assert len(base) == 24 and sum(t.count for t in base) == 72
    assert components.start_tile == "D"
    assert state.board[(0, 0)].type_id == "D" and state.order == ((0, 0),)
    assert state.tiles_left() == 71 and state.stack["D"] == 3


def test_cb_1_2_seven_meeples_each() -> None:
    """CB-1.2, AMB-19: 7 placeable meeples per player."""
    assert new_game(seats=4, variant="base").supply == (7, 7, 7, 7)


def test_cb_1_3_turns_go_round_and_only_the_seat_to_move_may_act() -> None:
    """CB-1.3: seats take turns in order; another seat's move is refused."""
    state = new_game(seats=3, variant="base")
    seen = []
    for tile, x in (("U", 1), ("U", 2), ("U", 3), ("U", 4)):
        seen.append(state.seat)
        state = turn(state, tile, x, 0, 0)
    assert seen == [0, 1, 2, 0]
    state = drawn(state, "U")
    assert RULES.legal_moves(state, 2) == []
    assert rule_of(lambda: RULES.validate(state, 2, PlaceTile(x=5, y=0, rotation=0))) == "CB-1.3"


# ---- CB-2 turn structure -------------------------------------------------------------------
def test_cb_2_1_tile_then_meeple_then_scoring() -> None:
    """CB-2.1 (and BT-0.1): draw, place a tile, then the optional meeple, then scoring."""
    state = new_game(variant="base")
    assert RULES.decision(state).chance is not None
    state = drawn(state, "E")
    assert RULES.decision(state).seats == (0,)
    assert rule_of(lambda: RULES.validate(state, 0, Pass())) == "CB-2.1"
    state = RULES.apply(state, 0, PlaceTile(x=0, y=-1, rotation=2))
    assert state.phase == "figure"
    assert rule_of(lambda: RULES.validate(state, 0, PlaceTile(x=1, y=0, rotation=0))) == "CB-2.1"
    # The meeple goes on before scoring, so a knight on the completing tile scores at once.
    state = RULES.apply(state, 0, PlaceFollower(segment="c1"))
    assert summary(state.lines) == [(0, 4, "city", "CB-5.3")]


# ---- CB-3 tile placement -----------------------------------------------------------------
def test_cb_3_1_tile_must_share_an_edge() -> None:
    """CB-3.1: a tile away from the map, or touching only at a corner, is refused."""
    state = drawn(new_game(variant="base"), "B")
    assert rule_of(lambda: RULES.validate(state, 0, PlaceTile(x=5, y=5, rotation=0))) == "CB-3.1"
    assert rule_of(lambda: RULES.validate(state, 0, PlaceTile(x=1, y=1, rotation=0))) == "CB-3.1"


def test_cb_3_2_edges_must_match_with_a_plain_reason() -> None:
    """CB-3.2: every touching edge matches; the refusal says which edges clash."""
    state = drawn(new_game(variant="base"), "E")
    with pytest.raises(IllegalMoveError) as caught:
        RULES.validate(state, 0, PlaceTile(x=0, y=1, rotation=0))
    assert caught.value.rule == "CB-3.2"
    assert caught.value.reason == "the north edge is a city but the neighbour's south edge is a field"
    RULES.validate(state, 0, PlaceTile(x=0, y=1, rotation=2))  # turned, the field edge faces north
    moves = RULES.legal_moves(state, 0)
    assert PlaceTile(x=0, y=1, rotation=2) in moves
    assert PlaceTile(x=0, y=1, rotation=0) not in moves
    for move in moves:
        RULES.validate(state, 0, move)


def test_cb_3_3_a_tile_that_fits_nowhere_is_removed_and_another_drawn() -> None:
    """CB-3.3: the city-on-all-sides tile cannot touch a lone straight road: it leaves the game
    and the same seat draws again; if that empties the stack the game ends."""
    state = new_game(variant="base", stack={"C": 1, "V": 1})
    state = replace(state, board={(0, 0): state.catalog.get("U", 0)})
    state = drawn(state, "C")
    assert state.discarded == ("C",) and state.phase == "draw" and state.seat == 0
    assert RULES.decision(state).chance is not None
    state = drawn(state, "V")
    assert state.phase == "place" and state.current_tile == "V"
    ended = replace(new_game(variant="base", stack={"C": 1}), board={(0, 0): state.catalog.get("U", 0)})
    ended = drawn(ended, "C")
    assert ended.phase == "over" and RULES.decision(ended).over


def test_cb_3_4_no_overlap() -> None:
    """CB-3.4: a tile may not go where one lies already."""
    state = drawn(new_game(variant="base"), "D")
    assert rule_of(lambda: RULES.validate(state, 0, PlaceTile(x=0, y=0, rotation=0))) == "CB-3.4"


def test_impossible_draw_is_refused() -> None:
    state = new_game(variant="base", stack={"U": 1})
    with pytest.raises(ImpossibleOutcomeError):
        RULES.resolve(state, "C")


# ---- CB-4 meeple placement ----------------------------------------------------------------
def test_cb_4_1_meeple_only_on_the_tile_just_placed_and_optional() -> None:
    """CB-4.1: the figure options are the segments of the placed tile, and passing is allowed."""
    state = RULES.apply(drawn(new_game(variant="base"), "U"), 0, PlaceTile(x=1, y=0, rotation=0))
    moves = RULES.legal_moves(state, 0)
    assert Pass() in moves
    followers = {m.segment for m in moves if isinstance(m, PlaceFollower)}
    assert followers == {"r1", "f1", "f2"}  # U's own road and fields, nothing of the start tile


def test_cb_4_2_meeple_on_a_segment_of_the_tile_and_its_role() -> None:
    """CB-4.2: the meeple goes on one feature segment of the tile; an unknown one is refused.
    The segment decides the role: the knight scores the city, not the road."""
    state = RULES.apply(drawn(new_game(variant="base"), "E"), 0, PlaceTile(x=0, y=-1, rotation=2))
    assert rule_of(lambda: RULES.validate(state, 0, PlaceFollower(segment="r7"))) == "CB-4.2"
    after = RULES.apply(state, 0, PlaceFollower(segment="c1"))
    assert [line.category for line in after.lines] == ["city"]


def test_cb_4_3_feature_already_occupied_further_along() -> None:
    """CB-4.3: the road already holds a meeple two tiles away, so no meeple may join it."""
    state = turn(new_game(variant="base"), "U", 1, 0, 0, PlaceFollower(segment="r1"))
    state = RULES.apply(drawn(state, "U"), 1, PlaceTile(x=2, y=0, rotation=0))
    assert rule_of(lambda: RULES.validate(state, 1, PlaceFollower(segment="r1"))) == "CB-4.3"
    assert PlaceFollower(segment="r1") not in RULES.legal_moves(state, 1)
    assert PlaceFollower(segment="f1") in RULES.legal_moves(state, 1)


def test_cb_4_4_empty_supply_and_one_figure_per_turn() -> None:
    """CB-4.4: a player with no meeple left cannot place one; after one figure the turn moves on."""
    state = RULES.apply(drawn(new_game(variant="base"), "U"), 0, PlaceTile(x=1, y=0, rotation=0))
    empty = replace(state, supply=(0, 7))
    assert rule_of(lambda: RULES.validate(empty, 0, PlaceFollower(segment="r1"))) == "CB-4.4"
    assert RULES.legal_moves(empty, 0) == [Pass()]
    after = RULES.apply(state, 0, PlaceFollower(segment="r1"))
    assert after.phase == "draw" and after.seat == 1


def test_cb_4_5_joined_features_keep_several_meeples() -> None:
    """CB-4.5 and CB-5.5: two roads with one meeple each are joined; both players tie and each
    scores the full 4 points."""
    state = new_game(variant="base")
    state = turn(state, "U", 1, 0, 0, PlaceFollower(segment="r1"))      # seat 0, road east
    state = turn(state, "W", -1, 0, 0)                                  # seat 1 closes the west end
    state = lay(state, [("U", 3, 0, 0)])
    state = figures(state, {(3, 0, "r1"): (1, "meeple")})
    state = turn(state, "A", 4, 0, 1)                                   # close the east end
    before = state
    state = turn(state, "U", 2, 0, 0)                                   # join: road of 6 tiles
    assert summary(new_lines(before, state)) == [(0, 6, "road", "CB-5.2"), (1, 6, "road", "CB-5.2")]
    assert state.followers == {}


# ---- CB-5 scoring during play ---------------------------------------------------------------
def test_cb_5_1_and_cb_5_7_scored_at_once_and_meeple_returns_same_turn() -> None:
    """CB-5.1: the feature is scored in the turn it is completed. CB-5.7: the meeple placed this
    turn comes straight back. CB-5.3: a 2-tile city scores 4."""
    state = new_game(variant="base")
    after = turn(state, "E", 0, -1, 2, PlaceFollower(segment="c1"))
    assert summary(after.lines) == [(0, 4, "city", "CB-5.3")]
    assert after.supply == (7, 7) and after.followers == {}


def test_cb_5_2_road_loop_is_complete() -> None:
    """CB-5.2: a road that closes into a loop is complete: 4 curves, 4 points."""
    state = new_game(variant="base")
    state = lay(state, [("V", 0, 1, 3), ("V", 1, 1, 0), ("V", 1, 2, 1)])
    state = figures(state, {(0, 1, "r1"): (0, "meeple")})
    after = turn(state, "V", 0, 2, 2)
    assert summary(after.lines) == [(0, 4, "road", "CB-5.2")]
    assert sorted(map(tuple, after.lines[0].refs["tiles"])) == [(0, 1), (0, 2), (1, 1), (1, 2)]


def test_cb_5_3_city_with_pennant() -> None:
    """CB-5.3: 2 per tile plus 2 per pennant: 3 tiles and 1 pennant = 8."""
    state = figures(new_game(variant="base"), {(0, 0, "c1"): (1, "meeple")})
    state = turn(state, "M", 0, -1, 2)
    state = turn(state, "E", 1, -1, 3)
    assert summary(state.lines) == [(1, 8, "city", "CB-5.3")]


def test_cb_5_4_completed_monastery_scores_nine() -> None:
    """CB-5.4: a monastery with all 8 neighbours scores 9."""
    state = lay(new_game(variant="base"), [
        ("B", 0, 1, 0), ("U", 1, 0, 0), ("U", -1, 0, 0), ("B", -1, 1, 0), ("B", 1, 1, 0),
        ("B", -1, 2, 0), ("B", 0, 2, 0)])
    state = figures(state, {(0, 1, "m1"): (0, "meeple")})
    state = turn(state, "B", 1, 2, 0)
    assert summary(state.lines) == [(0, 9, "monastery", "CB-5.4")]
    assert state.followers == {}


def test_cb_5_5_majority_takes_all() -> None:
    """CB-5.5: 2 meeples beat 1: only the majority scores."""
    state = lay(new_game(variant="base"), [("W", -1, 0, 0), ("U", 1, 0, 0), ("U", 2, 0, 0)])
    state = figures(state, {(0, 0, "r1"): (1, "meeple"), (1, 0, "r1"): (1, "meeple"),
                            (2, 0, "r1"): (0, "meeple")})
    state = turn(state, "A", 3, 0, 1)
    assert summary(state.lines) == [(1, 5, "road", "CB-5.2")]
    assert state.supply == (7, 7)


def test_cb_5_6_a_tile_counts_once_even_if_the_city_passes_twice() -> None:
    """CB-5.6: a ring city enters the two-cap tile from the north and the south: 6 distinct
    tiles = 12 points, not 14."""
    state = new_game(variant="base")
    state = replace(state, board={(0, 0): state.catalog.get("H", 0)}, order=((0, 0),))
    state = lay(state, [("N", 0, -1, 2), ("N", 1, -1, 3), ("G", 1, 0, 1), ("N", 1, 1, 0)])
    state = figures(state, {(0, 0, "c1"): (0, "meeple")})
    after = turn(state, "N", 0, 1, 1)
    assert summary(after.lines) == [(0, 12, "city", "CB-5.3")]
    assert len(after.lines[0].refs["tiles"]) == 6


def test_cb_5_8_farmers_stay_and_fields_wait() -> None:
    """CB-5.8: no field scores during play; the farmer stays even when the city it borders is
    completed."""
    state = figures(new_game(variant="base"), {(0, 0, "f1"): (0, "meeple")})
    state = turn(state, "E", 0, -1, 2)
    assert state.lines == ()
    assert (0, 0, "f1") in state.followers


# ---- CB-6 end of game -----------------------------------------------------------------
#: A whole short match as a table: tile order, placements and figures, and the expected sheet.
END_GAME_TABLE = [
    # seat, tile, x, y, rotation, figure segment or None
    (0, "E", 0, -1, 2, "c1"),    # completes the 2-tile city at once: 4 (CB-5.3)
    (1, "U", 1, 0, 0, "f1"),     # farmer north of the road, next to that city
    (0, "B", 0, 1, 0, "m1"),     # monk, the monastery stays incomplete
    (1, "M", 1, -1, 1, "c1"),    # knight in a one-tile city with a pennant
    (0, "U", -1, 0, 0, "r1"),    # highwayman on an open 3-tile road
]
END_GAME_SHEET = [
    (0, 4, "city", "CB-5.3"),
    (0, 3, "road", "CB-6.2"),       # 3 tiles
    (0, 4, "monastery", "CB-6.2"),  # 1 + 3 neighbours
    (1, 2, "city", "CB-6.2"),       # 1 tile + 1 pennant
    (1, 3, "farm", "CB-6.3"),       # one completed city borders the field
]


def test_cb_6_1_cb_6_2_cb_6_3_scenario_table_to_the_end() -> None:
    """CB-6.1: the game ends after the turn of the last tile. CB-6.2: incomplete road 1/tile,
    city 1/tile + 1/pennant, monastery 1 + 1 per neighbour. CB-6.3: 3 per completed city."""
    stack: dict[str, int] = {}
    for _, tile, *_ in END_GAME_TABLE:
        stack[tile] = stack.get(tile, 0) + 1
    state = new_game(variant="base", stack=stack)
    for seat, tile, x, y, rotation, segment in END_GAME_TABLE:
        assert state.seat == seat and state.phase == "draw"
        state = turn(state, tile, x, y, rotation, PlaceFollower(segment=segment) if segment else None)
    assert state.phase == "over" and RULES.decision(state).over
    assert summary(RULES.score(state).lines) == END_GAME_SHEET
    assert RULES.score(state).totals() == (11, 5)
    assert RULES.result(state, RULES.score(state)).ranks == (1, 2)


def test_cb_6_3_a_city_counts_for_each_field_it_borders_and_field_ties() -> None:
    """CB-6.3: the city between two fields pays 3 to the farmer of each; tied farmers each
    score in full."""
    state = new_game(variant="base", stack={"E": 1})
    state = lay(state, [("F", 0, -1, 1)])
    state = figures(state, {(0, -1, "f1"): (0, "meeple"), (0, -1, "f2"): (1, "meeple")})
    state = turn(state, "E", 0, -2, 2)
    assert summary(state.lines) == [(0, 3, "farm", "CB-6.3"), (1, 3, "farm", "CB-6.3")]
    tie = new_game(variant="base", stack={"E": 1})
    tie = lay(tie, [("U", 1, 0, 0)])
    tie = figures(tie, {(0, 0, "f1"): (0, "meeple"), (1, 0, "f1"): (1, "meeple")})
    tie = turn(tie, "E", 0, -1, 2)
    assert summary(tie.lines) == [(0, 3, "farm", "CB-6.3"), (1, 3, "farm", "CB-6.3")]


def test_cb_6_4_most_points_wins_and_ties_share() -> None:
    """CB-6.4: ranks by total, tied players share the rank."""
    sheet = ScoreSheet(3, (ScoreLine(0, 5, "road", "CB-5.2"), ScoreLine(2, 5, "road", "CB-5.2"),
                           ScoreLine(1, 2, "road", "CB-5.2")))
    result = RULES.result(new_game(seats=3), sheet)
    assert result.ranks == (1, 3, 1) and result.winners() == (0, 2)
