"""Rendering (Carcassonne's map, the generic panels) and the other stores (another SQLite data
directory, PostgreSQL)."""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.console import Console

from replay_cli.render import render_state
from replay_cli.render.carcassonne import map_text, rotated_edges, tile_cell

from .conftest import Run

SUMMARY = {"game": "carcassonne", "variant": "base", "match_id": "12345678-aaaa", "version": 9,
           "seats": [{"seat": 0, "player": "ann"}, {"seat": 1, "player": "bob"}], "status": "active"}


def _text(items: list[object]) -> str:
    console = Console(width=160, no_color=True, record=True, file=open("/dev/null", "w"))  # noqa: SIM115
    for item in items:
        console.print(item)
    return console.export_text()


def test_rotation_of_edges() -> None:
    assert rotated_edges("D", 0) == "CRFR"
    assert rotated_edges("D", 1) == "RCRF"  # a quarter turn clockwise: north goes east
    assert rotated_edges("no-such-tile", 0) is None


def test_carcassonne_map_draws_tiles_followers_and_last_placement() -> None:
    state = {"board": [{"x": 0, "y": 0, "tile": "D", "rotation": 0, "kind": "base"},
                       {"x": 1, "y": 0, "tile": "UBT-F", "rotation": 0, "kind": "circus"},
                       {"x": 0, "y": 1, "tile": "UBT-A", "rotation": 0, "kind": "acrobat"}],
             "followers": [{"x": 0, "y": 0, "segment": "c1", "seat": 1, "figure": "meeple"}],
             "placed": {"x": 1, "y": 0}}
    text = map_text(state).plain
    lines = text.splitlines()
    assert lines[0].split() == ["0", "1"]  # x coordinates
    assert "▓▓▓" in lines[1]  # D's city edge to the north
    assert "D1" in text  # follower of seat 1 on tile D
    assert "*F" in text and "^A" in text
    cell = tile_cell({"tile": "D", "rotation": 0, "kind": "base"}, None)
    assert [part.plain for part in cell] == ["·▓▓▓·", "═ D ═", "·····"]


def test_carcassonne_renderer_and_generic_fallback() -> None:
    view = {"seq": 9, "status": "active", "decision": {"seats": [0], "prompt": "place tile D"},
            "scores": [3, 0], "end": None,
            "state": {"phase": "place", "turn": 3, "tiles_left": 60, "current_tile": "D",
                      "board": [{"x": 0, "y": 0, "tile": "D", "rotation": 0, "kind": "base"}], "followers": [],
                      "pyramids": [], "supply": [{"seat": 0, "meeples": 7, "ringmaster": False},
                                                 {"seat": 1, "meeples": 6, "ringmaster": False}],
                      "big_top": None, "parts": []}}
    text = _text(render_state(SUMMARY, view))
    assert "Map" in text and "current tile D" in text and "ann" in text and "meeples" in text
    assert "tile D by rotation" in text and "·║·" in text  # D turned a quarter: its road runs north-south
    figure = _text(render_state(SUMMARY, {**view, "state": {**view["state"], "phase": "figure",
                                                            "placed": {"x": 0, "y": 0}}}))
    assert "segments of tile D as placed: " in figure and "c1 city N" in figure
    generic = _text(render_state({**SUMMARY, "game": "something-else"},
                                 {**view, "state": {"round": 2, "hands": [[1, 2], {"count": 2}],
                                                    "players": [{"seat": 0, "money": 3}, {"seat": 1, "money": 5}],
                                                    "bag": {"count": 9}}}))
    assert "Board" in generic and "round" in generic and "hands" in generic and "money" in generic
    broken = _text(render_state(SUMMARY, {**view, "state": {"board": "not a list"}}))
    assert "Board" in broken  # a view the map cannot draw falls back to the panels


def test_carcassonne_human_moves_with_rule_ids(run: Run) -> None:
    out = run("play", "carcassonne", "-p", "me", "-p", "bot",
              input="place x=50 y=50 rotation=0\n1\nfollower segment=zz\npass\n").stdout
    assert "Map" in out and "legal moves" in out
    assert "illegal move (CB-3.1)" in out
    assert "illegal move (CB-" in out.split("CB-3.1", 1)[1]
    match_id = run.json("matches")[0]["match_id"]
    moves = [e for e in run.json("log", match_id) if e["kind"] == "move"]
    assert moves[0]["actor"] == {"kind": "seat", "seat": 0} and moves[0]["payload"]["move"]["type"] == "place"


def test_another_sqlite_store(run: Run, tmp_path: Path) -> None:
    store = str(tmp_path / "elsewhere")
    match_id = run.json("--store", store, "new", "test-dicevote", "-p", "a", "-p", "b")["match_id"]
    assert run.json("matches") == []
    assert run.json("show", match_id, "--store", store)["match_id"] == match_id  # option after the command
    assert (tmp_path / "elsewhere" / "ringside.sqlite3").exists()


@pytest.mark.postgres
def test_postgresql_store(run: Run, postgres_url: str) -> None:
    match_id = run.json("--store", postgres_url, "new", "test-dicevote", "-p", "a", "-p", "b")["match_id"]
    run("--store", postgres_url, "play", match_id, "--watch", "-q")
    assert run.json("--store", postgres_url, "verify", match_id)["ok"]
    assert run.json("--store", postgres_url, "matches", "--status", "ended")[0]["match_id"] == match_id
    run("--store", postgres_url, "export", match_id, "-o", "pg.jsonl")
    assert run.json("verify", "pg.jsonl")["ok"]
