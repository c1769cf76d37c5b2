"""The named bots: `random` (the kernel's uniform choice over legal moves).

A greedy bot exists on branch `rr-bots` (it beat `random` in 199 of 200 two-player matches) but is
not shipped: on one conformance table (four seats, own engineers usable without limit) a single
decision of it ran for minutes, which the suite cannot afford; see the issue note."""

from __future__ import annotations

from typing import Any

from domain.kernel.contract import Bot


def bots(rules: Any) -> dict[str, Bot]:
    return {"random": rules.random_bot}
