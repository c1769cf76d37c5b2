"""`ringside verify` over many records: an archive of bundles verified on every core, in memory
that does not grow with the archive.

Why its own module: a night's archive is thousands of bundles, and what is cheap for one record
(a list of paths, a report per record kept for a closing table) is what makes ten thousand slow and
large. So here:

- the directory walk streams (`walk_bundles`): paths are yielded as `os.scandir` finds them, and
  only the directories still to visit are held;
- the records are verified by a pool of worker processes (`verify_all`), each started once with
  the trust anchors, receipts and options (`_start_worker`), reading and verifying its file itself
  and answering with a small `Outcome`; at most a few jobs per worker are in flight, and outcomes
  are taken in the order the jobs were given, so the output is the walk's order whatever core
  finished first;
- what a command keeps of a finished record is a count, and of a failure only what it prints.

A stored match (a target that is not a file) is verified through its store in this process, in
its place in the order.
"""

from __future__ import annotations

import os
import signal
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from domain.kernel.trust import Trust

from .output import compact
from .source import BundleFileError, Source, read_bundle_bytes, verify_text

BUNDLE_SUFFIXES = (".jsonl", ".ringside", ".jsonl.gz", ".ringside.gz")
IN_FLIGHT_PER_WORKER = 4
"""Jobs handed to each worker ahead of the one it is on: enough that a worker never waits for the
next path, few enough that the reports waiting to be printed stay a handful."""
SHOWN_VALUE = 200
"""How much of a divergence's expected and recorded values a printed report shows (views.py cuts
them there too): a worker sends no more than that back for a report that is only printed."""


# ==== the walk ======================================================================================
def walk_bundles(directory: Path, skipped: Callable[[str], None] | None = None) -> Iterator[Path]:
    """The bundle files under `directory` (*.jsonl, *.ringside, and gzipped: *.jsonl.gz,
    *.ringside.gz), yielded as they are found, in the file system's order; `skipped` is told each
    place the walk had to pass by.

    The walk stays on the directory's own file system (so `/` does not wander into /proc, /sys or
    network mounts), never follows a symbolic link into a directory (no loops), takes only regular
    files (never a FIFO, socket or device, which would block or never end), and notes each
    directory it may not read instead of failing on it. It holds one open listing and the
    directories still to visit, never the files it has yielded."""
    note = skipped or (lambda place: None)
    device = directory.stat().st_dev
    pending = [directory]
    while pending:
        current = pending.pop()
        try:
            listing = os.scandir(current)
        except OSError as error:
            note(f"{current}: {error.strerror or error}")
            continue
        with listing:
            while True:
                try:
                    entry = next(listing)
                except StopIteration:
                    break
                except OSError as error:
                    note(f"{current}: {error.strerror or error}")
                    break
                try:
                    if entry.is_dir(follow_symlinks=False):
                        if entry.stat(follow_symlinks=False).st_dev == device:
                            pending.append(Path(entry.path))
                    elif entry.name.endswith(BUNDLE_SUFFIXES):
                        if entry.is_file():  # a link to a regular file is read; to anything else, not
                            yield Path(entry.path)
                        else:
                            note(f"{entry.path}: not a regular file")
                except OSError as error:
                    note(f"{entry.path}: {error.strerror or error}")


def count_bundles(directory: Path, skipped: Callable[[str], None] | None = None) -> int:
    """How many bundle files `walk_bundles` finds (a first walk, for the progress bar's total and
    for refusing an empty directory before anything is verified)."""
    return sum(1 for _ in walk_bundles(directory, skipped))


# ==== one record ====================================================================================
def unverifiable(check: str, message: str) -> dict[str, Any]:
    """A report for a record that could not be verified at all (unreadable, unreadable JSON)."""
    return {"ok": False, "intact": False, "trusted": False, "signers": [], "receipts": [], "match_id": None,
            "game": None, "events": 0, "annotations": 0, "checked": {},
            "notes": [], "keys": [], "final_state_hash": None,
            "divergence": {"seq": None, "stream": None, "check": check, "rule": None, "message": message,
                           "expected": None, "actual": None},
            "summary": f"FAILED at bundle: {check}: {message}"}


def verify_file(path: Path, allow_engine_mismatch: bool, trust: Trust | None = None,
                receipts: Sequence[Any] = (), thorough: bool = False) -> tuple[dict[str, Any], bool]:
    """The report for one file (gunzipped if it is gzip data), and whether verifying it failed
    internally (a bug, exit 3). A file that cannot be read, is bad gzip data or too large, or
    nests its JSON too deeply, does not verify (exit 1)."""
    try:
        data = read_bundle_bytes(path)
    except OSError as error:
        return unverifiable("read", f"cannot read {path}: {error.strerror or error}"), False
    except BundleFileError as error:
        return unverifiable("read", f"cannot read {path}: {error}"), False
    try:
        return verify_text(data, allow_engine_mismatch, trust, receipts, thorough), False
    except RecursionError:
        return unverifiable("format", "its JSON is nested too deeply to be read"), False
    except Exception as error:
        if os.environ.get("RINGSIDE_DEBUG"):
            raise
        return unverifiable("internal", f"verification failed unexpectedly: {type(error).__name__}: "
                                        f"{str(error).splitlines()[0] if str(error) else ''}"), True


@dataclass(frozen=True)
class Options:
    """What every record of one command is verified with, and how much of a report comes back."""

    allow_engine_mismatch: bool
    trust: Trust
    receipts: tuple[Any, ...]
    keep: str
    """"all": every report whole (--json); "failures": a failed record's report, its long values cut
    to what is printed; "summary": the one-line summary only (--quiet)."""
    thorough: bool = False
    """Check every event's head signature (--thorough), not only those nothing later vouches for."""


@dataclass(frozen=True)
class Outcome:
    """What the command keeps of one verified record, and only while it prints it."""

    label: str
    ok: bool
    summary: str
    internal: bool
    report: dict[str, Any] | None


def outcome_of(label: str, report: dict[str, Any], internal: bool, keep: str) -> Outcome:
    ok = bool(report.get("ok"))
    summary = str(report.get("summary"))
    if keep == "all":
        return Outcome(label, ok, summary, internal, report)
    if keep == "summary" or ok:
        return Outcome(label, ok, summary, internal, None)
    return Outcome(label, ok, summary, internal, _as_printed(report))


def _as_printed(report: dict[str, Any]) -> dict[str, Any]:
    """A failed report with what `report_view` shows of it and no more: a divergence's values as
    the short text it prints (the view prints a string as it is, so the output is the same)."""
    divergence = report.get("divergence")
    if not isinstance(divergence, dict):
        return report
    cut = {key: compact(divergence.get(key), SHOWN_VALUE) for key in ("expected", "actual")}
    return {**report, "divergence": {**divergence, **cut}}


# ==== the workers ===================================================================================
_options: Options | None = None


def _start_worker(options: Options) -> None:
    """Each worker process starts once: the games registered, the options kept for every job. A
    ^C is the command's to handle (it stops the pool); a worker ignores it."""
    global _options
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    from domain.plugins import install_games

    install_games()
    _options = options


def _verify_in_worker(label: str, path: str) -> Outcome:
    assert _options is not None, "the worker was not started with its options"
    report, internal = verify_file(Path(path), _options.allow_engine_mismatch, _options.trust, _options.receipts,
                                   _options.thorough)
    return outcome_of(label, report, internal, _options.keep)


@dataclass(frozen=True)
class Job:
    """One record to verify: a file (verified by a worker), or a stored match (through its store,
    here)."""

    label: str
    path: Path | None = None
    source: Source | None = None
    match_id: str | None = None


def _in_process(job: Job, options: Options) -> Outcome:
    if job.path is not None:
        report, internal = verify_file(job.path, options.allow_engine_mismatch, options.trust, options.receipts,
                                       options.thorough)
        return outcome_of(job.label, report, internal, options.keep)
    assert job.source is not None and job.match_id is not None
    report = job.source.verify(job.match_id, options.allow_engine_mismatch, options.trust, options.receipts,
                               options.thorough)
    return outcome_of(job.label, report, False, options.keep)


def usable_cores() -> int:
    """The cores this process may run on (its affinity, where the system tells it)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def workers_for(files: int) -> int:
    """How many worker processes verify `files` files by default: one per core, but no more than
    one per two files, because starting a worker costs about as much as verifying a bundle (a
    few files, or only stored matches, are verified in this process)."""
    return max(1, min(usable_cores(), files // 2))


def verify_all(jobs: Iterable[Job], options: Options, workers: int) -> Iterator[Outcome]:
    """The outcome of every job, in the jobs' order, verified by `workers` processes (in this
    process when 1). Jobs are drawn from `jobs` only as workers are ready for them, so a walk of
    the archive is never read ahead by more than a few paths."""
    if workers <= 1:
        for job in jobs:
            yield _in_process(job, options)
        return
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    # spawned, not forked: a worker starts clean whatever threads or connections this process holds
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"),
                               initializer=_start_worker, initargs=(options,))
    window: deque[Future[Outcome] | Job] = deque()
    limit = workers * IN_FLIGHT_PER_WORKER
    try:
        for job in jobs:
            window.append(job if job.path is None else pool.submit(_verify_in_worker, job.label, str(job.path)))
            while len(window) >= limit:
                yield _result(window.popleft(), options)
        while window:
            yield _result(window.popleft(), options)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _result(item: Future[Outcome] | Job, options: Options) -> Outcome:
    from concurrent.futures.process import BrokenProcessPool

    if isinstance(item, Job):
        return _in_process(item, options)
    try:
        return item.result()
    except BrokenProcessPool:
        from .output import EXIT_INTERNAL, CliError

        raise CliError("a verification process ended unexpectedly (out of memory, or killed): the records "
                       "not yet reported were not verified", EXIT_INTERNAL) from None


# ==== the command's output ==========================================================================
@dataclass
class Counts:
    total: int = 0
    failed: int = 0
    internal: bool = False


def report_many(jobs: Iterable[Job], total: int, options: Options, workers: int, as_json: bool) -> Counts:
    """Verify many records and print as they finish: with --json one JSON document streamed (each
    report as it comes, the totals after them); otherwise each failure (its report, or with
    --quiet its one line) and then one summary line. On a terminal a transient progress bar shows
    the rate and the time left."""
    import time

    from .output import console

    counts = Counts()
    started = time.monotonic()
    workers = max(1, min(workers, total))  # -j N: never more workers than records
    outcomes = verify_all(jobs, options, workers)
    if as_json:
        _stream_json(outcomes, counts)
        return counts
    out = console()
    with _progress(total, enabled=out.is_terminal) as advance:
        for outcome in outcomes:
            _count(counts, outcome)
            if not outcome.ok:
                _print_failure(outcome)
            advance(outcome.label)
    seconds = time.monotonic() - started
    rate = counts.total / seconds if seconds > 0 else 0.0
    held = counts.total - counts.failed
    out.print(f"Verified {counts.total} records: {held} hold, {counts.failed} diverge "
              f"({seconds:.1f} s, {rate:.1f} records/s, {workers} {'process' if workers == 1 else 'processes'})",
              style="green" if not counts.failed else "red")
    return counts


def _count(counts: Counts, outcome: Outcome) -> None:
    counts.total += 1
    counts.failed += 0 if outcome.ok else 1
    counts.internal = counts.internal or outcome.internal


def _print_failure(outcome: Outcome) -> None:
    from rich.text import Text

    from .output import console
    from .views import report_view

    if outcome.report is None:
        console().print(Text(f"{outcome.label}: {outcome.summary}", style="red"))
    else:
        console().print(report_view(outcome.report, outcome.label))


def _stream_json(outcomes: Iterable[Outcome], counts: Counts) -> None:
    """`{"reports": [...], "failed": F, "ok": B, "total": N}`, written report by report: the
    document is whole JSON at the end, and never whole in memory."""
    import json
    import sys

    write = sys.stdout.write
    write('{\n  "reports": [')
    for number, outcome in enumerate(outcomes):
        _count(counts, outcome)
        item = json.dumps({"target": outcome.label, **(outcome.report or {})}, indent=2, sort_keys=True,
                          ensure_ascii=False, default=str)
        write(("," if number else "") + "\n    " + item.replace("\n", "\n    "))
        sys.stdout.flush()
    write(("\n  " if counts.total else "") + "],\n")
    write(f'  "failed": {counts.failed},\n  "ok": {json.dumps(not counts.failed)},\n  "total": {counts.total}\n}}\n')
    sys.stdout.flush()


class _progress:
    """A transient progress bar (records done, rate, time left, the last record) on a terminal;
    nothing elsewhere. Entered, it is a function to call as each record is done."""

    def __init__(self, total: int, enabled: bool) -> None:
        self.total = total
        self.enabled = enabled
        self.bar: Any = None

    def __enter__(self) -> Callable[[str], None]:
        if not self.enabled:
            return lambda label: None
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TaskProgressColumn,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        from .output import console

        self.bar = Progress(TextColumn("verifying"), BarColumn(), MofNCompleteColumn(), TaskProgressColumn(),
                            _rate_column(), TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(),
                            TextColumn("{task.description}"), console=console(), transient=True,
                            speed_estimate_period=60)
        self.bar.__enter__()
        task = self.bar.add_task("", total=self.total)

        def advance(label: str) -> None:
            self.bar.update(task, advance=1, description=label[-40:])

        return advance

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.__exit__(*exc)


def _rate_column() -> Any:
    from rich.progress import ProgressColumn
    from rich.text import Text

    class RateColumn(ProgressColumn):
        """Records verified per second, over the last minute."""

        def render(self, task: Any) -> Text:
            speed = task.finished_speed or task.speed
            return Text(f"{speed:.1f} records/s" if speed else "– records/s", style="progress.data.speed")

    return RateColumn()

