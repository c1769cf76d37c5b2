"""The small pieces every part of the Russian Railroads drawing shares: the palette, the shapes of
the game's pieces (workers, track markers, locomotives, rubles, cards) and short texts.

Why a module of its own: the table (`russian_railroads_table`) and the player boards
(`russian_railroads_player`) draw the same pieces, and a piece must look the same wherever it lies
(a worker on an action space and one in a player's supply), so that a viewer learns it once.
Every function here is pure: the same arguments give the same element.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from .svg import Element, el, group, number, seat_colour, title, wrap
from .svg import text as svg_text

TRACK_FILL = {"black": "#262626", "grey": "#9b9b9b", "brown": "#8a5a2b", "beige": "#e9d6a6", "white": "#ffffff"}
"""The five track colours (RR-0.2) as drawn; a colour a component set adds gets a neutral grey."""
TRACK_INK = {"black": "#ffffff", "grey": "#111111", "brown": "#ffffff", "beige": "#111111", "white": "#111111"}
"""The text colour that reads on each track colour."""
TEMPORARY = "#27b5b0"
"""The two turquoise temporary workers (RR-0.9)."""
RUBLE = "#e0b431"
FACTORY = "#7b3f98"
"""Factories are the purple backs of locomotives (RR-1.2)."""
PAPER = "#fbf8f1"
BOARD = "#efe7d6"
EDGE = "#b9ab8d"
INK = "#2b2b2b"
MUTED = "#7a7366"
GAINED = "#2e8b57"

STYLE = """
.rr-name { font-size: 10px; fill: #333 }
.rr-tiny { font-size: 8px; fill: #555 }
.rr-num { font-size: 8px; fill: #8a8270 }
.rr-head { font-size: 13px; font-weight: 600; fill: #2b2b2b }
.rr-section { font-size: 10px; font-weight: 600; fill: #6b604a; letter-spacing: .06em; text-transform: uppercase }
.rr-vp { font-size: 20px; font-weight: 700; fill: #2b2b2b }
.rr-bold { font-weight: 600 }
"""
"""Classes of this board only (prefixed, so an inline SVG beside another board cannot clash)."""


STYLED = (("fill", "fill"), ("font_size", "font-size"), ("letter_spacing", "letter-spacing"))


def text(x: float, y: float, content: object, **attrs: Any) -> Element:
    """A text node whose `fill`, `font_size` and `letter_spacing` are written as an inline style:
    the shared style sheet sets every text's fill and size, and a style rule outweighs a
    presentation attribute, so only an inline style can colour one text."""
    style = []
    for key, prop in STYLED:
        value = attrs.pop(key, None)
        if value is None:
            continue
        if key == "font_size":
            value = f"{number(float(value))}px"
        style.append(f"{prop}:{value}")
    if style:
        attrs["style"] = ";".join(style)
    return svg_text(x, y, content, **attrs)


def track_fill(colour: str) -> str:
    return TRACK_FILL.get(colour, "#bbbbbb")


def track_ink(colour: str) -> str:
    return TRACK_INK.get(colour, "#111111")


def lines_of(x: float, y: float, words: str, width: int, *, step: float = 11, most: int = 3,
             **attrs: Any) -> list[Element]:
    """`words` wrapped to `width` characters as text lines from (x, y), at most `most` lines (the
    last one ending in an ellipsis when cut)."""
    lines = wrap(words, width)
    if len(lines) > most:
        lines = [*lines[: most - 1], lines[most - 1][: max(1, width - 1)] + "…"]
    return [text(x, y + index * step, line, **attrs) for index, line in enumerate(lines)]


def plural(count: int, word: str) -> str:
    return f"{count} {word}" + ("" if count == 1 else "s")


def ordinal(place: int) -> str:
    return f"{place}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(place if place < 20 else place % 10, 'th')}"


# ---- pieces -------------------------------------------------------------------------------------
def pawn(x: float, y: float, fill: str, *, ring: str | None = None, size: float = 1.0) -> Element:
    """A worker standing at (x, y) (its foot's centre): head and body in `fill`, outlined in `ring`
    (a temporary or black worker placed by a seat carries that seat's colour as its ring)."""
    s = size
    body = (f"M{_n(x - 5.5 * s)} {_n(y)} L{_n(x - 3 * s)} {_n(y - 8 * s)} L{_n(x + 3 * s)} {_n(y - 8 * s)} "
            f"L{_n(x + 5.5 * s)} {_n(y)} Z")
    stroke = ring or "#00000055"
    width = 1.6 if ring else 0.8
    return group([
        el("path", d=body, fill=fill, stroke=stroke, stroke_width=width),
        el("circle", cx=x, cy=y - 10.5 * s, r=3.4 * s, fill=fill, stroke=stroke, stroke_width=width),
    ])


def coin(x: float, y: float, *, ring: str | None = None, r: float = 5.5) -> Element:
    """A ruble at (x, y): a gold coin, outlined in the colour of the seat that placed it."""
    return group([
        el("circle", cx=x, cy=y, r=r, fill=RUBLE, stroke=ring or "#8a6d12", stroke_width=1.6 if ring else 0.8),
        text(x, y + 3, "₽", text_anchor="middle", font_size=r * 1.4, fill="#5a4407"),
    ])


def empty_pip(x: float, y: float, *, ruble: bool = False) -> Element:
    """A printed place for a worker (or, where only a ruble may go, a coin) on an action space."""
    if ruble:
        return el("circle", cx=x, cy=y - 5, r=5.5, fill="none", stroke="#a08a4a", stroke_width=1,
                  stroke_dasharray="2 1.5")
    return el("rect", x=x - 5.5, y=y - 13, width=11, height=13, rx=4, fill="none", stroke="#a39a86",
              stroke_width=1, stroke_dasharray="2 1.5")


def track_chip(x: float, y: float, colour: str, *, w: float = 14, h: float = 9, **attrs: Any) -> Element:
    """A track marker seen from above: a small bar in its colour (white and beige keep an outline)."""
    return el("rect", x=x, y=y, width=w, height=h, rx=2, fill=track_fill(colour), stroke="#3a3a3a",
              stroke_width=0.8, **attrs)


def locomotive(x: float, y: float, value: int, *, w: float = 30, h: float = 18, **attrs: Any) -> Element:
    """A locomotive token with its value (RR-1.2): a cab and boiler in dark red."""
    cab = el("rect", x=x, y=y, width=w, height=h, rx=3, fill="#b0302a", stroke="#5c1512", stroke_width=1)
    chimney = el("rect", x=x + w - 8, y=y - 4, width=4, height=5, fill="#5c1512")
    wheels = [el("circle", cx=x + dx, cy=y + h, r=2.6, fill="#333") for dx in (6, w / 2, w - 6)]
    return group([chimney, cab, *wheels,
                  text(x + w / 2, y + h / 2 + 4, value, text_anchor="middle", fill="#fff", class_="rr-bold")],
                 **attrs)


def factory_tile(x: float, y: float, code: str, *, w: float = 26, h: float = 22, **attrs: Any) -> Element:
    return group([el("rect", x=x, y=y, width=w, height=h, rx=3, fill=FACTORY, stroke="#3d1b4f", stroke_width=1),
                  text(x + w / 2, y + h / 2 + 3.5, code, text_anchor="middle", fill="#fff", font_size=10,
                       class_="rr-bold")], **attrs)


def card(x: float, y: float, w: float, h: float, head: str, body: str, *, fill: str = "#fffdf6",
         edge: str = "#8c7a55", width: int = 16, tip: str | None = None, **attrs: Any) -> Element:
    """A face-up card: its id in bold at the top, its text wrapped under it."""
    children: list[Element] = [el("rect", x=x, y=y, width=w, height=h, rx=4, fill=fill, stroke=edge,
                                  stroke_width=1),
                               text(x + 5, y + 12, head, class_="rr-bold", font_size=10)]
    children += lines_of(x + 5, y + 23, body, width, step=9, most=max(1, int((h - 20) // 9)), class_="rr-tiny")
    if tip:
        children.insert(0, title(tip))
    return group(children, **attrs)


def card_back(x: float, y: float, w: float, h: float, **attrs: Any) -> Element:
    """A face-down card: the viewer knows it is there, not what it is."""
    return group([el("rect", x=x, y=y, width=w, height=h, rx=4, fill="#6d2b24", stroke="#3c1410", stroke_width=1),
                  el("rect", x=x + 3, y=y + 3, width=w - 6, height=h - 6, rx=3, fill="none", stroke="#d9b36c",
                     stroke_width=0.8),
                  text(x + w / 2, y + h / 2 + 4, "?", text_anchor="middle", fill="#d9b36c", class_="rr-bold")],
                 **attrs)


def token(x: float, y: float, label: str, *, r: float = 9, fill: str = "#d8c27a", **attrs: Any) -> Element:
    """A bonus token: a hexagon with its id."""
    points = " ".join(f"{_n(x + r * dx)},{_n(y + r * dy)}"
                      for dx, dy in ((1, 0), (0.5, 0.87), (-0.5, 0.87), (-1, 0), (-0.5, -0.87), (0.5, -0.87)))
    return group([el("polygon", points=points, fill=fill, stroke="#6b5a22", stroke_width=1),
                  text(x, y + 3, label, text_anchor="middle", font_size=8, class_="rr-bold")], **attrs)


def placed_pieces(x: float, y: float, placement: Sequence[Any], *, pitch: float = 13) -> list[Element]:
    """What one seat put on a space (RR-5.2), left to right from (x, y): its own workers, the
    temporary workers, the black worker, then rubles, each piece ringed in the seat's colour."""
    _, seat, workers, temporary, black, rubles = placement
    colour = seat_colour(int(seat))
    pieces: list[Element] = []
    for kind, count in (("own", workers), ("temporary", temporary), ("black", black), ("ruble", rubles)):
        for _ in range(int(count)):
            px = x + len(pieces) * pitch
            if kind == "own":
                pieces.append(pawn(px, y, colour))
            elif kind == "temporary":
                pieces.append(pawn(px, y, TEMPORARY, ring=colour))
            elif kind == "black":
                pieces.append(pawn(px, y, "#111111", ring=colour))
            else:
                pieces.append(coin(px, y - 5, ring=colour))
    return pieces


def piece_count(placement: Sequence[Any]) -> int:
    return sum(int(n) for n in placement[2:6])


def placement_words(placement: Sequence[Any]) -> str:
    """`2 workers, 1 ruble`: what a placement holds, for its tooltip."""
    _, _, workers, temporary, black, rubles = placement
    parts = ([plural(workers, "worker")] if workers else []) + ([f"{temporary} temporary"] if temporary else []) \
        + (["the black worker"] if black else []) + ([plural(rubles, "ruble")] if rubles else [])
    return ", ".join(parts) or "nothing"


def joined(items: Iterable[str], sep: str = " · ") -> str:
    return sep.join(item for item in items if item)


def _n(value: float) -> str:
    """A coordinate in a path: at most two decimals, the same bytes for the same number."""
    return f"{value:.2f}".rstrip("0").rstrip(".")
