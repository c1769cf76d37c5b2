"""A store that cannot be opened is said in one line that names the file and what is wrong with it,
with exit status 2 (docs/cli.md: bad input), from every local command, `ringside serve` and
`python -m api`: a damaged, empty, truncated, encrypted or non-Ed25519 `server-key.pem`, a data
directory that cannot be created or written. Never a traceback.

Root may write anywhere, so for the read-only cases the command runs without the capabilities
that let root ignore file modes (`setpriv --bounding-set -dac_override,...`)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, rsa

from .conftest import ROOT, subprocess_env

Shell = Callable[..., subprocess.CompletedProcess[str]]


def _pem(key: object, encryption: serialization.KeySerializationEncryption | None = None) -> bytes:
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,  # type: ignore[attr-defined]
                             encryption or serialization.NoEncryption())


GOOD = _pem(ed25519.Ed25519PrivateKey.generate())
BAD_KEYS = {
    "garbage": (b"this is not a key\n", "not a readable PEM private key"),
    "empty": (b"", "is empty"),
    "blank": (b"\n\n  \n", "is empty"),
    "truncated": (GOOD[: len(GOOD) // 2], "not a readable PEM private key"),
    "cut-after-header": (GOOD.splitlines(keepends=True)[0], "not a readable PEM private key"),
    "binary": (bytes(range(256)), "not a readable PEM private key"),
    "ec": (_pem(ec.generate_private_key(ec.SECP256R1())), "is an EC key, not an Ed25519 one"),
    "rsa": (_pem(rsa.generate_private_key(65537, 1024)), "is an RSA key, not an Ed25519 one"),
    "encrypted": (_pem(ed25519.Ed25519PrivateKey.generate(), serialization.BestAvailableEncryption(b"pw")),
                  "is encrypted"),
    "public-key": (ed25519.Ed25519PrivateKey.generate().public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo), "not a readable PEM private key"),
}
LOCAL_COMMANDS = [("matches",), ("new", "test-dicevote", "-p", "a", "-p", "b"), ("show", "3f2a"), ("log", "3f2a"),
                  ("verify", "3f2a"), ("prune-answers", "--older-than", "7d"), ("annotate", "3f2a", "1", "hm"),
                  ("export", "3f2a"), ("simulate", "test-dicevote", "-n", "1")]


def _one_line(done: subprocess.CompletedProcess[str], *expected: str) -> str:
    assert done.returncode == 2, (done.returncode, done.stdout, done.stderr)
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, done.stderr
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr, done.stderr
    for text in expected:
        assert text in lines[0], lines[0]
    return lines[0]


def _serve(data_dir: Path, env: dict[str, str], prefix: tuple[str, ...] = ()) -> list[subprocess.CompletedProcess[str]]:
    """`ringside serve` and `python -m api` on the data directory: both must refuse to start."""
    runs = []
    for command in (["-m", "replay_cli", "serve", "--port", "1", "--data-dir", str(data_dir)],
                    ["-m", "api", "--port", "1", "--data-dir", str(data_dir)]):
        runs.append(subprocess.run([*prefix, sys.executable, *command], capture_output=True, text=True,
                                   cwd=ROOT, env=env, timeout=60))
    return runs


@pytest.mark.parametrize("kind", sorted(BAD_KEYS))
def test_a_key_file_that_cannot_be_used_is_named_in_one_line(data_dir: Path, sh: Shell, kind: str) -> None:
    content, expected = BAD_KEYS[kind]
    data_dir.mkdir(parents=True)
    key = data_dir / "server-key.pem"
    key.write_bytes(content)
    commands = LOCAL_COMMANDS if kind == "garbage" else LOCAL_COMMANDS[:1]
    for command in commands:
        _one_line(sh(*command, code=None), str(key), expected)
    for done in _serve(data_dir, subprocess_env(data_dir)):
        _one_line(done, str(key), expected)
    assert key.read_bytes() == content  # never replaced: it signs the records already there


def test_a_key_file_that_is_a_directory_is_named(data_dir: Path, sh: Shell) -> None:
    (data_dir / "server-key.pem").mkdir(parents=True)
    _one_line(sh("matches", code=None), str(data_dir / "server-key.pem"), "is a directory")


def test_a_data_directory_that_is_a_file_is_named(tmp_path: Path, sh: Shell) -> None:
    (tmp_path / "plain").write_text("x")
    _one_line(sh("--store", str(tmp_path / "plain"), "matches", code=None), str(tmp_path / "plain"), "not a directory")


def test_a_bundle_file_is_read_whatever_the_store(data_dir: Path, sh: Shell, tmp_path: Path) -> None:
    """Commands on a bundle file never open the store, so a broken store does not stop them."""
    match_id = sh("new", "test-dicevote", "-p", "a", "-p", "b", "--json").stdout
    sh("export", match_id.split('"match_id": "')[1].split('"')[0], "-o", str(tmp_path / "m.jsonl"))
    origin = json.loads((tmp_path / "m.jsonl").read_text().splitlines()[0])["keys"]
    (data_dir / "server-key.pem").write_bytes(b"")
    assert sh("show", str(tmp_path / "m.jsonl")).returncode == 0
    untrusted = sh("verify", str(tmp_path / "m.jsonl"), code=1)  # the local key unreadable: nothing is trusted
    assert untrusted.returncode == 1 and "cannot be read" in untrusted.stderr and "NOT TRUSTED" in untrusted.stdout
    assert sh("verify", str(tmp_path / "m.jsonl"), "--trust", *origin.values()).returncode == 0


def _without_root_powers() -> tuple[str, ...]:
    if os.geteuid() != 0:
        return ()
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("running as root without setpriv: file modes do not bind root")
    return (setpriv, "--bounding-set", "-dac_override,-dac_read_search", "--")


def _run(prefix: tuple[str, ...], env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*prefix, sys.executable, "-m", "replay_cli", *args], capture_output=True, text=True,
                          cwd=ROOT, env=env, timeout=60)


def test_a_read_only_data_directory_is_named_in_one_line(data_dir: Path, sh: Shell) -> None:
    prefix = _without_root_powers()
    env = subprocess_env(data_dir)
    sh("new", "test-dicevote", "-p", "a", "-p", "b")  # a store with a match in it, then made read-only
    data_dir.chmod(0o500)
    try:
        for command in LOCAL_COMMANDS[:4]:
            _one_line(_run(prefix, env, *command), str(data_dir), "not writable")
        for done in _serve(data_dir, env, prefix):
            _one_line(done, str(data_dir), "not writable")
        inner = data_dir / "more"
        _one_line(_run(prefix, env, "--store", str(inner), "matches"), str(inner), "cannot create the data directory")
    finally:
        data_dir.chmod(0o700)
    assert oct(data_dir.stat().st_mode & 0o777) == "0o700"


def test_a_read_only_store_file_is_named_in_one_line(data_dir: Path, sh: Shell) -> None:
    prefix = _without_root_powers()
    sh("new", "test-dicevote", "-p", "a", "-p", "b")
    store = data_dir / "ringside.sqlite3"
    store.chmod(0o400)
    try:
        _one_line(_run(prefix, subprocess_env(data_dir), "matches"), str(store), "not readable and writable")
    finally:
        store.chmod(0o600)


def test_a_damaged_database_file_is_named_in_one_line(data_dir: Path, sh: Shell) -> None:
    sh("new", "test-dicevote", "-p", "a", "-p", "b")
    for name in ("ringside.sqlite3", "index.sqlite3"):
        for suffix in ("-wal", "-shm"):
            (data_dir / f"{name}{suffix}").unlink(missing_ok=True)
    (data_dir / "index.sqlite3").write_bytes(b"not a database at all" * 100)
    _one_line(sh("matches", code=None), str(data_dir / "index.sqlite3"))
    (data_dir / "ringside.sqlite3").write_bytes(b"not a database at all" * 100)
    _one_line(sh("matches", code=None), str(data_dir / "ringside.sqlite3"), "not an SQLite database")
