"""Whole bot matches through the kernel driver at every variant and player count."""

from __future__ import annotations

import random

import pytest

from domain.games.carcassonne.bots import TokenOdds
from domain.games.carcassonne.knowledge import completions, token_face_down, unrevealed_tokens
from domain.games.carcassonne.state import CarcassonneState
from domain.kernel.chance import derive_outcome
from domain.kernel.driver import play
from domain.kernel.registry import get_game
from domain.kernel.viewers import Viewer

from .helpers import RULES, config

CASES = [(variant, seats) for variant, info in RULES.variants.items()
         for seats in range(info.min_seats, info.max_seats + 1)]


def test_registered() -> None:
    assert get_game("carcassonne").name == "carcassonne"
    assert set(RULES.bots()) >= {"random", "greedy"}


@pytest.mark.parametrize(("variant", "seats"), CASES)
def test_random_bots_finish(variant: str, seats: int) -> None:
    """CB-6.1: the match ends when the stack is empty, within max_events, with ranks."""
    cfg = config(seats, variant)
    match = play(RULES, cfg, seed=seats * 31 + len(variant))
    state = match.state
    assert state.phase == "over" and state.tiles_left() == 0
    assert len(match.steps) <= RULES.max_events(cfg)
    placed_tiles = len(state.board) - 1
    assert placed_tiles + len(state.discarded) == sum(
        t.count - t.start_copies for t in state.catalog.components.tiles
        if t.kind == "base" or (t.kind == "circus" and state.parts.circus)
        or (t.kind == "acrobat" and state.parts.acrobats))
    result = RULES.result(state, RULES.score(state))
    assert min(result.ranks) == 1


@pytest.mark.parametrize("seats", [2, 4, 6])
def test_greedy_bots_finish_and_beat_random(seats: int) -> None:
    """The greedy bot plays whole matches; against random bots it scores more (fixed seeds)."""
    greedy = RULES.bots()["greedy"]
    wins = 0
    for seed in range(2):
        match = play(RULES, config(seats, "big-top"), seed=seed, bots={0: greedy})
        totals = RULES.score(match.state).totals()
        wins += totals[0] == max(totals)
    assert wins >= 1


@pytest.mark.slow
@pytest.mark.parametrize(("variant", "seats"), CASES)
def test_greedy_and_random_many_seeds(variant: str, seats: int) -> None:
    """Heavier run: greedy against random bots over several seeds in every variant and seat count;
    every match ends with non-negative totals."""
    greedy = RULES.bots()["greedy"]
    for seed in range(5):
        match = play(RULES, config(seats, variant), seed=seed, bots={0: greedy})
        assert match.state.phase == "over"
        assert min(RULES.score(match.state).totals()) >= 0


# ---- the greedy bot decides from its seat's view only (BT-3.7) ----------------------------------


def circus_turns(seats: int, seed: int) -> list[CarcassonneState]:
    """Decision points of a random match where the face-down token could matter: the turn's tile
    is a circus tile while a token lies under the Big Top (BT-4.1), or it is the last tile (BT-8.1)."""
    cfg = config(seats, "big-top")
    rng = random.Random(seed)
    state = RULES.setup(cfg)
    found = []
    for step in range(RULES.max_events(cfg) + 1):
        decision = RULES.decision(state)
        if decision.over:
            return found
        if decision.chance is not None:
            state = RULES.resolve(state, derive_outcome(f"{seed:064x}", "bots", [], step, decision.chance).outcome)
            continue
        tile = state.current_tile if state.placed is None else state.board[state.placed].type_id
        if token_face_down(state) and (state.catalog.kinds[tile] == "circus" or not state.tiles_left()):
            found.append(state)
        state = RULES.apply(state, state.seat, RULES.random_bot(state, state.seat, rng))
    raise AssertionError("match did not end within max_events")


@pytest.mark.parametrize("seats", [2, 5])
def test_bt_3_7_greedy_bot_moves_the_same_whatever_the_face_down_token(seats: int) -> None:
    """BT-3.7: the token under the Big Top is unknown to every seat, so the greedy bot's move
    (same generator seed) is the same in every state its seat cannot tell apart; spectators
    cannot read the token from its moves either."""
    greedy = RULES.bots()["greedy"]
    states = circus_turns(seats, seed=seats)[:12]
    assert len(states) == 12
    for index, state in enumerate(states):
        chosen = greedy(state, state.seat, random.Random(index))
        for world, _ in completions(state):
            assert greedy(world, world.seat, random.Random(index)) == chosen


def test_bt_3_7_completions_are_what_the_seats_see() -> None:
    """Each completion looks the same to every seat and spectator; the real state is one of them;
    the weights are the unrevealed copies (BT-1.2 less the revealed), all but one in the stack."""
    viewers = [Viewer.spectator(), Viewer.of_seat(0), Viewer.of_seat(1)]
    for state in circus_turns(2, seed=11)[:6]:
        worlds = completions(state)
        pool = unrevealed_tokens(state)
        assert sum(weight for _, weight in worlds) == sum(pool.values()) == state.tokens_left() + 1
        assert (state.big_top_token, state.tokens) in [(w.big_top_token, w.tokens) for w, _ in worlds]
        for world, _ in worlds:
            for viewer in viewers:
                assert RULES.view(world, viewer) == RULES.view(state, viewer)


def test_bt_4_4_expected_gain_counts_circus_lines_at_the_expected_token_value() -> None:
    """BT-4.4 (value x figures): the greedy bot's one-world shortcut equals the gain averaged over
    every completion, weighted by copies, for every figure move after a circus tile."""
    checked = 0
    for state in circus_turns(3, seed=5):
        if state.phase != "figure":
            continue
        worlds = completions(state)
        odds = TokenOdds.of(state)
        for move in RULES.legal_moves(state, state.seat):
            weighted = sum(weight * sum(line.points for line in RULES.apply(world, world.seat, move).lines[
                len(world.lines):] if line.seat == world.seat) for world, weight in worlds)
            assert odds.scaled_gain(worlds[0][0], RULES.apply(worlds[0][0], state.seat, move), state.seat) == weighted
            checked += 1
    assert checked
