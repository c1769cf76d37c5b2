"""Measure `ringside verify DIR -q` over an archive as a whole command (docs/cli.md, "Many records").

Why a tool and not a pytest-benchmark suite: the archive is 10,000 bundles, generated once with
`ringside simulate` (half an hour or more on this machine), far too many to make per run.

For each run it reports the wall time, the records per second, the CPU time per bundle and how
many cores it kept busy (from `/usr/bin/time -v`: the command and its workers), the peak resident
memory of the command's own process and of its largest worker (`/usr/bin/time -v` reports the
larger of the two) and the peak of the whole process tree (the command and its workers, sampled from /proc every
0.2 s). With `--sample N` it first measures, in the same session, every (total / N)-th bundle
verified in one process (`-j 1`) and on every core, which gives the one-core time per bundle that
the archive's time is compared with.

    ringside simulate circus-train -n 6000 --seed 14 --out ARCHIVE/circus-train
    ringside simulate carcassonne -n 4000 --seed 14 --variant base --out ARCHIVE/carcassonne
    .venv/bin/python tools/bench_archive.py ARCHIVE --trust-file KEYS --runs 1 --sample 300

KEYS lists the keys that signed the bundles (each `simulate --out` records under a fresh key, so
the tool can write it: `--write-trust-file KEYS` reads the signers of one bundle per subdirectory).
Linux only (/proc, /usr/bin/time).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def _env(code: Path | None = None) -> dict[str, str]:
    """The command's environment; `code`: another checkout of Ringside to run instead of this one."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("RINGSIDE_") and k != "PYTHONDONTWRITEBYTECODE"}
    env.update({"NO_COLOR": "1", "PYTHONPYCACHEPREFIX": str(Path(tempfile.gettempdir()) / "ringside-bench-pycache"),
                "RINGSIDE_DATA_DIR": str(Path(tempfile.gettempdir()) / "ringside-bench-archive-data")})
    if code is not None:
        env["PYTHONPATH"] = str(code)
    return env


def _tree_rss_kib(root: int) -> int:
    """The resident memory of `root` and all its descendants, from /proc."""
    children: dict[int, list[int]] = {}
    rss: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            status = Path(f"/proc/{entry}/status").read_text()
        except OSError:
            continue
        ppid = re.search(r"^PPid:\s+(\d+)", status, re.M)
        vmrss = re.search(r"^VmRSS:\s+(\d+) kB", status, re.M)
        if ppid:
            children.setdefault(int(ppid.group(1)), []).append(int(entry))
        rss[int(entry)] = int(vmrss.group(1)) if vmrss else 0
    total, pending = 0, [root]
    while pending:
        pid = pending.pop()
        total += rss.get(pid, 0)
        pending.extend(children.get(pid, []))
    return total


def run_once(target: Path, args: list[str], code: Path | None = None) -> dict[str, Any]:
    command = ["/usr/bin/time", "-v", sys.executable, "-m", "replay_cli", "verify", str(target), "-q", *args]
    started = time.monotonic()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=_env(code),
                               cwd=code or ROOT)
    peak = [0]
    done = threading.Event()

    def sample() -> None:
        while not done.wait(0.2):
            peak[0] = max(peak[0], _tree_rss_kib(process.pid))

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    out, err = process.communicate()
    done.set()
    sampler.join()
    seconds = time.monotonic() - started
    found = re.search(r"Verified (\d+) records: (\d+) hold, (\d+) diverge.*", out)
    if found is None:
        raise SystemExit(f"no summary line in the output (exit {process.returncode}):\n{out[-2000:]}\n{err[-2000:]}")
    max_rss = re.search(r"Maximum resident set size \(kbytes\): (\d+)", err)
    times = re.finditer(r"(?:User|System) time \(seconds\): ([\d.]+)", err)
    cpu = sum(float(found_time.group(1)) for found_time in times)
    records, summary = int(found.group(1)), found.group(0)
    return {"records": records, "failed": int(found.group(3)), "exit": process.returncode, "seconds": seconds,
            "records_per_s": records / seconds, "ms_per_record": 1000 * seconds / records,
            "max_rss_mib": int(max_rss.group(1)) / 1024 if max_rss else float("nan"),
            "cpu_ms_per_record": 1000 * cpu / records, "cores_busy": cpu / seconds,
            "tree_rss_mib": peak[0] / 1024, "summary": summary}


def sample_dir(archive: Path, every: int) -> Path:
    """Links to every `every`-th bundle of the archive, in a directory of their own."""
    from replay_cli.archive import walk_bundles

    target = Path(tempfile.mkdtemp(prefix="ringside-archive-sample-"))
    for index, path in enumerate(walk_bundles(archive)):
        if index % every == 0:
            (target / f"{index:06d}-{path.name}").symlink_to(path.resolve())
    return target


def write_trust_file(archive: Path, path: Path) -> None:
    """The signers of one bundle in each directory of the archive (a `simulate --out` run's key)."""
    from replay_cli.archive import walk_bundles

    keys: dict[str, str] = {}
    seen: set[Path] = set()
    for bundle in walk_bundles(archive):
        if bundle.parent in seen:
            continue
        seen.add(bundle.parent)
        for line in bundle.read_text().splitlines()[:1]:
            keys.update(json.loads(line).get("keys") or {})
    path.write_text("".join(f"simulated-{key_id} {public}\n" for key_id, public in sorted(keys.items())))


def _line(name: str, runs: list[dict[str, Any]], key: str, unit: str) -> str:
    values = [run[key] for run in runs]
    return (f"  {name}: min {min(values):.1f} / median {statistics.median(values):.1f} / max {max(values):.1f} {unit}"
            f" over {len(values)} run(s)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("archive", type=Path)
    parser.add_argument("--trust-file", type=Path)
    parser.add_argument("--write-trust-file", type=Path, help="Write the archive's signers to this file and stop.")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--sample", type=int, default=0, help="Also time a sample of about this many bundles "
                                                              "on one core and on every core.")
    parser.add_argument("--sample-runs", type=int, default=3)
    parser.add_argument("--skip-archive", action="store_true", help="Only the sample.")
    parser.add_argument("--baseline", type=Path, help="Also time the sample with the checkout of Ringside at "
                                                      "this path (say `git archive main`), as it runs.")
    options = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    if options.write_trust_file:
        write_trust_file(options.archive, options.write_trust_file)
        print(options.write_trust_file.read_text(), end="")
        return
    trust = ["--trust-file", str(options.trust_file)] if options.trust_file else []
    if options.sample:
        from replay_cli.archive import count_bundles

        total = count_bundles(options.archive)
        sample = sample_dir(options.archive, max(1, total // options.sample))
        cases: list[tuple[str, list[str], Path | None]] = [("one process (-j 1)", ["-j", "1"], None),
                                                            ("every core", [], None)]
        if options.baseline:
            cases.insert(0, (f"baseline {options.baseline}", [], options.baseline))
        for label, jobs, code in cases:
            runs = [run_once(sample, [*trust, *jobs], code) for _ in range(options.sample_runs)]
            print(f"sample of {int(runs[0]['records'])} bundles, {label}: {runs[0]['summary']}")
            _print_figures(runs)
    if options.skip_archive:
        return
    runs = []
    for _ in range(options.runs):
        runs.append(run_once(options.archive, trust))
        print(f"archive run {len(runs)}: {runs[-1]['summary']} (exit {runs[-1]['exit']}), "
              f"{runs[-1]['seconds']:.1f} s, peak RSS {runs[-1]['max_rss_mib']:.0f} MiB (one process), "
              f"{runs[-1]['tree_rss_mib']:.0f} MiB (tree)", flush=True)
    print(f"archive {options.archive}:")
    print(_line("wall time", runs, "seconds", "s"))
    _print_figures(runs)



FIGURES = (("time per bundle", "ms_per_record", "ms"),
           ("CPU per bundle (the command and its workers)", "cpu_ms_per_record", "ms"),
           ("cores kept busy (CPU time / wall time)", "cores_busy", ""),
           ("records/s", "records_per_s", "records/s"),
           ("peak RSS of one process", "max_rss_mib", "MiB"),
           ("peak RSS of the process tree", "tree_rss_mib", "MiB"))


def _print_figures(runs: list[dict[str, Any]]) -> None:
    """Min / median / max of each figure over the runs, one line each."""
    for label, key, unit in FIGURES:
        print(_line(label, runs, key, unit), flush=True)

if __name__ == "__main__":
    main()
