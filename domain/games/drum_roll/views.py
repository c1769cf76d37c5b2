"""What each viewer sees. Public: the rows, the supply, every circus (performers, cubes on them,
helpers, trailers), money, fame, tickets, regions and the markers placed. Hidden:
- the performer, helper and investment decks: nobody sees them (their size is public); the
  engine keeps no order, so there is no order to hide, and the arbiter sees each card drawn;
  the investment cards put under the deck after a look (DR-18.9) are hidden the same way;
- a seat's investment hand: that seat alone (the others see how many cards, DR-21); each card it
  draws is seen by it alone on the draw's chance event, whether from the deck, from under it or
  after the reshuffle (investments.py). Played and discarded cards are public (the investment
  discard pile), and the agenda's `hand_limit` step holds only the seat, never a card;
- the opening draft (DR-2.9): the two performers a seat drew and the one it keeps, that seat
  alone until every seat has chosen and the draft is revealed;
- a vote's ballots (DR-10.2): each seat sees its own; the others see "cast" until all are in;
- the investment cards a seat looks at for a reward (DR-18.9): held on the agenda while it draws
  and chooses (`look_draw`, `look_keep`), seen by that seat alone (the others see how many); the
  cards kept go to its hidden hand, the rest under the deck (hidden with it).
"""

from __future__ import annotations

from typing import Any

from domain.kernel.viewers import Viewer

from .rewards import hide_looks
from .state import State


def view(state: State, viewer: Viewer) -> dict[str, Any]:
    data = state.to_json()
    data["components"] = state.config.components.name
    if viewer.sees_all:
        return data
    for deck in ("performer_deck", "helper_deck", "investment_deck", "investment_bottom"):
        data[deck] = {"count": len(getattr(state, deck))}
    for seat, player in enumerate(data["players"]):
        if viewer.is_seat(seat):
            continue
        own = state.players[seat]
        player["hand"] = {"count": len(own.hand)}
        player["drawn"] = {"count": len(own.drawn)}
        player["kept"] = None if own.kept is None else "kept"
    hide_looks(data["agenda"], viewer.seat if viewer.kind == "seat" else None)
    if not all(vote is not None for vote in state.votes):  # DR-10.2: ballots open together
        data["votes"] = [vote if viewer.is_seat(seat) or vote is None else "cast"
                         for seat, vote in enumerate(state.votes)]
    return data
