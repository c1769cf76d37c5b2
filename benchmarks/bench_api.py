"""Submit-move latency and throughput over HTTP, each beside its like-for-like raw eventsourcing save.

Run:  .venv/bin/pytest benchmarks/bench_api.py --benchmark-enable -p no:xdist -p no:cacheprovider -s
Environment:
- BENCH_CLIENTS: the client counts to run, comma-separated (default 1,8,16);
- BENCH_MOVES: moves per client (default 250);
- BENCH_WORKERS: server worker processes (default 1);
- BENCH_STORE: `postgres` for the PostgreSQL at RINGSIDE_TEST_POSTGRES (default
  postgresql://postgres@127.0.0.1:5432/postgres), in a fresh schema dropped afterwards, or a
  postgresql:// URL of your own (with ?schema=..., which must exist); unset: SQLite;
- BENCH_RAW_SAVES: aggregates saved per raw measurement (default 2000);
- BENCH_IDEMPOTENCY=0: send moves without an Idempotency-Key.

The HTTP path is the whole product path: a real `python -m api` process, a bearer token, an
expected version and an Idempotency-Key on every move, the rules engine, hash chain, signature, one
atomic append with the key's answer, and the redacted receipt, sent only once the append is
committed. Clients each play their own solo matches of the test game (moves alternate pass / vote,
so no extra reads are needed between moves); the matches are created before the clock starts.

Each ratio is like for like, measured in the same run:
- one client against the raw single-event save (one aggregate, one new event per
  `Application.save`), measured right before and right after the HTTP run: one client's moves can
  share no transaction either;
- several clients against the raw batched save: `Application.save(*aggregates)` of as many
  aggregates per transaction as the server's group commit actually put in one, on average, during
  that run (its `/stats`, summed over the workers), measured right after it; on PostgreSQL by as
  many writers at once as the server has workers (theirs commit concurrently, and PostgreSQL
  flushes concurrent commits together), on SQLite by one (the workers queue for one lock).
The raw saves are the bare library (its own recorder) on the server's own environment
(`StoreSettings.eventsourcing_env()`): the same SQLite journal mode and synchronous level (the
library's WAL with SQLite's default FULL, a flush per commit), or the same PostgreSQL server,
pool and commit durability (synchronous_commit as the server has it).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import os
import statistics
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from eventsourcing.application import Application
from eventsourcing.domain import Aggregate

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.load_client import Connection  # noqa: E402
from domain.store.settings import StoreSettings  # noqa: E402
from tests.api.support import Server, bearer  # noqa: E402

CLIENT_COUNTS = [int(count) for count in os.environ.get("BENCH_CLIENTS", "1,8,16").split(",")]
MOVES = int(os.environ.get("BENCH_MOVES", "250"))
STORE = os.environ.get("BENCH_STORE") or None
POSTGRES = os.environ.get("RINGSIDE_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/postgres")
RAW_SAVES = int(os.environ.get("BENCH_RAW_SAVES", "2000"))
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "40"))
WORKERS = int(os.environ.get("BENCH_WORKERS", "1"))
KEYED = os.environ.get("BENCH_IDEMPOTENCY", "1") != "0"
SINGLE_TARGET = 0.5
BATCHED_TARGET = 0.25
RESULTS: dict[str, float] = {}


class Counter(Aggregate):
    class Ticked(Aggregate.Event):
        pass

    def tick(self) -> None:
        self.trigger_event(self.Ticked)


# ---- the store: SQLite in a temporary directory, or a PostgreSQL schema of the run's own -----------
def _is_postgres() -> bool:
    return STORE is not None


def _admin(url: str) -> Any:
    import psycopg

    return psycopg.connect(StoreSettings(Path("."), url.split("?")[0]).postgres_conninfo(), autocommit=True)


@contextlib.contextmanager
def postgres_schema() -> Iterator[str]:
    """A fresh schema on the benchmark's PostgreSQL, as a store URL; dropped afterwards."""
    base = POSTGRES if STORE in ("postgres", "postgresql") else str(STORE)
    schema = f"bench_{uuid.uuid4().hex[:12]}"
    with _admin(base) as connection:
        connection.execute(f'CREATE SCHEMA "{schema}"')
    try:
        yield f"{base.split('?')[0]}?schema={schema}"
    finally:
        with _admin(base) as connection:
            connection.execute(f'DROP SCHEMA "{schema}" CASCADE')


@contextlib.contextmanager
def server_store() -> Iterator[str | None]:
    """What the server is started with: None for SQLite, else a PostgreSQL URL with its schema."""
    if not _is_postgres():
        yield None
    elif "schema=" in str(STORE):
        yield STORE
    else:
        with postgres_schema() as url:
            yield url


@contextlib.contextmanager
def raw_env() -> Iterator[dict[str, str]]:
    """The server's eventsourcing environment on a store of its own, without Ringside's recorder:
    the bare library, with the server's durability."""
    if _is_postgres():
        with postgres_schema() as url, tempfile.TemporaryDirectory() as directory:
            env = StoreSettings.resolve(Path(directory), url).eventsourcing_env()
            env.pop("APPLICATION_RECORDER_TOPIC")
            yield env
        return
    with tempfile.TemporaryDirectory() as directory:
        env = StoreSettings.resolve(Path(directory) / "data").eventsourcing_env()
        env.pop("APPLICATION_RECORDER_TOPIC")
        yield env


# ---- the raw baselines ---------------------------------------------------------------------------
def batch_sizes(mean: float, transactions: int) -> list[int]:
    """`transactions` whole batch sizes whose mean is `mean`: floor and ceiling in the right mix,
    spread evenly. A transaction's cost is a fixed part plus a part per aggregate, so the same
    mean costs the same as the server's own mix of sizes."""
    return [round((index + 1) * mean) - round(index * mean) for index in range(transactions)]


def raw_saves(env: dict[str, str], mean_batch: float, aggregates: int, writers: int = 1) -> float:
    """Aggregates saved per second, one new event each, `mean_batch` of them per transaction on
    average (1: the single-event save), by `writers` threads at once, each with its own
    aggregates (the server's workers each commit their own batches, concurrently)."""
    mean_batch = max(1.0, mean_batch)
    sizes = batch_sizes(mean_batch, max(writers, round(aggregates / mean_batch)))
    app = Application[uuid.UUID](env=env)
    shares = [sizes[index::writers] for index in range(writers)]
    counters = [[Counter() for _ in range(max(share))] for share in shares]
    for own in counters:
        app.save(*own)
    start = threading.Barrier(writers + 1)
    failures: list[BaseException] = []

    def write(share: list[int], own: list[Counter]) -> None:
        start.wait()
        try:
            for size in share:
                for counter in own[:size]:
                    counter.tick()
                app.save(*own[:size])
        except BaseException as error:  # reported below: a raw rate with lost saves would be wrong
            failures.append(error)

    threads = [threading.Thread(target=write, args=(share, own)) for share, own in zip(shares, counters, strict=True)]
    for thread in threads:
        thread.start()
    start.wait()
    started = time.perf_counter()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - started
    app.close()
    if failures:
        raise failures[0]
    return sum(sizes) / elapsed


def raw_writers(clients: int) -> int:
    """As many concurrent raw writers as the server has workers committing at once: on
    PostgreSQL each worker's writer commits while the others do; on SQLite the server's workers
    take turns at one lock, so one writer."""
    return min(WORKERS, clients) if _is_postgres() else 1


def raw_rate(mean_batch: float = 1.0, writers: int = 1) -> float:
    with raw_env() as env:
        return raw_saves(env, mean_batch, RAW_SAVES, writers)


def test_raw_eventsourcing_single_event_save(benchmark: Any) -> None:
    rate = benchmark.pedantic(raw_rate, rounds=1, iterations=1)
    benchmark.extra_info["saves_per_second"] = round(rate, 1)
    print(f"\nraw eventsourcing single-event save: {rate:.0f}/s ({'PostgreSQL' if STORE else 'SQLite'})")


# ---- the server and its clients -------------------------------------------------------------------
@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with server_store() as store:
        running = Server(tmp_path_factory.mktemp("bench") / "data", store=store, workers=WORKERS).start()
        try:
            yield running
        finally:
            running.stop()


async def new_match(connection: Connection) -> tuple[str, str, int]:
    status, data = await connection.request("POST", "/matches", {
        "game": "test-dicevote", "variant": "solo", "players": ["solo"], "options": {"rounds": ROUNDS, "hand_size": 1}})
    assert status == 201, data
    return data["match_id"], data["tokens"]["seats"][0]["token"], data["version"]


class StartLine:
    """Holds every client until all of them have made their matches, so that the clock measures
    moves only (creating a match is a different, rarer write)."""

    def __init__(self, clients: int) -> None:
        self.waiting = clients
        self.ready = asyncio.Event()
        self.go = asyncio.Event()

    async def arrive(self) -> None:
        self.waiting -= 1
        if self.waiting == 0:
            self.ready.set()
        await self.go.wait()


async def client_loop(url: str, moves: int, latencies: list[float], start: StartLine | None = None) -> None:
    """One client: its own connection and solo matches (created first), one move after another."""
    async with Connection(url) as connection:
        matches = [await new_match(connection) for _ in range(math.ceil(moves / (2 * ROUNDS)))]
        if start is not None:
            await start.arrive()
        for index in range(moves):
            match_id, token, version = matches[index // (2 * ROUNDS)]
            turn = index % (2 * ROUNDS)  # each round of a solo match is a pass and a vote
            move = {"type": "pass"} if turn % 2 == 0 else {"type": "vote", "choice": "high"}
            headers = {**bearer(token), **({"Idempotency-Key": uuid.uuid4().hex} if KEYED else {})}
            started = time.perf_counter()
            status, data = await connection.request("POST", f"/matches/{match_id}/moves",
                                                    {"move": move, "expected_version": version}, headers)
            latencies.append(time.perf_counter() - started)
            assert status == 200, data
            matches[index // (2 * ROUNDS)] = (match_id, token, data["version"])


async def _all_clients(url: str, clients: int, latencies: list[float]) -> float:
    """Every client's moves; the seconds from the moment all of them have their matches."""
    start = StartLine(clients)
    loops = asyncio.gather(*(client_loop(url, MOVES, latencies, start) for _ in range(clients)))
    await start.ready.wait()
    started = time.perf_counter()
    start.go.set()
    await loops
    return time.perf_counter() - started


def http_moves(url: str, clients: int) -> dict[str, float]:
    latencies: list[float] = []
    elapsed = asyncio.run(_all_clients(url, clients, latencies))
    ordered = sorted(latencies)
    return {"moves": len(ordered), "seconds": elapsed, "moves_per_second": len(ordered) / elapsed,
            "p50_ms": 1000 * statistics.median(ordered), "p99_ms": 1000 * ordered[int(0.99 * (len(ordered) - 1))]}


async def _worker_stats(url: str) -> dict[int, tuple[int, int]]:
    """Each worker's group-commit counts (batches, commands), by process ID: new connections
    until every worker has answered one (the kernel hands a connection to whichever accepts)."""
    found: dict[int, tuple[int, int]] = {}
    deadline = time.monotonic() + 120  # a worker still starting answers nothing yet
    while time.monotonic() < deadline:
        async with Connection(url) as connection:
            status, data = await connection.request("GET", "/stats")
        assert status == 200, data
        found[data["worker"]] = (data["group_commit"]["batches"], data["group_commit"]["commands"])
        if len(found) == WORKERS:
            return found
        await asyncio.sleep(0.01)
    raise AssertionError(f"only {len(found)} of {WORKERS} workers answered /stats")


def commit_stats(url: str) -> dict[int, tuple[int, int]]:
    return asyncio.run(_worker_stats(url))


def mean_batch(before: dict[int, tuple[int, int]], after: dict[int, tuple[int, int]]) -> float:
    """Commands per transaction over a run, every worker together."""
    batches = sum(after[pid][0] - before.get(pid, (0, 0))[0] for pid in after)
    commands = sum(after[pid][1] - before.get(pid, (0, 0))[1] for pid in after)
    return commands / batches if batches else 1.0


async def _health_loop(url: str, requests: int, latencies: list[float]) -> None:
    async with Connection(url) as connection:
        for _ in range(requests):
            started = time.perf_counter()
            status, _ = await connection.request("GET", "/health")
            latencies.append(time.perf_counter() - started)
            assert status == 200


def http_floor(url: str) -> dict[str, float]:
    """The same clients on `GET /health`: what the HTTP stack alone (uvicorn, FastAPI, this client)
    sustains on this machine, the ceiling any endpoint's rate sits under."""
    latencies: list[float] = []

    async def run() -> None:
        await asyncio.gather(*(_health_loop(url, MOVES, latencies) for _ in range(CLIENT_COUNTS[0])))

    started = time.perf_counter()
    asyncio.run(run())
    return {"requests_per_second": len(latencies) / (time.perf_counter() - started)}


def test_http_floor_health(benchmark: Any, server: Server) -> None:
    result = benchmark.pedantic(http_floor, args=(server.url,), rounds=1, iterations=1)
    RESULTS["floor_per_second"] = result["requests_per_second"]
    benchmark.extra_info["requests_per_second"] = round(result["requests_per_second"], 1)
    print(f"\nGET /health over HTTP, {CLIENT_COUNTS[0]} client(s), {WORKERS} server worker(s): "
          f"{result['requests_per_second']:.0f} requests/s (the stack's ceiling)")


@pytest.mark.parametrize("clients", CLIENT_COUNTS)
def test_submit_move_over_http(benchmark: Any, server: Server, clients: int) -> None:
    """One client against the raw single-event save measured right before and right after; several
    against the raw save of the run's mean batch, measured right after (the batch is known only
    then). On a shared disk the raw rate drifts by a quarter within minutes."""
    asyncio.run(client_loop(server.url, 2, []))  # warm up
    before = raw_rate() if clients == 1 else None
    stats = commit_stats(server.url)
    result = benchmark.pedantic(http_moves, args=(server.url, clients), rounds=1, iterations=1)
    batch = mean_batch(stats, commit_stats(server.url))
    after = raw_rate(1.0, 1) if clients == 1 else raw_rate(batch, raw_writers(clients))
    raw = (before + after) / 2 if before is not None else after
    target = SINGLE_TARGET if clients == 1 else BATCHED_TARGET
    ratio = result["moves_per_second"] / raw
    benchmark.extra_info.update({k: round(v, 2) for k, v in result.items()})
    benchmark.extra_info.update({"mean_batch": round(batch, 2), "raw_saves_per_second": round(raw, 1),
                                 "ratio_to_raw_save": round(ratio, 3), "target": target})
    store = "PostgreSQL" if STORE else "SQLite"
    anchor = "raw single-event save around it" if clients == 1 else \
        f"raw batched save after it ({batch:.2f} aggregates per transaction, as the server batched; " \
        f"{raw_writers(clients)} writer(s) at once)"
    print(f"\nsubmit move over HTTP ({store}), {clients} client(s), {WORKERS} server worker(s): "
          f"{result['moves_per_second']:.0f} moves/s, p50 {result['p50_ms']:.2f} ms, p99 {result['p99_ms']:.2f} ms "
          f"({result['moves']:.0f} moves; mean batch {batch:.2f})")
    print(f"{anchor}: {raw:.0f} aggregates/s; ratio {ratio:.3f} (target >= {target})")
    print("RESULT " + json.dumps({"store": store, "workers": WORKERS, "clients": clients, "ratio": round(ratio, 4),
                                  "moves_per_second": round(result["moves_per_second"], 1),
                                  "raw_per_second": round(raw, 1), "mean_batch": round(batch, 3),
                                  "raw_writers": 1 if clients == 1 else raw_writers(clients),
                                  "p50_ms": round(result["p50_ms"], 3), "p99_ms": round(result["p99_ms"], 3)}))
    floor = RESULTS.get("floor_per_second")
    if floor:
        benchmark.extra_info["ratio_to_http_floor"] = round(result["moves_per_second"] / floor, 3)
