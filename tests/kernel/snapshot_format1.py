"""A fold's snapshot in the shapes stores written before the current format hold, to check that
such snapshots still load: format 1 (every field in plain JSON, the steps a list, every
retraction) and format 2 (packed like format 3, but every map in the fold's record)."""

from __future__ import annotations

from typing import Any

from domain.kernel.fold import MatchFold
from domain.kernel.steps import pack


def format1(fold: MatchFold) -> dict[str, Any]:
    data = fold._record_json()
    data["steps"] = [step.to_json() for step in fold.steps]
    return data


def format2(fold: MatchFold) -> dict[str, Any]:
    data = fold.to_snapshot()
    del data["packed"]
    return {**data, "format": 2, "fold": pack(fold._record_json())}
