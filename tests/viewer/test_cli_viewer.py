"""The replay viewer from the CLI: `ringside show MATCH --svg FILE` writes the board the page shows
(at any position, as any viewer, from a store or a bundle file), `show` without it imports none of
the viewer, and `ringside view MATCH` serves the local store and prints the page's URL, or names
a remote server's page."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from xml.etree import ElementTree

import httpx
import pytest
from click.testing import CliRunner

from replay_cli.main import cli
from tests.api.support import reserve_port
from tests.support.games import PYTHONPATH

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "data"
    monkeypatch.setenv("RINGSIDE_DATA_DIR", str(path))
    for name in ("RINGSIDE_DATABASE_URL", "RINGSIDE_URL", "RINGSIDE_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    return path


def ringside(*args: str, code: int = 0) -> str:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    assert result.exit_code == code, (args, result.exit_code, result.stdout, result.stderr)
    return result.stdout


def simulated(game: str = "test-dicevote", *extra: str) -> tuple[str, int]:
    played = json.loads(ringside("simulate", game, "-n", "1", "--seed", "4", *extra, "--json"))["results"][0]
    return str(played["match_id"]), int(played["events"])


def seat_scores(svg: str) -> dict[int, int]:
    scores = {}
    for panel in ElementTree.fromstring(svg).iter():
        marked = [node for node in panel.iter() if "data-score" in node.attrib]
        if "data-seat" in panel.attrib and marked:
            scores[int(panel.attrib["data-seat"])] = int(marked[0].attrib["data-score"])
    return scores


def test_show_svg_writes_the_board_at_a_position_as_a_viewer(store: Path, tmp_path: Path) -> None:
    match_id, last = simulated("test-dicevote", "-o", "rounds=8")
    ringside("export", match_id, "-o", "m.jsonl")
    for at in (1, last // 2, last):
        for viewer in ("spectator", "seat:1", "arbiter"):
            target = tmp_path / f"board-{at}-{viewer.replace(':', '')}.svg"
            ringside("show", match_id, "--at", str(at), "--as", viewer, "--svg", str(target))
            svg = target.read_text()
            root = ElementTree.fromstring(svg)
            assert root.tag.endswith("svg") and root.attrib["data-seq"] == str(at)
            assert root.attrib["data-game"] == "test-dicevote"
            view = json.loads(ringside("show", match_id, "--at", str(at), "--as", viewer, "--json"))
            assert seat_scores(svg) == dict(enumerate(view["scores"]))
            from_bundle = ringside("show", "m.jsonl", "--at", str(at), "--as", viewer, "--svg", "-")
            assert from_bundle.strip() == svg.strip()
    refused = CliRunner().invoke(cli, ["show", match_id, "--svg", str(tmp_path / "no-such-dir" / "b.svg")])
    assert refused.exit_code == 2 and "cannot write" in refused.stderr


def test_show_without_svg_imports_none_of_the_viewer(store: Path) -> None:
    """`show` is a measured fast path: the board drawings and the API load only for --svg."""
    match_id, _ = simulated()
    probe = ("import sys; from replay_cli.main import cli\n"
             f"try: cli(['show', '{match_id}', '--at', '3'])\n"
             "except SystemExit: pass\n"
             "print('LOADED', sorted(m for m in sys.modules\n"
             "                       if m == 'api' or m.startswith(('api.', 'replay_cli.viewer'))))")
    env = {**os.environ, "PYTHONPATH": PYTHONPATH}
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env, cwd=ROOT,
                          timeout=120, check=True)
    assert "LOADED []" in done.stdout, done.stdout + done.stderr


def test_view_serves_the_local_store_and_prints_the_page(store: Path) -> None:
    match_id, last = simulated()
    reservation = reserve_port()
    port = reservation.getsockname()[1]
    env = {**os.environ, "PYTHONPATH": PYTHONPATH}
    process = subprocess.Popen([sys.executable, "-m", "replay_cli", "--store", str(store), "view", match_id[:8],
                                "--at", "3", "--no-browser", "--port", str(port)],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env, cwd=ROOT, text=True)
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        url = f"http://127.0.0.1:{port}/view/{match_id}?at=3"
        assert url in line, line
        page = None
        for _ in range(600):  # the server prints its own line once it listens
            try:
                page = httpx.get(url, timeout=1)
                break
            except httpx.HTTPError:
                if process.poll() is not None:
                    raise AssertionError(process.stdout.read()) from None
                time.sleep(0.1)
        assert page is not None and page.status_code == 200
        assert f'data-match="{match_id}"' in page.text and f'data-version="{last}"' in page.text
    finally:
        process.send_signal(signal.SIGINT)
        process.wait(timeout=30)
        reservation.close()


def test_view_names_a_remote_servers_page_and_refuses_a_bundle(store: Path) -> None:
    match_id = "3f2a6b1c-0000-4000-8000-000000000001"
    printed = ringside("--url", "http://hall.example:8000/", "view", match_id, "--at", "12", "--no-browser")
    assert printed.strip() == f"http://hall.example:8000/view/{match_id}?at=12"
    played, _ = simulated()
    ringside("export", played, "-o", "m.jsonl")
    refused = CliRunner().invoke(cli, ["view", "m.jsonl", "--no-browser"])
    assert refused.exit_code == 2 and "import it first" in refused.stderr
