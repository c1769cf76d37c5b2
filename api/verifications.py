"""Verification on the server: done once per record state, and never more at once than a core's worth.

Re-verifying a record re-folds every event and checks every signature: for a large import that is
seconds of CPU. Anyone may ask for a record's report, so the report is kept per (match, head,
annotation head) and computed once however many callers ask at the same time; and the work itself
(reports not yet kept, uploaded bundles) runs in a bounded number of slots, refusing with a 503
and a Retry-After when they stay full, so no caller can queue unbounded CPU on the server.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, TypeVar
from uuid import UUID

from domain.application import Ringside

from .problems import ApiProblem

T = TypeVar("T")


class Verifications:
    KEEP = 256

    def __init__(self, ringside: Ringside, slots: int = 1, wait_seconds: float = 10.0) -> None:
        self.ringside = ringside
        self._slots = threading.BoundedSemaphore(slots)
        self._wait = wait_seconds
        self._kept: OrderedDict[tuple[UUID, int, int], dict[str, Any]] = OrderedDict()
        self._flights: dict[tuple[UUID, int, int], threading.Lock] = {}
        self._lock = threading.Lock()
        self.computed = 0
        """How many reports were computed (not served from what was kept): for tests and metrics."""

    def run(self, work: Callable[[], T]) -> T:
        """Run verification work in a slot, or refuse with 503 when none frees up in time."""
        if not self._slots.acquire(timeout=self._wait):
            raise ApiProblem(503, "busy", "the server is verifying other records; try again shortly",
                             headers={"Retry-After": "5"})
        try:
            return work()
        finally:
            self._slots.release()

    def report(self, match_id: UUID, version: int) -> dict[str, Any]:
        """The report of the stored record as of `version` and its current annotations (a copy)."""
        key = (match_id, version, self.ringside.annotation_version(match_id))
        with self._lock:
            kept = self._kept.get(key)
            flight = None if kept is not None else self._flights.setdefault(key, threading.Lock())
        if kept is None:
            assert flight is not None
            with flight:  # one caller computes, the others wait for its answer
                with self._lock:
                    kept = self._kept.get(key)
                if kept is None:
                    kept = self.run(lambda: self.ringside.verify_match(match_id).to_json())
                    with self._lock:
                        self.computed += 1
                        self._kept[key] = kept
                        while len(self._kept) > self.KEEP:
                            self._kept.popitem(last=False)
                        self._flights.pop(key, None)
        with self._lock:
            self._kept.move_to_end(key)
        return _copy(kept)


def _copy(report: dict[str, Any]) -> dict[str, Any]:
    """Callers blank fields for some viewers: each gets its own copy of what is kept."""
    divergence = report.get("divergence")
    return {**report, "divergence": dict(divergence) if divergence else None}
