"""Odd input to the `ringside` command, run as a real subprocess: one clear line on stderr and the
documented exit status (docs/cli.md: 1 refused or does not verify, 2 bad usage or input), never a
traceback or an internal error (3)."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

Shell = Callable[..., subprocess.CompletedProcess[str]]

DEEP = "[" * 50_000 + "]" * 50_000  # one argument may be at most 128 KiB
DEEP_OBJECT = '{"a":' * 50 + "1" + "}" * 50


def one_error_line(done: subprocess.CompletedProcess[str]) -> str:
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("ringside: error: "), done.stderr
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr, done.stderr
    return lines[0]


def test_deeply_nested_options_json_is_a_usage_error(sh: Shell, tmp_path: Path) -> None:
    for options in (DEEP, '{"rounds": ' + DEEP + "}", DEEP_OBJECT):
        done = sh("new", "test-dicevote", "-p", "a", "-p", "b", "--options-json", options, code=2)
        assert "nested too deeply" in one_error_line(done)
    done = sh("new", "test-dicevote", "-p", "a", "-p", "b", "-o", "rounds=" + DEEP, code=2)
    assert "nested too deeply" in one_error_line(done)
    (tmp_path / "deep.json").write_text(DEEP)
    done = sh("new", "test-dicevote", "-p", "a", "-p", "b", "--components", str(tmp_path / "deep.json"), code=2)
    assert "nested too deeply" in one_error_line(done)
    assert json.loads(sh("matches", "--json").stdout) == []  # nothing was created


def test_a_deeply_nested_move_is_a_usage_error(sh: Shell) -> None:
    match_id = json.loads(sh("new", "test-dicevote", "-p", "a", "-p", "b", "--json").stdout)["match_id"]
    done = sh("rule", match_id, "illegal-move-stands", "--seat", "0", "--move", DEEP, code=2)
    assert "nested too deeply" in one_error_line(done)
    assert json.loads(sh("show", match_id, "--json").stdout)["seq"] >= 1


def test_text_that_is_not_unicode_is_a_usage_error(sh: Shell) -> None:
    """Arguments that are not UTF-8 reach Python as lone surrogates (surrogateescape)."""
    match_id = json.loads(sh("new", "test-dicevote", "-p", "a", "-p", "b", "--json").stdout)["match_id"]
    before = sh("log", match_id, "--json").stdout
    done = sh("annotate", match_id, "1", "caf\udce9", code=2)
    assert "surrogate" in one_error_line(done)
    done = sh("new", "test-dicevote", "-p", "caf\udce9", "-p", "b", code=2)
    one_error_line(done)
    assert sh("log", match_id, "--json").stdout == before
    assert len(json.loads(sh("matches", "--json").stdout)) == 1


def test_a_full_store_is_said_plainly(sh: Shell, data_dir: Path, tmp_path: Path) -> None:
    import sys

    from .conftest import subprocess_env

    env = subprocess_env(data_dir, RINGSIDE_TEST_MAX_PAGES="12")  # a few matches fit
    for _ in range(200):
        done = subprocess.run([sys.executable, "-m", "tests.support.small_disk", "ringside", "new", "test-dicevote",
                               "-p", "a", "-p", "b"], capture_output=True, text=True, cwd=tmp_path, env=env,
                              timeout=120)
        if done.returncode != 0:
            break
    else:
        raise AssertionError("the store never filled up")
    assert done.returncode == 3, done.stderr
    assert "the store is full" in one_error_line_allowing_internal(done)
    assert sh("matches", "--json").stdout  # reading still works


def one_error_line_allowing_internal(done: subprocess.CompletedProcess[str]) -> str:
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("ringside: error: "), done.stderr
    assert "Traceback" not in done.stderr
    return lines[0]
