"""What several benchmark suites share: a whole bot match recorded through the application, and
timing its verification in events per second."""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

from domain.application import Ringside
from domain.kernel.clock import FixedStepClock
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
