"""What one Russian Railroads drawing is made from: the viewer's view, the match's component set
and the few readings of them every part of the drawing needs.

Why one object: the table and the player boards read the same seats, placements and component
set; reading them once here keeps the parts small and certain to agree. It holds nothing but the
view (and the public component set the match names), so nothing hidden can reach the drawing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from domain.games.russian_railroads.components import ActionSpace, IndustrySpace, RussianRailroadsComponents

WIDTH = 1280
"""The drawing's width in user units: two player boards side by side at 1280×800."""
MARGIN = 16


@dataclass(frozen=True)
class Seen:
    summary: dict[str, Any]
    view: dict[str, Any]
    viewer: str | None
    components: RussianRailroadsComponents
    lane: tuple[IndustrySpace, ...]
    state: dict[str, Any] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "state", self.view.get("state") or {})

    # ---- seats ------------------------------------------------------------------------------
    @property
    def seats(self) -> int:
        return len(self.state.get("players") or [])

    def player(self, seat: int) -> dict[str, Any]:
        return dict(self.state["players"][seat])

    def name(self, seat: int) -> str:
        """The seat's player name as the match records it (public: it is in the created event)."""
        for item in self.summary.get("seats") or []:
            if isinstance(item, dict) and item.get("seat") == seat and item.get("player"):
                return str(item["player"])
        return f"seat {seat}"

    def score(self, seat: int) -> int:
        scores = self.view.get("scores") or []
        return int(scores[seat]) if seat < len(scores) and isinstance(scores[seat], int) else 0

    def place(self, seat: int) -> int:
        """The seat's place in turn order, 1 first (0 before the cards are dealt, RR-2.18)."""
        positions = self.state.get("positions") or []
        return int(positions[seat]) if seat < len(positions) else 0

    @property
    def to_move(self) -> list[int]:
        decision = self.view.get("decision") or {}
        return [seat for seat in decision.get("seats") or [] if isinstance(seat, int)]

    @property
    def viewer_seat(self) -> int | None:
        """The seat the viewer sits in (`seat:N`), None for a spectator or the arbiter."""
        text = str(self.viewer or "")
        number = text.removeprefix("seat:")
        return int(number) if text.startswith("seat:") and number.isdigit() else None

    # ---- the table --------------------------------------------------------------------------
    @property
    def placements(self) -> list[list[Any]]:
        return [list(p) for p in self.state.get("placements") or []]

    def on(self, space: str) -> list[list[Any]]:
        """What lies on `space` this round, in the order placed."""
        return [p for p in self.placements if p[0] == space]

    @property
    def last_round(self) -> bool:
        return bool(self.state.get("round")) and self.state.get("round") == self.state.get("rounds")

    def open_space(self, space: ActionSpace) -> bool:
        """Whether `space` is in play this round: it must be on this player count's board side
        (RR-3.6), and the last round covers the turn-order spaces and opens its own (RR-16.1,
        RR-16.2)."""
        if self.seats not in space.players:
            return False
        return space.last_round == "normal" or (space.last_round == "only") == self.last_round

    def label(self, kind: str, item_id: str) -> str:
        """The printed text of a card, token or factory of the component set ("" when unknown)."""
        lookup: dict[str, Callable[[str], Any]] = {
            "bonus": self.components.bonus_card, "face_up": self.components.card,
            "token": self.components.token, "starting": self.components.starting_card}
        try:
            return str(lookup[kind](item_id).label)
        except KeyError:
            return ""

    def factory_code(self, value: int) -> tuple[str, str]:
        """A factory's short code (`F7`) and its whole text, from the locomotive value on its face."""
        try:
            label = str(self.components.factory(value).label)
        except KeyError:
            return str(value), f"the factory of locomotive {value}"
        code = label.split(":", 1)[0]
        return (code if ":" in label and len(code) <= 3 else str(value)), f"{label} (locomotive {value})"
