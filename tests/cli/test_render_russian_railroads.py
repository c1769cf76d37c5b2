"""Russian Railroads' terminal board, drawn from views of a state built by hand: at most 100
columns, real and virtual tracks, the locomotives' reach, multipliers, special spaces, the industry
track, the action spaces with their occupants, the engineer area, and the hidden final bonus cards
shown as counts to everyone but their owner."""

from __future__ import annotations

from typing import Any

from rich.console import Console

from domain.games.russian_railroads.components import default_components
from domain.games.russian_railroads.options import RussianRailroadsOptions
from domain.games.russian_railroads.state import Placement, Player, State
from domain.games.russian_railroads.views import view
from domain.kernel.contract import MatchConfig, ScoreLine
from domain.kernel.viewers import Viewer
from replay_cli.render import render_state
from replay_cli.render.russian_railroads import track_cells

SUMMARY: dict[str, Any] = {"game": "russian-railroads", "variant": "standard", "match_id": "rr123456-aaaa",
                           "version": 40, "status": "active", "options": {},
                           "seats": [{"seat": 0, "player": "ann"}, {"seat": 1, "player": "bob"}]}


def _player(**changes: Any) -> Player:
    base: dict[str, Any] = dict(
        tracks={"trans_siberian": {"black": 1}, "st_petersburg": {}, "kiev": {}},
        locomotives={"trans_siberian": (1,), "st_petersburg": (), "kiev": ()},
        factories=(None,) * 5, markers=(0,), multipliers=0, workers=6, reserve=2, gained_workers=0,
        temporary=0, black_worker=False, black_in_supply=False, rubles=2, engineers=(), tokens=(), claimed=(),
        revalued=False, medal=False, bonus_cards=(), passed=False)
    base.update(changes)
    return Player(**base)


def _state(**changes: Any) -> State:
    components = default_components()
    ann = _player(
        # EX-23's layout on the Trans-Siberian: brown on 3, grey on 7, black on 9 (RR-14.4)
        tracks={"trans_siberian": {"black": 9, "grey": 7, "brown": 3}, "st_petersburg": {"black": 4, "grey": 0},
                "kiev": {"black": 2}},
        locomotives={"trans_siberian": (6, 2), "st_petersburg": (3,), "kiev": ()},
        factories=(1, None, None, None, None), markers=(6,), multipliers=3, workers=3, temporary=2,
        black_worker=True, black_in_supply=True, rubles=4, engineers=("E3",), tokens=("T1",),
        claimed=("trans_siberian:2", "trans_siberian:6"), bonus_cards=("B8",), passed=True)
    bob = _player(bonus_cards=("B2", "B9"), engineers=(), rubles=1)
    base: dict[str, Any] = dict(
        config=MatchConfig("standard", RussianRailroadsOptions(), 2, components),
        seats=2, round=3, positions=(2, 1), players=(ann, bob),
        placements=(Placement("grey_3", 1, workers=2), Placement("black_or_grey", 0, workers=1),
                    Placement("black_or_grey", 1, workers=0, rubles=1), Placement("E3", 0, workers=1),
                    Placement("engineer_left", 0, workers=1, temporary=1)),
        stacks={"2": 1, "3": 4, "4": 4, "5": 4, "6": 3, "7": 2, "8": 2, "9": 2}, pool=(4,),
        strip=("E8", "E1", "E4", "E2", "E9", "E12"), multipliers_left=17, face_up=("C1", "C4"),
        bonus_deck=("B1", "B3", "B4", "B5", "B6", "B7"), removed_bonus=("B10", "B11"), starting_cards=(),
        decks={"X": ("E10",), "Y": ("E5",)},
        lines=(ScoreLine(0, 12, "railways", "RR-14.11", "Trans-Siberian"), ScoreLine(0, 5, "industry", "RR-14.9"),
               ScoreLine(0, 2, "railways", "RR-14.11", "St. Petersburg"), ScoreLine(1, 3, "pass", "RR-12.4")),
        agenda=())
    base.update(changes)
    return State(**base)


def _shown(state: State, viewer: str, width: int = 160, summary: dict[str, Any] | None = None) -> list[str]:
    """The board as `viewer` sees it, printed without colour on a console wider than 100 columns
    (piped output is laid out 160 wide), as lines."""
    viewed = {"seq": 40, "status": "active", "decision": {"seats": [1], "prompt": "take an action or pass"},
              "scores": [19, 3], "end": None, "state": view(state, Viewer.parse(viewer))}
    console = Console(width=width, no_color=True, record=True, file=open("/dev/null", "w"))  # noqa: SIM115
    for item in render_state(summary or SUMMARY, viewed, viewer):
        console.print(item)
    return [line.rstrip() for line in console.export_text().splitlines()]


def _line(lines: list[str], start: str, after: int = 0) -> str:
    """The first line that starts (after the panel border) with `start`, or the `after`-th after it."""
    index = next(i for i, line in enumerate(lines) if line.lstrip("│ ").startswith(start))
    return lines[index + after]


def _cells(line: str, start: int) -> list[str]:
    """The cells of a railway or industry row whose label starts at `start`, without the border."""
    return line[start + 4:].strip(" │").split()


def test_the_board_fits_in_100_columns_on_wide_and_100_column_consoles() -> None:
    for width in (160, 100):
        lines = _shown(_state(), "seat:0", width)
        assert max(len(line) for line in lines) <= 100
        assert len(lines) > 40


def test_rr_14_4_real_tracks_upper_case_virtual_lower_case_and_nothing_ahead_a_dot() -> None:
    railway = default_components().railway("trans_siberian")
    cells = [text.strip() for text, _ in track_cells(railway, {"black": 9, "grey": 7, "brown": 3}, reach=8)]
    assert cells == ["br", "br", "BR", "gy", "gy", "gy", "GY", "bk", "BK", *["·"] * 6]
    styles = [style for _, style in track_cells(railway, {"black": 9, "grey": 7, "brown": 3}, reach=8)]
    assert "dim" not in styles[7] and styles[8].endswith(" dim")  # space 9 lies past the reach of 8


def test_rr_0_6_rr_10_4_the_trans_siberian_row_with_reach_multipliers_and_specials() -> None:
    lines = _shown(_state(), "seat:0")
    title = _line(lines, "TS Trans-Siberian")
    assert "locomotives 6+2, reach 8" in title
    numbers, multipliers, tracks, reach, specials = (_line(lines, "TS Trans-Siberian", n) for n in range(1, 6))
    start = tracks.index("TS")
    assert _cells(tracks, start) == ["br", "br", "BR", "gy", "gy", "gy", "GY", "bk", "BK", *["·"] * 6]
    assert _cells(numbers, start) == [str(space) for space in range(1, 16)]
    assert _cells(multipliers, start) == ["×2", "×2", "×2", "○", "○", "○", "○", "○"]  # 3 of 8 placed
    bar = reach[start + 4:].rstrip(" │")
    assert set(bar[:-1]) == {"━"} and bar.endswith("▶") and len(bar) == 8 * 5 - 1  # up to space 8's cell
    # specials: +gy on 2 and +br on 6 gained, the worker on 3 and the token on 13 need the locomotive
    assert _cells(specials, start) == ["+gy✓", "wk*", "+br✓", "+be", "tk*", "+wh"]
    assert specials.index("+gy✓") - start - 4 == 5  # under space 2


def test_railway_without_locomotive_and_a_track_beside_it() -> None:
    lines = _shown(_state(), "seat:0")
    assert "beside it: GY" in _line(lines, "SP St. Petersburg")
    assert "locomotive 3, reach 3" in _line(lines, "SP St. Petersburg")
    assert "no locomotive: its tracks score nothing (RR-14.3)" in _line(lines, "KV Kiev")
    kiev = _line(lines, "KV Kiev", 4)  # no multiplier row on Kiev: 1 numbers, 2 tracks, 3 reach, 4 specials
    assert _cells(kiev, kiev.index("★") - 4) == ["★1*", "★2*", "★3*", "★4*", "md*", "wk", "★5*"]


def test_rr_9_2_industry_track_with_a_factory_and_the_marker() -> None:
    lines = _shown(_state(), "seat:0")
    assert "marker on place 6 (10 VP)" in _line(lines, "Industry   marker")
    places = _cells(_line(lines, "Industry   marker", 1), 0)
    assert places == ["0", "1", "2", "3", "5", "[F7]", "10", "[", "]", "15", "[", "]", "tk", "[", "]", "20", "[",
                      "]", "25", "30"]
    marker = _line(lines, "Industry   marker", 2)
    assert marker.index("▲") == _line(lines, "Industry   marker", 1).index("10")  # under place 6, the 10
    assert "factories: gap 1 F7: 1 industry advancement (locomotive 1)" in "\n".join(lines)


def test_amb_13_the_option_moves_the_first_gap_one_place_earlier() -> None:
    summary = {**SUMMARY, "options": {"industry_first_gap": "after_start_and_three"}}
    state = _state()
    state = state.with_player(0, factories=(None,) * 5, markers=(4,))
    lines = _shown(state, "seat:0", summary=summary)
    places = _cells(_line(lines, "Industry   marker", 1), 0)
    assert places[:7] == ["0", "1", "2", "3", "[", "]", "5"]
    assert "marker on place 4 (a factory)" in _line(lines, "Industry   marker")


def test_action_spaces_engineers_turn_order_and_supply() -> None:
    text = "\n".join(_shown(_state(), "spectator"))
    assert "round 3 of 6   turn order: 1. seat 1 (bob) → 2. seat 0 (ann) (passed)" in text
    grey = next(line for line in text.splitlines() if "3 grey advancements" in line)
    assert "2 workers" in grey and "seat 1 (bob): 2 workers" in grey
    reusable = text.split("1 black or grey advancement (reusable)", 1)[1].splitlines()
    assert "seat 0 (ann): 1 worker" in reusable[0] and "seat 1 (bob): 1 ruble" in reusable[1]
    assert "2 grey advancements" not in text  # a 3-4 player space is not on the two-player side (RR-3.6)
    assert "3 industry advancements (last round)" not in text and "claim first place" in text
    left = text.split("\nleft ", 1)[1].splitlines()
    assert "E2 (8)" in left[0] and "2 workers" in left[0] and "2 advancements of any track" in left[0]
    assert left[1].strip() == "seat 0 (ann): 1 worker, 1 temporary"  # on the left changing engineer
    assert "\nhire " in text and "E12 (13)" in text and "preview" in text
    assert "locomotives 2×1 3×4 4×4 5×4 6×3 7×2 8×2 9×2 · factory pool 4\nmultipliers left 17" in text
    assert "final bonus deck 6 cards" in text and "face-up card C4: the #9 locomotive" in text
    assert "E3 1 multiplier and 3 VP (value 5, 1 worker) used" in text
    assert "score 19 VP: railways 14 · industry 5" in text and "score 3 VP: pass 3" in text


def test_rr_21_2_final_bonus_cards_hidden_from_other_seats_shown_as_a_count() -> None:
    ann = "\n".join(_shown(_state(), "seat:0"))
    assert "B8 6 VP per engineer" in ann  # ann's own card
    assert "2 cards face down" in ann and "B2" not in ann and "B9" not in ann
    bob = "\n".join(_shown(_state(), "seat:1"))
    assert "B2 10 VP per completed railway; B9 the locomotives' values" in bob
    assert "1 card face down" in bob and "B8" not in bob
    spectator = "\n".join(_shown(_state(), "spectator"))
    assert all(card not in spectator for card in ("B8", "B2", "B9", "B1", "B10"))
    arbiter = "\n".join(_shown(_state(), "arbiter"))
    assert "B8 6 VP per engineer" in arbiter and "B2 10 VP per completed railway" in arbiter
    assert "the final bonus deck: B1 15 VP" in arbiter


def test_rr_16_1_the_last_round_covers_turn_order_and_opens_its_space() -> None:
    text = "\n".join(_shown(_state(round=6), "spectator"))
    assert "round 6 of 6 (the last round)" in text
    assert "3 industry advancements (last round)" in text and "claim first place" not in text


def test_a_view_it_cannot_read_falls_back_to_the_generic_panels() -> None:
    viewed = {"seq": 1, "status": "active", "decision": {"seats": [0], "prompt": "?"}, "scores": [0, 0],
              "state": {"round": 1, "players": "not a list"}}
    console = Console(width=160, no_color=True, record=True, file=open("/dev/null", "w"))  # noqa: SIM115
    for item in render_state(SUMMARY, viewed, "spectator"):
        console.print(item)
    assert "Board" in console.export_text()
    other_set = {**SUMMARY, "components": {"hash": "0" * 64}}
    state = view(_state(), Viewer.spectator())
    console = Console(width=160, no_color=True, record=True, file=open("/dev/null", "w"))  # noqa: SIM115
    for item in render_state(other_set, {**viewed, "state": state}, "spectator"):
        console.print(item)
    text = console.export_text()
    assert "Board" in text and "TS Trans-Siberian" not in text  # not drawn from a set the match did not use


def test_rr_2_20_setup_shows_the_starting_cards_and_no_turn_order_yet() -> None:
    state = _state(round=0, positions=(0, 0), placements=(), starting_cards=("S1", "S3"),
                   strip=(None, "E1", "E4", "E2", "E9", "E12"))
    lines = _shown(state, "spectator")
    text = "\n".join(lines)
    assert lines[2] == "setup" and "turn order 1" not in text
    assert "starting bonus cards to draft: S1 1 black advancement; S3 1 multiplier" in text
    assert next(line for line in lines if line.startswith("preview")).split() == ["preview", "(empty)"]
    assert max(len(line) for line in lines) <= 100
