"""Who is looking (viewers) and who acted (actors).

Every read is made as a viewer, so every place that shows state or events can ask
`viewer.sees_all` or `viewer.is_seat(n)` instead of re-deriving roles.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

ViewerKind = Literal["seat", "spectator", "arbiter"]
ActorKind = Literal["seat", "substitute", "arbiter", "recorder", "bot", "system", "annotator"]


@dataclass(frozen=True)
class Viewer:
    """A seat (its own hidden information), a spectator (public only) or an arbiter (everything)."""

    kind: ViewerKind
    seat: int | None = None

    @classmethod
    def of_seat(cls, seat: int) -> Viewer:
        return cls("seat", seat)

    @classmethod
    def spectator(cls) -> Viewer:
        return cls("spectator")

    @classmethod
    def arbiter(cls) -> Viewer:
        return cls("arbiter")

    @classmethod
    def parse(cls, text: str) -> Viewer:
        """Parse "spectator", "arbiter", "seat:2" or "2"."""
        text = text.strip().lower()
        if text in ("spectator", "arbiter"):
            return cls(text)  # type: ignore[arg-type]
        number = text.removeprefix("seat:").removeprefix("seat")
        if number.isdigit():
            return cls.of_seat(int(number))
        raise ValueError(f"not a viewer: {text!r} (use spectator, arbiter or seat:N)")

    @property
    def sees_all(self) -> bool:
        return self.kind == "arbiter"

    def is_seat(self, seat: int) -> bool:
        return self.kind == "seat" and self.seat == seat

    def __str__(self) -> str:
        return f"seat:{self.seat}" if self.kind == "seat" else self.kind


@dataclass(frozen=True)
class Actor:
    """Who caused an event. A seat's move may be made by its player, a substitute, an arbiter,
    a recorder or a bot; `seat` then names the seat acted for."""

    kind: ActorKind
    seat: int | None = None
    name: str | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind}
        if self.seat is not None:
            data["seat"] = self.seat
        if self.name is not None:
            data["name"] = self.name
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Actor:
        return cls(data["kind"], data.get("seat"), data.get("name"))

    @classmethod
    def system(cls) -> Actor:
        return cls("system")

    @classmethod
    def player(cls, seat: int) -> Actor:
        return cls("seat", seat)

    @classmethod
    def arbiter(cls, name: str | None = None) -> Actor:
        return cls("arbiter", None, name)


def count_of(value: Any) -> int:
    """How many items a pile in a view holds: a pile hidden from the viewer is `{"count": n}`
    (as redaction and position views make it), an open one a list; anything else holds none."""
    if isinstance(value, dict):
        return int(value.get("count") or 0)
    return len(value) if isinstance(value, list) else 0
