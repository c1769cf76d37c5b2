"""Drum Roll's terminal panel, drawn from views of states reached by random play (2, 3 and 4 seats:
right after the setup, and in the middle of a later preparation round) and of states changed by
hand (flips, trailers, a deposit, a vote): at most 100 columns, the numbers it should show, and
nothing hidden (a spectator's panel names no card of a hand or a deck). The renderer is called
directly through `render_state` with states from the game's own test builders, so a test can
build any table it needs."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from rich.console import Console

from domain.games.drum_roll import RULESET
from domain.games.drum_roll.state import HandCard, State
from domain.kernel.values import evolve
from domain.kernel.viewers import Viewer
from replay_cli.render import render_state
from replay_cli.render.drum_roll import level_marks
from tests.games.drum_roll.builders import config

NAMES = ("ann", "bob", "cy", "di")


def _summary(seats: int) -> dict[str, Any]:
    return {"game": "drum-roll", "variant": "standard", "match_id": "dr123456-aaaa", "version": 80,
            "status": "active", "options": {}, "seats": [{"seat": s, "player": NAMES[s]} for s in range(seats)]}


def _played(seats: int, seed: int, stop: Any) -> State:
    """Random play from the setup until `stop(state)` holds at a seat's decision."""
    rng = random.Random(seed)
    state = RULESET.setup(config(seats))
    for _ in range(RULESET.max_events(state.config)):
        decision = RULESET.decision(state)
        assert not decision.over, "the match ended before the state wanted"
        if decision.chance is not None:
            spec = decision.chance
            state = RULESET.resolve(state, spec.pick(rng.randrange(spec.total_weight())))
            continue
        if stop(state):
            return state
        seat = decision.seats[0]
        state = RULESET.apply(state, seat, rng.choice(list(RULESET.legal_moves(state, seat))))
    raise AssertionError("never reached")


def set_up(seats: int) -> State:
    """The table when the first marker of the first round is to be placed."""
    return _played(seats, 7, lambda s: s.round == 1 and s.agenda[0].kind == "place_marker")


def mid_game(seats: int) -> State:
    """Round 3's action phase with markers placed, each seat holding an investment card."""
    state = _played(seats, 11, lambda s: s.round == 3 and s.agenda[0].kind == "place_marker"
                    and len(s.placements()) >= 2)
    deck = list(state.investment_deck)
    for seat in range(seats):
        card = deck.pop(0)
        state = state.with_player(seat, hand=(*state.players[seat].hand, HandCard(card)))
    return evolve(state, investment_deck=tuple(deck))


def shown(state: State, viewer: str, width: int = 160) -> str:
    """The panel as `viewer` sees it, printed without colour (piped output is laid out 160 wide)."""
    decision = RULESET.decision(state)
    viewed = {"seq": 80, "status": "active", "decision": {"seats": list(decision.seats), "prompt": decision.prompt},
              "scores": [p.fame for p in state.players], "end": None,
              "state": RULESET.view(state, Viewer.parse(viewer))}
    console = Console(width=width, no_color=True, record=True, file=open("/dev/null", "w"))  # noqa: SIM115
    for item in render_state(_summary(state.seats), viewed, viewer):
        console.print(item)
    return "\n".join(line.rstrip() for line in console.export_text().splitlines())


def flat(text: str) -> str:
    """The panel's words in one line: panel borders dropped, wrapped lines joined, spaces collapsed."""
    return re.sub(r"\s+", " ", re.sub(r"[│╭╮╰╯─]", " ", text))


STATES = [pytest.param(build, seats, id=f"{build.__name__}-{seats}") for build in (set_up, mid_game)
          for seats in (2, 3, 4)]


@pytest.mark.parametrize(("build", "seats"), STATES)
def test_the_panel_fits_in_100_columns_for_every_viewer(build: Any, seats: int) -> None:
    state = build(seats)
    for viewer in ("seat:0", "spectator", "arbiter"):
        for width in (160, 100):
            text = shown(state, viewer, width)
            assert "Performer row" in text, text  # Drum Roll's own panel, not the generic fallback
            assert max(len(line) for line in text.splitlines()) <= 100


@pytest.mark.parametrize(("build", "seats"), STATES)
def test_dr_0_numbers_of_the_table_and_every_circus(build: Any, seats: int) -> None:
    state = build(seats)
    text = shown(state, "seat:0")
    components = state.components
    assert f"performance {state.performance} of {components.constants.performances}" in text
    assert f"preparation round {state.round}" in text
    assert f"start player: seat {state.start_player} ({NAMES[state.start_player or 0]})" in text
    supply = ", ".join(f"{colour} {state.cubes[colour]}" for colour in components.colours())
    assert f"general supply: {supply} · discount tokens {state.discounts} · trailers {state.trailers}" in text
    assert f"decks: performers {len(state.performer_deck)}, helpers {len(state.helper_deck)}, " \
           f"investments {len(state.investment_deck)}" in text
    for row_card in state.performer_row:  # DR-0.9: the effective cost, the printed one beside it
        performer = components.performer(row_card.card)
        cost = max(performer.hire_cost - row_card.discounts, 0)
        printed = f" ({performer.hire_cost})" if row_card.discounts else ""
        assert re.search(rf"{row_card.card} {re.escape(performer.name)} +\S.*? {cost}{re.escape(printed)} ", text)
    for row_card in state.helper_row:
        assert f"{row_card.card} {components.helper(row_card.card).name}" in text
    for seat, player in enumerate(state.players):
        region = components.region(player.region or "").name
        assert f"seat {seat} ({NAMES[seat]}) · fame {player.fame} · ${player.money} · {region}" in text
        cubes = ", ".join(f"{colour} {player.cubes.get(colour, 0)}" for colour in components.colours())
        assert f"cubes: {cubes}" in text
        assert f"markers to place {player.markers}" in text
        for hired in player.performers:
            assert f"{hired.card} {components.performer(hired.card).name}" in text
        for helper in player.helpers:
            assert f"{helper} {components.helper(helper).name}" in text
    own = state.players[0].hand
    if own:
        assert "investment hand: " + "; ".join(f"{c.card} {components.investment(c.card).name}" for c in own) \
            in flat(text)
    for seat in range(1, seats):
        count = len(state.players[seat].hand)
        assert f"investment hand: {count} card{'s' if count != 1 else ''} face down" in text or not count


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_dr_4_4_markers_placed_this_round_in_placement_order(seats: int) -> None:
    state = mid_game(seats)
    text = shown(state, "spectator")
    words = {"cube": "", "ticket": "ticket sale", "investment": "investment", "hire_performer": "hire performer",
             "hire_helper": "hire helper"}
    expected = " · ".join(f"{step['colour'] + ' cube' if step.kind == 'cube' else words[step.kind]} seat {step.seat}"
                          for step in state.placements())
    assert f"markers placed this round: {expected}" in text


@pytest.mark.parametrize(("build", "seats"), STATES)
def test_hidden_information_a_spectator_sees_no_hand_and_no_deck(build: Any, seats: int) -> None:
    state = build(seats)
    components = state.components
    text = shown(state, "spectator")
    public = {components.performer(c).name for p in state.players for c in (h.card for h in p.performers)}
    public |= {components.performer(c.card).name for c in state.performer_row}
    public |= {components.performer(c).name for c in state.performer_discard}
    public |= {components.helper(c).name for c in (*state.helper_discard, *(c.card for c in state.helper_row))}
    public |= {components.helper(c).name for p in state.players for c in p.helpers}
    hands = [held.card for player in state.players for held in player.hand]
    assert hands or build is set_up
    for card in hands:
        assert not re.search(rf"\b{card}\b", text), card
        assert components.investment(card).name not in text, card
    for deck, lookup in ((state.performer_deck, components.performer), (state.helper_deck, components.helper),
                         (state.investment_deck, components.investment)):
        for card in deck:
            assert not re.search(rf"\b{card}\b", text), card
            name = lookup(card).name
            assert name in public or name not in text, card
    for seat in range(seats):
        count = len(state.players[seat].hand)
        assert f"investment hand: {count} card{'s' if count != 1 else ''} face down" in text or not count
    arbiter = shown(state, "arbiter")
    assert all(re.search(rf"\b{card}\b", arbiter) for card in (*hands, *state.investment_deck))


def test_dr_8_3_dr_17_7_dr_20_cubes_by_level_flips_trailers_and_the_bank_clerk() -> None:
    state = mid_game(3)
    components = state.components
    first, second = state.players[0].performers[:2]
    needs = [level.cubes[0] for level in components.performer(first.card).levels]
    flipped = evolve(first, cubes=((needs[0],), (), ()), flipped=1, trailer=True, level=3, performed=1)
    sharing = evolve(second, shares_trailer_of=first.card, level=1, performed=1)
    state = state.with_player(0, performers=(flipped, sharing, *state.players[0].performers[2:]), deposit=4)
    text = shown(state, "spectator")
    line = next(line for line in text.splitlines() if f"{first.card} {components.performer(first.card).name}" in line)
    assert f"poor ■{needs[0]}  good □{needs[1]}  outstanding □{needs[2]}" in line
    words = flat(text)
    name = components.performer(first.card).name
    kind = next(t.name for t in components.performer_types if t.id == components.performer(first.card).type)
    assert f"{first.card} {name} [{kind}] poor ■{needs[0]} good □{needs[1]} outstanding □{needs[2]} " \
           "⚑ flipped (performance 1), trailer, last: flip (perf. 1)" in words
    assert f"shares {first.card}'s trailer, last: poor (perf. 1)" in words
    assert "(+$4 on the bank clerk)" in text and "+ $4 deposited" in text


def test_level_marks_any_colour_and_cubes_beyond_the_need() -> None:
    assert level_marks(["red"], []) == [("□red", "dim")]
    assert [mark for mark, _ in level_marks(["any", "red"], ["red", "blue"])] == ["■blue", "■red"]
    assert [mark for mark, _ in level_marks(["red"], ["red", "blue"])] == ["■red", "+blue"]


def test_dr_10_2_ballots_show_as_cast_until_all_are_in() -> None:
    state = evolve(mid_game(3), votes=("postpone", None, "perform"), vote_round=5, doubled=(False, False, True))
    mine = shown(state, "seat:0")
    assert "vote after round 5: seat 0 (ann) postpone · seat 1 (bob) not yet voted · seat 2 (cy) cast" in mine
    assert "perform" not in mine.split("vote after round 5:")[1].splitlines()[0]
    everyone = shown(evolve(state, votes=("postpone", "perform", "perform")), "spectator")
    assert "seat 0 (ann) postpone · seat 1 (bob) perform · seat 2 (cy) perform (doubled)" in everyone


def test_a_view_of_another_component_set_falls_back_to_the_generic_panels() -> None:
    state = set_up(2)
    viewed = {"seq": 1, "status": "active", "decision": {}, "scores": [0, 0],
              "state": {**RULESET.view(state, Viewer.spectator()), "components": "transcribed"}}
    summary = {**_summary(2), "components": {"hash": "0" * 64}}
    console = Console(width=100, no_color=True, record=True, file=open("/dev/null", "w"))  # noqa: SIM115
    for item in render_state(summary, viewed, "spectator"):
        console.print(item)
    assert "Performer row" not in console.export_text()
