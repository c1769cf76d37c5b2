"""Tamper detection: changing any single byte of an exported bundle makes `ringside verify` exit 1
and name the first broken event (a property test over byte positions)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from replay_cli.main import cli

from .conftest import Run


@pytest.fixture
def bundle(run: Run, played: str, tmp_path: Path) -> bytes:
    run("annotate", played, "6", "an annotation to tamper with", "-g", "!")
    run("export", played, "-o", "original.jsonl")
    data = (tmp_path / "original.jsonl").read_bytes()
    assert run.json("verify", "original.jsonl")["ok"]
    return data


def _line_of(data: bytes, position: int) -> tuple[int, bytes]:
    """The 1-based line holding byte `position` (a newline belongs to the line it ends)."""
    number = data.count(b"\n", 0, position) + 1
    lines = data.split(b"\n")
    return number, lines[number - 1]


def _expected(data: bytes, position: int) -> tuple[str, int | None]:
    """Which record the changed byte belongs to: ("match", seq), ("annotations", seq) or ("bundle", None)."""
    number, line = _line_of(data, position)
    total = data.count(b"\n")
    if number == 1 or number >= total:
        return "bundle", None
    record = json.loads(line)
    stream = "annotations" if record["type"] == "annotation" else "match"
    return stream, int(record["seq"])


def check_tampered(data: bytes, position: int, delta: int, tmp_path: Path) -> None:
    tampered = bytearray(data)
    tampered[position] = (tampered[position] + delta) % 256
    path = tmp_path / "tampered.jsonl"
    path.write_bytes(bytes(tampered))
    runner = CliRunner()
    result = runner.invoke(cli, ["verify", str(path), "--json"], catch_exceptions=False)
    assert result.exit_code == 1, f"byte {position} changed, verify exited {result.exit_code}: {result.output}"
    report = json.loads(result.stdout)
    divergence = report["divergence"]
    stream, seq = _expected(data, position)
    if stream == "bundle":
        assert divergence["seq"] is None or divergence["stream"] == "match", divergence
        return
    assert (divergence["stream"], divergence["seq"]) == (stream, seq), (
        f"byte {position} of {stream} event {seq} changed "
        f"({data[max(0, position - 20):position + 20]!r}); report named {divergence}")
    human = runner.invoke(cli, ["verify", str(path)], catch_exceptions=False)
    assert human.exit_code == 1
    assert f"event {seq}" in human.stdout


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(fraction=st.floats(min_value=0, max_value=1, exclude_max=True), delta=st.integers(1, 255))
def test_any_changed_byte_is_caught_and_located(bundle: bytes, tmp_path: Path, fraction: float, delta: int) -> None:
    check_tampered(bundle, int(fraction * len(bundle)), delta, tmp_path)


def test_every_line_boundary_and_type_field(bundle: bytes, tmp_path: Path) -> None:
    """The awkward bytes: each newline, each line's first byte, and the `type` key and value."""
    positions: set[int] = set()
    offset = 0
    for line in bundle.split(b"\n")[:-1]:
        positions.update({offset, offset + len(line)})
        for marker in (b'"type":', b'"event"', b'"annotation"', b'"seq":', b'"stream":'):
            found = line.find(marker)
            if found >= 0:
                positions.update({offset + found + 1, offset + found + len(marker) - 2})
        offset += len(line) + 1
    for position in sorted(p for p in positions if p < len(bundle)):
        check_tampered(bundle, position, 1, tmp_path)
