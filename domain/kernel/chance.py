"""Server-mode randomness: outcomes derived from a secret seed, provable after the reveal.

Each chance event's outcome is HMAC-SHA256(seed, canonical({match, entropy, seq, draw})) read as
an integer and mapped onto the weighted outcome line by rejection sampling, so there is no modulo
bias: a value that falls in the incomplete top block is rejected and `draw` is incremented. The
created event records only sha256(seed) (the commitment); when the seed is revealed anyone can
recompute every outcome and check it against the record.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass

from .canonical import JSON, encode
from .contract import ChanceSpec


def new_seed() -> str:
    """A fresh 256-bit secret seed as hex."""
    return secrets.token_hex(32)


def commitment(seed: str) -> str:
    """What the created event publishes: the seed's SHA-256."""
    return hashlib.sha256(bytes.fromhex(seed)).hexdigest()


def derive_index(seed: str, match_id: str, entropy: list[str], seq: int, bound: int) -> tuple[int, int]:
    """A uniform integer in [0, bound) for the event at `seq`, and the draw counter that gave it."""
    if bound <= 0:
        raise ValueError("a chance event needs at least one possible outcome")
    key = bytes.fromhex(seed)
    bits = max(1, (bound - 1).bit_length())
    mask = (1 << bits) - 1
    draw = 0
    while True:
        message = encode({"match": match_id, "entropy": entropy, "seq": seq, "draw": draw})
        value = int.from_bytes(hmac.new(key, message, hashlib.sha256).digest(), "big") & mask
        if value < bound:
            return value, draw
        draw += 1


@dataclass(frozen=True)
class DerivedOutcome:
    outcome: JSON
    index: int
    draw: int


def derive_outcome(seed: str, match_id: str, entropy: list[str], seq: int, spec: ChanceSpec) -> DerivedOutcome:
    """The outcome of `spec` for the chance event at `seq` under this seed."""
    index, draw = derive_index(seed, match_id, entropy, seq, spec.total_weight())
    return DerivedOutcome(spec.pick(index), index, draw)


def derive_salt(seed: str, match_id: str, seq: int) -> str:
    """A per-event salt for secret moves, so a hidden vote's hash cannot be guessed by trying
    every possible vote; derived from the seed so the record stays reproducible."""
    message = encode({"match": match_id, "salt": seq})
    return hmac.new(bytes.fromhex(seed), message, hashlib.sha256).hexdigest()[:32]
