"""The CLI as a user runs it: whole processes, each beside its anchor measured in the same run.

- `ringside show MATCH --at N` and `ringside step MATCH --batch --from N --to N` on a SQLite store,
  against a whole Python process that opens a raw eventsourcing SQLite application and rebuilds a
  300-event aggregate at version N from its nearest snapshot (target for `show`: <= 2x);
- the matches: the test game with 4 seats (300+ events, as in bench_kernel.py) and Carcassonne
  big-top (288 events, drawn as a map), both recorded by `ringside simulate` into the store, so
  the snapshots are sealed by the store's own key as in use.

`ringside verify DIR` over an archive is measured by tools/bench_archive.py (10,000 bundles are
too many to generate per run); see docs/cli.md.

Each process's CPU time is printed beside the wall clock (with -s), and both kinds of process run
with bytecode cached, as an installed package runs (see `_env`).

Run: .venv/bin/python -m pytest benchmarks/bench_cli.py --benchmark-enable --benchmark-only -p no:xdist \
     -p no:cacheprovider -s
"""

from __future__ import annotations

import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path
from typing import Any

import pytest

from tests.support.games import PYTHONPATH

POSITION = 250
"""A late position: 50 events past the nearest snapshot (snapshots every 100 events)."""
ROUNDS = 7

RAW = textwrap.dedent('''
    """A raw eventsourcing application on SQLite: build a 300-event aggregate, or rebuild it at a version."""
    import sys
    import uuid

    from eventsourcing.application import Application
    from eventsourcing.domain import Aggregate, event


    class RawRecord(Aggregate):
        @event("Created")
        def __init__(self):
            self.count = 0

        @event("Appended")
        def append(self, entry):
            self.count += 1


    class RawApp(Application):
        snapshotting_intervals = {RawRecord: 100}


    app = RawApp({"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": sys.argv[1]})
    if sys.argv[2] == "build":
        record = RawRecord()
        app.save(record)
        for i in range(299):
            aggregate = app.repository.get(record.id)
            aggregate.append({"seq": i, "kind": "move", "actor": {"kind": "seat", "seat": 0},
                              "at": "2026-01-01T00:00:00.000000Z", "payload": {"seat": 0, "move": {"type": "pass"}},
                              "prev": "0" * 64, "hash": "1" * 64, "sig": "2" * 128, "key": "3" * 16})
            app.save(aggregate)
        print(record.id)
    else:
        at = int(sys.argv[3])
        assert app.repository.get(uuid.UUID(sys.argv[2]), version=at).version == at
''')


PYCACHE = Path(tempfile.gettempdir()) / "ringside-bench-cli-pycache"


def _env(data_dir: Path | None = None) -> dict[str, str]:
    """The processes' environment: bytecode cached (in a directory of its own, outside the
    checkout), as an installed package has it; without it a checkout run with
    PYTHONDONTWRITEBYTECODE recompiles every Ringside module in every process, which the raw
    anchor (only installed packages) never pays."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("RINGSIDE_") and k not in ("COLUMNS", "LINES", "PYTHONDONTWRITEBYTECODE")}
    env.update({"PYTHONPATH": PYTHONPATH, "NO_COLOR": "1", "PYTHONPYCACHEPREFIX": str(PYCACHE)})
    if data_dir is not None:
        env["RINGSIDE_DATA_DIR"] = str(data_dir)
    return env


def _ringside(data_dir: Path, *args: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([sys.executable, "-m", "replay_cli", *args], capture_output=True, text=True,
                          env=_env(data_dir), timeout=300)
    assert done.returncode == 0, done.stderr
    return done


@pytest.fixture(scope="module")
def raw_store(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, str]:
    root = tmp_path_factory.mktemp("raw")
    script = root / "raw_rebuild.py"
    script.write_text(RAW)
    db = root / "raw.sqlite3"
    done = subprocess.run([sys.executable, str(script), str(db), "build"], capture_output=True, text=True, check=True,
                          env=_env())
    return script, db, done.stdout.strip()


MATCHES = {
    "test-dicevote": ("test-dicevote", "-n", "1", "--players", "4", "-o", "rounds=40", "--seed", "3"),
    "carcassonne": ("carcassonne", "-n", "1", "--variant", "big-top", "--seed", "3"),
}


@pytest.fixture(scope="module", params=sorted(MATCHES))
def stored_match(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    data_dir = tmp_path_factory.mktemp("store") / "data"
    report = json.loads(_ringside(data_dir, "simulate", *MATCHES[request.param], "--json").stdout)
    result = report["results"][0]
    assert result["events"] >= POSITION
    return data_dir, str(result["match_id"])


def _pedantic(benchmark: Any, args: list[str], env: dict[str, str] | None = None) -> None:
    """Time whole processes (wall clock, as pytest-benchmark does), and record each one's CPU time
    (user + system) in extra_info["cpu_ms"], printed with -s: on a machine shared with other work
    the wall clock includes the waits for a core, the CPU time much less so."""
    cpu: list[float] = []

    def run() -> None:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, check=True, timeout=300)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu.append(1000 * (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime))

    benchmark.pedantic(run, rounds=ROUNDS, iterations=1, warmup_rounds=1)
    measured = sorted(cpu[1:] or cpu)  # not the warm-up round (none when benchmarks run once, as smoke tests)
    benchmark.extra_info["cpu_ms"] = [round(value, 1) for value in measured]
    print(f"\n{benchmark.name}: CPU min {measured[0]:.0f} / median {statistics.median(measured):.0f} / "
          f"max {measured[-1]:.0f} ms")


@pytest.mark.benchmark(group="cli-time-travel")
def test_raw_whole_process_rebuild_at_n(benchmark: Any, raw_store: tuple[Path, Path, str]) -> None:
    script, db, record_id = raw_store
    _pedantic(benchmark, [sys.executable, str(script), str(db), record_id, str(POSITION)], _env())


@pytest.mark.benchmark(group="cli-time-travel")
def test_cli_show_at_n(benchmark: Any, stored_match: tuple[Path, str]) -> None:
    data_dir, match_id = stored_match
    shown = _ringside(data_dir, "show", match_id, "--at", str(POSITION)).stdout
    assert f"at #{POSITION} of " in shown
    _pedantic(benchmark, [sys.executable, "-m", "replay_cli", "show", match_id, "--at", str(POSITION)],
              _env(data_dir))


@pytest.mark.benchmark(group="cli-time-travel")
def test_cli_step_at_n(benchmark: Any, stored_match: tuple[Path, str]) -> None:
    data_dir, match_id = stored_match
    stepped = _ringside(data_dir, "step", match_id, "--batch", "--from", str(POSITION), "--to", str(POSITION)).stdout
    assert f"#{POSITION}/" in stepped
    _pedantic(benchmark, [sys.executable, "-m", "replay_cli", "step", match_id, "--batch", "--from", str(POSITION),
                          "--to", str(POSITION)], _env(data_dir))
