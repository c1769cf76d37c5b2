"""The main board of a Russian Railroads drawing: the header (round, turn order, the decision), the
action spaces with what lies on them, the engineer area and the general supply.

Why drawn as tiles: a commentator reads the board as the players do, space by space, each with its
cost printed as empty places that the workers and rubles placed this round fill (RR-5.2). A space
not in play this round stays where it is, greyed, so the board does not move under the slider.
"""

from __future__ import annotations

from typing import Any

from domain.games.russian_railroads.components import ActionSpace, Effect
from domain.kernel.viewers import count_of

from .russian_railroads_pieces import (
    BOARD,
    EDGE,
    MUTED,
    PAPER,
    card,
    card_back,
    empty_pip,
    factory_tile,
    joined,
    lines_of,
    locomotive,
    ordinal,
    pawn,
    piece_count,
    placed_pieces,
    placement_words,
    plural,
    text,
    track_chip,
    track_fill,
)
from .russian_railroads_seen import MARGIN, WIDTH, Seen
from .svg import Element, el, group, seat_colour, title

SECTIONS = {"track": "Track", "locomotive": "Locomotives & factories", "industry": "Industry",
            "auxiliary": "Auxiliary", "turn_order": "Turn order", "last_round": "Last round"}
SECTION_COLOUR = {"track": "#5b6b7d", "locomotive": "#9b2f2a", "industry": "#7b3f98", "auxiliary": "#3f7d4f",
                  "turn_order": "#b07a1f", "last_round": "#333333", "engineer": "#4a5a8a"}
TILE_W, TILE_H, GAP, SECTION_GAP = 92, 76, 6, 18
HEADER_H = 58


# ---- the header ---------------------------------------------------------------------------------
def header(seen: Seen) -> Element:
    """The step, the round track with the last-round marker (RR-4.3), the turn order (RR-12.1)
    with who has passed, and the decision the match waits for (or the result)."""
    state = seen.state
    rounds = int(state.get("rounds") or 0)
    current = int(state.get("round") or 0)
    parts: list[Element] = [
        text(MARGIN, 24, "Russian Railroads", class_="big"),
        text(MARGIN, 44, f"step {seen.view.get('seq', 0)}" + (f" · as {seen.viewer}" if seen.viewer else ""),
             class_="label"),
    ]
    x = 190
    parts.append(text(x, 17, "ROUND", class_="rr-section"))
    for number in range(1, rounds + 1):
        bx = x + (number - 1) * 24
        here = number == current
        fill = "#9b2f2a" if here else ("#d8cdb5" if number < current else PAPER)
        parts.append(group([
            el("rect", x=bx, y=24, width=20, height=20, rx=3, fill=fill, stroke=EDGE),
            text(bx + 10, 38, number, text_anchor="middle", fill="#fff" if here else "#555", font_size=11),
        ], data_round=number, data_current="true" if here else None))
    if rounds:
        lx = x + (rounds - 1) * 24 + 10
        parts.append(text(lx, 54, "last", text_anchor="middle", class_="rr-tiny"))
    if not current:
        parts.append(text(x + rounds * 24 + 6, 38, "setup", class_="rr-bold"))
    parts.append(_turn_order(seen, x + max(rounds, 1) * 24 + 52))
    parts.append(_decision(seen))
    return group(parts, data_part="header")


def _turn_order(seen: Seen, x: float) -> Element:
    order = [int(seat) for seat in seen.state.get("order") or []]
    parts: list[Element] = [text(x, 17, "TURN ORDER", class_="rr-section")]
    for index, seat in enumerate(order):
        bx = x + index * 104
        passed = bool(seen.player(seat).get("passed"))
        parts.append(group([
            title(f"{ordinal(index + 1)}: {seen.name(seat)}" + (" (passed)" if passed else "")),
            el("rect", x=bx, y=24, width=98, height=22, rx=11, fill=PAPER, stroke=seat_colour(seat),
               stroke_width=2, opacity=0.5 if passed else None),
            text(bx + 10, 39, index + 1, class_="rr-bold", font_size=11),
            pawn(bx + 30, 43, seat_colour(seat), size=0.9),
            text(bx + 40, 39, _short(seen.name(seat), 8), font_size=11,
                 fill=MUTED if passed else None, text_decoration="line-through" if passed else None),
        ], data_turn_order=index + 1, data_seat=seat, data_passed="true" if passed else None))
    if not order:
        parts.append(text(x, 39, "dealt at setup", class_="label"))
    return group(parts)


def _decision(seen: Seen) -> Element:
    """Who is to act and what about, or how the match ended (right-aligned in the header)."""
    x = WIDTH - MARGIN
    end = seen.view.get("end")
    if end:
        result = (end.get("result") or {}) if isinstance(end, dict) else {}
        winners = [seen.name(int(seat)) for seat in result.get("winners") or []]
        headline = "Final: " + (" and ".join(winners) + " won" if winners else "the match ended")
        detail = str(end.get("reason") or "") if isinstance(end, dict) else ""
        return group([text(x, 24, headline, text_anchor="end", class_="rr-head"),
                      text(x, 42, detail, text_anchor="end", class_="label")], data_decision="over")
    decision = seen.view.get("decision") or {}
    seats = seen.to_move
    who = ", ".join(seen.name(seat) for seat in seats)
    prompt = str(decision.get("prompt") or "")
    if not seats:
        return group([text(x, 24, "nobody is to act", text_anchor="end", class_="label")], data_decision="none")
    lines = lines_of(x, 40, prompt, 62, step=12, most=2, text_anchor="end", class_="label")
    return group([text(x, 24, f"▶ {who} to act", text_anchor="end", class_="rr-head",
                       fill=seat_colour(seats[0])), *lines],
                 data_decision=",".join(str(seat) for seat in seats))


def _short(name: str, most: int) -> str:
    return name if len(name) <= most else name[: most - 1] + "…"


# ---- action spaces ------------------------------------------------------------------------------
def action_spaces(seen: Seen, y: float) -> tuple[Element, float]:
    """Every main-board action space but the engineers', by section, in rows; returns the group
    and the height it takes."""
    spaces = [s for s in seen.components.spaces if s.section != "engineer"]
    parts: list[Element] = []
    x, row_y = float(MARGIN), y
    for section, label in SECTIONS.items():
        members = [s for s in spaces if s.section == section]
        if not members:
            continue
        width = len(members) * TILE_W + (len(members) - 1) * GAP
        if x > MARGIN and x + width > WIDTH - MARGIN:
            x, row_y = float(MARGIN), row_y + TILE_H + 24
        parts.append(text(x, row_y + 10, label.upper(), class_="rr-section"))
        parts.append(el("rect", x=x, y=row_y + 13, width=width, height=2, fill=SECTION_COLOUR[section]))
        for index, space in enumerate(members):
            parts.append(_tile(seen, space, x + index * (TILE_W + GAP), row_y + 18))
        x += width + SECTION_GAP
    return group(parts, data_part="action-spaces"), row_y + 18 + TILE_H - y


def _tile(seen: Seen, space: ActionSpace, x: float, y: float) -> Element:
    """One action space: what it gives (track chips for advancements), its name, its cost as empty
    places, and what each seat placed on it this round over them."""
    open_ = seen.open_space(space)
    colour = SECTION_COLOUR.get(space.section, "#555")
    body: list[Element] = [
        title(f"{space.name}: costs {_cost(space.workers, space.rubles)}"
              + ("" if open_ else f" ({_closed(seen, space)})")),
        el("rect", x=x, y=y, width=TILE_W, height=TILE_H, rx=5, fill=PAPER, stroke=EDGE),
        el("rect", x=x, y=y, width=TILE_W, height=5, rx=2, fill=colour),
        *_gives(space.effects, x + 6, y + 10),
        *lines_of(x + 6, y + 35, space.name, 17, step=10, most=2, class_="rr-name"),
    ]
    body += _cost_pips(space.workers, space.rubles, x + 11, y + TILE_H - 5)
    inner = group(body, opacity=None if open_ else 0.35)
    parts: list[Element] = [inner]
    if not open_:
        parts.append(el("rect", x=x + 4, y=y + TILE_H / 2 - 9, width=TILE_W - 8, height=18, rx=9, fill=PAPER,
                        stroke=EDGE))
        parts.append(text(x + TILE_W / 2, y + TILE_H / 2 + 4, _closed(seen, space), text_anchor="middle",
                          class_="rr-bold", font_size=9, fill="#5a5246"))
    parts += _occupants(seen, space.id, x + 11, y + TILE_H - 5, TILE_W - 16)
    return group(parts, data_action=space.id, data_open=str(open_).lower())


def _closed(seen: Seen, space: ActionSpace) -> str:
    if seen.seats not in space.players:
        return f"not with {seen.seats}"
    return "last round only" if space.last_round == "only" else "covered"


def _cost(workers: int, rubles: int) -> str:
    parts = ([plural(workers, "worker")] if workers else []) + ([plural(rubles, "ruble")] if rubles else [])
    return " + ".join(parts) or "nothing"


def _cost_pips(workers: int, rubles: int, x: float, y: float, pitch: float = 13) -> list[Element]:
    pips = [empty_pip(x + i * pitch, y) for i in range(workers)]
    pips += [empty_pip(x + (workers + i) * pitch, y, ruble=True) for i in range(rubles)]
    return pips


def _occupants(seen: Seen, space_id: str, x: float, y: float, room: float) -> list[Element]:
    """The placements on a space over its cost pips, each a `<g data-seat data-space>`; a space
    used many times (RR-6.11) packs its pieces closer so they stay inside it."""
    placements = seen.on(space_id)
    total = sum(piece_count(p) for p in placements)
    pitch = 13.0 if total <= 1 or 13 * (total - 1) <= room else room / (total - 1)
    groups: list[Element] = []
    at = 0
    for placement in placements:
        seat = int(placement[1])
        pieces = placed_pieces(x + at * pitch, y, placement, pitch=pitch)
        groups.append(group([title(f"{seen.name(seat)}: {placement_words(placement)}"), *pieces],
                            data_seat=seat, data_space=space_id, data_workers=int(placement[2]),
                            data_temporary=int(placement[3]) or None, data_black=int(placement[4]) or None,
                            data_rubles=int(placement[5]) or None))
        at += piece_count(placement)
    return groups


def _gives(effects: tuple[Effect, ...], x: float, y: float) -> list[Element]:
    """A row of icons for what a space gives: a track chip per advancement in its colour, `+n` for
    industry advancements and a short word for anything else."""
    parts: list[Element] = []
    for effect in effects:
        if effect.kind == "advance":
            for _ in range(effect.count):
                parts.append(_advance_chip(x, y, effect.colour or "any"))
                x += 16
        else:
            word = _effect_word(effect)
            parts.append(text(x, y + 9, word, font_size=10, class_="rr-bold", fill="#4a4a4a"))
            x += 6.2 * len(word) + 4
        x += 2
    return parts


def _advance_chip(x: float, y: float, colour: str) -> Element:
    """One advancement: a chip of its colour; `any` as a striped chip, `black_or_grey` half and half."""
    if colour == "any":
        stripes = [el("rect", x=x + i * 2.8, y=y, width=2.8, height=10, fill=track_fill(c))
                   for i, c in enumerate(("black", "grey", "brown", "beige", "white"))]
        return group([*stripes, el("rect", x=x, y=y, width=14, height=10, rx=2, fill="none", stroke="#3a3a3a",
                                   stroke_width=0.8)])
    if colour == "black_or_grey":
        return group([el("rect", x=x, y=y, width=7, height=10, fill=track_fill("black")),
                      el("rect", x=x + 7, y=y, width=7, height=10, fill=track_fill("grey")),
                      el("rect", x=x, y=y, width=14, height=10, rx=2, fill="none", stroke="#3a3a3a",
                         stroke_width=0.8)])
    return track_chip(x, y, colour, h=10)


EFFECT_WORDS = {"industry": "+{n} ind", "multiplier": "×2", "rubles": "+{n}₽", "vp": "+{n}VP",
                "temporary_workers": "+2 temp", "locomotive_or_factory": "loco/fac",
                "locomotive_and_factory": "loco+fac", "turn_order": "#{n}", "repeat": "repeat",
                "factory": "factory", "hire": "hire", "final_bonus": "bonus"}


def _effect_word(effect: Effect) -> str:
    return EFFECT_WORDS.get(effect.kind, effect.kind.replace("_", " ")).format(n=effect.count)


# ---- the engineer area --------------------------------------------------------------------------
def engineer_area(seen: Seen, y: float) -> tuple[Element, float, float]:
    """The engineer area left to right (RR-11.1): previews face down in the real game but public in
    the view, the two changing action spaces, and the hiring space (RR-11.5). Returns the group,
    its height and where it ends on the right."""
    try:
        slots = [slot.kind for slot in seen.components.for_players(seen.seats).engineer_slots]
    except KeyError:
        slots = []
    strip = list(seen.state.get("strip") or [])
    parts: list[Element] = [text(MARGIN, y + 10, "ENGINEERS", class_="rr-section"),
                            el("rect", x=MARGIN, y=y + 13, width=60, height=2, fill=SECTION_COLOUR["engineer"])]
    x = float(MARGIN)
    changing = iter(("left", "right"))
    for index, engineer_id in enumerate(strip):
        kind = slots[index] if index < len(slots) else "preview"
        side = next(changing, "") if kind == "changing" else ""
        space_id = f"engineer_{side}" if side else ("hire" if kind == "hire" else "")
        w = SLOT_W.get(kind, SLOT_W["preview"])
        parts.append(_engineer_slot(seen, kind, side, space_id, engineer_id, x, y + 18, w))
        x += w + GAP
    return group(parts, data_part="engineers"), 18 + SLOT_H, x


SLOT_W = {"preview": 60, "changing": 150, "hire": 84}
SLOT_H = 104


def _engineer_slot(seen: Seen, kind: str, side: str, space_id: str, engineer_id: str | None,
                   x: float, y: float, w: float) -> Element:
    h = SLOT_H
    label = {"preview": "next", "hire": "hire"}.get(kind, side)
    if engineer_id is None:  # hired or gone: what was placed on its space stays until cleanup (RR-5.6)
        return group([el("rect", x=x, y=y, width=w, height=h, rx=5, fill="none", stroke=EDGE,
                         stroke_dasharray="4 3"),
                      text(x + w / 2, y + h / 2 + 4, "empty", text_anchor="middle", class_="label"),
                      *(_occupants(seen, space_id, x + 12, y + h - 6, w - 20) if space_id else [])],
                     data_slot=kind, data_action=space_id or None)
    engineer = _engineer(seen, engineer_id)
    dark = kind != "changing"
    fill, ink = ("#3b4660", "#f1ead8") if dark else ("#f4ecd6", "#2b2b2b")
    action = engineer.action if engineer is not None else engineer_id
    value = engineer.value if engineer is not None else "?"
    parts: list[Element] = [
        title(f"{engineer_id} (value {value}): {action}"),
        el("rect", x=x, y=y, width=w, height=h, rx=5, fill=fill, stroke="#27304a", stroke_width=1),
        text(x + 6, y + 14, label.upper(), font_size=8, fill=ink, letter_spacing=".08em"),
        text(x + 6, y + 30, engineer_id, class_="rr-bold", font_size=13, fill=ink),
        el("circle", cx=x + w - 14, cy=y + 15, r=9, fill="#c9a24a", stroke="#6b5420"),
        text(x + w - 14, y + 19, value, text_anchor="middle", font_size=10, class_="rr-bold"),
        *lines_of(x + 6, y + 44, action, 27 if kind == "changing" else (14 if kind == "hire" else 10),
                  step=10, most=3 if kind == "changing" else 4, font_size=8, fill=ink),
    ]
    if kind == "hire":
        parts.append(text(x + 6, y + h - 22, "1 ruble to hire", font_size=8, fill=ink))
        parts += _cost_pips(0, 1, x + 12, y + h - 6)
    elif kind == "changing" and engineer is not None:
        parts += _cost_pips(engineer.workers, engineer.rubles, x + 12, y + h - 6)
    if space_id:
        parts += _occupants(seen, space_id, x + 12, y + h - 6, w - 20)
    return group(parts, data_slot=kind, data_engineer=engineer_id, data_action=space_id or None)


def _engineer(seen: Seen, engineer_id: str) -> Any:
    try:
        return seen.components.engineer(engineer_id)
    except KeyError:
        return None


# ---- the general supply -------------------------------------------------------------------------
def supply(seen: Seen, x: float, y: float) -> Element:
    """The general supply right of the engineer area: locomotive stacks by value, the factory pool,
    the multipliers left, the face-up cards still in play (RR-20.1) and the starting cards still to
    draft; at the right edge the final bonus deck and what left the game unseen."""
    state = seen.state
    parts: list[Element] = [text(x, y + 10, "SUPPLY", class_="rr-section"),
                            el("rect", x=x, y=y + 13, width=44, height=2, fill="#6b604a")]
    stacks = sorted(((int(v), int(n)) for v, n in (state.get("stacks") or {}).items()), key=lambda item: item[0])
    for index, (value, count) in enumerate(stacks):
        lx = x + index * 34
        parts.append(group([
            title(f"{plural(count, 'locomotive')} of value {value} left"),
            locomotive(lx, y + 26, value, w=26, h=16),
            text(lx + 13, y + 56, f"×{count}", text_anchor="middle", font_size=10),
        ], data_stack=value, data_count=count, opacity=0.35 if not count else None))
    parts.append(_pool_row(seen, x, y + 64))
    parts.append(_face_up(seen, x, y + 84))
    parts.append(_bonus_piles(seen, WIDTH - MARGIN - 150, y))
    return group(parts, data_part="supply")


def _pool_row(seen: Seen, x: float, y: float) -> Element:
    """The face-up factory pool (RR-7.7, RR-8.5) and the multipliers left in the supply."""
    pool = [int(v) for v in seen.state.get("pool") or []]
    parts: list[Element] = [text(x, y + 11, "factory pool", class_="label")]
    for index, value in enumerate(pool):
        code, words = seen.factory_code(value)
        parts.append(group([title(words), factory_tile(x + 66 + index * 28, y, code, w=24, h=15)], data_pool=value))
    px = x + 66 + (len(pool) * 28 + 6 if pool else 44)
    if not pool:
        parts.append(text(x + 66, y + 11, "empty", class_="label"))
    left = int(seen.state.get("multipliers_left") or 0)
    parts.append(group([text(px, y + 11, f"multipliers left {left}", class_="label")], data_multipliers_left=left))
    return group(parts)


def _face_up(seen: Seen, x: float, y: float) -> Element:
    cards = [str(c) for c in seen.state.get("face_up") or []]
    parts: list[Element] = []
    for index, card_id in enumerate(cards):
        parts.append(card(x + index * 58, y, 54, 38, card_id, seen.label("face_up", card_id), width=11,
                          fill="#e9f0e4", edge="#6e8a62", tip=f"{card_id}: {seen.label('face_up', card_id)}",
                          data_face_up=card_id))
    starting = [str(c) for c in seen.state.get("starting_cards") or []]
    for index, card_id in enumerate(starting):
        parts.append(card(x + (len(cards) + index) * 58, y, 54, 38, card_id, seen.label("starting", card_id),
                          width=11, fill="#f3e6f0", edge="#8a6280",
                          tip=f"starting bonus {card_id}: {seen.label('starting', card_id)}",
                          data_starting=card_id))
    return group(parts)


def _bonus_piles(seen: Seen, x: float, y: float) -> Element:
    """The final bonus deck: backs and a count, its faces only to a seat looking through it
    (RR-21.2); then what left the game unseen."""
    deck = seen.state.get("bonus_deck")
    parts: list[Element] = [text(x, y + 10, "FINAL BONUS DECK", class_="rr-section")]
    count = count_of(deck)
    if isinstance(deck, list) and deck:
        for index, card_id in enumerate(deck):  # small faces, four to a row: the deck holds at most eight
            cx, cy = x + (index % 4) * 38, y + 18 + (index // 4) * 24
            parts.append(group([title(f"{card_id}: {seen.label('bonus', str(card_id))}"),
                                el("rect", x=cx, y=cy, width=34, height=20, rx=3, fill="#fffdf6", stroke="#8c7a55"),
                                text(cx + 17, cy + 14, card_id, text_anchor="middle", font_size=10,
                                     class_="rr-bold")],
                               data_card=str(card_id), data_pile="deck"))
    else:
        for index in range(min(count, 5)):
            parts.append(card_back(x + index * 3, y + 18 + index * 2, 32, 44))
        parts.append(text(x + 52, y + 44, f"{count} face down" if count else "empty", font_size=11))
    parts.append(_left_out(seen, x, y + 84))
    return group(parts, data_deck_count=count)


def _left_out(seen: Seen, x: float, y: float) -> Element:
    """What left the game unseen (RR-2.3, RR-2.8): counts for everyone, ids only where the view
    holds them (the arbiter's)."""
    state = seen.state
    removed = state.get("removed_bonus")
    decks = state.get("decks") or {}
    words = [f"{count_of(removed)} bonus cards removed"]
    words += [f"deck {name}: {count_of(cards)}" for name, cards in sorted(decks.items()) if count_of(cards)]
    parts: list[Element] = [*lines_of(x, y, joined(words, ", "), 30, step=10, most=2, class_="rr-tiny")]
    ids = [str(c) for c in removed] if isinstance(removed, list) else []
    for index, card_id in enumerate(ids):
        label = seen.label("bonus", card_id)
        parts.append(group([title(f"removed unseen at setup: {card_id}: {label}"),
                            el("rect", x=x + index * 34, y=y + 14, width=30, height=18, rx=3, fill="#fffdf6",
                               stroke="#8c7a55", stroke_dasharray="3 2"),
                            text(x + index * 34 + 15, y + 27, card_id, text_anchor="middle", font_size=9)],
                           data_card=card_id, data_pile="removed"))
    engineers = [str(e) for _, cards in sorted(decks.items()) if isinstance(cards, list) for e in cards]
    if engineers:
        parts.append(text(x, y + 44, "out: " + " ".join(engineers), class_="rr-tiny",
                          data_left_out=" ".join(engineers)))
    return group(parts, data_part="left-out")


def board_background(height: float) -> Element:
    return el("rect", x=0, y=0, width=WIDTH, height=height, fill=BOARD)
