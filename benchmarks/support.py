"""What several benchmark suites share: a whole random-bot match in memory, a mid-game decision
of a given kind, a whole bot match recorded through the application, and timing its verification
in events per second."""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

from domain.application import Ringside
from domain.kernel.clock import FixedStepClock
from domain.kernel.contract import Ruleset
from domain.kernel.driver import make_config, play
from domain.kernel.integrity import ServerKey
from domain.kernel.verification import verify_bundle


def record_bot_match(data_dir: Path, game: str, players: list[str], variant: str, seed: str) -> tuple[str, int]:
    """Play a whole random-bot match through the application; return its bundle and event count."""
    app = Ringside.open(data_dir=data_dir, key=ServerKey.from_seed(b"bench"), clock=FixedStepClock())
    try:
        accepted = app.create_match(game, players, variant=variant, seed=seed)
        match_id = uuid.UUID(accepted.receipt.match_id)
        step = 0
        while app.play_bot(match_id, seed=step):
            step += 1
        return app.export_bundle(match_id), app.fold(match_id).seq
    finally:
        app.close()


def bench_verification(benchmark: Any, bundle: str, events: int) -> None:
    """Time the full verification of a recorded match; report events per second in extra_info."""
    report = benchmark.pedantic(verify_bundle, args=(bundle,), rounds=3, iterations=1)
    assert report.intact and report.events == events
    benchmark.extra_info["events"] = report.events
    if benchmark.stats is not None:  # None when benchmarks only run as smoke tests (--benchmark-disable)
        benchmark.extra_info["events_per_second"] = int(report.events / benchmark.stats.stats.mean)


def bench_whole_match(benchmark: Any, rules: Ruleset[Any, Any], seats: int, variant: str = "standard") -> None:
    """Time whole random-bot matches in memory (kernel driver), a new seed each round."""
    config = make_config(rules, seats, variant)
    counter = iter(range(10**9))
    played = benchmark.pedantic(lambda: play(rules, config, seed=next(counter)), rounds=5, iterations=1)
    assert rules.decision(played.state).over
    benchmark.extra_info["steps"] = len(played.steps)


def mid_game(rules: Ruleset[Any, Any], seats: int, seed: int, kind: str, variant: str = "standard") -> Any:
    """A state of a random-bot match in round 3 or later whose head is a decision of `kind` (a
    game whose state counts its rounds in `round`)."""
    config = make_config(rules, seats, variant)
    played = play(rules, config, seed=seed)
    state = rules.setup(config)
    for step in played.steps:
        state = (rules.resolve(state, step.data) if step.kind == "chance"
                 else rules.apply(state, step.seat or 0, rules.parse_move(step.data)))
        if state.round >= 3 and state.agenda and state.agenda[0].kind == kind and not rules.decision(state).chance:
            return state
    raise AssertionError(f"no {kind} decision in round 3 or later")
