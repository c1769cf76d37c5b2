"""Server-mode randomness (brief §5): HMAC derivation, rejection sampling, commitment."""

from __future__ import annotations

import hashlib
import hmac
from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from domain.kernel.canonical import digest, encode
from domain.kernel.chance import _draw_message, commitment, derive_index, derive_outcome, derive_salt, new_seed
from domain.kernel.contract import ChanceSpec

SEED = "11" * 32


def test_commitment_is_the_seed_hash() -> None:
    seed = new_seed()
    assert len(seed) == 64 and seed != new_seed()
    assert commitment(seed) == hashlib.sha256(bytes.fromhex(seed)).hexdigest()


@given(st.integers(min_value=1, max_value=10_000), st.integers(min_value=1, max_value=500))
def test_index_is_always_in_range_and_reproducible(bound: int, seq: int) -> None:
    index, draw = derive_index(SEED, "m", [], seq, bound)
    assert 0 <= index < bound and draw >= 0
    assert derive_index(SEED, "m", [], seq, bound) == (index, draw)


def test_rejection_sampling_is_unbiased_and_rejects_the_top_block() -> None:
    """bound 5 needs 3 bits (0..7): values 5..7 are rejected, not folded onto 0..2 by modulo."""
    results = [derive_index(SEED, "m", [], seq, 5) for seq in range(6000)]
    counts = Counter(index for index, _ in results)
    assert set(counts) == {0, 1, 2, 3, 4}
    assert all(1050 < count < 1350 for count in counts.values()), counts
    assert any(draw > 0 for _, draw in results), "some draws must have been rejected and redrawn"


def test_weights_are_respected_and_entropy_changes_outcomes() -> None:
    spec = ChanceSpec("bag", (("rare", 1), ("common", 9)))
    outcomes = Counter(derive_outcome(SEED, "m", [], seq, spec).outcome for seq in range(2000))
    assert 120 < outcomes["rare"] < 290
    with_entropy = [derive_outcome(SEED, "m", ["player noise"], seq, spec).outcome for seq in range(50)]
    without = [derive_outcome(SEED, "m", [], seq, spec).outcome for seq in range(50)]
    assert with_entropy != without


def test_pick_walks_the_weighted_line() -> None:
    spec = ChanceSpec("bag", (("a", 1), ("b", 3)))
    assert [spec.pick(i) for i in range(4)] == ["a", "b", "b", "b"]
    assert spec.weight_of("b") == 3 and spec.weight_of("z") == 0


def test_salts_differ_per_event_and_are_reproducible() -> None:
    assert derive_salt(SEED, "m", 3) == derive_salt(SEED, "m", 3) != derive_salt(SEED, "m", 4)


def _defining_index(seed: str, match_id: str, entropy: list[str], seq: int, bound: int) -> tuple[int, int]:
    """derive_index as the module docstring defines it, with every draw's message encoded whole."""
    mask = (1 << max(1, (bound - 1).bit_length())) - 1
    draw = 0
    while True:
        message = encode({"match": match_id, "entropy": entropy, "seq": seq, "draw": draw})
        value = int.from_bytes(hmac.new(bytes.fromhex(seed), message, hashlib.sha256).digest(), "big") & mask
        if value < bound:
            return value, draw
        draw += 1


_texts = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=12)


@given(_texts, st.lists(_texts, max_size=3), st.integers(min_value=0, max_value=2**80),
       st.integers(min_value=0, max_value=1000))
def test_each_draws_message_is_the_canonical_encoding(match_id: str, entropy: list[str], seq: int, draw: int) -> None:
    """The message spliced from a prefix encoded once is byte for byte `encode` of the whole
    (non-NFC text, integers beyond 64 bits too), so every recorded outcome derives as before."""
    wanted = encode({"match": match_id, "entropy": entropy, "seq": seq, "draw": draw})
    assert _draw_message(match_id, entropy, seq)(draw) == wanted


@given(_texts, st.lists(_texts, max_size=3), st.integers(min_value=1, max_value=10**6),
       st.integers(min_value=1, max_value=10**5))
def test_derive_index_is_the_defining_derivation(match_id: str, entropy: list[str], seq: int, bound: int) -> None:
    assert derive_index(SEED, match_id, entropy, seq, bound) == _defining_index(SEED, match_id, entropy, seq, bound)


_outcomes = st.recursive(st.none() | st.booleans() | st.integers(min_value=-3, max_value=3)
                         | st.sampled_from(["é", "e\u0301", "a", "A", "1", "true"]),
                         lambda inner: st.lists(inner, max_size=2) | st.dictionaries(st.sampled_from(["k", "é"]), inner,
                                                                                    max_size=2), max_leaves=4)


@given(_outcomes, st.lists(st.tuples(_outcomes, st.integers(min_value=1, max_value=5)), max_size=6))
def test_weight_of_is_the_weight_of_equal_canonical_encodings(outcome: object,
                                                              outcomes: list[tuple[object, int]]) -> None:
    """Text compared in NFC, integers apart from booleans, anything else by its encoding: the same
    weight as comparing digests of every candidate, which is what it was defined by."""
    spec = ChanceSpec("draw", tuple(outcomes))
    wanted = sum(weight for candidate, weight in outcomes if digest(candidate) == digest(outcome))
    assert spec.weight_of(outcome) == wanted
