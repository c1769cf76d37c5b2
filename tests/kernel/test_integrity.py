"""Integrity (brief §3): server key on first run, signed receipts that verify."""

from __future__ import annotations

import itertools
import stat
import uuid
from pathlib import Path

from domain.application import Ringside
from domain.kernel.integrity import Receipt, ServerKey
from tests.support.helpers import new_match, to_turn


def test_key_is_created_once_private_to_the_owner_and_reused(tmp_path: Path) -> None:
    first = ServerKey.load_or_create(tmp_path)
    second = ServerKey.load_or_create(tmp_path)
    assert first.key_id == second.key_id
    mode = stat.S_IMODE((tmp_path / "server-key.pem").stat().st_mode)
    assert mode == 0o600


def test_every_accepted_move_has_a_receipt_that_verifies(sqlite_app: Ringside) -> None:
    match_id = new_match(sqlite_app)
    accepted = sqlite_app.submit_move(match_id, to_turn(sqlite_app, match_id), {"type": "pass"})
    receipt = accepted.receipt
    assert receipt.verify(sqlite_app.key.public_hex)
    entry = sqlite_app.entries(match_id, receipt.seq, receipt.seq)[0]
    assert entry.hash == receipt.hash and entry.kind == "move"
    forged = Receipt(receipt.match_id, receipt.seq, "0" * 64, receipt.signature, receipt.key_id)
    assert not forged.verify(sqlite_app.key.public_hex)
    other = ServerKey.generate()
    assert not receipt.verify(other.public_hex)


def test_chain_links_every_event_to_the_one_before(sqlite_app: Ringside) -> None:
    match_id = new_match(sqlite_app)
    entries = sqlite_app.entries(match_id)
    assert entries[0].prev == "0" * 64
    for before, after in itertools.pairwise(entries):
        assert after.prev == before.hash
        assert after.expected_hash() == after.hash
        assert after.signature_valid(sqlite_app.key.public_hex)
    assert uuid.UUID(entries[0].stream) == match_id


def test_concurrent_first_starts_agree_on_one_key(tmp_path: Path) -> None:
    """Several workers starting at once on an empty data directory end up with the same key."""
    import threading

    found: list[str] = []
    barrier = threading.Barrier(6)

    def start() -> None:
        barrier.wait()
        found.append(ServerKey.load_or_create(tmp_path).key_id)

    threads = [threading.Thread(target=start) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(set(found)) == 1 and len(found) == 6
    assert [p.name for p in tmp_path.iterdir()] == ["server-key.pem"]
