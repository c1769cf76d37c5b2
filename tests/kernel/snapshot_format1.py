"""A fold's snapshot in format 1, the shape stores written before format 2 hold (every field in
plain JSON, the steps a list, every retraction): to check that such snapshots still load."""

from __future__ import annotations

from typing import Any

from domain.kernel.fold import MatchFold


def format1(fold: MatchFold) -> dict[str, Any]:
    data = fold._record_json()
    data["steps"] = [step.to_json() for step in fold.steps]
    return data
