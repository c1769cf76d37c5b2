"""Group commit: the matches that concurrent commands prepared are saved together, one transaction
(and one disk flush) for all that are waiting, by one writer thread per application.

Why: on the embedded store every transaction waits for its own fsync, so saving each move in a
transaction of its own caps a server's write rate at the disk's flush rate, however many clients
wait. Batching keeps every guarantee of a single save: the batch is one atomic write with each
match's expected version, and if any of them conflicts (another writer got there first), every
match of the batch is saved again on its own, so only the conflicting command sees the
`IntegrityError` and the others still succeed.

Commands on an event loop (the API's moves and outcomes) `await commit(...)`: the loop goes on
preparing other commands while the writer thread saves, so no thread is held per request and the
batches grow with the load. Blocking callers (the CLI, the API's thread pool for rarer writes) use
`save(...)`, which commits in the calling thread at once: with nothing to batch with, a hand-off to
the writer would only add latency.

The writer counts its batches and the commands in them (`stats`): how far batching actually goes
under a given load is what a benchmark of the write path must compare against (a raw save of as
many aggregates per transaction), and it depends on the disk and the clients, not on this code.
"""

from __future__ import annotations

import contextlib
import queue
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from eventsourcing.application import Application
from eventsourcing.persistence import IntegrityError

from .recorders import Answer

if TYPE_CHECKING:  # annotations only: `commit` imports asyncio, so a process that only reads never loads it
    import asyncio

MAX_BATCH = 64
"""Enough to absorb every waiting command of a busy worker; small enough to keep a batch's
transaction (and a conflict's one-by-one retry) short."""


@dataclass(frozen=True)
class CommitStats:
    """What the writer thread has committed since it started: transactions, and commands in them
    (a batch that was refused and saved again one by one counts once, as the batch it was)."""

    batches: int = 0
    commands: int = 0

    @property
    def mean_batch(self) -> float:
        return self.commands / self.batches if self.batches else 0.0


@dataclass
class _Job:
    aggregate: Any
    events: list[Any]
    answers: list[Answer]
    error: BaseException | None = None
    """What refused the save, once it was tried; None if it committed."""
    waiter: asyncio.Future[None] | None = None
    """The awaiting command's future, on its own event loop (None for a blocking save)."""

    @property
    def empty(self) -> bool:
        return not self.events and not self.answers


class GroupCommit:
    """The writer thread of one application. Start is lazy; `close()` drains and stops it."""

    def __init__(self, app: Application[Any], max_batch: int = MAX_BATCH) -> None:
        self.app = app
        self.max_batch = max_batch
        self._jobs: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._start_lock = threading.Lock()
        self._closed = False
        self.stats = CommitStats()
        """Replaced whole by the writer after each batch, so a reader on another thread never
        sees one count updated without the other."""

    def save(self, aggregate: Any | None, answers: list[Answer] | None = None) -> None:
        """Save now, in the calling thread; raises what refused the save (`IntegrityError` for a
        stale version or a key already answered)."""
        job = self._job(aggregate, answers)
        if not job.empty:
            self._commit([job])
        if job.error is not None:
            raise job.error

    async def commit(self, aggregate: Any | None, answers: list[Answer] | None = None) -> None:
        """Save from an event loop, in the writer's next batch; raises like `save`.

        The writer resolves a batch's futures with one `call_soon_threadsafe` per loop: per job,
        `concurrent.futures` plus `asyncio.wrap_future` cost the loop ~80 µs (a lock, a condition
        and two chained callbacks), as much as the rules check of a move."""
        import asyncio

        job = self._job(aggregate, answers)
        if job.empty:
            return
        job.waiter = asyncio.get_running_loop().create_future()
        self._ensure_started()
        self._jobs.put(job)
        await job.waiter

    @staticmethod
    def _job(aggregate: Any | None, answers: list[Answer] | None = None) -> _Job:
        """A job for the aggregate's pending events. The events stay pending on the aggregate,
        which is the command's private copy, until it is saved."""
        events = list(aggregate.pending_events) if aggregate is not None else []
        return _Job(aggregate, events, list(answers or ()))

    def close(self) -> None:
        with self._start_lock:
            self._closed = True
            thread, self._thread = self._thread, None
        if thread is not None:
            self._jobs.put(None)
            thread.join()

    def _ensure_started(self) -> None:
        if self._thread is not None:
            return
        with self._start_lock:
            if self._closed:
                raise RuntimeError("the application is closed")
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="ringside-group-commit", daemon=True)
                self._thread.start()

    def _run(self) -> None:
        while True:
            first = self._jobs.get()
            if first is None:
                return
            batch = [first]
            stop = False
            while len(batch) < self.max_batch:
                try:
                    job = self._jobs.get_nowait()
                except queue.Empty:
                    break
                if job is None:
                    stop = True
                    break
                batch.append(job)
            self._commit(batch)
            self.stats = CommitStats(self.stats.batches + 1, self.stats.commands + len(batch))
            _wake(batch)
            if stop:
                return

    def _commit(self, batch: list[_Job]) -> None:
        """Save the batch; each job's `error` tells its outcome. Never raises: the writer thread
        must outlive any failure, or the commands waiting on it would wait forever."""
        if len(batch) > 1:
            try:
                self._save_together(batch)
            except IntegrityError:
                pass  # someone's expected version is stale (or a key answered): find whose, one by one
            except BaseException as error:  # the store failed: nothing of the batch was written
                for job in batch:
                    job.error = error
                return
            else:
                return
        for job in batch:
            try:
                self._save_alone(job)
            except BaseException as error:
                job.error = error

    def _save_together(self, batch: list[_Job]) -> None:
        """One atomic save of every job's aggregate (its pending events) and answers."""
        self.app.save(*(job.aggregate for job in batch), answers=[answer for job in batch for answer in job.answers])

    def _save_alone(self, job: _Job) -> None:
        """One job's save. After a refused batch, which has taken the events from the aggregate,
        they are passed as they were; the aggregate still comes along, for its snapshots."""
        if job.aggregate is None or job.aggregate.pending_events:
            self.app.save(job.aggregate, answers=job.answers)
        else:
            self.app.save(*job.events, job.aggregate, answers=job.answers)


def _wake(batch: list[_Job]) -> None:
    """Hand each waiting command its outcome, on its own loop, in one call per loop."""
    by_loop: dict[asyncio.AbstractEventLoop, list[_Job]] = {}
    for job in batch:
        if job.waiter is not None:
            by_loop.setdefault(job.waiter.get_loop(), []).append(job)
    for loop, jobs in by_loop.items():
        with contextlib.suppress(RuntimeError):  # the loop was closed meanwhile: nobody waits
            loop.call_soon_threadsafe(_settle, jobs)


def _settle(jobs: list[_Job]) -> None:
    for job in jobs:
        assert job.waiter is not None
        if job.waiter.done():  # the command was cancelled (its client went away)
            continue
        if job.error is None:
            job.waiter.set_result(None)
        else:
            job.waiter.set_exception(job.error)
