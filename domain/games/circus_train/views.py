"""What each viewer sees (A-6): everything is public except the contents of the Local News bag, the
Destination deck and the undrawn event cards, of which only the counts are shown. Nobody sees an
order, since the engine keeps none: every draw is a chance decision over the remaining multiset.
"""

from __future__ import annotations

from typing import Any

from domain.kernel.viewers import Viewer

from .state import State


def view(state: State, viewer: Viewer) -> dict[str, Any]:
    data = state.to_json()
    if not viewer.sees_all:
        data["bag"] = {"count": len(state.bag)}
        data["deck"] = {"count": len(state.deck)}
        data["events_left"] = {"count": len(state.events_left)}
    month = state.month
    data["calendar"] = {
        "month": month.name,
        "season": month.season,
        "week": state.week + 1,
        "weeks_total": state.catalog.total_weeks,
    }
    data["components"] = state.config.components.name
    return data
