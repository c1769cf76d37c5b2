"""The read models of one match: what a viewer sees of a fold, and a match's facts for lists and summaries.

Each is a pure function of a fold (and the viewer), so commands that answer with the state right
after them, queries at any position, and the API's streams all render one match the same way. The
list of matches is a read model of its own, projected from the notification log (`domain/store/index.py`).
"""

from __future__ import annotations

from typing import Any

from ..kernel.fold import MatchFold
from ..kernel.viewers import Viewer


def decision_json(fold: MatchFold) -> dict[str, Any]:
    """The fold's decision as JSON; a chance event that waits for seat entropy says from whom."""
    data = fold.decision.to_json()
    if fold.decision.chance is not None and fold.awaiting_entropy:
        data["awaiting_entropy"] = fold.awaiting_entropy
    return data


def state_view(fold: MatchFold, viewer: Viewer) -> dict[str, Any]:
    """What a viewer sees of a fold: position, decision, the game's own view and the scores."""
    return {
        "match_id": fold.match_id, "seq": fold.seq, "status": fold.status,
        "decision": decision_json(fold) if fold.status == "active" else {"over": True, "seats": []},
        "state": fold.ruleset.view(fold.state, viewer),
        "scores": list(fold.score_sheet().totals()),
        "end": fold.end,
    }


def summary(fold: MatchFold) -> dict[str, Any]:
    header = fold.header
    return {
        "match_id": fold.match_id, "game": header["game"], "variant": header["variant"],
        "options": header["options"], "seats": header["seats"], "status": fold.status,
        "version": fold.seq, "head": fold.head, "randomness": header["randomness"],
        "undo_policy": header["undo_policy"], "engine_version": header["engine_version"],
        "engine_mismatch": {"recorded": fold.recorded_engine, "running": fold.ruleset.engine_version}
        if fold.engine_mismatch else None,
        "components": header["components"], "seed_commitment": header["seed_commitment"],
        "signed_by": sorted(fold.signing_keys),
        "fork_of": header.get("fork_of"), "official": header.get("fork_of") is None,
        "setup": "position" if "position" in header else "standard",
        "created_at": fold.created_at, "last_activity": fold.last_at, "end": fold.end,
        "decision": decision_json(fold) if fold.status == "active" else None,
        "pending_undo": [r.to_json() for r in fold.undo.values() if r.status == "pending"],
        **({"entropy_from": fold.entropy_from, "awaiting_entropy": fold.awaiting_entropy}
           if fold.entropy_from is not None else {}),
    }

