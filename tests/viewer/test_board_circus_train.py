"""Circus Train's SVG board against the state API's view, on real bot-played matches: trains, cities,
counters, panels, hands, the calendar and the decision drawn as the view says, at the start, in the
middle and at the end, as a seat, a spectator and the arbiter; nothing a view hides is drawn; the
same view always gives the same bytes; the layouts keep every city's box apart."""

from __future__ import annotations

import copy
import re
import uuid
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from api.viewer.boards import draw_board
from api.viewer.boards.circus_train import draw
from api.viewer.boards.circus_train_map import BOX_H, BOX_W, MAP_H, MAP_W, MAP_X, MAP_Y, layout_of
from domain.application import Ringside
from domain.games.circus_train.components import default_components
from domain.kernel.clock import FixedStepClock
from domain.kernel.integrity import ServerKey
from domain.kernel.viewers import Viewer

SVG = "{http://www.w3.org/2000/svg}"
VIEWERS = ("spectator", "seat:0", "seat:1", "arbiter")


@dataclass(frozen=True)
class Played:
    """A finished bot match: its summary and its views at a few steps, for every viewer."""

    summary: dict[str, Any]
    steps: list[int]
    views: dict[tuple[int, str], dict[str, Any]]

    def view(self, step: int, viewer: str) -> dict[str, Any]:
        return self.views[(step, viewer)]


def _play(directory: Path, seats: int, variant: str, options: dict[str, Any], seed: str) -> Played:
    app = Ringside.open(data_dir=directory, key=ServerKey.from_seed(b"ringside-tests"), clock=FixedStepClock())
    try:
        match_id = uuid.uuid5(uuid.NAMESPACE_URL, f"board-circus-train:{variant}:{seats}:{seed}")
        app.create_match("circus-train", [f"player {i}" for i in range(seats)], variant=variant, options=options,
                         seed=seed * 64, match_id=match_id)
        moves = 0
        while app.play_bot(match_id, "greedy", moves) is not None:
            moves += 1
        head = app.head_version(match_id)
        steps = sorted({2, head // 4, head // 2, 3 * head // 4, head})
        views = {(step, viewer): app.state(match_id, Viewer.parse(viewer), step)
                 for step in steps for viewer in VIEWERS}
        return Played(app.summary(match_id), steps, views)
    finally:
        app.close()


@pytest.fixture(scope="module")
def basic(tmp_path_factory: pytest.TempPathFactory) -> Played:
    return _play(tmp_path_factory.mktemp("ct-basic"), 3, "basic", {}, "a")


@pytest.fixture(scope="module")
def advanced(tmp_path_factory: pytest.TempPathFactory) -> Played:
    return _play(tmp_path_factory.mktemp("ct-advanced"), 4, "advanced",
                 {"special_characters": True, "event_cards": True}, "b")


def _drawings(played: Played) -> Iterator[tuple[int, str, dict[str, Any], ET.Element]]:
    for step in played.steps:
        for viewer in VIEWERS:
            view = played.view(step, viewer)
            yield step, viewer, view, ET.fromstring(draw(played.summary, view, viewer))


def _groups(root: ET.Element, cls: str) -> list[ET.Element]:
    return [g for g in root.iter(f"{SVG}g") if g.get("class") == cls]


# ---- the registry and the document --------------------------------------------------------------
def test_the_registry_draws_circus_train_with_its_own_board(basic: Played) -> None:
    step = basic.steps[2]
    svg = draw_board(basic.summary, basic.view(step, "spectator"), "spectator")
    root = ET.fromstring(svg)
    assert root.get("data-game") == "circus-train" and root.get("data-seq") == str(step)
    assert _groups(root, "city"), "the generic drawing has no map: the registry did not use the board"
    assert root.get("viewBox") == "0 0 1280 800" and root.get("width") is None and root.get("height") is None


def test_a_view_that_is_not_circus_trains_is_refused_for_the_generic_drawing(basic: Played) -> None:
    view = {**basic.view(2, "spectator"), "state": {"board": {}}}
    with pytest.raises(ValueError):
        draw(basic.summary, view, None)
    assert "data-game" in draw_board(basic.summary, view, None)  # the registry's fallback still draws


def test_the_same_view_gives_the_same_bytes_and_is_left_untouched(advanced: Played) -> None:
    view = advanced.view(advanced.steps[2], "seat:1")
    before = copy.deepcopy(view)
    assert draw(advanced.summary, view, "seat:1") == draw(advanced.summary, copy.deepcopy(view), "seat:1")
    assert view == before


# ---- the map -------------------------------------------------------------------------------------
@pytest.mark.parametrize("match", ["basic", "advanced"])
def test_ct_5_20_ct_7_2_each_train_stands_where_the_view_puts_it(match: str, request: pytest.FixtureRequest) -> None:
    played: Played = request.getfixturevalue(match)
    moved = set()
    for step, viewer, view, root in _drawings(played):
        players = view["state"]["players"]
        expected = {(seat, p["city"]) for seat, p in enumerate(players) if p["city"]}
        drawn = {(int(g.get("data-seat", -1)), g.get("data-city")) for g in _groups(root, "train")}
        assert drawn == expected, (step, viewer)
        moved |= {city for _, city in expected}
    assert len(moved) > len(played.view(played.steps[0], "spectator")["state"]["players"]), "trains never moved"


def test_every_city_is_drawn_once_with_its_counters(advanced: Played) -> None:
    """CT-0.8, CT-0.9: each city shows the Local News counter and the talent counters (and the
    Special Character, CT-21.2) the view puts there, and no other."""
    cities = {c.id for c in default_components().cities}
    seen_news = seen_talents = 0
    for step, viewer, view, root in _drawings(advanced):
        state = view["state"]
        drawn = {g.get("data-city"): g for g in _groups(root, "city")}
        assert set(drawn) == cities
        for city, g in drawn.items():
            news = [n.get("data-news") for n in g.iter(f"{SVG}g") if n.get("data-news")]
            assert news == ([state["news"][city]] if city in state["news"] else []), (step, viewer, city)
            talents = Counter({t.get("data-talent"): int(t.get("data-count", 0))
                               for t in g.iter(f"{SVG}g") if t.get("data-talent")})
            expected = Counter(state["talents"].get(city, []))
            if city in state["characters"]:
                expected[state["characters"][city]] += 1
            assert talents == expected, (step, viewer, city)
            seen_news += len(news)
            seen_talents += sum(talents.values())
    assert seen_news and seen_talents, "no counter was ever on the map: the check proved nothing"


def test_ct_21_18_links_an_event_card_blocks_are_marked(advanced: Played) -> None:
    links = {tuple(sorted((link.a, link.b))) for link in default_components().links}
    for _, _, view, root in _drawings(advanced):
        drawn = {tuple(sorted(str(g.get("data-link")).split())): g.get("data-blocked") == "true"
                 for g in root.iter(f"{SVG}g") if g.get("data-link")}
        assert set(drawn) == links
        blocked = {tuple(sorted(pair)) for pair in view["state"]["marks"].get("blocked_links", [])}
        assert {link for link, is_blocked in drawn.items() if is_blocked} == blocked


# ---- the panels ----------------------------------------------------------------------------------
@pytest.mark.parametrize("match", ["basic", "advanced"])
def test_ct_0_11_ct_9_8_each_panel_shows_the_views_score_money_and_markers(match: str,
                                                                         request: pytest.FixtureRequest) -> None:
    played: Played = request.getfixturevalue(match)
    for step, viewer, view, root in _drawings(played):
        panels = {int(g.get("data-seat", -1)): g for g in _groups(root, "player")}
        assert sorted(panels) == list(range(len(view["state"]["players"])))
        for seat, player in enumerate(view["state"]["players"]):
            panel = panels[seat]
            assert panel.get("data-score") == str(view["scores"][seat]), (step, viewer, seat)
            assert panel.get("data-money") == str(player["money"])
            assert panel.get("data-best") == str(player["best"]) and panel.get("data-vp") == str(player["vp"])
            assert panel.get("data-city") == (player["city"] or "")
            circus = Counter({t.get("data-talent"): int(t.get("data-count", 0))
                              for t in panel.iter(f"{SVG}g") if t.get("data-talent")})
            assert circus == Counter(player["circus"]), "CT-0.7: the circus as the view holds it"
            assert (panel.get("data-you") == "true") == (viewer == f"seat:{seat}")
    final = played.view(played.steps[-1], "spectator")
    assert any(final["scores"]), "nobody scored: the score check proved nothing"


def test_ct_0_15_a_seat_sees_its_own_hand_and_every_hand_is_as_the_view_holds_it(basic: Played) -> None:
    """CT-0.15 and A-6: hands and discard piles are public, so every panel's cards are its seat's
    hand (in view order) and discard pile; the viewer's own panel is marked as theirs."""
    checked = 0
    for step, viewer, view, root in _drawings(basic):
        for panel in _groups(root, "player"):
            player = view["state"]["players"][int(panel.get("data-seat", -1))]
            hand = [c.get("data-card") for c in panel.iter(f"{SVG}g") if c.get("data-card")]
            discard = [c.get("data-discard") for c in panel.iter(f"{SVG}g") if c.get("data-discard")]
            assert hand == player["hand"] and discard == player["discard"], (step, viewer)
            hand_group = next(g for g in _groups(panel, "hand"))
            assert hand_group.get("data-hand-count") == str(len(player["hand"]))
            checked += len(hand) if panel.get("data-you") == "true" else 0
    assert checked, "no seat viewer's hand was drawn"


def test_a_hand_the_view_holds_only_as_a_count_is_drawn_as_backs(basic: Played) -> None:
    view = copy.deepcopy(basic.view(basic.steps[2], "spectator"))
    view["state"]["players"][1]["hand"] = {"count": 5}
    root = ET.fromstring(draw(basic.summary, view, "spectator"))
    panel = next(g for g in _groups(root, "player") if g.get("data-seat") == "1")
    assert not [c for c in panel.iter(f"{SVG}g") if c.get("data-card")]
    assert next(iter(_groups(panel, "hand"))).get("data-hand-count") == "5"
    assert len([r for r in panel.iter(f"{SVG}rect") if r.get("class") == "hidden-card"]) == 5


# ---- hidden information ------------------------------------------------------------------------
def _hidden_ids(arbiter: dict[str, Any]) -> set[str]:
    state = arbiter["state"]
    return {str(item) for pile in ("bag", "deck", "events_left") for item in state[pile]}


def test_a_6_no_drawing_holds_what_is_in_the_bag_deck_or_undrawn_events(advanced: Played) -> None:
    """A-6: the Local News bag, the Destination deck and the undrawn event cards are counts in every
    view but the arbiter's; the board draws them as counts for everyone, so no viewer's drawing
    names a piece in them."""
    tested = 0
    for step in advanced.steps:
        hidden = _hidden_ids(advanced.view(step, "arbiter"))
        for viewer in VIEWERS:
            svg = draw(advanced.summary, advanced.view(step, viewer), viewer)
            leaked = {item for item in hidden if re.search(rf"\b{re.escape(item)}\b", svg)}
            assert not leaked, (step, viewer, sorted(leaked))
        tested += len(hidden)
    assert tested, "the arbiter's view held no hidden piece: the check proved nothing"
    state = advanced.view(advanced.steps[1], "spectator")["state"]
    root = ET.fromstring(draw(advanced.summary, advanced.view(advanced.steps[1], "spectator"), "spectator"))
    piles = next(iter(_groups(root, "piles")))
    assert piles.get("data-bag") == str(state["bag"]["count"]) and piles.get("data-deck") == str(state["deck"]["count"])
    assert piles.get("data-events-left") == str(state["events_left"]["count"])


def test_the_drawing_would_show_a_leak_if_the_view_had_one(advanced: Played) -> None:
    """The leak check above can fail: a piece put on the map is found in the drawing."""
    step = advanced.steps[1]
    arbiter = advanced.view(step, "arbiter")
    secret = sorted(str(c) for c in arbiter["state"]["bag"])[0]
    view = copy.deepcopy(advanced.view(step, "spectator"))
    view["state"]["news"]["winnipeg"] = secret
    assert re.search(rf"\b{secret}\b", draw(advanced.summary, view, "spectator"))


# ---- calendar and decision ---------------------------------------------------------------------
def test_ct_0_3_the_calendar_marks_the_views_month_and_week(advanced: Played) -> None:
    for step, viewer, view, root in _drawings(advanced):
        calendar = view["state"]["calendar"]
        drawn = next(iter(_groups(root, "calendar")))
        assert drawn.get("data-month") == calendar["month"] and drawn.get("data-week") == str(calendar["week"])
        weeks = [g for g in drawn.findall(f"{SVG}g") if g.get("data-week")]
        assert len(weeks) == calendar["weeks_total"] == 27
        current = [g.get("data-week") for g in weeks if g.get("data-current") == "true"]
        assert current == ([str(calendar["week"])] if calendar["week"] <= 27 else []), (step, viewer)


def test_the_decision_names_who_is_to_move_and_the_end_its_winner(basic: Played) -> None:
    names = [seat["player"] for seat in basic.summary["seats"]]
    for step, _viewer, view, root in _drawings(basic):
        decision = next(iter(_groups(root, "decision")))
        words = "".join(decision.itertext())
        if view["status"] == "active" and not view["decision"].get("chance"):
            seats = view["decision"]["seats"]
            assert decision.get("data-to-move") == " ".join(map(str, seats))
            assert all(names[s] in words for s in seats) and view["decision"]["prompt"] in words
            moving = {g.get("data-seat") for g in _groups(root, "player") if g.get("data-to-move") == "true"}
            assert moving == {str(s) for s in seats}
        elif view["status"] != "active":
            winners = view["end"]["result"]["winners"]
            assert decision.get("data-to-move") == "" and "Match over" in words
            assert all(names[s] in words for s in winners), (step, words)
    assert basic.view(basic.steps[-1], "spectator")["status"] == "ended"


# ---- layouts -----------------------------------------------------------------------------------
def _apart(centres: dict[str, tuple[float, float]]) -> list[tuple[str, str]]:
    """Pairs of city boxes (with room for a train above) that overlap."""
    out = []
    ids = sorted(centres)
    for i, a in enumerate(ids):
        for b in ids[i + 1:]:
            (ax, ay), (bx, by) = centres[a], centres[b]
            if abs(ax - bx) < BOX_W and abs(ay - by) < BOX_H + 20:
                out.append((a, b))
    return out


def _inside(centres: dict[str, tuple[float, float]]) -> bool:
    return all(MAP_X + BOX_W / 2 <= x <= MAP_X + MAP_W - BOX_W / 2 and MAP_Y + BOX_H <= y <= MAP_Y + MAP_H - BOX_H / 2
               for x, y in centres.values())


def test_the_shipped_map_keeps_every_city_box_apart_and_inside_the_frame() -> None:
    centres = dict(layout_of(default_components().cities).centres)
    assert set(centres) == {c.id for c in default_components().cities}
    assert not _apart(centres) and _inside(centres)


def test_another_map_is_laid_out_from_its_coordinates_or_on_a_ring() -> None:
    def city(i: int, with_coordinates: bool) -> SimpleNamespace:
        return SimpleNamespace(id=f"c{i}", lat_tenths=400 + 7 * (i % 5) if with_coordinates else None,
                               lon_tenths=-900 + 23 * i if with_coordinates else None)

    for with_coordinates in (True, False):
        cities = [city(i, with_coordinates) for i in range(8)]
        centres = dict(layout_of(cities).centres)
        assert len(centres) == 8 and _inside(centres)
        assert len(set(centres.values())) == 8
        assert centres == dict(layout_of(cities).centres)  # deterministic
    projected = dict(layout_of([city(i, True) for i in range(8)]).centres)
    assert projected["c0"][0] < projected["c7"][0], "west is drawn left of east"
