"""Whole matches with bots via the kernel driver, and properties over many seeds.

CT-0.1 (1-5 players), CT-0.2/CT-0.3 (27 weekly rounds), CT-6.2 and CT-15.6 (the game ends after
September's scoring), CT-3.3 (basic and advanced, each with the optional rules), CT-21.1.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.kernel.canonical import digest
from domain.kernel.chance import derive_outcome
from domain.kernel.driver import play as drive
from domain.kernel.viewers import Viewer

from .helpers import R, cfg

MODES = [("basic", n) for n in (2, 3, 4, 5)] + [("advanced", n) for n in (2, 3, 4, 5)] + [
    ("solitaire", 1), ("solitaire-advanced", 1)]
OPTIONS: list[dict[str, Any]] = [
    {}, {"special_characters": True}, {"event_cards": True}, {"simpler": True},
    {"special_characters": True, "event_cards": True},
]


@pytest.mark.parametrize(("variant", "seats"), MODES)
@pytest.mark.parametrize("options", OPTIONS, ids=["plain", "characters", "events", "simpler", "all"])
def test_random_bots_finish(variant: str, seats: int, options: dict[str, Any]) -> None:
    config = cfg(seats, variant, **options)
    match = drive(R, config, seed=seats * 101 + len(options))
    state = match.state
    assert R.decision(state).over
    assert state.week == state.catalog.total_weeks  # CT-0.3: 27 weeks were played
    sheet = R.score(state)
    result = R.result(state, sheet)
    assert len(result.ranks) == seats and min(result.ranks) == 1
    if seats > 1 and not options.get("simpler"):
        assert sheet.totals() == tuple(p.vp for p in state.players)
        assert all(line.rule.startswith("CT-") for line in sheet.lines)


@pytest.mark.parametrize(("variant", "seats"), MODES)
def test_greedy_bots_finish(variant: str, seats: int) -> None:
    greedy = R.bots()["greedy"]
    match = drive(R, cfg(seats, variant), seed=7, bots={s: greedy for s in range(seats)})
    assert R.decision(match.state).over


def invariants(state: Any) -> None:
    """CT-14.1, CT-0.11, CT-0.12, CT-19.3, CT-7.4: talent counters are neither created nor lost (each
    is in the pool, a city, a circus, or a fired group awaiting its city); Special Characters are in
    one place at most; money and VP never go negative; reputation stays in the column; a hand is
    never empty at a turn."""
    catalog = state.catalog
    for kind in catalog.components.talent_types:
        where = state.pool[kind.id] + sum(items.count(kind.id) for items in state.talents.values())
        where += sum(p.count(kind.id) for p in state.players)
        where += sum(task["group"].count(kind.id) for task in state.agenda if task["t"] == "fired_city")
        assert where == kind.counters, kind.id
    characters = [c for p in state.players for c in p.circus if c in catalog.characters]
    characters += list(state.characters.values()) + list(state.reserve)
    assert len(characters) == len(set(characters))
    low, high = catalog.rep_levels[0], catalog.rep_levels[-1]
    for p in state.players:
        assert p.money >= 0 and p.vp >= 0
        assert p.reputation == 0 or low <= p.reputation <= high
    head = state.head()
    if head is not None and head["t"] == "turn":
        assert state.players[head["seat"]].hand


def _walk(variant: str, seats: int, options: dict[str, Any], seed: int, checks: bool) -> None:
    """Play a match checking the contract at every step."""
    config = cfg(seats, variant, **options)
    state = R.setup(config)
    rng = random.Random(seed)
    bots = R.bots()
    for index in range(R.max_events(config) + 1):
        decision = R.decision(state)
        if decision.over:
            return
        before = digest(R.encode_state(state))
        invariants(state)
        if checks:
            encoded = json.loads(json.dumps(R.encode_state(state)))
            assert R.encode_state(R.decode_state(encoded, config)) == encoded
            for viewer in (Viewer.spectator(), Viewer.of_seat(0)):
                seen = R.view(state, viewer)
                assert isinstance(seen["bag"], dict) and isinstance(seen["deck"], dict)
        if decision.chance is not None:
            outcome = derive_outcome(f"{seed:064x}", "m", [], index, decision.chance).outcome
            assert decision.chance.weight_of(outcome) > 0
            nxt = R.resolve(state, outcome)
        else:
            seat = decision.seats[0]
            moves = R.legal_moves(state, seat)
            assert moves
            if checks:
                for move in moves:
                    R.validate(state, seat, move)
                    assert R.parse_move(R.dump_move(move)) == move
            bot = bots["greedy" if seed % 2 else "random"]
            move = bot(state, seat, rng)
            R.validate(state, seat, move)
            nxt = R.apply(state, seat, move)
        assert digest(R.encode_state(state)) == before, "apply/resolve mutated its input"
        state = nxt
    raise AssertionError("max_events exceeded")


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), mode=st.sampled_from(MODES), options=st.sampled_from(OPTIONS))
def test_contract_properties(seed: int, mode: tuple[str, int], options: dict[str, Any]) -> None:
    """Every legal move validates, states round-trip through JSON, inputs are never mutated."""
    _walk(mode[0], mode[1], options, seed, checks=True)


def test_same_seed_same_match() -> None:
    first = drive(R, cfg(4, "basic", event_cards=True), seed=99)
    second = drive(R, cfg(4, "basic", event_cards=True), seed=99)
    assert [s.data for s in first.steps] == [s.data for s in second.steps]
    assert R.state_hash(first.state) == R.state_hash(second.state)


@pytest.mark.parametrize(("variant", "seats"), MODES)
@pytest.mark.parametrize("options", OPTIONS, ids=["plain", "characters", "events", "simpler", "all"])
def test_options_on_and_off_over_seeds(variant: str, seats: int, options: dict[str, Any]) -> None:
    """Every mode x option set over 4 seeds (200 matches in all), random and greedy bots, with the
    invariants and every chosen move validated; the kernel suite covers the default options."""
    for seed in range(1000, 1004):
        _walk(variant, seats, options, seed, checks=False)


@pytest.mark.slow
@pytest.mark.parametrize(("variant", "seats"), MODES)
@pytest.mark.parametrize("options", OPTIONS, ids=["plain", "characters", "events", "simpler", "all"])
def test_many_seeds(variant: str, seats: int, options: dict[str, Any]) -> None:
    """Every mode x option set over 20 seeds (1,000 matches, about ten minutes on one core): the
    `slow` mark alone keeps it out of the default run, so any run that selects it (`-m slow`,
    `-m "slow or not slow"`) plays it."""
    for seed in range(20):
        _walk(variant, seats, options, seed, checks=seed < 3)
