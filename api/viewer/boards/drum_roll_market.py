"""The shared table of the Drum Roll board: the performer and helper rows for hire, the action
board with this round's markers, the ticket track, the regions and the general supply with the
decks. Each section is a function of the `Table` that returns its group and its height, so the
board stacks them without knowing what they hold.

Everything here is public in every view (views.py): the decks are drawn as counts only.
"""

from __future__ import annotations

from typing import Any

from domain.kernel.viewers import count_of

from .drum_roll_parts import (
    FELT,
    INK,
    LEVEL_LETTERS,
    PAPER,
    Table,
    coin,
    cube,
    fit,
    panel,
    reward_text,
    seat_disc,
    tip,
    wrap,
)
from .svg import Element, el, group, seat_colour, text

CARD_W = 150
PERFORMER_H = 176
HELPER_H = 112
GAP = 8
SPACE_H = 62
ACTIONS = (("ticket", "Ticket sale"), ("investment", "Investment"), ("hire_performer", "Hire performer"),
           ("hire_helper", "Hire helper"))
"""The four action spaces besides the cube actions (actions.spaces), as the board names them."""


def row_cards(table: Table, key: str) -> list[tuple[str, int]]:
    """A row's cards and the discount tokens on each (DR-7.1), in row order."""
    return [(str(item[0]), int(item[1])) for item in table.state.get(key) or []
            if isinstance(item, list) and len(item) == 2]


def discount_dots(x: float, y: float, count: int) -> Element:
    """The discount tokens on a row card (DR-7.1), one dot each, or a number beyond six."""
    if count > 6:
        return text(x, y + 4, f"●×{count}", class_="small", fill="#8a1c1c")
    return group([el("circle", cx=x + 5 + i * 9, cy=y, r=3.6, fill="#8a1c1c") for i in range(count)])


def price(x: float, y: float, printed: int, discounts: int) -> Element:
    """The effective hiring cost on a coin, the printed one struck beside it when discounted."""
    parts: list[Element] = [coin(x, y, max(printed - discounts, 0))]
    if discounts:
        parts.append(text(x + 15, y + 4, f"${printed}", class_="small", fill="#777777",
                          text_decoration="line-through"))
    return group(parts)


# ---- the performer row ------------------------------------------------------------------------

def performer_card(table: Table, x: float, y: float, card: str, discounts: int) -> Element:
    """A performer for hire: name, type, cost, wage, each level's cubes, reward and fame, flip fame."""
    performer = table.performer(card)
    frame = el("rect", x=x, y=y, width=CARD_W, height=PERFORMER_H, rx=7, fill=PAPER, stroke="#b9ae98")
    if performer is None:
        return group([frame, text(x + 8, y + 20, card)], data_row_performer=card, data_discounts=discounts)
    band = table.type_fill(performer.type)
    parts: list[Element] = [
        frame,
        el("path", d=f"M{x} {y + 7}a7 7 0 0 1 7 -7h{CARD_W - 14}a7 7 0 0 1 7 7v15h-{CARD_W}z", fill=band),
        text(x + 7, y + 15, fit(table.type_name(performer.type), 90, 10), fill="#ffffff", font_size=10,
             font_weight=600),
        text(x + CARD_W - 7, y + 15, card, fill="#ffffff", font_size=9, text_anchor="end"),
        text(x + 8, y + 38, fit(performer.name, CARD_W - 16, 12), font_weight=600),
        price(x + 19, y + 57, performer.hire_cost, discounts),
        discount_dots(x + 60, y + 57, discounts),
        text(x + CARD_W - 8, y + 61, f"wage ${performer.wage}", class_="label", text_anchor="end"),
    ]
    for index, level in enumerate(performer.levels):
        parts.append(level_line(x + 8, y + 80 + index * 26, LEVEL_LETTERS[index], level.cubes,
                                f"{level.fame:+d}★" if level.fame else "", reward_text(level.reward)))
    parts.append(text(x + 8, y + PERFORMER_H - 8, f"⚑ flip {performer.flip_fame:+d}★", class_="label"))
    if performer.secondary_wage:
        parts.append(text(x + CARD_W - 8, y + PERFORMER_H - 8, f"then ${performer.secondary_wage}",
                          class_="label", text_anchor="end"))
    tooltip = (f"{card} {performer.name} ({table.type_name(performer.type)}): costs "
               f"${max(performer.hire_cost - discounts, 0)} (printed ${performer.hire_cost}, {discounts} discount), "
               f"wage ${performer.wage}")
    return tip(group(parts, data_row_performer=card, data_discounts=discounts), tooltip)


def level_line(x: float, y: float, letter: str, needs: list[str], fame: str, reward: str) -> Element:
    """One level of a card in the row: its letter, the cubes it needs, its fame, then its reward."""
    parts: list[Element] = [text(x, y + 9, letter, font_weight=700, font_size=11)]
    for index, colour in enumerate(needs[:5]):
        parts.append(cube(x + 12 + index * 12, y, colour, needed=True))
    parts.append(text(x + CARD_W - 16, y + 9, fame, class_="small", text_anchor="end", font_weight=600))
    parts.append(text(x + 12, y + 21, fit(reward, CARD_W - 28, 9), class_="small", fill="#555555"))
    return group(parts)


def performer_row(table: Table, x: float, y: float, width: float) -> tuple[Element, float]:
    cards = row_cards(table, "performer_row")
    per_line = max(1, int((width - 24 + GAP) // (CARD_W + GAP)))
    lines = max(1, -(-len(cards) // per_line))
    height = 34 + lines * (PERFORMER_H + GAP)
    parts: list[Element] = [panel(x, y, width, height, "Performers for hire")]
    for index, (card, discounts) in enumerate(cards):
        cx = x + 12 + (index % per_line) * (CARD_W + GAP)
        cy = y + 28 + (index // per_line) * (PERFORMER_H + GAP)
        parts.append(performer_card(table, cx, cy, card, discounts))
    if not cards:
        parts.append(text(x + 12, y + 50, "(the row is empty)", class_="label"))
    return group(parts, data_section="performer-row"), height


# ---- the helper row ---------------------------------------------------------------------------

def helper_card(table: Table, x: float, y: float, card: str, discounts: int) -> Element:
    helper = table.helper(card)
    frame = el("rect", x=x, y=y, width=CARD_W, height=HELPER_H, rx=7, fill=PAPER, stroke="#b9ae98")
    if helper is None:
        return group([frame, text(x + 8, y + 20, card)], data_row_helper=card, data_discounts=discounts)
    parts: list[Element] = [
        frame,
        el("path", d=f"M{x} {y + 7}a7 7 0 0 1 7 -7h{CARD_W - 14}a7 7 0 0 1 7 7v15h-{CARD_W}z", fill="#4d5b6a"),
        text(x + 7, y + 15, "Helper", fill="#ffffff", font_size=10, font_weight=600),
        text(x + CARD_W - 7, y + 15, card, fill="#ffffff", font_size=9, text_anchor="end"),
        text(x + 8, y + 38, fit(helper.name, CARD_W - 16, 12), font_weight=600),
        price(x + 19, y + 57, helper.hire_cost, discounts),
        discount_dots(x + 60, y + 57, discounts),
        text(x + CARD_W - 8, y + 61, f"wage ${helper.wage}", class_="label", text_anchor="end"),
    ]
    for index, line in enumerate(wrap(helper.text, CARD_W - 22, 9, 3)):
        parts.append(text(x + 8, y + 80 + index * 11, line, class_="small", fill="#444444"))
    return tip(group(parts, data_row_helper=card, data_discounts=discounts),
               f"{card} {helper.name}: costs ${max(helper.hire_cost - discounts, 0)}, wage ${helper.wage}. "
               f"{helper.text}")


def helper_row(table: Table, x: float, y: float, width: float) -> tuple[Element, float]:
    cards = row_cards(table, "helper_row")
    per_line = max(1, int((width - 24 + GAP) // (CARD_W + GAP)))
    lines = max(1, -(-len(cards) // per_line))
    height = 34 + lines * (HELPER_H + GAP)
    parts: list[Element] = [panel(x, y, width, height, "Helpers for hire")]
    for index, (card, discounts) in enumerate(cards):
        cx = x + 12 + (index % per_line) * (CARD_W + GAP)
        cy = y + 28 + (index // per_line) * (HELPER_H + GAP)
        parts.append(helper_card(table, cx, cy, card, discounts))
    if not cards:
        parts.append(text(x + 12, y + 50, "(the row is empty)", class_="label"))
    return group(parts, data_section="helper-row"), height


# ---- the action board -------------------------------------------------------------------------

def held(table: Table) -> list[dict[str, Any]]:
    """The markers placed this round in placement order, held by the pending resolution step
    (DR-4.4); each space's stack is bottom first (DR-4.2). Empty outside the action phase."""
    for step in table.state.get("agenda") or []:
        if isinstance(step, dict) and step.get("t") == "resolve":
            return [item for item in step.get("held") or [] if isinstance(item, dict)]
    return []


def space_markers(placed: list[dict[str, Any]], space: str) -> list[int]:
    """The seats whose markers are on `space`, bottom of the stack first."""
    if space in ("ticket", "investment", "hire_performer", "hire_helper"):
        return [int(item["seat"]) for item in placed if item.get("t") == space and isinstance(item.get("seat"), int)]
    return [int(item["seat"]) for item in placed if item.get("t") == "cube" and item.get("colour") == space
            and isinstance(item.get("seat"), int)]


def action_space(x: float, y: float, width: float, label: str, seats: list[int], space: str,
                 fill: str, *, is_cube: bool = False, closed: bool = False) -> Element:
    """One action space: its name or cube, and the markers on it in stack order (DR-4.2)."""
    parts: list[Element] = [el("rect", x=x, y=y, width=width, height=SPACE_H, rx=6, fill=fill,
                               stroke="#8d8373", stroke_width=1, opacity=0.45 if closed else 1)]
    if is_cube:
        parts.append(cube(x + width / 2 - 8, y + 6, space, 16))
        parts.append(text(x + width / 2, y + 35, fit(label, width - 6, 10), font_size=10, font_weight=600,
                          text_anchor="middle"))
    else:
        parts.append(text(x + width / 2, y + 22, fit(label, width - 6, 10), font_size=10, font_weight=600,
                          text_anchor="middle"))
    for index, seat in enumerate(seats[:6]):
        parts.append(seat_disc(x + 13 + index * 17, y + SPACE_H - 13, seat, 7.5))
    if closed and not seats:
        parts.append(text(x + width / 2, y + SPACE_H - 9, "closed", class_="small", text_anchor="middle",
                          fill="#555555"))
    return group(parts, data_space=space, data_markers=" ".join(map(str, seats)))


def action_board(table: Table, x: float, y: float, width: float) -> tuple[Element, float]:
    """The cube actions (one per colour; at most N occupied a round, DR-5.3) and the other four
    spaces, with the markers placed this round."""
    placed = held(table)
    colours = table.c.colours()
    limit = table.c.for_players(table.seats).cube_actions if 2 <= table.seats <= 4 else len(colours)
    occupied = {item.get("colour") for item in placed if item.get("t") == "cube"}
    full = len(occupied) >= limit
    height = 28 + 2 * SPACE_H + 6 + 26
    parts: list[Element] = [panel(x, y, width, height, "Action board")]
    parts.append(text(x + width - 12, y + 18, f"cube actions: {len(occupied)} of {limit} taken (DR-5.3)",
                      class_="label", text_anchor="end"))
    cell = (width - 24 - 4 * 6) / 5
    resource_names = {resource.id: resource.name for resource in table.c.resources}
    for index, colour in enumerate(colours[:5]):
        seats = space_markers(placed, colour)
        parts.append(action_space(x + 12 + index * (cell + 6), y + 28, cell, resource_names.get(colour, colour),
                                  seats, colour, "#ffffff", is_cube=True, closed=full and not seats))
    cell = (width - 24 - 3 * 6) / 4
    for index, (space, label) in enumerate(ACTIONS):
        parts.append(action_space(x + 12 + index * (cell + 6), y + 34 + SPACE_H, cell, label,
                                  space_markers(placed, space), space, "#fbf3df"))
    markers = [f"{table.name(seat)} {table.players[seat].get('markers', 0)}" for seat in range(table.seats)]
    parts.append(text(x + 12, y + height - 9, fit("markers left to place: " + " · ".join(markers), width - 24, 10),
                      class_="label"))
    return group(parts, data_section="action-board"), height


# ---- the ticket track -------------------------------------------------------------------------

def ticket_track(table: Table, x: float, y: float, width: float) -> tuple[Element, float]:
    """The start and each printed space with its money (DR-5.5), each seat's ticket cube on it."""
    spaces = [0, *table.c.ticket_track.spaces]
    cell = (width - 24 - (len(spaces) - 1) * 4) / len(spaces)
    parts: list[Element] = [panel(x, y, width, 96, "Ticket track")]
    for index, money in enumerate(spaces):
        cx = x + 12 + index * (cell + 4)
        parts.append(el("rect", x=cx, y=y + 28, width=cell, height=58, rx=5, fill="#ffffff" if index else "#ece3cf",
                        stroke="#8d8373"))
        parts.append(text(cx + cell / 2, y + 42, "start" if index == 0 else f"${money}", text_anchor="middle",
                          font_size=11, font_weight=600))
        here = [seat for seat, player in enumerate(table.players) if int(player.get("ticket") or 0) == index]
        for slot, seat in enumerate(here):
            parts.append(group([el("rect", x=cx + 5 + (slot % 4) * 13, y=y + 52 + (slot // 4) * 15, width=11,
                                   height=11, rx=2, fill=seat_colour(seat), stroke="#ffffff")],
                               data_ticket=index, data_seat=seat))
    return group(parts, data_section="ticket-track"), 96


# ---- the regions ------------------------------------------------------------------------------

def region_holders(table: Table, region: str) -> list[int]:
    return [seat for seat, player in enumerate(table.players) if player.get("region") == region]


def regions(table: Table, x: float, y: float, width: float) -> tuple[Element, float]:
    """The tour: each region, its bonuses (DR-15) and who holds its token; the imaginary third
    player's region (DR-22.1) is marked, and a region nobody holds is out of the game (AMB-30)."""
    height = 34 + len(table.c.regions) * 34
    parts: list[Element] = [panel(x, y, width, height, "Regions (fame after each performance)")]
    undrawn = set(table.state.get("regions") or [])
    neutral = table.state.get("neutral_region")
    for index, region in enumerate(table.c.regions):
        ry = y + 28 + index * 34
        holders = region_holders(table, region.id)
        out = bool(not holders and region.id != neutral and region.id not in undrawn and table.state.get("performance"))
        ink = "#a09a90" if out else INK
        parts.append(el("rect", x=x + 12, y=ry, width=width - 24, height=30, rx=5, fill="#ffffff" if not out else FELT,
                        stroke="#d8cfbd"))
        parts.append(text(x + 20, ry + 13, region.name, font_weight=600, fill=ink))
        bonus = "; ".join(f"{b.fame:+d}★ per {b.per} {table.type_name(b.performer_type)}" for b in region.bonuses)
        parts.append(text(x + 20, ry + 25, fit(bonus, width - 120, 9), class_="small", fill=ink))
        for slot, seat in enumerate(holders):
            parts.append(seat_disc(x + width - 28 - slot * 18, ry + 15, seat, 8, data_region=region.id,
                                   data_seat=seat))
        if region.id == neutral:
            parts.append(text(x + width - 20, ry + 19, "imaginary player", class_="small", text_anchor="end"))
        elif out:
            parts.append(text(x + width - 20, ry + 19, "out of the game", class_="small", text_anchor="end",
                              fill=ink))
    return group(parts, data_section="regions"), height


# ---- the supply, the decks and the vote -------------------------------------------------------

def supply(table: Table, x: float, y: float, width: float) -> tuple[Element, float]:
    """The general supply's cubes, discount tokens and trailers (DR-1.2), the decks as counts and
    the discard piles, and the vote's ballots as the viewer may see them (DR-10.2)."""
    state = table.state
    cubes = state.get("cubes") or {}
    parts: list[Element] = []
    cx = x + 12
    for colour in table.c.colours():
        parts.append(cube(cx, y + 30, colour, 14))
        parts.append(text(cx + 18, y + 42, cubes.get(colour, 0), font_size=12, font_weight=600,
                          data_supply=colour))
        cx += 46
    parts.append(text(cx + 6, y + 42, f"discounts {state.get('discounts', 0)} · trailers {state.get('trailers', 0)}",
                      font_size=11))
    under = count_of(state.get("investment_bottom"))
    decks = (f"decks: performers {count_of(state.get('performer_deck'))} · helpers "
             f"{count_of(state.get('helper_deck'))} · investments {count_of(state.get('investment_deck'))}"
             + (f" (+{under} under it)" if under else ""))
    discards = (f"discards: performers {count_of(state.get('performer_discard'))} · helpers "
                f"{count_of(state.get('helper_discard'))} · investments {count_of(state.get('investment_discard'))}")
    parts.append(text(x + 12, y + 64, fit(decks, width - 24, 11), font_size=11))
    parts.append(text(x + 12, y + 80, fit(discards, width - 24, 11), font_size=11))
    height = 90
    vote = vote_line(table)
    if vote:
        parts.append(text(x + 12, y + 98, fit(vote, width - 24, 11), font_size=11, font_weight=600))
        height = 108
    return group([panel(x, y, width, height, "General supply"), *parts], data_section="supply"), height


def vote_line(table: Table) -> str:
    """The vote after the last round that had one: each ballot as the viewer may see it ("cast"
    until all are in, DR-10.2) and who doubled theirs (DR-21.18)."""
    state = table.state
    if not state.get("vote_round"):
        return ""
    votes = list(state.get("votes") or [])
    doubled = list(state.get("doubled") or [])
    ballots = [f"{table.name(seat)} {ballot or 'not yet'}" + (" ×2" if seat < len(doubled) and doubled[seat] else "")
               for seat, ballot in enumerate(votes)]
    return f"vote after round {state['vote_round']}: " + " · ".join(ballots)


