"""Server-mode randomness: outcomes derived from a secret seed, provable after the reveal.

Each chance event's outcome is HMAC-SHA256(seed, canonical({match, entropy, seq, draw})) read as
an integer and mapped onto the weighted outcome line by rejection sampling, so there is no modulo
bias: a value that falls in the incomplete top block is rejected and `draw` is incremented. The
created event records only sha256(seed) (the commitment); when the seed is revealed anyone can
recompute every outcome and check it against the record.

`entropy` is the creation-time entropy (the created event's list) and, in a match created with
`entropy_from: "seats"`, each seat's own entropy after it, in seat order (`MatchFold.entropy`):
seats add it after the commitment is recorded and before the first draw, so neither the server
(which chose the seed without knowing it) nor a seat (which never sees the seed) can choose an
outcome. A match without seat entropy derives from the creation list alone, exactly as before.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import secrets
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

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
    message = _draw_message(match_id, entropy, seq)
    draw = 0
    while True:
        # the one-shot HMAC: the same bytes as hmac.new(key, message, sha256).digest(), in one C call
        # (named by its constructor: by the name "sha256", OpenSSL looks the digest up at every call)
        value = int.from_bytes(hmac.digest(key, message(draw), hashlib.sha256), "big") & mask
        if value < bound:
            return value, draw
        draw += 1


def _draw_message(match_id: str, entropy: list[str], seq: int) -> Callable[[int], bytes]:
    """The HMAC message of each draw: `encode({"match", "entropy", "seq", "draw"})`. Verification
    derives every chance outcome of a record again, so the part that does not change between
    draws is encoded once and the counter spliced in: canonical JSON sorts the keys (draw,
    entropy, match, seq) and writes an integer as its decimal digits, so the bytes are the same
    (tests/kernel/test_chance.py compares them with `encode`). A seq that is not a plain integer
    takes `encode` itself."""
    if type(seq) is not int:
        return lambda draw: encode({"match": match_id, "entropy": entropy, "seq": seq, "draw": draw})
    if type(match_id) is str and all(type(item) is str for item in entropy):
        middle = _middle(match_id, tuple(entropy))
    else:  # not what a match holds: encoded as it is, not kept
        middle = _middle.__wrapped__(match_id, tuple(entropy))
    tail = middle + str(seq).encode() + b"}"
    return lambda draw: b'{"draw":' + str(draw).encode() + tail


@functools.lru_cache(maxsize=256)
def _middle(match_id: str, entropy: tuple[str, ...]) -> bytes:
    """What every draw message of a match shares (its entropy and ID), encoded once per match:
    texts only (a cache key of other values could stand for another value equal to it in Python,
    such as 1 and true)."""
    return b',"entropy":' + encode(list(entropy)) + b',"match":' + encode(match_id) + b',"seq":'


@dataclass(frozen=True)
class DerivedOutcome:
    outcome: JSON
    index: int
    draw: int


def derive_outcome(seed: str, match_id: str, entropy: list[str], seq: int, spec: ChanceSpec) -> DerivedOutcome:
    """The outcome of `spec` for the chance event at `seq` under this seed."""
    index, draw = derive_index(seed, match_id, entropy, seq, spec.total_weight())
    return DerivedOutcome(spec.pick(index), index, draw)


MAX_ENTROPY = 200
"""The longest seat entropy, in characters."""


def entropy_problem(text: Any) -> str | None:
    """Why `text` cannot be a seat's entropy, or None. Seat entropy is free text of 1–200
    characters (NFC), not only spaces, with no control characters; it is public once recorded."""
    if not isinstance(text, str):
        return "entropy must be text"
    if not text.strip():
        return "entropy must hold some text (1–200 characters, not only spaces)"
    if len(text) > MAX_ENTROPY:
        return f"entropy must be at most {MAX_ENTROPY} characters, not {len(text)}"
    bad = next((c for c in text if unicodedata.category(c) in ("Cc", "Cs")), None)
    if bad is not None:
        return f"entropy must not contain control characters (it contains U+{ord(bad):04X})"
    if not unicodedata.is_normalized("NFC", text):
        return "entropy must be in Unicode normal form C (NFC)"
    return None


def derive_salt(seed: str, match_id: str, seq: int) -> str:
    """A per-event salt for secret moves, so a hidden vote's hash cannot be guessed by trying
    every possible vote; derived from the seed so the record stays reproducible."""
    message = encode({"match": match_id, "salt": seq})
    return hmac.new(bytes.fromhex(seed), message, hashlib.sha256).hexdigest()[:32]
