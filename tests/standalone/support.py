"""Reading the shipped test vectors."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
VECTORS = ROOT / "tools" / "vectors"
VERIFIER = ROOT / "tools" / "ringside_verify.py"
SPEC = ROOT / "docs" / "bundle-format.md"


def index() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((VECTORS / "index.json").read_text(encoding="utf-8"))
    return loaded


def vectors() -> list[dict[str, Any]]:
    listed: list[dict[str, Any]] = index()["vectors"]
    return listed


def receipts_of(vector: dict[str, Any]) -> list[Any] | None:
    if vector["receipts"] is None:
        return None
    loaded: list[Any] = json.loads((VECTORS / vector["receipts"]).read_text(encoding="utf-8"))
    return loaded


def outcome(report: Any) -> dict[str, Any]:
    """What index.json states of a report (standalone or the main verifier's)."""
    failure = report.divergence
    return {"ok": report.ok, "check": failure.check if failure else None, "seq": failure.seq if failure else None,
            "stream": failure.stream if failure else None}
