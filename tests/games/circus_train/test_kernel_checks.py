"""The kernel's engine-tier conformance checks (tests/conformance/harness.py) run with the optional
rules on: the kernel suite itself plays default options only. CT-21.1, CT-3.3."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conformance import harness

from .helpers import R, cfg

MODES = [("basic", 2), ("basic", 3), ("basic", 5), ("advanced", 3), ("advanced", 4),
         ("solitaire", 1), ("solitaire-advanced", 1)]
OPTIONS: dict[str, dict[str, Any]] = {
    "characters": {"special_characters": True},
    "events": {"event_cards": True},
    "simpler": {"simpler": True},
    "all": {"special_characters": True, "event_cards": True},
}


@pytest.mark.parametrize(("variant", "seats"), MODES)
@pytest.mark.parametrize("preset", list(OPTIONS))
def test_kernel_engine_checks_with_options(variant: str, seats: int, preset: str,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    _with_options(monkeypatch, preset)
    case = harness.Case(R.name, variant, seats)
    state_hash, steps = harness.play_checked(case, seed=seats * 31 + len(preset), deep_every=3)
    assert steps > 0 and state_hash


@pytest.mark.slow
@pytest.mark.parametrize(("variant", "seats"), MODES)
@pytest.mark.parametrize("preset", list(OPTIONS))
def test_kernel_engine_checks_with_options_many_seeds(variant: str, seats: int, preset: str,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    _with_options(monkeypatch, preset)
    for seed in range(20):
        harness.play_checked(harness.Case(R.name, variant, seats), seed=1000 + seed)


def _with_options(monkeypatch: pytest.MonkeyPatch, preset: str) -> None:
    """Make the harness build its Circus Train configurations with the preset's options on."""
    options = OPTIONS[preset]
    monkeypatch.setattr(harness, "config_for", lambda case: cfg(case.seats, case.variant, **options))
