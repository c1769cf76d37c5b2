"""Submit-move latency and throughput over HTTP, beside a raw eventsourcing single-event save.

Run:  .venv/bin/pytest benchmarks/bench_api.py --benchmark-enable -p no:xdist -s
Environment:
- BENCH_CLIENTS: the client counts to run, comma-separated (default 8,16);
- BENCH_MOVES: moves per client (default 250);
- BENCH_WORKERS: server worker processes (default 1);
- BENCH_STORE=postgresql://...?schema=...: use PostgreSQL instead of SQLite;
- BENCH_IDEMPOTENCY=0: send moves without an Idempotency-Key.

The HTTP path is the whole product path: a real `python -m api` process, a bearer token, an
expected version and an Idempotency-Key on every move, the rules engine, hash chain, signature, one
atomic append, and the redacted receipt. Clients each play their own solo matches of the test game
(moves alternate pass / vote, so no extra reads are needed between moves). The baseline is the
bare library: one aggregate event saved per `Application.save` on the same kind of store.
"""

from __future__ import annotations

import asyncio
import os
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import pytest
from eventsourcing.application import Application
from eventsourcing.domain import Aggregate

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.load_client import Connection  # noqa: E402
from tests.api.support import Server, bearer  # noqa: E402

CLIENT_COUNTS = [int(count) for count in os.environ.get("BENCH_CLIENTS", "8,16").split(",")]
MOVES = int(os.environ.get("BENCH_MOVES", "250"))
STORE = os.environ.get("BENCH_STORE") or None
RAW_SAVES = int(os.environ.get("BENCH_RAW_SAVES", "2000"))
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "40"))
WORKERS = int(os.environ.get("BENCH_WORKERS", "1"))
KEYED = os.environ.get("BENCH_IDEMPOTENCY", "1") != "0"
RESULTS: dict[str, float] = {}


class Counter(Aggregate):
    class Ticked(Aggregate.Event):
        pass

    def tick(self) -> None:
        self.trigger_event(self.Ticked)


def _raw_env(directory: Path) -> dict[str, str]:
    if STORE:
        from domain.store.settings import StoreSettings

        return StoreSettings.resolve(directory, STORE).eventsourcing_env()
    return {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(directory / "raw.sqlite3"),
            "SQLITE_LOCK_TIMEOUT": "30"}


def raw_saves(directory: Path, count: int) -> float:
    """Saves per second of one new event on one aggregate, one save at a time."""
    app = Application[uuid.UUID](env=_raw_env(directory))
    counter = Counter()
    app.save(counter)
    started = time.perf_counter()
    for _ in range(count):
        counter.tick()
        app.save(counter)
    elapsed = time.perf_counter() - started
    app.close()
    return count / elapsed


def raw_rate() -> float:
    with tempfile.TemporaryDirectory() as directory:
        return raw_saves(Path(directory), RAW_SAVES)


def test_raw_eventsourcing_single_event_save(benchmark: Any) -> None:
    rate = benchmark.pedantic(raw_rate, rounds=1, iterations=1)
    benchmark.extra_info["saves_per_second"] = round(rate, 1)
    print(f"\nraw eventsourcing single-event save: {rate:.0f}/s ({'PostgreSQL' if STORE else 'SQLite'})")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    running = Server(tmp_path_factory.mktemp("bench") / "data", store=STORE, workers=WORKERS).start()
    yield running
    running.stop()


async def new_match(connection: Connection) -> tuple[str, str, int]:
    status, data = await connection.request("POST", "/matches", {
        "game": "test-dicevote", "variant": "solo", "players": ["solo"], "options": {"rounds": ROUNDS, "hand_size": 1}})
    assert status == 201, data
    return data["match_id"], data["tokens"]["seats"][0]["token"], data["version"]


async def client_loop(url: str, moves: int, latencies: list[float]) -> None:
    """One client: its own connection and solo matches, one move after another."""
    async with Connection(url) as connection:
        match_id, token, version = await new_match(connection)
        turn = 0
        for _ in range(moves):
            move = {"type": "pass"} if turn % 2 == 0 else {"type": "vote", "choice": "high"}
            headers = {**bearer(token), **({"Idempotency-Key": uuid.uuid4().hex} if KEYED else {})}
            started = time.perf_counter()
            status, data = await connection.request("POST", f"/matches/{match_id}/moves",
                                                    {"move": move, "expected_version": version}, headers)
            latencies.append(time.perf_counter() - started)
            assert status == 200, data
            version = data["version"]
            turn += 1
            if turn == 2 * ROUNDS:  # the solo match is over: each round is a pass and a vote
                match_id, token, version = await new_match(connection)
                turn = 0


async def _all_clients(url: str, clients: int, latencies: list[float]) -> None:
    await asyncio.gather(*(client_loop(url, MOVES, latencies) for _ in range(clients)))


def http_moves(url: str, clients: int) -> dict[str, float]:
    latencies: list[float] = []
    started = time.perf_counter()
    asyncio.run(_all_clients(url, clients, latencies))
    elapsed = time.perf_counter() - started
    ordered = sorted(latencies)
    return {"moves": len(ordered), "seconds": elapsed, "moves_per_second": len(ordered) / elapsed,
            "p50_ms": 1000 * statistics.median(ordered), "p99_ms": 1000 * ordered[int(0.99 * (len(ordered) - 1))]}


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
    print(f"\nGET /health over HTTP, {CLIENT_COUNTS[0]} clients, {WORKERS} server worker(s): "
          f"{result['requests_per_second']:.0f} requests/s (the stack's ceiling)")


@pytest.mark.parametrize("clients", CLIENT_COUNTS)
def test_submit_move_over_http(benchmark: Any, server: Server, clients: int) -> None:
    """The ratio is taken against the raw save measured right before and right after this run:
    on a shared disk the raw rate drifts by a quarter within minutes, the HTTP rate less so."""
    asyncio.run(client_loop(server.url, 2, []))  # warm up
    before = raw_rate()
    result = benchmark.pedantic(http_moves, args=(server.url, clients), rounds=1, iterations=1)
    raw = (before + raw_rate()) / 2
    benchmark.extra_info.update({k: round(v, 2) for k, v in result.items()})
    ratio = result["moves_per_second"] / raw
    benchmark.extra_info.update({"raw_saves_per_second": round(raw, 1), "ratio_to_raw_save": round(ratio, 3)})
    print(f"\nsubmit move over HTTP, {clients} clients, {WORKERS} server worker(s): "
          f"{result['moves_per_second']:.0f} moves/s, "
          f"p50 {result['p50_ms']:.1f} ms, p99 {result['p99_ms']:.1f} ms ({result['moves']:.0f} moves)")
    print(f"raw single-event save around it: {raw:.0f}/s; ratio {ratio:.2f} (target >= 0.5)")
    floor = RESULTS.get("floor_per_second")
    if floor:
        benchmark.extra_info["ratio_to_http_floor"] = round(result["moves_per_second"] / floor, 3)
