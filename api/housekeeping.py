"""Background upkeep of a serving worker: forgetting old answers to idempotency keys.

With `RINGSIDE_ANSWER_RETENTION` set (e.g. `7d`), each worker prunes the answers older than that,
at start and then every hour (or every half retention, if that is shorter). Several workers
pruning at once delete the same rows: harmless. Without the setting, answers are kept until
`ringside prune-answers` forgets them.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import timedelta

from domain.application import Ringside
from domain.store.retention import format_duration

log = logging.getLogger("ringside.api")
PRUNE_AT_MOST_EVERY = timedelta(hours=1)


async def prune_answers_periodically(ringside: Ringside, retention: timedelta) -> None:
    """Run until cancelled. The delete runs in a thread: it is a store write like any other."""
    every = min(PRUNE_AT_MOST_EVERY, retention / 2).total_seconds()
    while True:
        try:
            pruned = await asyncio.to_thread(ringside.prune_answers, retention)
        except Exception:  # the store is down for a moment: try again next time
            log.exception("pruning the answers to idempotency keys failed")
        else:
            if pruned:
                log.info("forgot %d answers to idempotency keys older than %s", pruned, format_duration(retention))
        await asyncio.sleep(max(every, 0.1))
