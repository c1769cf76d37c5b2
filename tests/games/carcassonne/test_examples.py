"""Every worked example EX-1 .. EX-12 of the rules digest, replayed through real turns with exact
points. Seat 0 is "you" (Red), seat 1 is Blue."""

from __future__ import annotations

from domain.games.carcassonne.moves import PlaceAcrobat, PlaceFollower, ScorePyramid
from domain.kernel.viewers import Viewer

from .helpers import RULES, figures, lay, new_game, new_lines, summary, turn


def circus_table():
    """EX-1 .. EX-4 on one table: the first circus tile at (0,1), Blue's road from the junction
    at (-1,0) through the start tile, and figures around the Big Top."""
    state = new_game()
    # EX-1 (BT-3.5): first circus tile, meeple on its road, then token and Big Top.
    state = turn(state, "UBT-F", 0, 1, 0, PlaceFollower(segment="r1"), token="seal")
    ex1 = state
    state = turn(state, "W", -1, 0, 0, PlaceFollower(segment="r1"))           # Blue: highwayman
    state = turn(state, "V", -1, 1, 1, PlaceFollower(segment="r1"))           # you: highwayman
    state = turn(state, "B", 1, 1, 0, PlaceFollower(segment="m1"))            # Blue: monk
    state = turn(state, "U", 0, 2, 1, PlaceFollower(segment="f1"))            # you: farmer
    return ex1, state


def test_ex1_first_circus_tile_places_token_and_big_top_without_scoring() -> None:
    """EX-1, BT-3.5, AMB-1: the meeple goes first, then the token and the Big Top; no circus
    scoring; the token stays face down (BT-3.7)."""
    ex1, _ = circus_table()
    assert ex1.big_top == (0, 1)
    assert ex1.big_top_token == "seal"
    assert ex1.followers[(0, 1, "r1")].seat == 0
    assert ex1.lines == ()
    assert ex1.tokens["seal"] == 4
    for viewer in (Viewer.of_seat(0), Viewer.of_seat(1), Viewer.spectator()):
        assert RULES.view(ex1, viewer)["big_top"] == {"x": 0, "y": 1, "token": "face-down"}
    assert RULES.view(ex1, Viewer.arbiter())["big_top"]["token"] == "seal"


def test_ex2_ex3_ex4_features_first_then_circus_then_big_top_moves() -> None:
    """EX-2 (BT-4.2): Blue's 3-tile road is completed by the new circus tile: 3 points, her
    meeple goes home before the circus scores. EX-3 (BT-4.3, BT-4.4, BT-4.5): seal = 4 per
    meeple, you 3 x 4 = 12, Blue 4, and the meeples stay. EX-4 (BT-4.8): the seal goes face up,
    a new face-down token goes under the Big Top on the new tile."""
    _, state = circus_table()
    before = state
    state = turn(state, "UBT-H", 1, 0, 0, token="bear")
    lines = new_lines(before, state)
    assert summary(lines) == [
        (1, 3, "road", "CB-5.2"),      # EX-2
        (0, 12, "circus", "BT-4.3"),   # EX-3: you, three meeples
        (1, 4, "circus", "BT-4.3"),    # EX-3: Blue's monk
    ]
    assert lines[0].refs["tiles"] == [[-1, 0], [0, 0], [1, 0]]
    assert (-1, 0, "r1") not in state.followers           # BT-4.2: returned first
    assert len(lines[1].refs["followers"]) == 3
    # BT-4.5: the circus meeples stay on the board.
    for node in ((0, 1, "r1"), (-1, 1, "r1"), (0, 2, "f1"), (1, 1, "m1")):
        assert node in state.followers
    # EX-4 / BT-4.8: the revealed seal is out of the game, the Big Top moved with a new token.
    assert state.revealed == ("seal",)
    assert state.big_top == (1, 0)
    assert state.big_top_token == "bear"
    assert RULES.view(state, Viewer.of_seat(1))["revealed_tokens"] == ["seal"]


def test_ex5_ex6_ex7_ex8_acrobat_pyramid_built_and_scored() -> None:
    """EX-5 (BT-5.2): acrobat on the placed tile. EX-6 (BT-5.3, BT-5.6): Blue joins from an
    orthogonal neighbour. EX-7: you complete it from a diagonal neighbour. EX-8 (BT-6.2): later
    you score it: you 2 x 5 = 10, Blue 5; all three go home."""
    state = new_game()
    state = turn(state, "UBT-A", 0, 1, 0, PlaceAcrobat(x=0, y=1))            # EX-5
    assert state.pyramids == {(0, 1): (0,)}
    state = turn(state, "B", 1, 1, 0, PlaceAcrobat(x=0, y=1))                # EX-6
    assert state.pyramids == {(0, 1): (0, 1)}
    state = turn(state, "U", 1, 0, 0, PlaceAcrobat(x=0, y=1))                # EX-7, diagonal
    assert state.pyramids == {(0, 1): (0, 1, 0)}
    state = turn(state, "U", 2, 0, 0)                                        # Blue passes
    supply = state.supply
    before = state
    state = turn(state, "V", 3, 0, 0, ScorePyramid(x=0, y=1))                # EX-8
    assert summary(new_lines(before, state)) == [(0, 10, "pyramid", "BT-6.2"), (1, 5, "pyramid", "BT-6.2")]
    assert state.pyramids == {}
    assert state.supply == (supply[0] + 2, supply[1] + 1)


def test_ex9_ringmaster_road_and_bonus() -> None:
    """EX-9 (BT-7.4): you complete the 5-tile road your ringmaster is on: 5 for the road, then 8
    for the 4 circus and acrobat tiles around it; total 13, and the ringmaster goes home."""
    state = new_game()
    state = turn(state, "U", 1, 0, 0, PlaceFollower(segment="r1", figure="ringmaster"))
    state = turn(state, "UBT-A", 0, 1, 0)
    state = turn(state, "UBT-B", 1, 1, 0)
    state = turn(state, "U", 2, 0, 0)
    state = turn(state, "UBT-C", 2, 1, 3)
    state = turn(state, "UBT-J", 0, -1, 2, token="monkey")
    state = turn(state, "A", 3, 0, 1)
    state = turn(state, "B", -1, -1, 0)
    before = state
    state = turn(state, "W", -1, 0, 0)
    lines = new_lines(before, state)
    assert summary(lines) == [(0, 5, "road", "CB-5.2"), (0, 8, "ringmaster", "BT-7.4")]
    assert sum(line.points for line in lines) == 13
    assert sorted(map(tuple, lines[1].refs["tiles"])) == [(0, -1), (0, 1), (1, 1), (2, 1)]
    assert state.ringmaster_home[0] is True


def test_ex10_ringmaster_bonus_without_majority() -> None:
    """EX-10 (BT-7.5): Red has 2 meeples, Blue her ringmaster on a completed 6-tile road; Blue's
    area has 1 circus and 1 acrobat tile. Red 6, Blue 0 + 4; all three figures return."""
    state = new_game()
    state = lay(state, [("W", -1, 0, 0), ("U", 1, 0, 0), ("U", 2, 0, 0), ("U", 3, 0, 0),
                        ("UBT-A", 3, 1, 0), ("UBT-F", 2, -1, 2)])
    state = figures(state, {(1, 0, "r1"): (0, "meeple"), (2, 0, "r1"): (0, "meeple"),
                            (3, 0, "r1"): (1, "ringmaster")})
    before = state
    state = turn(state, "A", 4, 0, 1)
    assert summary(new_lines(before, state)) == [(0, 6, "road", "CB-5.2"), (1, 4, "ringmaster", "BT-7.4")]
    assert state.followers == {}
    assert state.supply == (7, 7) and state.ringmaster_home == (True, True)


def test_ex11_acrobats_of_an_incomplete_pyramid_score_at_game_end() -> None:
    """EX-11 (BT-8.2, AMB-20): an incomplete pyramid with one acrobat each: 5 points each."""
    state = new_game(stack={"UBT-A": 1, "B": 1})
    state = turn(state, "UBT-A", 0, 1, 0, PlaceAcrobat(x=0, y=1))
    state = turn(state, "B", 1, 1, 0, PlaceAcrobat(x=0, y=1))
    assert state.phase == "over"
    assert summary(state.lines) == [(0, 5, "acrobat", "BT-8.2"), (1, 5, "acrobat", "BT-8.2")]


def test_ex12_meeple_placed_this_turn_counts_in_circus_scoring() -> None:
    """EX-12 (BT-4.7, AMB-22): a circus tile next to the Big Top tile with a new farmer on it;
    nothing completes; seal: 2 meeples x 4 = 8; then the Big Top moves onto the new tile."""
    state = new_game()
    state = turn(state, "UBT-F", 0, 1, 0, PlaceFollower(segment="r1"), token="seal")
    state = turn(state, "U", 1, 0, 0)
    before = state
    state = turn(state, "UBT-G", 1, 1, 0, PlaceFollower(segment="f1"), token="tiger")
    assert summary(new_lines(before, state)) == [(0, 8, "circus", "BT-4.3")]
    assert state.big_top == (1, 1)
    assert state.big_top_token == "tiger"
