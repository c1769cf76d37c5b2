"""The first hour of a new user at the terminal, the CLI run as a subprocess: resume hints that
work, prompt answers that say what exists, chance outcomes that say what they are, viewers that
exist, and `simulate` that says what it counts."""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Any


def hint(output: str) -> list[str]:
    """The arguments of the last `resume with: ringside ...` hint printed."""
    line = [line for line in output.splitlines() if "resume with: ringside " in line][-1]
    return shlex.split(line.partition("resume with: ringside ")[2])


def test_a_resume_hint_names_the_store_and_the_seats(sh: Any, tmp_path: Path) -> None:
    store = tmp_path / "another store"
    out = sh("--store", str(store), "play", "test-dicevote", "-p", "me", "-p", "bot", "--no-board", "-q",
             input="quit\n").stdout
    again = hint(out)
    assert again[:3] == ["--store", str(store), "play"]
    resumed = sh(*again, "--no-board", "-q", input="quit\n")  # found in that store, not the default one
    assert "seat 0 (me) move>" in resumed.stdout
    watched = sh("--store", str(store), "play", "test-dicevote", "-p", "ann", "-p", "bob", "--watch", "-q",
                 "--max-moves", "1").stdout
    assert hint(watched)[-1] == "--watch"


def new_match(sh: Any, *players: str, extra: tuple[str, ...] = ()) -> str:
    args = [arg for name in players or ("ann", "bob") for arg in ("-p", name)]
    return str(json.loads(sh("new", "test-dicevote", *args, *extra, "--json").stdout)["match_id"])


def test_as_a_seat_the_match_does_not_have_is_refused_by_every_command(sh: Any) -> None:
    match_id = new_match(sh)
    sh("export", match_id, "-o", "m.jsonl")
    wanted = ("ringside: error: Invalid value for '--as': this match has no seat 7; its seats: seat:0 (ann), "
              "seat:1 (bob) (see: ringside {} --help)\n")
    for command in (["show", match_id], ["log", match_id], ["step", match_id, "--batch"], ["diff", match_id, "1", "2"],
                    ["annotate", match_id, "--list"], ["show", "m.jsonl"]):
        refused = sh(*command, "--as", "seat:7", code=2)
        assert refused.stderr == wanted.format(command[0]) and not refused.stdout
    assert sh("show", match_id, "--as", "seat:1").returncode == 0


def test_an_unknown_word_at_the_prompt_is_answered_with_what_exists(sh: Any) -> None:
    out = sh("play", "test-dicevote", "-p", "me", "-p", "bot", "--no-board", "-q",
             input='clear\nclear the screen\n{"type": "zap"}\nquit\n').stdout
    said = ("no command or move {!r}: moves are pass, play, roll, vote (legal now: play, roll, pass); commands are "
            "board, moves, score, log, undo, help, quit; or type the number of a listed move")
    assert out.count(said.format("clear")) == 2 and said.format("zap") in out
    assert "Input tag" not in out and "stopped; resume with" in out


def test_a_recorded_tile_is_chosen_from_tiles_that_say_what_they_are(sh: Any) -> None:
    out = sh("play", "carcassonne", "-p", "me", "-p", "bot", "--randomness", "recorded", "--no-board", "-q",
             input="1\nquit\n").stdout
    assert "chance: tile. Possible outcomes:" in out
    assert "    1. A  Monastery with a road leaving south\n" in out
    assert "    4. D  City cap north, straight road west-east (start tile type)\n" in out
    assert " UBT-A  Acrobat tile, all field\n" in out
    assert "seat 0 (me) move>" in out  # tile A was recorded, and seat 0 places it
    stopped = sh("play", "carcassonne", "-p", "me", "-p", "bot", "--randomness", "recorded", "--no-board", "-q",
                 input="quit\n")
    assert "stopped; resume with: ringside play" in stopped.stdout and not stopped.stderr


def test_simulate_one_player_picks_the_solitaire_variant_and_says_so(sh: Any) -> None:
    done = sh("simulate", "circus-train", "--players", "1", "-n", "1", "--out", "solo")
    assert done.stderr == ("ringside: note: circus-train's default variant basic is for 2–5 players, so solitaire "
                           "is simulated for 1 (choose with --variant: solitaire, solitaire-advanced)\n")
    assert done.stdout.startswith("1 circus-train (solitaire) bundles in solo")
    refused = sh("simulate", "circus-train", "--players", "1", "--variant", "advanced", code=2)
    assert refused.stderr == ("ringside: error: circus-train advanced is played by 2–5 players, not 1; for 1: "
                              "--variant solitaire or solitaire-advanced\n")


def test_simulate_reports_shared_first_places(sh: Any) -> None:
    report = json.loads(sh("simulate", "test-dicevote", "-n", "20", "--seed", "1", "--out", "a", "--json").stdout)
    shared = [r for r in report["results"] if len(r["winners"]) > 1]
    assert shared and report["shared_first_places"] == len(shared)
    assert report["shared_wins_by_seat"] == [sum(seat in r["winners"] for r in shared) for seat in (0, 1)]
    assert report["wins_by_seat"] == [sum(seat in r["winners"] for r in report["results"]) for seat in (0, 1)]
    text = sh("simulate", "test-dicevote", "-n", "20", "--seed", "1", "--out", "b").stdout  # the same matches
    assert (f"wins by seat {report['wins_by_seat']} ({len(shared)} of the 20 matches ended in a shared first place, "
            f"which counts as a win for each seat that shared it: shared wins by seat "
            f"{report['shared_wins_by_seat']})") in text
