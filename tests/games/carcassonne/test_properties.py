"""Property tests over many seeds: whole random matches checked step by step."""

from __future__ import annotations

import json
import random
import re
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.games.carcassonne.codec import encode
from domain.games.carcassonne.moves import Pass, PlaceAcrobat, PlaceFollower, PlaceTile, ScorePyramid
from domain.kernel.chance import derive_outcome
from domain.kernel.errors import IllegalMoveError
from domain.kernel.viewers import Viewer

from .helpers import RULES, config

RULE = re.compile(r"^(CB|BT)-\d+\.\d+$")
CASES = [(variant, seats) for variant, info in RULES.variants.items()
         for seats in range(info.min_seats, info.max_seats + 1)]


def walk(variant: str, seats: int, seed: int, check_every: int = 1,
         record: list[str] | None = None) -> list[tuple[Any, Any]]:
    """Play a random match; return (state, next state) pairs of every `check_every`-th step.
    With `record`, each state's encoding is appended as soon as the state exists."""
    cfg = config(seats, variant)
    rng = random.Random(seed)
    state = RULES.setup(cfg)
    pairs = []
    for step in range(RULES.max_events(cfg) + 1):
        if record is not None:
            record.append(json.dumps(encode(state), sort_keys=True))
        decision = RULES.decision(state)
        if decision.over:
            pairs.append((state, state))
            return pairs
        if decision.chance is not None:
            after = RULES.resolve(state, derive_outcome(f"{seed:064x}", "p", [], step, decision.chance).outcome)
        else:
            moves = RULES.legal_moves(state, decision.seats[0])
            after = RULES.apply(state, decision.seats[0], moves[rng.randrange(len(moves))])
        if step % check_every == 0:
            pairs.append((state, after))
        state = after
    raise AssertionError("match did not end within max_events")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=st.sampled_from(CASES), seed=st.integers(0, 2**31))
def test_matches_end_with_explained_non_negative_scores(case: tuple[str, int], seed: int) -> None:
    """Every match ends (CB-6.1); every line has a rule ID and positive points; BT-7.9: with this
    expansion alone a ringmaster bonus is at most 9 x 2 = 18; followers never exceed the supply."""
    variant, seats = case
    final = walk(variant, seats, seed, check_every=50)[-1][1]
    assert RULES.decision(final).over
    sheet = RULES.score(final)
    assert all(total >= 0 for total in sheet.totals())
    for line in sheet.lines:
        assert RULE.match(line.rule) and line.points > 0 and line.refs
        if line.category == "ringmaster":
            assert line.points <= 18
    per_seat = [sum(1 for f in final.followers.values() if f.seat == s and f.figure == "meeple")
                + sum(p.count(s) for p in final.pyramids.values()) for s in range(seats)]
    assert [per_seat[s] + final.supply[s] for s in range(seats)] == [7] * seats


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), seats=st.integers(2, 6))
def test_apply_and_resolve_never_mutate_and_states_round_trip(seed: int, seats: int) -> None:
    """The kernel shares states: no later transition changes an earlier state; encode/decode is
    exact."""
    cfg = config(seats, "big-top")
    at_the_time: list[str] = []
    pairs = walk("big-top", seats, seed, check_every=1, record=at_the_time)
    for index, (_before, after) in enumerate(pairs):
        if index % 4 == 0:
            data = RULES.encode_state(after)
            assert RULES.encode_state(RULES.decode_state(json.loads(json.dumps(data)), cfg)) == data
    # Each state still encodes as it did before its successors were computed.
    assert [json.dumps(encode(before), sort_keys=True) for before, _ in pairs] == at_the_time[:len(pairs)]


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), seats=st.integers(2, 6))
def test_views_never_reveal_the_face_down_token(seed: int, seats: int) -> None:
    """BT-3.7, BT-2.3: no seat (the placer included) and no spectator can tell which token lies
    under the Big Top, nor which tokens are left; the arbiter can. No view lists a stack order."""
    blind = [Viewer.spectator(), *(Viewer.of_seat(s) for s in range(seats))]
    checked = 0
    for state, _ in walk("big-top", seats, seed, check_every=2):
        if state.big_top_token is None:
            continue
        others = [a for a in state.catalog.token_values if a != state.big_top_token]
        swapped_animal = others[checked % len(others)]
        tokens = dict(state.tokens)
        tokens[state.big_top_token] = tokens.get(state.big_top_token, 0) + 1
        if tokens.get(swapped_animal, 0) == 0:
            continue
        tokens[swapped_animal] -= 1
        swapped = replace(state, big_top_token=swapped_animal, tokens=tokens)
        for viewer in blind:
            view = RULES.view(state, viewer)
            assert view == RULES.view(swapped, viewer)
            assert "tokens_left_by_animal" not in view and "stack" not in view
        assert RULES.view(state, Viewer.arbiter())["big_top"]["token"] == state.big_top_token
        checked += 1


@pytest.mark.parametrize(("variant", "seats"), CASES)
def test_legal_moves_all_validate(variant: str, seats: int) -> None:
    """Every listed move is accepted (contract), at every step of one match per case."""
    for state, _ in walk(variant, seats, seats * 7919, check_every=5):
        if state.phase in ("place", "figure"):
            for move in RULES.legal_moves(state, state.seat):
                RULES.validate(state, state.seat, move)


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=st.sampled_from(CASES), seed=st.integers(0, 2**31))
def test_many_matches_end_with_explained_scores(case: tuple[str, int], seed: int) -> None:
    """The termination and score checks above, over many more seeds."""
    test_matches_end_with_explained_non_negative_scores.hypothesis.inner_test(case, seed)  # type: ignore[attr-defined]


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), stop=st.integers(5, 80))
def test_validate_accepts_exactly_the_listed_placements(seed: int, stop: int) -> None:
    """CB-3.1, CB-3.2, CB-3.4: over a window around the map, every position x rotation is accepted
    by validate exactly when legal_moves lists it; refusals name a CB-3 rule."""
    places = [s for s, _ in walk("big-top", 3, seed) if s.phase == "place"]
    state = places[min(stop, len(places) - 1)]
    listed = set(RULES.legal_moves(state, state.seat))
    xs = [x for x, _ in state.board]
    ys = [y for _, y in state.board]
    for x in range(min(xs) - 2, max(xs) + 3):
        for y in range(min(ys) - 2, max(ys) + 3):
            for rotation in range(4):
                move = PlaceTile(x=x, y=y, rotation=rotation)
                try:
                    RULES.validate(state, state.seat, move)
                except IllegalMoveError as error:
                    assert move not in listed
                    assert error.rule in ("CB-3.1", "CB-3.2", "CB-3.4")
                else:
                    assert move in listed


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), stop=st.integers(5, 80))
def test_validate_accepts_exactly_the_listed_figure_moves(seed: int, stop: int) -> None:
    """CB-4.3, CB-4.4, BT-5.3, BT-5.6, BT-6.1, BT-7.1: every follower, acrobat and pyramid move
    one could name in a figure step is accepted exactly when legal_moves lists it."""
    figure_steps = [s for s, _ in walk("big-top", 2, seed) if s.phase == "figure"]
    state = figure_steps[min(stop, len(figure_steps) - 1)]
    listed = set(RULES.legal_moves(state, state.seat))
    assert state.placed is not None
    candidates: list[Any] = [Pass()]
    for segment in [*state.board[state.placed].by_id, "circus", "acrobat1", "x9"]:
        for figure in ("meeple", "ringmaster"):
            candidates.append(PlaceFollower(segment=segment, figure=figure))
    px, py = state.placed
    for x in range(px - 2, px + 3):
        for y in range(py - 2, py + 3):
            candidates += [PlaceAcrobat(x=x, y=y), PlaceAcrobat(x=x, y=y, figure="ringmaster")]
    candidates += [ScorePyramid(x=x, y=y) for x, y in [*state.pyramids, (px, py)]]
    for move in candidates:
        try:
            RULES.validate(state, state.seat, move)
        except IllegalMoveError as error:
            assert move not in listed and RULE.match(error.rule)
        else:
            assert move in listed
