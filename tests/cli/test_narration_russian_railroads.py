"""Russian Railroads read as a commentator (issue 17): every move and chance draw of a bot-played
match is told in the game's words for a spectator, a seat and the arbiter, never as the kernel's
generic `plays type key=value`; the final bonus cards removed unseen and the one kept face down
name no card; a few sentences are checked word for word (the turn-order cards dealt seat by seat,
the turn-order worker's reuse); and what a step changed (`describe_changes`) agrees with the two
views it compares.

The match is played once per module through the CLI (`simulate` with a seed, so every run reads the
same match) into a store of its own, and read back through the store (`LocalSource`), as `ringside
log` and `ringside step` read it."""

from __future__ import annotations

import re
from typing import Any
from uuid import UUID

import pytest

from domain.games.russian_railroads.components import default_components
from domain.games.russian_railroads.moves import RussianRailroadsMove
from domain.kernel.redaction import redact
from domain.kernel.viewers import Viewer
from replay_cli.render import describe_changes
from replay_cli.render.common import seat_label
from replay_cli.render.narrate import Narrator, narrate_log

from .narrated import Played, check_examples, lines_starting, move_of, play, told_in_words

C = default_components()


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Played:
    return play(tmp_path_factory, "russian-railroads", seed=4)


def test_every_move_and_draw_is_told_in_russian_railroads_words(played: Played) -> None:
    told = told_in_words(played)
    assert {"place", "pass", "advance", "place_locomotive", "take_factory", "draft_bonus", "take_bonus_card"} <= told


EXAMPLES: dict[str, tuple[dict[str, Any], str]] = {
    "place": ({"space": "black_3", "workers": 2, "temporary": 0, "black": 1, "rubles": 1},
              "puts 2 workers, the black worker and 1 ruble on the “3 black advancements” space"),
    "pass": ({}, "passes for the rest of the round"),
    "advance": ({"railway": "trans_siberian", "colour": "black"},
                "advances the black track on the Trans-Siberian railway"),
    "move_marker": ({"marker": 1}, "moves the second industry marker one place along the industry track"),
    "place_locomotive": ({"railway": "kiev", "slot": 0}, "puts the locomotive on the Kiev railway (locomotive "
                                                          "space 1)"),
    "take_factory": ({"from_pool": True, "value": 4, "replace": 1},
                     "builds factory F3: 2 multipliers from the face-up pool, replacing the factory in factory "
                     "space 2"),
    "next_part": ({"part": "advance:any"}, "chooses an advancement of any track as the next part of the action"),
    "choose_token": ({"token": "T6"}, "takes bonus token T6 (Kiev medal)"),
    "choose_card": ({"card": "C2"}, "takes face-up card C2 (the black worker)"),
    "take_bonus_card": ({"card": "B1"}, "keeps final bonus card B1 (15 VP) face down"),
    "take_bonus_vp": ({}, "takes 10 VP instead of a final bonus card"),
    "repeat": ({"space": "industry_1"}, "repeats the action of the “1 industry advancement” space"),
    "draft_bonus": ({"card": "S3"}, "takes starting bonus card S3 (1 multiplier)"),
    "decline": ({}, "stops the white track's advancements there"),
}
"""One example of every move type, and its sentence for seat 1 (bob)."""


def test_every_move_type_has_its_own_sentence() -> None:
    narrator = check_examples("russian-railroads", RussianRailroadsMove, EXAMPLES)
    hidden = {"seq": 40, "kind": "move", "payload": {"seat": 2, "hidden": True, "private": True,
                                                     "move": {"type": "take_bonus_card"}, "hidden_fields": ["card"]}}
    assert narrator.sentence(hidden) == \
        "seat 2 (cyd) takes a final bonus card and keeps it face down (shown at final scoring)"


def test_the_turn_order_workers_reuse_is_told_as_such() -> None:
    """RR-12.13: once both seats have passed, the worker on the second turn-order space moves first,
    then the one on the first; a decline leaves it there. Outside that, a decline ends the white
    track's advancements (RR-13.3)."""
    narrator = Narrator({"game": "russian-railroads", "seats": [{"seat": 0, "player": "ann"},
                                                               {"seat": 1, "player": "bob"}]})
    moves = [(0, {"type": "place", "space": "turn_order_1", "workers": 1}),
             (1, {"type": "place", "space": "turn_order_2", "workers": 1}),
             (0, {"type": "pass"}), (1, {"type": "pass"}),
             (1, {"type": "place", "space": "rubles", "workers": 1}),
             (0, {"type": "decline"}),
             (0, {"type": "place", "space": "multiplier", "workers": 1}),
             (0, {"type": "decline"})]
    said = [narrator.sentence({"seq": seq, "kind": "move", "payload": {"seat": seat, "move": move}})
            for seq, (seat, move) in enumerate(moves, start=2)]
    assert said[4] == "seat 1 (bob) moves the turn-order worker to the “2 rubles” space and takes that action"
    assert said[5] == "seat 0 (ann) leaves the turn-order worker where it stands"
    assert said[6] == "seat 0 (ann) puts 1 worker on the “1 multiplier” space"  # the next round
    assert said[7] == "seat 0 (ann) stops the white track's advancements there"


def test_handpicked_sentences_of_the_match(played: Played) -> None:
    said = played.said["spectator"]
    log = played.logs["spectator"]
    deals = [e for e in log if (e.get("payload") or {}).get("kind") == "turn-order card"]
    assert [said[e["seq"]] for e in deals] == [
        f"{seat_label(played.summary, seat)} is dealt turn-order card {e['payload']['outcome']}"
        for seat, e in enumerate(deals)]  # RR-2.18: dealt seat by seat
    engineer = next(e for e in log if str((e.get("payload") or {}).get("kind")).startswith("engineer from deck"))
    found = C.engineer(engineer["payload"]["outcome"])
    assert said[engineer["seq"]] == f"engineer {found.id} ({found.action}) comes out from deck {found.deck}"
    advance = played.of("spectator", "advance")[0]
    move = move_of(advance)
    assert said[advance["seq"]] == (f"{seat_label(played.summary, advance['payload']['seat'])} advances the "
                                    f"{move['colour']} track on the {C.railway(move['railway']).name} railway")
    draft = played.of("spectator", "draft_bonus")[0]
    card = C.starting_card(move_of(draft)["card"])
    assert said[draft["seq"]] == \
        f"{seat_label(played.summary, draft['payload']['seat'])} takes starting bonus card {card.id} ({card.label})"


def test_cards_removed_unseen_name_no_card(played: Played) -> None:
    arbiter = {entry["seq"]: entry for entry in played.logs["arbiter"]}
    hidden = 0
    for viewer in ("spectator", "seat:0"):
        for entry in played.logs[viewer]:
            if entry["kind"] != "chance" or not entry["payload"].get("hidden"):
                continue
            hidden += 1
            card = C.bonus_card(str(arbiter[entry["seq"]]["payload"]["outcome"]))
            sentence = played.said[viewer][entry["seq"]]
            assert sentence == "a final bonus card is removed from the game unseen"
            assert card.id in played.said["arbiter"][entry["seq"]]
            assert not re.search(rf"\b{card.id}\b", sentence)
    assert hidden >= 2


def test_a_final_bonus_card_kept_face_down_stays_hidden_until_final_scoring(played: Played) -> None:
    """The log as a spectator read it right after a final bonus card was kept (RR-21.2): the
    kernel's redaction as of that position, which is what `ringside log` showed then."""
    kept = played.of("arbiter", "take_bonus_card")
    assert kept, "the seeded match keeps a final bonus card"
    entry = kept[0]
    app = played.source.app
    uid = UUID(played.match_id)
    fold = app.fold(uid)
    then = [redact(e, fold, Viewer.parse("spectator"), entry["seq"]) for e in app.entries(uid, 1, entry["seq"])]
    assert then[-1]["payload"].get("hidden_fields") == ["card"]
    said = narrate_log(played.summary, then, {})[entry["seq"]][0]
    seat = entry["payload"]["seat"]
    card = move_of(entry)["card"]
    assert said == f"{seat_label(played.summary, seat)} takes a final bonus card and keeps it face down (shown at " \
                   "final scoring)"
    assert card not in said and C.bonus_card(card).label not in said
    assert f"final bonus card {card}" in played.said["spectator"][entry["seq"]]  # revealed at final scoring


def test_describe_changes_agrees_with_the_views(played: Played) -> None:
    viewer = Viewer.parse("spectator")
    steps = [e["seq"] for e in played.logs["spectator"] if e["kind"] in ("move", "chance")]
    checked = 0
    for seq in steps[::5]:
        before = played.source.state(played.match_id, viewer, seq - 1)
        after = played.source.state(played.match_id, viewer, seq)
        described = describe_changes(played.summary, before, after)
        assert described is not None
        lines = [text.plain.strip() for text in described]
        for seat, (was, now) in enumerate(zip(before["state"]["players"], after["state"]["players"], strict=True)):
            who = seat_label(played.summary, seat)
            for key in ("rubles", "workers", "multipliers"):
                a, b = was[key], now[key]
                assert lines_starting(lines, f"~ {who}: {key} ") == ([f"~ {who}: {key} {a} → {b} ({b - a:+d})"]
                                                            if a != b else []), (seq, lines)
            for railway, colours in now["tracks"].items():
                for colour, position in colours.items():
                    old = (was["tracks"].get(railway) or {}).get(colour)
                    if old is not None and old != position:
                        name = C.railway(railway).name
                        assert f"~ {who}: {colour} track on the {name} railway {old} → {position}" in lines
            for engineer in set(now["engineers"]) - set(was["engineers"]):
                assert f"+ {who} gains engineer {engineer} ({C.engineer(engineer).action})" in lines
        old_scores, new_scores = before.get("scores") or [], after.get("scores") or []
        for seat, total in enumerate(new_scores):
            if seat < len(old_scores) and old_scores[seat] != total:
                delta = total - old_scores[seat]
                assert f"~ {seat_label(played.summary, seat)}: {old_scores[seat]} → {total} VP ({delta:+d})" in lines
        checked += 1
    assert checked > 20
    assert describe_changes(played.summary, {"state": {}}, {"state": {"players": []}}) is None


def test_the_log_and_step_commands_read_in_words(played: Played) -> None:
    out = played.run("log", played.match_id).stdout
    assert "advances the black track on" in out and "plays advance" not in out and "railway=" not in out
    stepped = played.run("step", played.match_id, "--batch", "--from", "12", "--to", "30").stdout
    assert "rubles" in stepped and "/state/" not in stepped  # the game's words, not JSON paths
