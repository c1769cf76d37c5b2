"""Server-mode randomness (brief §5): HMAC derivation, rejection sampling, commitment."""

from __future__ import annotations

import hashlib
from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from domain.kernel.chance import commitment, derive_index, derive_outcome, derive_salt, new_seed
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
