"""Receipts against a record: the players' proof that the record did not change after the fact.

Every accepted command answers with a receipt: the server's signature over (match, seq, hash) of
its event. Someone with write access to the database can delete the last events of a match and
have the server sign different ones at the same positions: the rewritten record is itself
intact, and only a receipt issued before the change can show it. So a receipt whose signature is
valid by a key the record authorises (or a trusted key), but whose event is missing from the
record or has another hash, is proof that the record changed after the receipt was issued.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .integrity import head_message, is_hex, verify_signature
from .record import Entry

HOLDS = "holds"
MISSING = "missing"
DIFFERS = "differs"
INVALID = "invalid"
OTHER_MATCH = "other-match"
UNKNOWN_KEY = "unknown-key"
PROOF = (MISSING, DIFFERS)
"""The statuses that prove the record changed after the receipt was issued."""


@dataclass(frozen=True)
class ReceiptCheck:
    seq: int | None
    key_id: str | None
    status: str
    message: str

    @property
    def proves_change(self) -> bool:
        return self.status in PROOF

    def to_json(self) -> dict[str, Any]:
        return {"seq": self.seq, "key_id": self.key_id, "status": self.status, "message": self.message}


def parse_receipts(data: Any) -> list[dict[str, Any]]:
    """Receipts as a player keeps them: one receipt object, a list of them, a command's answer
    (`{"receipt": {...}, ...}`) or a list of answers, or JSON Lines of any of those."""
    if isinstance(data, dict) and "receipt" in data and isinstance(data["receipt"], dict):
        return [data["receipt"]]
    if isinstance(data, dict) and isinstance(data.get("receipts"), list):
        return parse_receipts(data["receipts"])
    if isinstance(data, dict):
        return [data]
    if isinstance(data, list):
        return [receipt for item in data for receipt in parse_receipts(item)]
    raise ValueError("receipts are JSON objects (or a list of them)")


def check_receipts(match_id: str, entries: Sequence[Entry], receipts: Sequence[Any],
                   public_keys: Mapping[str, str], authorised: set[str]) -> list[ReceiptCheck]:
    """Check each receipt against the record's entries. `public_keys` resolves key IDs (the
    bundle's keys and any trusted ones); `authorised` are the keys whose receipts count: the
    record's own keys and trusted keys. A receipt signed by anyone else proves nothing."""
    by_seq = {entry.seq: entry for entry in entries}
    checks = []
    for receipt in receipts:
        checks.append(_check_one(match_id, by_seq, receipt, public_keys, authorised))
    return checks


def _check_one(match_id: str, by_seq: Mapping[int, Entry], receipt: Any, public_keys: Mapping[str, str],
               authorised: set[str]) -> ReceiptCheck:
    if not isinstance(receipt, dict):
        return ReceiptCheck(None, None, INVALID, "not a receipt object")
    seq, hash_, key_id = receipt.get("seq"), receipt.get("hash"), receipt.get("key_id")
    signature = receipt.get("signature")
    if type(seq) is not int or seq < 1 or not is_hex(hash_, 64) or not isinstance(key_id, str) \
            or not isinstance(signature, str) or not isinstance(receipt.get("match_id"), str):
        return ReceiptCheck(seq if type(seq) is int else None, None, INVALID,
                            "a receipt needs match_id, seq, hash, signature and key_id")
    if receipt["match_id"] != match_id:
        return ReceiptCheck(seq, key_id, OTHER_MATCH, f"a receipt for match {receipt['match_id']}")
    public = public_keys.get(key_id)
    if key_id not in authorised or public is None:
        return ReceiptCheck(seq, key_id, UNKNOWN_KEY,
                            f"signed by key {key_id}, which neither signed this record nor is trusted: "
                            "it proves nothing about it")
    assert isinstance(hash_, str)
    if not verify_signature(public, head_message(match_id, seq, hash_), signature):
        return ReceiptCheck(seq, key_id, INVALID, "the receipt's signature is not valid: it proves nothing")
    entry = by_seq.get(seq)
    if entry is None:
        return ReceiptCheck(seq, key_id, MISSING,
                            f"the server signed event {seq} (hash {hash_[:16]}…) but the record has no event {seq}: "
                            "the record was cut after this receipt was issued")
    if entry.hash != hash_:
        return ReceiptCheck(seq, key_id, DIFFERS,
                            f"the server signed event {seq} with hash {hash_[:16]}… but the record's event {seq} "
                            f"has hash {entry.hash[:16]}…: the record was rewritten after this receipt was issued")
    return ReceiptCheck(seq, key_id, HOLDS, f"event {seq} is in the record as the receipt says")
