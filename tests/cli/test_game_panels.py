"""The games in their own terms, on real (simulated) matches: Carcassonne's and Circus Train's log
sentences and step/diff descriptions, Circus Train's panel, Carcassonne's coloured map, words only
for the Big Top parts in play, placements listed once per shape, and the narrow-terminal warning."""

from __future__ import annotations

import io
import re
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.console import Console

from replay_cli.render.carcassonne import CITY, FIELD, ROAD, map_text, same_rotations
from replay_cli.render.common import seat_style

from .conftest import Run, subprocess_env

Sh = Callable[..., subprocess.CompletedProcess[str]]


def _simulate(run: Run, game: str, *extra: str, seed: str = "5", bot: str = "greedy") -> str:
    report = run.json("simulate", game, "-n", "1", "--seed", seed, "--bot", bot, *extra)
    return str(report["results"][0]["match_id"])


def _log_text(out: str) -> str:
    """The log table's text with its borders and wrapping taken out."""
    cells = [cell.strip() for line in out.splitlines() for cell in line.split("│")]
    return " ".join(" ".join(cell for cell in cells if cell).split())


def _score_sentences(text: str) -> int:
    return len(re.findall(r"seat \d+ \([^)]*\) (?:scores|loses) -?\d+ for ", text))


def test_carcassonne_log_step_and_diff_in_the_games_terms(run: Run) -> None:
    match_id = _simulate(run, "carcassonne", "--variant", "base")
    text = _log_text(run("log", match_id).stdout)
    assert re.search(r"tile \w+ is drawn: [a-z]", text)
    assert re.search(r"seat [01] \(bot:greedy\) places tile \w+ at \(-?\d+, -?\d+\), "
                     r"(turned (90|180|270)° clockwise|as drawn \(not turned\))", text)
    assert re.search(r"puts a meeple on the (city|road|field|monastery) [crfm]\d+ of tile \w+ at \(-?\d+, -?\d+\)",
                     text)
    assert re.search(r"scores \d+ for city: city of \d+ tiles, \d+ pennants \(CB-5\.3\)", text)
    # every line of the score sheet is told once, at the event that scored it
    assert _score_sentences(text) == len(run.json("score", match_id)["lines"])
    assert "the match is over (completed)" in text
    place = next(e for e in run.json("log", match_id)
                 if e["kind"] == "move" and e["payload"]["move"]["type"] == "place")
    move = place["payload"]["move"]
    stepped = run("step", match_id, "--batch", "--from", str(place["seq"]), "--to", str(place["seq"] + 1)).stdout
    assert "+ tile " in stepped and f" at ({move['x']}, {move['y']})" in stepped
    assert f"recorded as: seat {place['payload']['seat']}: place rotation={move['rotation']}" in stepped
    assert "/state/" not in stepped  # said in the game's terms, not as JSON paths
    diff = run("diff", match_id, "1", "30").stdout
    assert "+ tile " in diff and "scored from #1 to #30:" in diff and "/state/" not in diff
    assert "/state/board" in str(run.json("diff", match_id, "1", "30")["changes"])  # --json as it was


def test_the_face_down_big_top_token_is_told_as_hidden(run: Run) -> None:
    match_id = _simulate(run, "carcassonne", seed="3", bot="random")
    arbiter = run.json("log", match_id, "--as", "arbiter")
    token = next(e for e in arbiter if e["kind"] == "chance" and e["payload"]["kind"] == "animal-token"
                 and "retracted_by" not in e)
    animal = token["payload"]["outcome"]
    spectator = run("log", match_id, "--from", str(token["seq"]), "--limit", "1").stdout
    assert "an animal token goes face down under the Big Top (hidden" in _log_text(spectator)
    assert animal not in spectator
    told = run("log", match_id, "--from", str(token["seq"]), "--limit", "1", "--as", "arbiter").stdout
    assert f"animal token {animal} goes under the Big Top" in _log_text(told)


def test_carcassonne_words_only_for_the_parts_in_play(run: Run) -> None:
    base = _simulate(run, "carcassonne", "--variant", "base")
    figure = next(e["seq"] for e in run.json("log", base) if e["kind"] == "move"
                  and e["payload"]["move"]["type"] == "place")
    out = run("show", base, "--at", str(figure)).stdout
    assert "place a figure or pass" in out
    assert "pyramid" not in out and "ringmaster" not in out and "circus tile" not in out
    assert "acrobat tile" not in out
    big_top = _simulate(run, "carcassonne", seed="3", bot="random")
    figure = next(e["seq"] for e in run.json("log", big_top) if e["kind"] == "move"
                  and e["payload"]["move"]["type"] == "place")
    out = run("show", big_top, "--at", str(figure)).stdout
    assert "place a figure, score a pyramid or pass" in out
    assert "ringmaster" in out and "* circus tile" in out and "^ acrobat tile" in out


def test_carcassonne_map_colours_features_and_figures(run: Run) -> None:
    match_id = _simulate(run, "carcassonne", "--variant", "base")
    state = run.json("show", match_id)["state"]
    drawn = map_text(state)
    styles = {str(span.style) for span in drawn.spans}
    assert {CITY, ROAD, FIELD} <= styles
    assert {seat_style(f["seat"]) for f in state["followers"]} <= styles
    terminal = Console(file=io.StringIO(), force_terminal=True, color_system="256", width=400)
    terminal.print(drawn)
    ansi = terminal.file.getvalue()  # type: ignore[attr-defined]
    assert re.search(r"\x1b\[[0-9;]*38;5;\d+m▓", ansi)  # cities in colour ...
    assert not re.search(r"\x1b\[(2|[0-9;]*;2)(;[0-9;]*)?m[▓·║═]", ansi)  # ... and nothing of a tile dimmed


def test_a_narrow_terminal_is_warned_that_the_map_is_cut(run: Run, sh: Sh, data_dir: Path) -> None:
    match_id = _simulate(run, "carcassonne", "--variant", "base")
    narrow = sh("show", match_id, env=subprocess_env(data_dir, COLUMNS="40")).stdout
    assert "columns wide but this terminal shows 40: its east side is cut off" in narrow
    assert "Widen the terminal" in narrow and "--json" in narrow
    wide = sh("show", match_id, env=subprocess_env(data_dir, COLUMNS="400")).stdout
    assert "cut off" not in wide and "Map" in wide


def test_placements_that_lie_alike_are_listed_once(run: Run) -> None:
    from replay_cli.source import LocalSource

    match_id = _simulate(run, "carcassonne", "--variant", "base")
    summary = {"game": "carcassonne"}
    log = run.json("log", match_id)
    draw = next(e for e in log if e["kind"] == "chance" and e["payload"]["kind"] == "tile" and e["seq"] > 2
                and any(len(group) > 1 for group in same_rotations(summary, e["payload"]["outcome"])))
    tile = draw["payload"]["outcome"]
    fork = run.json("fork", match_id, "--at", str(draw["seq"]), "-p", "ann", "-p", "bob")["match_id"]
    seat = run.json("show", fork)["decision"]["seats"][0]
    out = run("play", fork, "--human", str(seat), "--no-board", input="moves\nquit\n").stdout
    listed = [tuple(int(v) for v in found) for found in
              re.findall(r"place rotation=(\d) x=(-?\d+) y=(-?\d+)", out.split("legal moves:")[-1])]
    group_of = {r: tuple(group) for group in same_rotations(summary, tile) for r in group}
    shapes = [(x, y, group_of[r]) for r, x, y in listed]
    assert shapes and len(shapes) == len(set(shapes))  # one rotation per shape at each position
    source = LocalSource(store=str(run.data_dir))
    try:
        engine = source.legal_moves(fork, seat)
    finally:
        source.close()
    assert len(engine) > len(set(listed))  # the engine lists every rotation; the shorter list is the CLI's
    assert {(m["x"], m["y"], group_of[m["rotation"]]) for m in engine} == set(shapes)
    shown = run("show", fork).stdout
    assert f"tile {tile} by rotation:" in shown and "=" in shown.split("by rotation:")[1].splitlines()[1]
    # the fork's log: its created event scores nothing of its own, and the tile drawn in the parent is named
    run("play", fork, "--watch", "--max-moves", "1", "-q")
    told = _log_text(run("log", fork).stdout)
    created = told.split(" 2 ", 1)[0]
    assert f"a fork of match {match_id[:8]} after #{draw['seq']}" in created and _score_sentences(created) == 0
    assert f"places tile {tile} at (" in told


def _circus(run: Run) -> tuple[str, list[dict[str, Any]]]:
    match_id = _simulate(run, "circus-train", "--players", "3")
    return match_id, run.json("log", match_id)


def test_circus_train_panel(run: Run) -> None:
    match_id, log = _circus(run)
    at = str(len(log) // 2)
    mine = run("show", match_id, "--at", at, "--as", "seat:0").stdout
    view = run.json("show", match_id, "--at", at, "--as", "seat:0")
    assert mine.count("Players") == 1  # one players table, not two
    assert re.search(r"(April|May|June|July|August|September) \(season \d\), week \d+ of \d+", mine)
    for name in ("train", "money", "best performance", "talent", "hand", "The map: cities", "pool:"):
        assert name in mine, name
    assert "your hand (seat 0 (bot:greedy)): " in mine
    assert "['" not in mine and "{'" not in mine and '{"' not in mine  # no Python or JSON dumps
    cities = {c for p in view["state"]["players"] for c in [p["city"]] if c}
    assert all(city.replace("_", " ").title().split()[0] in mine for city in cities)
    spectator = run("show", match_id, "--at", at).stdout
    assert "your hand" not in spectator
    bag = run.json("show", match_id, "--at", at, "--as", "arbiter")["state"]["bag"]
    assert isinstance(bag, list) and bag and not any(counter in spectator for counter in bag)
    assert f"Local News bag {len(bag)}" in spectator


def test_circus_train_log_and_steps_in_the_games_terms(run: Run) -> None:
    match_id, log = _circus(run)
    text = _log_text(run("log", match_id).stdout)
    assert re.search(r"seat \d \(bot:greedy\) puts the train on [A-Z]", text)
    assert re.search(r"plays (Fast|Rapid|Overnight|Basic) Transit, moving from [A-Z][\w. ]+ to [A-Z]", text)
    assert re.search(r"performs in [A-Z]", text)
    assert re.search(r"Local News counter drawn: LN\d+ (Performance Request|Points counter|Bankrupt Circus)", text)
    assert "destination card drawn: " in text and "(CT-" in text
    assert _score_sentences(text) == len(run.json("score", match_id)["lines"])
    play = next(e for e in log if e["kind"] == "move" and e["payload"]["move"]["type"] == "play_card"
                and e["payload"]["move"]["path"])
    stepped = run("step", match_id, "--batch", "--from", str(play["seq"]), "--to", str(play["seq"])).stdout
    assert "'s train: " in stepped and "to the discard pile: " in stepped and "/state/" not in stepped
