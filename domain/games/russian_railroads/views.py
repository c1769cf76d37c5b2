"""What each viewer sees: everything is public except
- each seat's final bonus cards, kept face down (RR-19.8, RR-21.2): that seat alone sees its own,
  the others see how many, until final scoring reveals them (RR-17.2);
- the final bonus deck: a seat sees its contents only while it is looking through it to take a
  card (RR-21.2), everyone else sees its size;
- the two final bonus cards removed unseen at setup (RR-2.3) and the engineers left in decks X
  and Y, which leave the game unseen (RR-2.8): only the arbiter sees them.
The engine keeps no deck order (every draw is a chance decision over what is left), so there is no
order to hide.
"""

from __future__ import annotations

from typing import Any

from domain.kernel.viewers import Viewer

from .state import State


def looking_at_deck(state: State, seat: int) -> bool:
    """True while `seat` is taking a final bonus card and so looks through the deck (RR-21.2)."""
    head = state.agenda[0] if state.agenda else None
    return head is not None and head.kind == "final_bonus" and head.seat == seat


def view(state: State, viewer: Viewer) -> dict[str, Any]:
    data = state.to_json()
    data["components"] = state.config.components.name
    data["rounds"] = state.rounds
    data["order"] = list(state.order()) if state.round else []
    if viewer.sees_all:
        return data
    revealed = state.over
    for seat, player in enumerate(data["players"]):
        if not revealed and not viewer.is_seat(seat):
            player["bonus_cards"] = {"count": len(state.players[seat].bonus_cards)}
    if not (viewer.kind == "seat" and viewer.seat is not None and looking_at_deck(state, viewer.seat)):
        data["bonus_deck"] = {"count": len(state.bonus_deck)}
    data["removed_bonus"] = {"count": len(state.removed_bonus)}
    data["decks"] = {deck: {"count": len(cards)} for deck, cards in state.decks.items()}
    return data
