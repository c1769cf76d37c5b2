"""One seat's player board in a Russian Railroads drawing: the three railways with their track
markers and locomotives, the multipliers, the industry track with its factories and markers, and
what the seat holds (workers, rubles, engineers, tokens, final bonus cards) with its score.

Why drawn like the printed board: a railway's spaces score by the colour of the marker at or
ahead of them (RR-14.4), only as far as the locomotives reach (RR-0.6, RR-14.3), so each space is
tinted by the colour it scores and the spaces past the reach are faded. Special spaces (§13) sit
under their space, ticked once gained.
"""

from __future__ import annotations

from typing import Any

from domain.games.russian_railroads.components import Railway, SpecialSpace
from domain.kernel.viewers import count_of

from .russian_railroads_pieces import (
    EDGE,
    FACTORY,
    GAINED,
    MUTED,
    PAPER,
    TEMPORARY,
    card,
    card_back,
    coin,
    factory_tile,
    locomotive,
    ordinal,
    pawn,
    placed_pieces,
    placement_words,
    plural,
    text,
    token,
    track_chip,
    track_fill,
    track_ink,
)
from .russian_railroads_seen import MARGIN, WIDTH, Seen
from .svg import Element, el, group, seat_colour, title

BOARD_W = (WIDTH - 3 * MARGIN) / 2
"""Two player boards side by side."""
PITCH = 30
"""User units per railway space."""
INDUSTRY_PITCH = 28
LABEL_W = 118
"""The railway's name and locomotive slots, left of the beside column and the spaces."""
BESIDE_W = 26
"""Markers acquired but not yet on a space (position 0, RR-0.3) lie here."""
TITLE_H = 32
SPECIAL_WORDS = {"worker": "a worker from the reserve", "token": "a bonus token", "doubling": "doubles a scoring",
                 "star": "star VP each scoring", "medal": "the Kiev medal", "tracks": "new tracks",
                 "white": "the white track and its bonus"}


def board_height(seen: Seen) -> float:
    rails = sum(_railway_height(seen, r) for r in seen.components.railways)
    return TITLE_H + 10 + rails + 50 + 124


def player_board(seen: Seen, seat: int, x: float, y: float) -> Element:
    """The seat's whole board as `<g data-seat data-score>`; the seat to act is outlined thick."""
    player = seen.player(seat)
    height = board_height(seen)
    acting = seat in seen.to_move
    parts: list[Element] = [
        el("rect", x=x, y=y, width=BOARD_W, height=height, rx=8, fill=PAPER, stroke=seat_colour(seat),
           stroke_width=4 if acting else 1.5),
        _title_bar(seen, seat, player, x, y, acting),
    ]
    row = y + TITLE_H + 10
    for railway in seen.components.railways:
        parts.append(_railway(seen, railway, player, x, row))
        row += _railway_height(seen, railway)
    parts.append(_industry(seen, seat, player, x, row))
    parts.append(_holdings(seen, seat, player, x, row + 50))
    return group(parts, data_seat=seat, data_score=seen.score(seat), data_player=seen.name(seat))


def _title_bar(seen: Seen, seat: int, player: dict[str, Any], x: float, y: float, acting: bool) -> Element:
    colour = seat_colour(seat)
    ink = title_ink(colour)
    place = seen.place(seat)
    notes = [f"seat {seat}", f"{ordinal(place)} in turn order" if place else "",
             "passed" if player.get("passed") else "", "to act" if acting else ""]
    return group([
        el("path", d=_top_rounded(x, y, BOARD_W, TITLE_H, 8), fill=colour),
        text(x + 12, y + 21, seen.name(seat), fill=ink, font_size=15, class_="rr-bold"),
        text(x + 22 + 9 * len(seen.name(seat)), y + 21, " · ".join(n for n in notes if n), fill=ink,
             font_size=11),
        text(x + BOARD_W - 12, y + 23, f"{seen.score(seat)} VP", text_anchor="end", fill=ink, font_size=18,
             class_="rr-bold", data_vp=seen.score(seat)),
    ])


def title_ink(colour: str) -> str:
    """White on a dark seat colour, near-black on a light one (the yellow seat), for contrast."""
    red, green, blue = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return "#1d1d1d" if 0.299 * red + 0.587 * green + 0.114 * blue > 150 else "#ffffff"


def _top_rounded(x: float, y: float, w: float, h: float, r: float) -> str:
    return (f"M{x} {y + h} L{x} {y + r} Q{x} {y} {x + r} {y} L{x + w - r} {y} Q{x + w} {y} {x + w} {y + r} "
            f"L{x + w} {y + h} Z")


# ---- railways -----------------------------------------------------------------------------------
def _railway_height(seen: Seen, railway: Railway) -> float:
    return 62 + (14 if _has_multipliers(seen, railway) else 0)


def _has_multipliers(seen: Seen, railway: Railway) -> bool:
    return railway.id == seen.components.railways[0].id and bool(seen.components.constants.multiplier_spaces)


def _railway(seen: Seen, railway: Railway, player: dict[str, Any], x: float, y: float) -> Element:
    """One railway: name and locomotives, the markers beside it, its spaces tinted by the colour
    they score (RR-14.4) and faded past the locomotives' reach (RR-14.3), the reach bar, the
    special spaces and, on the Trans-Siberian, the multipliers over the spaces they double
    (RR-10.2, RR-10.4)."""
    tracks = {str(c): int(p) for c, p in ((player.get("tracks") or {}).get(railway.id) or {}).items()}
    locos = [int(v) for v in (player.get("locomotives") or {}).get(railway.id) or []]
    reach = sum(locos)
    claimed = {str(c) for c in player.get("claimed") or []}
    parts: list[Element] = []
    top = y
    if _has_multipliers(seen, railway):
        parts.append(_multipliers(seen, int(player.get("multipliers") or 0), x, y))
        top += 14
    sx = x + 10 + LABEL_W + BESIDE_W
    parts.append(text(x + 10, top + 10, railway.name, class_="rr-bold", font_size=11))
    parts += _locomotive_slots(railway, locos, x + 10, top + 20)
    parts.append(_beside(railway, tracks, x + 10 + LABEL_W, top))
    parts += _spaces(seen, railway, tracks, reach, sx, top)
    parts.append(_reach_bar(railway, reach, sx, top + 29))
    parts += _specials(railway, claimed, tracks, reach, sx, top + 36)
    if f"{railway.id}:terminus" in claimed:
        parts.append(text(sx + railway.spaces * PITCH + 2, top + 17, "✓", fill=GAINED, font_size=14))
    return group(parts, data_railway=railway.id, data_reach=reach)


def _locomotive_slots(railway: Railway, locos: list[int], x: float, y: float) -> list[Element]:
    """The railway's locomotive slots (RR-7.3), filled left to right; an empty one dashed."""
    parts: list[Element] = []
    for slot in range(railway.locomotive_slots):
        lx = x + slot * 36
        if slot < len(locos):
            parts.append(locomotive(lx, y + 4, locos[slot], w=30, h=16, data_line=railway.id,
                                    data_locomotive=locos[slot]))
        else:
            parts.append(el("rect", x=lx, y=y + 4, width=30, height=16, rx=3, fill="none", stroke=EDGE,
                            stroke_dasharray="3 2"))
    if not locos:
        parts.append(text(x + railway.locomotive_slots * 36, y + 16, "no loco", class_="rr-tiny", fill="#a33"))
    return parts


def _beside(railway: Railway, tracks: dict[str, int], x: float, y: float) -> Element:
    """Markers acquired but not yet on the railway (position 0): stacked left of space 1."""
    waiting = [c for c in railway.colours if tracks.get(c) == 0]
    chips = [track_chip(x + 2, y + 2 + i * 9, colour, w=18, h=7, data_line=railway.id, data_colour=colour,
                        data_space=0) for i, colour in enumerate(waiting)]
    return group([title("acquired, waiting beside the railway: " + ", ".join(waiting)), *chips] if chips else [])


def _scoring_colours(railway: Railway, tracks: dict[str, int]) -> dict[int, tuple[str, bool]]:
    """Each space's colour and whether a marker stands on it (True) or the nearest marker ahead
    lends it its colour (False, RR-14.4); spaces with no marker ahead are absent."""
    at = {position: colour for colour, position in tracks.items() if position >= 1}
    result: dict[int, tuple[str, bool]] = {}
    ahead: str | None = None
    for space in range(railway.spaces, 0, -1):
        if space in at:
            ahead = at[space]
            result[space] = (ahead, True)
        elif ahead is not None:
            result[space] = (ahead, False)
    return result


def _spaces(seen: Seen, railway: Railway, tracks: dict[str, int], reach: int, sx: float,
            y: float) -> list[Element]:
    colours = _scoring_colours(railway, tracks)
    parts: list[Element] = []
    for space in range(1, railway.spaces + 1):
        cx = sx + (space - 1) * PITCH
        colour, real = colours.get(space, ("", False))
        cell: list[Element] = [el("rect", x=cx, y=y, width=PITCH - 2, height=26, rx=3, fill="#ffffff",
                                  stroke="#c9bea5", stroke_width=1)]
        if colour and not real:
            cell.append(el("rect", x=cx + 1, y=y + 1, width=PITCH - 4, height=24, rx=2, fill=track_fill(colour),
                           opacity=0.32))
        cell.append(text(cx + 2, y + 8, space, class_="rr-num"))
        faded = space > reach
        parts.append(group(cell, opacity=0.45 if faded else None))
        if colour and real:
            parts.append(group([
                title(f"{railway.name}: the {colour} track on space {space}"),
                track_chip(cx + 3, y + 9, colour, w=PITCH - 8, h=14),
                text(cx + PITCH / 2 - 1, y + 19.5, colour[:2].upper(), text_anchor="middle", font_size=7,
                     fill=track_ink(colour)),
            ], data_line=railway.id, data_colour=colour, data_space=space, opacity=0.6 if faded else None))
    return parts


def _reach_bar(railway: Railway, reach: int, sx: float, y: float) -> Element:
    shown = min(reach, railway.spaces)
    if not shown:
        return group([text(sx, y + 4, "no locomotive: nothing here scores (RR-14.3)", class_="rr-tiny",
                           fill="#a33")])
    end = sx + shown * PITCH - 4
    return group([title(f"the locomotives reach space {reach}"),
                  el("rect", x=sx, y=y, width=end - sx - 4, height=3, fill="#b0302a"),
                  el("path", d=f"M{end - 5} {y - 3} L{end + 1} {y + 1.5} L{end - 5} {y + 6} Z", fill="#b0302a")])


def _specials(railway: Railway, claimed: set[str], tracks: dict[str, int], reach: int, sx: float,
              y: float) -> list[Element]:
    parts: list[Element] = []
    for special in railway.specials:
        cx = sx + (special.space - 1) * PITCH + PITCH / 2 - 1
        gained = f"{railway.id}:{special.space}" in claimed
        icon = _special_icon(special, cx, y)
        tip = f"space {special.space}: {SPECIAL_WORDS.get(special.benefit, special.benefit)}" + \
            (f" ({special.colour})" if special.colour else "") + \
            (f", {special.vp} VP" if special.vp else "") + f" when the {special.track} track reaches it" + \
            (" and the locomotives too" if special.locomotive else "") + (" — gained" if gained else "") + \
            f" ({special.rule})"
        items: list[Element] = [title(tip), icon]
        if special.locomotive:
            items.append(el("circle", cx=cx + 11, cy=y + 2, r=2, fill="#b0302a"))
        if gained:
            items.append(text(cx + 9, y + 16, "✓", fill=GAINED, font_size=11, class_="rr-bold"))
        parts.append(group(items, data_special=f"{railway.id}:{special.space}", data_gained="true" if gained else None,
                           opacity=0.55 if gained else None))
    return parts


def _special_icon(special: SpecialSpace, cx: float, y: float) -> Element:
    if special.benefit in ("tracks", "white"):
        return group([text(cx - 9, y + 11, "+", font_size=11, class_="rr-bold"),
                      track_chip(cx - 3, y + 3, special.colour or "grey", w=12, h=8)])
    if special.benefit == "worker":
        return pawn(cx, y + 14, "#d9cfb8", size=0.9)
    if special.benefit == "token":
        return token(cx, y + 8, "T", r=7)
    if special.benefit == "doubling":
        return text(cx, y + 12, "×2", text_anchor="middle", font_size=10, class_="rr-bold", fill="#8a2d7a")
    if special.benefit == "medal":
        return group([el("circle", cx=cx, cy=y + 8, r=7, fill="#c9a24a", stroke="#6b5420"),
                      text(cx, y + 11.5, "M", text_anchor="middle", font_size=8, class_="rr-bold")])
    return text(cx, y + 12, f"★{special.vp}", text_anchor="middle", font_size=10, fill="#9a6b00",
                class_="rr-bold")


def _multipliers(seen: Seen, placed: int, x: float, y: float) -> Element:
    """The multiplier spaces over the Trans-Siberian, filled from the left (RR-10.2)."""
    sx = x + 10 + LABEL_W + BESIDE_W
    parts: list[Element] = [text(x + 10, y + 10, f"multipliers {placed}", class_="rr-tiny")]
    for index, space in enumerate(seen.components.constants.multiplier_spaces):
        cx = sx + (space - 1) * PITCH + PITCH / 2 - 1
        if index < placed:
            parts.append(group([el("circle", cx=cx, cy=y + 6, r=6.5, fill="#8a2d7a"),
                                text(cx, y + 9, "×2", text_anchor="middle", font_size=7, fill="#fff")],
                               data_multiplier=space))
        else:
            parts.append(el("circle", cx=cx, cy=y + 6, r=6, fill="none", stroke="#b9a8b5", stroke_dasharray="2 1.5"))
    return group(parts, data_multipliers=placed)


# ---- the industry track -------------------------------------------------------------------------
def _industry(seen: Seen, seat: int, player: dict[str, Any], x: float, y: float) -> Element:
    """The industry track (RR-9.2): each place's VP, the factories built in its gaps (RR-8.4) and
    the markers (two after token T3, RR-19.4) on the places they stand on."""
    factories = list(player.get("factories") or [])
    markers = [int(m) for m in player.get("markers") or []]
    token_gained = "industry" in {str(c) for c in player.get("claimed") or []}
    sx = x + 10 + LABEL_W + BESIDE_W - 20
    parts: list[Element] = [text(x + 10, y + 16, "Industry", class_="rr-bold", font_size=11)]
    gap = 0
    for index, place in enumerate(seen.lane):
        px = sx + index * INDUSTRY_PITCH
        if place.kind == "gap":
            value = factories[gap] if gap < len(factories) else None
            gap += 1
            parts.append(_factory_gap(seen, value, gap, px, y))
        else:
            parts.append(_industry_space(place.vp, bool(place.token), token_gained, px, y))
    for number, index in enumerate(markers):
        px = sx + index * INDUSTRY_PITCH + (INDUSTRY_PITCH - 2) / 2
        arrow = el("path", d=f"M{px} {y + 28} L{px + 7} {y + 40} L{px - 7} {y + 40} Z", fill=seat_colour(seat),
                   stroke="#222", stroke_width=0.8)
        label = [text(px, y + 39, number + 1, text_anchor="middle", font_size=7, fill="#fff")] if len(markers) > 1 \
            else []
        parts.append(group([title(f"industry marker {number + 1} on place {index}"), arrow, *label],
                           data_industry_marker=number, data_place=index))
    return group(parts, data_part="industry")


def _factory_gap(seen: Seen, value: int | None, number: int, x: float, y: float) -> Element:
    if value is None:
        return group([title(f"factory space {number}: empty"),
                      el("rect", x=x, y=y + 2, width=INDUSTRY_PITCH - 2, height=24, rx=3, fill="#efe6f4",
                         stroke=FACTORY, stroke_dasharray="3 2")], data_gap=number)
    code, words = seen.factory_code(int(value))
    return group([title(f"factory space {number}: {words}"),
                  factory_tile(x, y + 2, code, w=INDUSTRY_PITCH - 2, h=24)],
                 data_gap=number, data_factory=int(value))


def _industry_space(vp: int | None, is_token: bool, gained: bool, x: float, y: float) -> Element:
    parts: list[Element] = [el("rect", x=x, y=y + 2, width=INDUSTRY_PITCH - 2, height=24, rx=3, fill="#ffffff",
                               stroke="#c9bea5")]
    if is_token:
        parts.append(token(x + INDUSTRY_PITCH / 2 - 1, y + 14, "T", r=8))
        if gained:
            parts.append(text(x + INDUSTRY_PITCH - 6, y + 10, "✓", fill=GAINED, font_size=10))
    else:
        parts.append(text(x + INDUSTRY_PITCH / 2 - 1, y + 18, vp if vp is not None else "", text_anchor="middle",
                          font_size=11, class_="rr-bold"))
    return group(parts)


# ---- what the seat holds ------------------------------------------------------------------------
def _holdings(seen: Seen, seat: int, player: dict[str, Any], x: float, y: float) -> Element:
    parts: list[Element] = [_supply_row(seat, player, x + 10, y)]
    parts.append(_engineers(seen, seat, player, x + 10, y + 28))
    parts.append(_bonus_cards(seen, seat, player, x + BOARD_W - 10, y + 28))
    parts.append(_score_line(seen, seat, x + 10, y + 110))
    return group(parts)


def _supply_row(seat: int, player: dict[str, Any], x: float, y: float) -> Element:
    """Workers in the personal supply, the reserve (RR-0.8), temporary and black workers, rubles."""
    colour = seat_colour(seat)
    workers, reserve = int(player.get("workers") or 0), int(player.get("reserve") or 0)
    temporary, rubles = int(player.get("temporary") or 0), int(player.get("rubles") or 0)
    parts: list[Element] = [text(x, y + 14, "workers", class_="label")]
    px = x + 46
    for _ in range(workers):
        parts.append(pawn(px, y + 18, colour))
        px += 12
    parts.append(text(px, y + 14, workers, class_="rr-bold"))
    px += 18
    parts.append(group([title(f"{plural(reserve, 'worker')} in the reserve"),
                        text(px, y + 14, f"reserve {reserve}", class_="label")]))
    px += 64
    if temporary:
        parts.append(group([title(f"{temporary} temporary workers"),
                            *[pawn(px + i * 12, y + 18, TEMPORARY) for i in range(temporary)]]))
        px += 12 * temporary + 8
    if player.get("black_worker"):
        parts.append(group([title("the black worker" + (" (in supply)" if player.get("black_in_supply")
                                                          else " (placed)")),
                            pawn(px, y + 18, "#111111", ring=None if player.get("black_in_supply") else "#bbb")]))
        px += 20
    parts.append(coin(px + 4, y + 10))
    parts.append(text(px + 14, y + 14, rubles, class_="rr-bold"))
    px += 34
    flags = [word for key, word in (("revalued", "revaluation"), ("medal", "Kiev medal")) if player.get(key)]
    if flags:
        parts.append(text(px, y + 14, " · ".join(flags), class_="label"))
    return group(parts, data_workers=workers, data_reserve=reserve, data_temporary=temporary, data_rubles=rubles)


def _engineers(seen: Seen, seat: int, player: dict[str, Any], x: float, y: float) -> Element:
    """The seat's engineers, each its own action space (RR-0.7), with what the seat placed on it
    this round; then the bonus tokens it has used."""
    engineers = [str(e) for e in player.get("engineers") or []]
    parts: list[Element] = [text(x, y + 10, "engineers" if engineers else "no engineers", class_="label")]
    for index, engineer_id in enumerate(engineers):
        ex = x + index * 62
        parts.append(_own_engineer(seen, engineer_id, ex, y + 14))
    tokens = [str(t) for t in player.get("tokens") or []]
    tx = x + max(len(engineers), 1) * 62 + 10
    if tokens:
        parts.append(text(tx, y + 10, "tokens used", class_="label"))
        for index, token_id in enumerate(tokens):
            parts.append(group([title(f"{token_id}: {seen.label('token', token_id)}"),
                                token(tx + 10 + index * 22, y + 30, token_id, r=10)], data_token=token_id))
    return group(parts)


def _own_engineer(seen: Seen, engineer_id: str, x: float, y: float) -> Element:
    try:
        engineer = seen.components.engineer(engineer_id)
        words, value = f"{engineer_id} (value {engineer.value}): {engineer.action}", str(engineer.value)
    except KeyError:
        words, value = engineer_id, "?"
    parts: list[Element] = [
        title(words), el("rect", x=x, y=y, width=58, height=44, rx=4, fill="#f4ecd6", stroke="#27304a"),
        text(x + 5, y + 13, engineer_id, class_="rr-bold", font_size=11),
        text(x + 53, y + 13, value, text_anchor="end", font_size=9, fill=MUTED),
    ]
    for placement in seen.on(engineer_id):
        parts.append(group([title(placement_words(placement)), *placed_pieces(x + 10, y + 38, placement)],
                           data_seat=int(placement[1]), data_space=engineer_id))
    return group(parts, data_engineer=engineer_id)


def _bonus_cards(seen: Seen, seat: int, player: dict[str, Any], right: float, y: float) -> Element:
    """The seat's final bonus cards (§21): their faces where the view holds them (the seat itself,
    the arbiter, everyone after final scoring, RR-17.2), else backs and a count (RR-21.2)."""
    cards = player.get("bonus_cards")
    if isinstance(cards, list):
        ids = [str(c) for c in cards]
        parts: list[Element] = [text(right, y + 10, "final bonus cards" if ids else "no final bonus cards",
                                     text_anchor="end", class_="label")]
        for index, card_id in enumerate(reversed(ids)):
            label = seen.label("bonus", card_id)
            parts.append(card(right - 64 - index * 68, y + 14, 64, 44, card_id, label, width=13,
                              tip=f"{card_id}: {label}", data_card=card_id))
        return group(parts, data_bonus_count=len(ids))
    count = count_of(cards)
    parts = [text(right, y + 10, f"{plural(count, 'final bonus card')} face down" if count
                  else "no final bonus cards", text_anchor="end", class_="label")]
    for index in range(count):
        parts.append(card_back(right - 34 - index * 38, y + 14, 34, 44, data_card="back"))
    return group(parts, data_bonus_count=count)


def _score_line(seen: Seen, seat: int, x: float, y: float) -> Element:
    """The seat's points by category, from the view's score lines (each names its rule)."""
    by_category: dict[str, int] = {}
    for line in seen.state.get("lines") or []:
        if line[0] == seat:
            by_category[str(line[2])] = by_category.get(str(line[2]), 0) + int(line[1])
    words = " · ".join(f"{category} {points}" for category, points in by_category.items()) or "no points yet"
    return text(x, y, f"score {seen.score(seat)} VP: {words}", class_="label", data_categories=len(by_category))
