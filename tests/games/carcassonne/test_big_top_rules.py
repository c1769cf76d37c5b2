"""Under the Big Top rules BT-0 .. BT-8 on small tables (seat 0 = you/Red, seat 1 = Blue)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from domain.games.carcassonne.catalog import area3, neighbours8
from domain.games.carcassonne.features import explore
from domain.games.carcassonne.moves import Pass, PlaceAcrobat, PlaceFollower, PlaceTile, ScorePyramid
from domain.kernel.errors import IllegalMoveError, InvalidSeatsError
from domain.kernel.viewers import Viewer

from .helpers import RULES, figures, lay, new_game, new_lines, summary, turn


def rule_of(state, move) -> str:
    with pytest.raises(IllegalMoveError) as caught:
        RULES.validate(state, state.seat, move)
    return caught.value.rule


def placed(state, tile: str, x: int, y: int, rotation: int = 0):
    """Draw and place a tile, stopping before the figure step."""
    state = RULES.resolve(state, tile)
    return RULES.apply(state, state.seat, PlaceTile(x=x, y=y, rotation=rotation))


# ---- BT-0 definitions ------------------------------------------------------------------------
def test_bt_0_2_adjacency_is_the_8_neighbourhood() -> None:
    """BT-0.2: surrounding tiles touch horizontally, vertically or diagonally; the 3x3 area is
    the tile plus those 8."""
    assert set(neighbours8((0, 0))) == {(x, y) for x in (-1, 0, 1) for y in (-1, 0, 1)} - {(0, 0)}
    assert len(area3((4, 4))) == 9 and (4, 4) in area3((4, 4))


def test_bt_0_5_bt_0_6_acrobat_is_a_meeple_and_big_top_is_neutral() -> None:
    """BT-0.5: an acrobat is a normal meeple from the supply. BT-0.6: the Big Top belongs to no
    seat (the view shows only where it stands and its token)."""
    state = turn(new_game(), "UBT-A", 0, 1, 0, PlaceAcrobat(x=0, y=1))
    assert state.supply == (6, 7) and state.pyramids == {(0, 1): (0,)}
    state = turn(state, "UBT-F", 1, 1, 0, token="seal")
    assert set(RULES.view(state, Viewer.spectator())["big_top"]) == {"x", "y", "token"}


def all_figures_table():
    """Big Top on (0,1) with an elephant; around it a knight, a ringmaster highwayman (seat 0),
    a farmer, a monk and an acrobat (seat 1); a monk of seat 0 at (2,3), outside that area."""
    state = new_game(stack={"UBT-F": 1, "UBT-G": 1})
    state = turn(state, "UBT-F", 0, 1, 0, token="elephant")
    state = lay(state, [("B", 1, 1, 0), ("UBT-A", -1, 1, 0), ("B", 2, 3, 0)])
    state = figures(state, {(0, 0, "c1"): (0, "meeple"), (0, 0, "r1"): (0, "ringmaster"),
                            (0, 0, "f2"): (1, "meeple"), (1, 1, "m1"): (1, "meeple"),
                            (2, 3, "m1"): (0, "meeple")})
    return replace(state, pyramids={(-1, 1): (1,)}, supply=(state.supply[0], state.supply[1] - 1))


def test_bt_4_6_every_figure_counts_in_circus_scoring() -> None:
    """BT-4.6, BT-0.7, AMB-2: knight, highwayman, farmer, monk, acrobat and ringmaster all score
    the token value (BT-7.7: the ringmaster too, and it stays). BT-4.4, AMB-13: value x count
    per player, no majority. BT-4.9: only the old Big Top tile's area scores, so the monk at
    (2,3), next to the new circus tile only, does not."""
    state = all_figures_table()
    before = state
    state = turn(state, "UBT-G", 1, 2, 0, token="flea")
    circus = new_lines(before, state)[:2]  # the match ends after this turn: final lines follow
    assert summary(circus) == [(0, 14, "circus", "BT-4.3"), (1, 21, "circus", "BT-4.3")]
    figures_seen = {f[4] for line in circus for f in line.refs["followers"]}
    assert figures_seen == {"meeple", "ringmaster", "acrobat"}
    # BT-7.7, BT-7.8: the ringmaster stays and circus scoring gives no ringmaster bonus.
    assert (0, 0, "r1") in state.followers
    assert all(line.category != "ringmaster" for line in state.lines[:2])


def test_bt_8_1_circus_scored_once_more_before_final_scoring() -> None:
    """BT-8.1, AMB-11: at the end the Big Top tile's area scores first with its token (flea = 1),
    no token is drawn and the Big Top stays; then the CB-6 lines follow."""
    state = turn(all_figures_table(), "UBT-G", 1, 2, 0, token="flea")
    assert state.phase == "over"
    final = state.lines[2:]
    assert summary(final[:2]) == [(0, 1, "circus", "BT-8.1"), (1, 1, "circus", "BT-8.1")]
    assert {line.rule for line in final[2:]} <= {"CB-6.2", "CB-6.3", "BT-8.2", "BT-8.3"}
    assert state.big_top == (1, 2) and state.tokens_left() == 14
    assert state.revealed == ("elephant", "flea")


def test_bt_8_4_no_circus_tile_no_circus_scoring() -> None:
    """BT-8.4: without a placed circus tile there is nothing to score at the end."""
    state = new_game(stack={"U": 1})
    state = figures(state, {(0, 0, "c1"): (0, "meeple")})
    state = turn(state, "U", 1, 0, 0)
    assert state.phase == "over" and state.big_top is None
    assert [line.category for line in state.lines] == ["city"]


# ---- BT-1 / BT-2 components and setup -----------------------------------------------------
def test_bt_1_3_one_big_top() -> None:
    """BT-1.3: a single Big Top: after two circus tiles it stands only on the newer one."""
    state = turn(new_game(), "UBT-F", 0, 1, 0, token="seal")
    state = turn(state, "UBT-G", 1, 1, 0, token="bear")
    assert state.big_top == (1, 1)
    assert RULES.view(state, Viewer.arbiter())["big_top"] == {"x": 1, "y": 1, "token": "bear"}


def test_bt_1_4_six_ringmasters_allow_six_seats() -> None:
    """BT-1.4: six ringmasters, one per colour: six seats with the ringmasters part, not without."""
    state = new_game(seats=6)
    assert state.ringmaster_home == (True,) * 6 and state.supply == (7,) * 6
    with pytest.raises(InvalidSeatsError):
        new_game(seats=6, variant="big-top", ringmasters=False)
    assert RULES.variants["big-top"].max_seats == 6 and RULES.variants["base"].max_seats == 5


def test_bt_2_1_parts_can_be_played_alone_or_together() -> None:
    """BT-2.1: circus (tiles, tokens, Big Top), acrobats and ringmasters are separate parts."""
    circus = new_game(variant="big-top-circus")
    assert circus.parts.names() == ["circus"] and circus.tokens_left() == 16
    assert "UBT-F" in circus.stack and "UBT-A" not in circus.stack
    assert circus.ringmaster_home == (False, False)
    acrobats = new_game(variant="big-top-acrobats")
    assert "UBT-A" in acrobats.stack and "UBT-F" not in acrobats.stack and acrobats.tokens_left() == 0
    ringmasters = new_game(variant="big-top-ringmasters")
    assert ringmasters.tiles_left() == 71 and ringmasters.ringmaster_home == (True, True)
    mixed = new_game(variant="big-top", acrobats=False)
    assert mixed.parts.names() == ["circus", "ringmasters"]
    # Refusals name BT-2.1 when a part is not in play.
    state = placed(new_game(variant="base"), "U", 1, 0)
    assert rule_of(state, PlaceFollower(segment="r1", figure="ringmaster")) == "BT-2.1"
    assert rule_of(state, PlaceAcrobat(x=1, y=0)) == "BT-2.1"
    assert rule_of(state, ScorePyramid(x=1, y=0)) == "BT-2.1"


def test_bt_2_2_to_bt_2_5_setup() -> None:
    """BT-2.2: the 20 tiles are shuffled with the 71 base tiles. BT-2.3: the 16 tokens lie face
    down. BT-2.4: the Big Top starts off the board. BT-2.5: 7 meeples plus 1 ringmaster."""
    state = new_game()
    assert state.tiles_left() == 91
    assert sum(1 for tile in state.stack if tile.startswith("UBT-")) == 16
    assert state.tokens_left() == 16
    view = RULES.view(state, Viewer.of_seat(0))
    assert view["tokens_left"] == 16 and "tokens_left_by_animal" not in view
    assert state.big_top is None and view["big_top"] is None
    assert state.supply == (7, 7) and state.ringmaster_home == (True, True)


# ---- BT-3 circus tiles ------------------------------------------------------------------------
def test_bt_3_1_circus_tiles_follow_the_placement_rules() -> None:
    """BT-3.1: a circus tile must match edges like any tile (CB-3)."""
    state = RULES.resolve(new_game(), "UBT-J")
    assert rule_of(state, PlaceTile(x=0, y=1, rotation=0)) == "CB-3.2"
    RULES.validate(state, 0, PlaceTile(x=0, y=-1, rotation=2))


def test_bt_3_2_bt_3_3_meeple_options_on_a_circus_tile_but_never_the_circus_space() -> None:
    """BT-3.2, AMB-14: on a circus tile any of its city, road and field segments. BT-3.3, AMB-7:
    no figure, not even the ringmaster, on the circus space."""
    state = placed(new_game(), "UBT-L", 0, -1, 2)
    moves = RULES.legal_moves(state, 0)
    segments = {m.segment for m in moves if isinstance(m, PlaceFollower)}
    assert segments == {"c1", "r1", "f1", "f2"}
    assert rule_of(state, PlaceFollower(segment="circus")) == "BT-3.3"
    assert rule_of(state, PlaceFollower(segment="circus", figure="ringmaster")) == "BT-3.3"


def test_bt_3_4_circus_space_ends_roads_and_splits_fields() -> None:
    """BT-3.4: a road running into the circus space ends there (this one completes at 4 tiles);
    the two roads and the two fields of the circus tile are separate features."""
    state = turn(new_game(), "U", 1, 0, 0, PlaceFollower(segment="r1"))
    state = turn(state, "W", -1, 0, 0)
    state = turn(state, "UBT-H", 2, 0, 0, token="monkey")
    assert summary(state.lines) == [(0, 4, "road", "CB-5.2")]
    assert explore(state.board, (2, 0, "r1")).nodes == ((2, 0, "r1"),)
    assert (2, 0, "f2") not in explore(state.board, (2, 0, "f1")).nodes


def test_bt_3_6_big_top_moves_only_for_a_circus_tile() -> None:
    """BT-3.6: other tiles leave the Big Top and its token where they are."""
    state = turn(new_game(), "UBT-F", 0, 1, 0, token="seal")
    state = turn(state, "U", 1, 0, 0)
    state = turn(state, "E", 0, -1, 2)
    assert state.big_top == (0, 1) and state.big_top_token == "seal" and state.revealed == ()


def test_bt_4_1_trigger_needs_a_placed_circus_tile() -> None:
    """BT-4.1, AMB-17: a circus tile that fits nowhere is removed (CB-3.3) and triggers nothing."""
    state = new_game(stack={"UBT-F": 1, "C": 1})
    state = replace(state, board={(0, 0): state.catalog.get("C", 0)}, big_top=(0, 0), big_top_token="seal",
                    tokens={"seal": 4, "bear": 3})
    state = RULES.resolve(state, "UBT-F")
    assert state.discarded == ("UBT-F",) and state.lines == ()
    assert state.big_top_token == "seal" and state.phase == "draw"


# ---- BT-5 acrobats ---------------------------------------------------------------------------------
def test_bt_5_1_acrobat_tiles_follow_the_placement_rules() -> None:
    """BT-5.1: the all-field acrobat tile cannot touch the start tile's road edge."""
    state = RULES.resolve(new_game(), "UBT-A")
    assert rule_of(state, PlaceTile(x=1, y=0, rotation=0)) == "CB-3.2"
    RULES.validate(state, 0, PlaceTile(x=0, y=1, rotation=0))


def test_bt_5_3_only_next_to_the_tile_placed_this_turn() -> None:
    """BT-5.3, AMB-18: the acrobat tile must touch this turn's tile; an older neighbour is not
    enough."""
    state = lay(new_game(), [("UBT-A", 0, 1, 0)])
    state = placed(state, "E", 0, -1, 2)
    assert rule_of(state, PlaceAcrobat(x=0, y=1)) == "BT-5.3"
    assert not any(isinstance(m, PlaceAcrobat) for m in RULES.legal_moves(state, 0))
    assert rule_of(state, PlaceAcrobat(x=0, y=0)) == "BT-5.2"  # no acrobat tile there


def test_bt_5_4_placed_acrobat_tile_or_a_neighbouring_one() -> None:
    """BT-5.4: placing an acrobat tile next to another, the player chooses either pyramid."""
    state = lay(new_game(), [("UBT-A", 0, 1, 0)])
    state = placed(state, "UBT-B", 1, 1, 0)
    acrobats = {(m.x, m.y) for m in RULES.legal_moves(state, 0) if isinstance(m, PlaceAcrobat)}
    assert acrobats == {(0, 1), (1, 1)}


def test_bt_5_5_bt_5_7_acrobat_is_the_one_placement_and_colours_mix() -> None:
    """BT-5.5: the acrobat is the turn's one figure: the turn moves on. BT-5.7: Blue may add her
    acrobat to your pyramid (CB-4.3 does not apply to pyramids)."""
    state = turn(new_game(), "UBT-A", 0, 1, 0, PlaceAcrobat(x=0, y=1))
    assert state.seat == 1 and state.phase == "draw"
    state = turn(state, "B", 1, 1, 0, PlaceAcrobat(x=0, y=1))
    assert state.pyramids[(0, 1)] == (0, 1) and state.supply == (6, 6)


def test_bt_5_6_complete_pyramid_takes_no_more() -> None:
    """BT-5.6: base first, then the top; with three the pyramid is complete."""
    state = lay(new_game(), [("UBT-A", 0, 1, 0)])
    state = replace(state, pyramids={(0, 1): (0, 1, 0)})
    state = placed(state, "B", 1, 1, 0)
    assert rule_of(state, PlaceAcrobat(x=0, y=1)) == "BT-5.6"
    assert PlaceAcrobat(x=0, y=1) not in RULES.legal_moves(state, 0)


def test_bt_5_8_bt_7_3_ringmaster_is_never_an_acrobat() -> None:
    """BT-5.8, BT-7.3: only normal meeples can be acrobats."""
    state = placed(new_game(), "UBT-A", 0, 1, 0)
    assert rule_of(state, PlaceAcrobat(x=0, y=1, figure="ringmaster")) == "BT-7.3"
    assert all(m.figure == "meeple" for m in RULES.legal_moves(state, 0) if isinstance(m, PlaceAcrobat))


def test_bt_5_9_acrobat_space_ends_roads() -> None:
    """BT-5.9: the acrobat tile's road ends at the acrobat space: a 3-tile road completes."""
    state = lay(new_game(), [("W", -1, 0, 0)])
    state = figures(state, {(0, 0, "r1"): (1, "meeple")})
    state = turn(state, "UBT-D", 1, 0, 1)
    assert summary(state.lines) == [(1, 3, "road", "CB-5.2")]


def test_bt_5_10_acrobats_belong_to_no_feature() -> None:
    """BT-5.10: an acrobat does not occupy the acrobat tile's road, nor count for it."""
    state = turn(new_game(), "UBT-B", 0, 1, 0, PlaceAcrobat(x=0, y=1))
    state = placed(state, "U", 0, 2, 1)
    assert PlaceFollower(segment="r1") in RULES.legal_moves(state, 1)
    assert all(node[:2] != (0, 1) for node in state.followers)


# ---- BT-6 pyramids -------------------------------------------------------------------------
def test_bt_6_1_bt_6_5_only_complete_pyramids_and_not_in_the_completing_turn() -> None:
    """BT-6.1: two acrobats are not enough to score. BT-6.5: the third acrobat uses the figure
    step, so scoring can only come on a later turn."""
    state = lay(new_game(), [("UBT-A", 0, 1, 0)])
    state = replace(state, pyramids={(0, 1): (0, 1)})
    state = placed(state, "B", 1, 1, 0)
    assert rule_of(state, ScorePyramid(x=0, y=1)) == "BT-6.1"
    assert not any(isinstance(m, ScorePyramid) for m in RULES.legal_moves(state, 0))
    state = RULES.apply(state, 0, PlaceAcrobat(x=0, y=1))
    state = placed(state, "U", 1, 0, 0)
    assert ScorePyramid(x=0, y=1) in RULES.legal_moves(state, 1)


def test_bt_6_3_bt_6_4_bt_6_7_score_anyones_pyramid_anywhere_and_still_score_the_tile() -> None:
    """BT-6.3, AMB-21: you may score a pyramid with none of your acrobats (Blue gets 15). BT-6.4,
    AMB-4: it need not touch the placed tile. BT-6.7: the placed tile's completed city still
    scores in the same turn."""
    state = lay(new_game(), [("UBT-A", 0, 1, 0)])
    state = replace(state, pyramids={(0, 1): (1, 1, 1)}, supply=(7, 4))
    state = figures(state, {(0, 0, "c1"): (0, "meeple")})
    state = turn(state, "E", 0, -1, 2, ScorePyramid(x=0, y=1))
    assert summary(state.lines) == [(1, 15, "pyramid", "BT-6.2"), (0, 4, "city", "CB-5.3")]
    assert state.supply == (7, 7)


def test_bt_6_6_new_pyramid_after_scoring() -> None:
    """BT-6.6: once scored, the tile takes a new pyramid."""
    state = lay(new_game(), [("UBT-A", 0, 1, 0)])
    state = replace(state, pyramids={(0, 1): (1, 1, 1)}, supply=(7, 4))
    state = turn(state, "U", 1, 0, 0, ScorePyramid(x=0, y=1))
    state = turn(state, "B", 1, 1, 0, PlaceAcrobat(x=0, y=1))
    assert state.pyramids == {(0, 1): (1,)}


# ---- BT-7 ringmaster ---------------------------------------------------------------------------
def test_bt_7_1_one_ringmaster_each() -> None:
    """BT-7.1: once on the board, the ringmaster cannot be placed again."""
    state = turn(new_game(), "U", 1, 0, 0, PlaceFollower(segment="r1", figure="ringmaster"))
    state = turn(state, "U", 2, 0, 0)
    state = placed(state, "E", 0, -1, 2)
    assert rule_of(state, PlaceFollower(segment="c1", figure="ringmaster")) == "BT-7.1"
    assert PlaceFollower(segment="c1", figure="ringmaster") not in RULES.legal_moves(state, 0)


def test_bt_7_2_ringmaster_on_road_city_monastery_or_field() -> None:
    """BT-7.2: the ringmaster replaces a normal meeple on any feature."""
    state = placed(new_game(), "A", 0, 1, 0)
    ring = {m.segment for m in RULES.legal_moves(state, 0)
            if isinstance(m, PlaceFollower) and m.figure == "ringmaster"}
    assert ring == {"m1", "r1", "f1"}
    state = placed(new_game(), "E", 0, -1, 2)
    assert PlaceFollower(segment="c1", figure="ringmaster") in RULES.legal_moves(state, 0)


def test_bt_7_3_ringmaster_counts_as_a_meeple_for_majority_and_occupation() -> None:
    """BT-7.3: a ringmaster and a meeple tie 1-1; a ringmaster occupies its road."""
    state = turn(new_game(), "U", 1, 0, 0, PlaceFollower(segment="r1", figure="ringmaster"))
    blocked = placed(state, "U", 2, 0, 0)
    assert rule_of(blocked, PlaceFollower(segment="r1")) == "CB-4.3"
    state = lay(state, [("W", -1, 0, 0), ("U", 3, 0, 0)])
    state = figures(state, {(3, 0, "r1"): (1, "meeple")})
    state = turn(state, "U", 2, 0, 0)
    state = turn(state, "A", 4, 0, 1)
    assert summary(state.lines) == [(0, 6, "road", "CB-5.2"), (1, 6, "road", "CB-5.2")]


def test_bt_7_6_big_top_and_acrobats_do_not_change_ringmaster_points() -> None:
    """BT-7.6: the EX-10 table again with the Big Top on the circus tile and a full pyramid on
    the acrobat tile: still 2 points per tile."""
    state = new_game()
    state = lay(state, [("W", -1, 0, 0), ("U", 1, 0, 0), ("U", 2, 0, 0), ("U", 3, 0, 0),
                        ("UBT-A", 3, 1, 0), ("UBT-F", 2, -1, 2)])
    state = figures(state, {(3, 0, "r1"): (1, "ringmaster")})
    state = replace(state, big_top=(2, -1), big_top_token="seal", pyramids={(3, 1): (0, 0, 0)})
    state = turn(state, "A", 4, 0, 1)
    assert summary(state.lines) == [(1, 6, "road", "CB-5.2"), (1, 4, "ringmaster", "BT-7.4")]


def test_bt_8_3_ringmaster_at_game_end() -> None:
    """BT-8.3: at the end the ringmaster on an incomplete road scores the road (CB-6.2) and its
    bonus: the acrobat tile beside it is 2 points."""
    state = lay(new_game(stack={"U": 1}), [("UBT-A", 0, 1, 0)])
    state = figures(state, {(0, 0, "r1"): (0, "ringmaster")})
    state = turn(state, "U", 1, 0, 0)
    assert summary(state.lines) == [(0, 2, "road", "CB-6.2"), (0, 2, "ringmaster", "BT-8.3")]


def test_bt_6_2_pass_keeps_the_pyramid() -> None:
    """BT-6.2: scoring is a choice: passing leaves the complete pyramid standing."""
    state = lay(new_game(), [("UBT-A", 0, 1, 0)])
    state = replace(state, pyramids={(0, 1): (1, 1, 1)}, supply=(7, 4))
    state = turn(state, "U", 1, 0, 0, Pass())
    assert state.pyramids == {(0, 1): (1, 1, 1)}
