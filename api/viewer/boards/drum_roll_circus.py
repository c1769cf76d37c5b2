"""One seat's circus on the Drum Roll board: the players panel with its score, money and deposit,
fame, ticket, region and markers, the cube supply, each hired performer with its cubes level by
level against what the level needs, its trailer and flip, the helpers, and the investment hand:
faces where the view holds the cards (the seat itself, the arbiter), backs with a count where it
holds only how many (DR-21), so nothing the view hides can be drawn.
"""

from __future__ import annotations

from typing import Any

from domain.kernel.viewers import count_of

from .drum_roll_parts import LEVEL_LETTERS, PAPER, Table, coin, cube, fit, matched, plural, tip, wrap
from .svg import Element, el, group, seat_colour, text

MINI_W = 112
MINI_H = 106
CHIP_W = 142
HAND_H = 34
GAP = 6


def per_line(width: float, item: float) -> int:
    return max(1, int((width - 24 + GAP) // (item + GAP)))


def lines_of(count: int, width: float, item: float) -> int:
    return max(1, -(-count // per_line(width, item)))


# ---- a hired performer ------------------------------------------------------------------------

def level_row(x: float, y: float, letter: str, required: list[str], placed: list[str], fame: str) -> Element:
    """A level of a hired performer: each cube it needs, filled once placed (DR-8.3), then the
    cubes placed beyond the need, and the level's fame."""
    parts: list[Element] = [text(x, y + 9, letter, font_weight=700, font_size=10)]
    pairs, extra = matched(required, placed)
    cx = x + 11
    for need, got in pairs:
        parts.append(cube(cx, y, got if got is not None else need, 10, needed=got is None))
        cx += 12
    for colour in extra:
        parts.append(text(cx, y + 9, "+", class_="small"))
        parts.append(cube(cx + 6, y, colour, 10))
        cx += 18
    parts.append(text(x + MINI_W - 14, y + 9, fame, class_="small", text_anchor="end"))
    return group(parts)


def last_level(hired: dict[str, Any]) -> str:
    """The level reached in its latest performance (DR-11.14; a flip counts as 3)."""
    level = hired.get("level")
    if not isinstance(level, int):
        return ""
    word = "flip" if level == 3 and hired.get("flipped") is not None else \
        ("none", "poor", "good", "outstanding")[level] if 0 <= level <= 3 else str(level)
    return f"last {word}"


def hired_card(table: Table, x: float, y: float, seat: int, hired: dict[str, Any]) -> Element:
    card = str(hired.get("card"))
    performer = table.performer(card)
    flipped = hired.get("flipped") is not None
    parts: list[Element] = [el("rect", x=x, y=y, width=MINI_W, height=MINI_H, rx=6,
                               fill="#efe6ff" if flipped else PAPER, stroke="#b9ae98")]
    placed = [list(level) for level in hired.get("cubes") or [[], [], []]]
    if performer is not None:
        parts.append(el("path", d=f"M{x} {y + 6}a6 6 0 0 1 6 -6h{MINI_W - 12}a6 6 0 0 1 6 6v9h-{MINI_W}z",
                         fill=table.type_fill(performer.type)))
        parts.append(text(x + 5, y + 11, fit(table.type_name(performer.type), 70, 8), fill="#ffffff", font_size=8,
                          font_weight=600))
        parts.append(text(x + 7, y + 28, fit(performer.name, MINI_W - 12, 11), font_size=11, font_weight=600))
        for index, level in enumerate(performer.levels):
            cubes = [str(c) for c in (placed[index] if index < len(placed) else [])]
            parts.append(level_row(x + 7, y + 35 + index * 16, LEVEL_LETTERS[index], level.cubes, cubes,
                                   f"{level.fame:+d}★" if level.fame else ""))
    else:
        parts.append(text(x + 7, y + 28, card, font_weight=600))
    parts.append(text(x + MINI_W - 5, y + 11, card, fill="#ffffff", font_size=8, text_anchor="end"))
    status = f"⚑ flipped (perf. {hired['flipped']})" if flipped else last_level(hired)
    parts.append(text(x + 7, y + 96, fit(status, MINI_W - 28, 8), font_size=8,
                      fill="#5b3d99" if flipped else "#555555"))
    if hired.get("trailer") or hired.get("shares_trailer_of"):
        parts.append(trailer_icon(x + MINI_W - 22, y + 88, shared=bool(hired.get("shares_trailer_of"))))
    return tip(group(parts, data_performer=card, data_seat=seat, data_flipped=hired.get("flipped"),
                     data_trailer=bool(hired.get("trailer")) or None), performer_tip(table, card, hired))


def trailer_icon(x: float, y: float, *, shared: bool) -> Element:
    """A trailer (DR-20): its own solid, shared from a bizarre performer outlined."""
    body = "#ffffff" if shared else "#6b7d8f"
    return group([el("rect", x=x, y=y, width=15, height=8, rx=1.5, fill=body, stroke="#3c4a57"),
                  el("circle", cx=x + 4, cy=y + 9.5, r=2, fill="#3c4a57"),
                  el("circle", cx=x + 11, cy=y + 9.5, r=2, fill="#3c4a57")])


def performer_tip(table: Table, card: str, hired: dict[str, Any]) -> str:
    performer = table.performer(card)
    words = f"{card} {performer.name} ({table.type_name(performer.type)}), wage ${performer.wage}" \
        if performer else card
    if hired.get("trailer"):
        words += "; has its trailer"
    if hired.get("shares_trailer_of"):
        words += f"; shares {hired['shares_trailer_of']}'s trailer"
    if hired.get("flipped") is not None:
        words += f"; flipped in performance {hired['flipped']}"
    return words


# ---- helpers and hand -------------------------------------------------------------------------

def helper_chip(table: Table, x: float, y: float, seat: int, card: str) -> Element:
    helper = table.helper(card)
    name = helper.name if helper else card
    return tip(group([el("rect", x=x, y=y, width=CHIP_W, height=22, rx=11, fill="#e4e9ef", stroke="#8797a8"),
                      text(x + 9, y + 15, fit(name, CHIP_W - 16, 10), font_size=10)],
                     data_helper=card, data_seat=seat),
               f"{card} {name}" + (f", wage ${helper.wage}: {helper.text}" if helper else ""))


def hand_card(table: Table, x: float, y: float, seat: int, card: str, used: int) -> Element:
    """An investment card face up, as the view holds it (the seat's own, or the arbiter's view)."""
    investment = table.investment(card)
    name = investment.name if investment else card
    uses = investment.uses if investment else None
    spent = f"used {used} of {uses}" if uses else (f"used {used}" if used else "any number of uses")
    return tip(group([el("rect", x=x, y=y, width=CHIP_W, height=HAND_H, rx=5, fill="#fff6d6", stroke="#c9a227"),
                      text(x + 7, y + 14, fit(name, CHIP_W - 14, 11), font_size=11, font_weight=600),
                      text(x + 7, y + 27, fit(f"{card} · {spent}", CHIP_W - 14, 9), class_="small", fill="#555555")],
                     data_card=card, data_seat=seat, data_used=used),
               f"{card} {name}" + (f": {investment.effect}" if investment else ""))


def card_backs(x: float, y: float, count: int, word: str) -> Element:
    """Face-down cards: up to six backs fanned, and how many in words."""
    parts: list[Element] = [el("rect", x=x + i * 7, y=y, width=22, height=HAND_H, rx=3, class_="hidden-card")
                            for i in range(min(count, 6))]
    parts.append(text(x + min(count, 6) * 7 + (22 if count else 0) + 8, y + 21,
                      f"{plural(count, word)} face down" if count else "none", font_size=11))
    return group(parts)


def hand(table: Table, x: float, y: float, width: float, seat: int, player: dict[str, Any]) -> tuple[Element, float]:
    """The investment hand: faces when the view lists the cards, else backs with a count (DR-21)."""
    cards = player.get("hand")
    parts: list[Element] = [text(x, y + 12, "Investment hand", class_="label", font_weight=600)]
    if isinstance(cards, list):
        items = [(str(c[0]), int(c[1])) if isinstance(c, list) else (str(c), 0) for c in cards]
        fits = per_line(width + 24, CHIP_W)
        for index, (card, used) in enumerate(items):
            parts.append(hand_card(table, x + (index % fits) * (CHIP_W + GAP), y + 18 + (index // fits) * (HAND_H + 4),
                                   seat, card, used))
        if not items:
            parts.append(text(x, y + 36, "none", font_size=11, fill="#777777"))
        height = 22 + lines_of(len(items), width + 24, CHIP_W) * (HAND_H + 4)
        return group(parts, data_hand=seat, data_hand_count=len(items)), height
    count = count_of(cards)
    parts.append(card_backs(x, y + 18, count, "card"))
    return group(parts, data_hand=seat, data_hand_count=count), 22 + HAND_H + 4


def performer_name(table: Table, card: str) -> str:
    performer = table.performer(card)
    return f"{card} {performer.name}" if performer else card


def notes(table: Table, seat: int, player: dict[str, Any]) -> list[str]:
    """Lines about what is pending for this seat: its opening draft (DR-2.9), a look at investment
    cards (DR-18.9), wages skipped this performance (DR-18.8). Cards only where the view lists them."""
    lines: list[str] = []
    drawn, kept = player.get("drawn"), player.get("kept")
    if isinstance(drawn, list) and drawn:
        names = ", ".join(performer_name(table, str(card)) for card in drawn)
        lines.append(f"opening draft: {names}" + (f" · keeps {kept}" if kept else ""))
    elif count_of(drawn):
        lines.append(f"opening draft: {plural(count_of(drawn), 'performer')} face down"
                     + (", one kept" if kept else ""))
    for step in table.state.get("agenda") or []:
        if isinstance(step, dict) and step.get("t") in ("look", "look_draw", "look_keep") and step.get("seat") == seat:
            cards = step.get("cards")
            if isinstance(cards, list) and cards:
                lines.append("looking at: " + ", ".join(map(str, cards)))
            elif count_of(cards):
                lines.append(f"looking at {plural(count_of(cards), 'investment card')} face down")
            break
    skipped = [str(c) for c in player.get("skipped") or []]
    if skipped:
        lines.append("no wage this performance: " + ", ".join(skipped))
    return lines


# ---- the panel --------------------------------------------------------------------------------

def header(table: Table, x: float, y: float, width: float, seat: int, player: dict[str, Any]) -> list[Element]:
    """The seat's band (name, start player, to move, score) and its money, fame, ticket, region."""
    start = table.state.get("start_player") == seat
    name = table.name(seat) + ("  ★ start player" if start else "") + ("  ◀ to move" if seat in table.moving else "")
    parts: list[Element] = [
        el("path", d=f"M{x} {y + 8}a8 8 0 0 1 8 -8h{width - 16}a8 8 0 0 1 8 8v22h-{width}z", fill=seat_colour(seat)),
        text(x + 12, y + 20, fit(f"seat {seat} · {name}", width - 120, 13), fill="#ffffff", font_weight=700,
             font_size=13),
        text(x + width - 12, y + 21, f"score {table.score(seat)}", fill="#ffffff", font_weight=700, font_size=15,
             text_anchor="end"),
        coin(x + 24, y + 48, f"${player.get('money', 0)}", 15),
    ]
    parts[-1].attrs["data-money"] = int(player.get("money") or 0)
    parts[-1].attrs["data-seat"] = seat
    deposit = int(player.get("deposit") or 0)
    ticket = int(player.get("ticket") or 0)
    facts = [f"fame {player.get('fame', 0)}★"]
    if deposit:
        facts.append(f"+${deposit} on the bank clerk")
    facts += [f"ticket {'start' if not ticket else f'space {ticket}'}",
              f"region {table.region_name(player.get('region')) if player.get('region') else 'none'}"]
    parts.append(group([text(x + 46, y + 52, fit(" · ".join(facts), width - 54, 12), font_size=12)],
                       data_fame=player.get("fame", 0), data_deposit=deposit))
    return parts


def cube_supply(table: Table, x: float, y: float, seat: int, player: dict[str, Any]) -> Element:
    """The seat's cubes by colour (DR-0.6)."""
    cubes = player.get("cubes") or {}
    parts: list[Element] = [text(x, y + 11, "cubes", class_="label", font_weight=600)]
    for index, colour in enumerate(table.c.colours()):
        count = int(cubes.get(colour) or 0)
        parts.append(cube(x + 44 + index * 38, y + 1, colour, 12))
        parts.append(text(x + 60 + index * 38, y + 12, count, font_size=12, font_weight=600,
                          fill="#222222" if count else "#aaaaaa"))
    parts.append(text(x + 52 + 5 * 38, y + 12, f"markers left {player.get('markers', 0)}", class_="label"))
    return group(parts, data_cubes=" ".join(f"{c}:{int(cubes.get(c) or 0)}" for c in table.c.colours()),
                 data_seat=seat)


def circus(table: Table, x: float, y: float, width: float, seat: int) -> tuple[Element, float]:
    """The seat's whole panel, and its height (the board lays panels out in a grid)."""
    player = table.players[seat]
    parts: list[Element] = header(table, x, y, width, seat, player)
    parts.append(cube_supply(table, x + 12, y + 70, seat, player))
    cy = y + 94
    performers = [p for p in player.get("performers") or [] if isinstance(p, dict)]
    parts.append(text(x + 12, cy + 10, f"Performers ({len(performers)})", class_="label", font_weight=600))
    fits = per_line(width, MINI_W)
    for index, hired in enumerate(performers):
        parts.append(hired_card(table, x + 12 + (index % fits) * (MINI_W + GAP),
                                cy + 16 + (index // fits) * (MINI_H + GAP), seat, hired))
    if not performers:
        parts.append(text(x + 12, cy + 32, "no performers", font_size=11, fill="#777777"))
    cy += 18 + (lines_of(len(performers), width, MINI_W) * (MINI_H + GAP) if performers else 24)
    helpers = [str(h) for h in player.get("helpers") or []]
    parts.append(text(x + 12, cy + 10, f"Helpers ({len(helpers)})", class_="label", font_weight=600))
    fits = per_line(width, CHIP_W)
    for index, card in enumerate(helpers):
        parts.append(helper_chip(table, x + 12 + (index % fits) * (CHIP_W + GAP), cy + 16 + (index // fits) * 26,
                                 seat, card))
    if not helpers:
        parts.append(text(x + 12, cy + 30, "no helpers", font_size=11, fill="#777777"))
    cy += 20 + lines_of(len(helpers), width, CHIP_W) * 26
    cards, height = hand(table, x + 12, cy, width - 24, seat, player)
    parts.append(cards)
    cy += height
    for line in notes(table, seat, player):
        for part in wrap(line, width - 24, 11, 2):
            parts.append(text(x + 12, cy + 14, part, font_size=11, fill="#444444"))
            cy += 15
    height = cy - y + 10
    frame = el("rect", x=x, y=y, width=width, height=height, rx=8, fill="#fbf8f1", stroke=seat_colour(seat),
               stroke_width=2 if seat in table.moving else 1)
    return group([frame, *parts], data_seat=seat, data_score=table.score(seat)), height
