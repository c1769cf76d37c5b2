"""Play a match entirely in memory through the ruleset contract, without the event store.

Used by bots, tests and benchmarks of a single engine: moves come from bots, chance outcomes are
derived from a seed exactly as in server mode, and every step is returned so callers can check
it. The record-keeping version of the same loop lives in the application.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .canonical import JSON
from .chance import derive_outcome
from .contract import Bot, MatchConfig, Ruleset


@dataclass
class Step:
    kind: str  # "move" or "chance"
    seat: int | None
    data: JSON


@dataclass
class PlayedMatch:
    config: MatchConfig[Any]
    state: Any
    steps: list[Step] = field(default_factory=list)


def make_config(ruleset: Ruleset[Any, Any], seats: int, variant: str | None = None,
                options: Mapping[str, Any] | None = None, components: Any = None) -> MatchConfig[Any]:
    return MatchConfig(
        variant=variant or ruleset.default_variant,
        options=ruleset.parse_options(options),
        seats=seats,
        components=components or ruleset.default_components(),
    )


def play(ruleset: Ruleset[Any, Any], config: MatchConfig[Any], seed: int,
         bots: Mapping[int, Bot] | None = None, max_steps: int | None = None,
         validate: bool = True) -> PlayedMatch:
    """Play to the end with bots (default: uniform random) and seed-derived chance."""
    rng = random.Random(seed)
    chance_seed = f"{seed:064x}"[-64:]
    state = ruleset.setup(config)
    played = PlayedMatch(config, state)
    limit = max_steps if max_steps is not None else ruleset.max_events(config)
    default_bot = ruleset.random_bot
    for index in range(limit + 1):
        decision = ruleset.decision(state)
        if decision.over:
            played.state = state
            return played
        if index == limit:
            break
        if decision.chance is not None:
            outcome = derive_outcome(chance_seed, "driver", [], index, decision.chance).outcome
            state = ruleset.resolve(state, outcome)
            played.steps.append(Step("chance", None, outcome))
            continue
        seat = decision.seats[0]
        bot = (bots or {}).get(seat, default_bot)
        move = bot(state, seat, rng)
        if validate:
            ruleset.validate(state, seat, move)
        state = ruleset.apply(state, seat, move)
        played.steps.append(Step("move", seat, ruleset.dump_move(move)))
    raise RuntimeError(f"{ruleset.name}: match did not end within {limit} events")
