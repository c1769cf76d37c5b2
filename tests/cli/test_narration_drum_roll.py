"""Drum Roll read as a commentator (issue 17): every move and chance draw of a bot-played match is
told in the game's words for a spectator, a seat and the arbiter, never as the kernel's generic
`plays type key=value`; hidden draws and private choices name no card; a few sentences are checked
word for word; and what a step changed (`describe_changes`) agrees with the two views it compares.

The match is played once per module through the CLI (`simulate` with a seed, so every run reads the
same match) into a store of its own, and read back through the store (`LocalSource`), as `ringside log` and `ringside
step` read it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from domain.games.drum_roll.components import default_components
from domain.games.drum_roll.moves import DrumRollMove
from domain.kernel.viewers import Viewer
from replay_cli.render import describe_changes
from replay_cli.render.common import seat_label
from replay_cli.render.narrate import narrate_log
from replay_cli.source import LocalSource

from .narrated import Played, check_examples, lines_starting, move_of, play, told_in_words

C = default_components()


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Played:
    return play(tmp_path_factory, "drum-roll", seed=3)


def test_every_move_and_draw_is_told_in_drum_rolls_words(played: Played) -> None:
    told = told_in_words(played)
    # a three-seat bot match makes most kinds of move; each of those was told in words above
    assert {"keep_performer", "take_cubes", "place_marker", "pass_marker", "hire_performer", "hire_helper",
            "place_cube", "done_sharing", "cast_vote", "perform"} <= told, told


EXAMPLES: dict[str, tuple[dict[str, Any], str]] = {
    "keep_performer": ({"card": "P01"}, "keeps the Illusionist (P01, Magician) from the opening draft; the other "
                                        "goes to the left"),
    "take_cubes": ({"colours": ["white", "white"]}, "takes two white cubes as starting cubes"),
    "place_marker": ({"space": "green", "unlock": "I01"}, "places a marker on the Promotion action (green cube), "
                                                          "unlocking it with Reserved Action Unlock (I01)"),
    "pass_marker": ({}, "passes with a marker and takes 1 money"),
    "hire_performer": ({"card": "P03"}, "hires the Mentalist (P03, Magician) from the performer row"),
    "hire_helper": ({"card": "H07"}, "hires the Agent (yellow/green; H07) from the helper row"),
    "decline": ({}, "declines the hire: the marker comes back with no effect"),
    "place_cube": ({"performer": "P01", "level": "good", "colour": "red"},
                   "places a red cube on the good level of the Illusionist (P01)"),
    "exchange_cube": ({"helper": "H11", "give": "white", "take": "blue"},
                      "uses the Personal Secretary (white; H11) to swap a white cube for a blue cube"),
    "done_sharing": ({}, "finishes sharing"),
    "deposit": ({"amount": 3}, "puts 3 money on the Bank Clerk"),
    "return_organiser": ({"returned": False}, "keeps the Show Organiser"),
    "cast_vote": ({"postpone": True}, "votes to postpone the performance"),
    "play_double_vote": ({"play": True}, "plays a Double Vote card: the vote counts twice"),
    "perform": ({"card": "P02"}, "sends the Escape Artist (P02, Magician) into the ring"),
    "choose_dazzling": ({"flip": True}, "flips the Escape Artist (P02) for its flip fame"),
    "take_reward_cube": ({"colour": "yellow"}, "takes a yellow cube as a reward"),
    "keep_investment": ({"index": 1}, "keeps the second investment card looked at; the others go under the deck"),
    "take_trailer": ({"performer": "P02", "shared_by": None}, "pays for a trailer and puts it on the Escape "
                                                                "Artist (P02)"),
    "pay_cubes": ({"cubes": ["blue"]}, "pays a blue cube for the reward"),
    "skip_wage": ({"card": "H03"}, "skips the wage of the Brass Band (H03) this performance"),
    "decline_reward": ({}, "declines the reward"),
    "play_longer_applause": ({"card": "I08"}, "plays Longer Applause (Magician; I08)"),
    "done_applause": ({}, "plays no more Longer Applause cards"),
    "play_investment": ({"card": "I05", "colours": [], "performer": "P02", "shared_by": None},
                        "plays Fire a Performer (I05), firing the Escape Artist (P02)"),
    "discard_investment": ({"card": "I13"}, "discards Helper Bonus (I13) down to the hand limit"),
}
"""One example of every move type, and its sentence for seat 1 (bob)."""


def test_every_move_type_has_its_own_sentence() -> None:
    check_examples("drum-roll", DrumRollMove, EXAMPLES)


def test_handpicked_sentences_of_the_match(played: Played) -> None:
    said = played.said["spectator"]
    marker = played.first("spectator", lambda e: move_of(e).get("type") == "place_marker"
                          and move_of(e).get("space") == "investment")
    who = seat_label(played.summary, marker["payload"]["seat"])
    assert said[marker["seq"]] == f"{who} places a marker on the Investment space"
    hire = played.first("spectator", lambda e: move_of(e).get("type") == "hire_performer")
    card = C.performer(move_of(hire)["card"])
    kind = next(t.name for t in C.performer_types if t.id == card.type)
    who = seat_label(played.summary, hire["payload"]["seat"])
    assert said[hire["seq"]] == f"{who} hires the {card.name} ({card.id}, {kind}) from the performer row"
    start = played.first("spectator", lambda e: (e.get("payload") or {}).get("kind") == "start player")
    seat = start["payload"]["outcome"]
    assert said[start["seq"]] == f"{seat_label(played.summary, seat)} is the start player"
    regions = [e for e in played.logs["spectator"] if (e.get("payload") or {}).get("kind") == "region token drawn"]
    assert [said[e["seq"]] for e in regions] == [
        f"{seat_label(played.summary, seat)} draws the {C.region(e['payload']['outcome']).name} region token"
        for seat, e in enumerate(regions)]  # the setup draws a region for each seat in turn (DR-2.8)


def test_hidden_draws_name_no_card(played: Played) -> None:
    arbiter = {entry["seq"]: entry for entry in played.logs["arbiter"]}
    hidden = 0
    for viewer in ("spectator", "seat:0"):
        for entry in played.logs[viewer]:
            if entry["kind"] != "chance" or not entry["payload"].get("hidden"):
                continue
            hidden += 1
            card = str(arbiter[entry["seq"]]["payload"]["outcome"])
            sentence = played.said[viewer][entry["seq"]]
            names = [item.name for item in C.performers if item.id == card] + \
                [item.name for item in C.investments if item.id == card]
            assert card not in sentence and not any(name in sentence for name in names), sentence
            assert "face down" in sentence
            assert card in played.said["arbiter"][entry["seq"]]  # the arbiter is told which card
    assert hidden > 10  # the opening draft and the investment draws


def test_a_private_choice_is_told_as_the_decision_it_is_without_its_answer(
        played: Played, tmp_path: Path) -> None:
    run = played.run
    match_id = run.new("drum-roll", "ann", "bob")
    run("play", match_id, "--watch", "-q", "--max-moves", "1")  # ann keeps a performer, bob not yet
    source = LocalSource(data_dir=str(run.data_dir))
    summary = source.summary(match_id)
    spectator = source.log(match_id, Viewer.parse("spectator"))
    kept = spectator[-1]
    assert kept["kind"] == "move" and kept["payload"].get("private")
    said = narrate_log(summary, spectator, {})[kept["seq"]][0]
    assert said == "seat 0 (ann) keeps one of the two performers drawn, face down (shown when every seat has chosen)"
    own = source.log(match_id, Viewer.parse("seat:0"))
    card = own[-1]["payload"]["move"]["card"]
    assert card not in said and C.performer(card).name in narrate_log(summary, own, {})[kept["seq"]][0]
    drawn = [e for e in spectator if e["kind"] == "chance" and e["payload"].get("hidden")]
    assert [narrate_log(summary, spectator, {})[e["seq"]][0] for e in drawn] == \
        ["seat 0 (ann) draws a performer face down for the opening draft (only that seat sees it)"] * 2 + \
        ["seat 1 (bob) draws a performer face down for the opening draft (only that seat sees it)"] * 2


def test_describe_changes_agrees_with_the_views(played: Played) -> None:
    viewer = Viewer.parse("spectator")
    moves = [e["seq"] for e in played.logs["spectator"] if e["kind"] in ("move", "chance")]
    checked = 0
    for seq in moves[::7]:
        before = played.source.state(played.match_id, viewer, seq - 1)
        after = played.source.state(played.match_id, viewer, seq)
        described = describe_changes(played.summary, before, after)
        assert described is not None
        lines = [text.plain.strip() for text in described]
        for seat, (was, now) in enumerate(zip(before["state"]["players"], after["state"]["players"], strict=True)):
            who = seat_label(played.summary, seat)
            for key, what in (("money", "money"), ("fame", "fame")):
                a, b = was[key], now[key]
                found = lines_starting(lines, f"~ {who}: {what} ")
                assert found == ([f"~ {who}: {what} {a} → {b} ({b - a:+d})"] if a != b else []), (seq, lines)
            for card in {p["card"] for p in now["performers"]} - {p["card"] for p in was["performers"]}:
                assert f"+ the {C.performer(card).name} ({card}) joins {who}'s circus" in lines, (seq, lines)
            supply = lines_starting(lines, f"~ {who}'s cube supply: ")
            deltas = {c: n - was["cubes"].get(c, 0) for c, n in now["cubes"].items() if n != was["cubes"].get(c, 0)}
            assert supply == ([f"~ {who}'s cube supply: " + ", ".join(f"{c} {d:+d}" for c, d in deltas.items())]
                              if deltas else []), (seq, lines)
        checked += 1
    assert checked > 20
    assert describe_changes(played.summary, {"state": {}}, {"state": {"players": "?"}}) is None


def test_the_log_and_step_commands_read_in_words(played: Played) -> None:
    out = played.run("log", played.match_id).stdout
    assert "places a marker on" in out and "plays place_marker" not in out and "space=" not in out
    stepped = played.run("step", played.match_id, "--batch", "--from", "20", "--to", "40").stdout
    assert "markers to place" in stepped and "/state/" not in stepped  # the game's words, not JSON paths
