"""Pieces the Drum Roll board's sections share: colours, text fitting, cube glyphs, the reading of a
performer's levels and rewards, and `Table`, the one view and component set every section reads.

Private to `drum_roll.py` and its section modules. Everything here is a pure function of its
arguments, so a drawing is the same bytes for the same view.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from domain.games.drum_roll.components import ANY, DrumRollComponents, Effect, Helper, Investment, Performer

from . import svg
from .svg import Element, el, group, seat_colour, text, title

CUBE_FILL = {"white": "#f7f4ec", "yellow": "#f2c200", "green": "#2f9e48", "blue": "#2f6fd0", "red": "#d0342c"}
"""The five cube colours (DR-0.5) as drawn; a colour a real set names otherwise is drawn grey."""
TYPE_FILL = ("#7b4fb8", "#e07b1f", "#17998f", "#8a5a2b", "#c2437e", "#5a6b7d")
"""Performer types by their order in the component set: the band across a card's top."""
INK = "#222222"
PAPER = "#fffdf7"
FELT = "#f4efe4"
LEVEL_LETTERS = ("P", "G", "O")
"""Poor, good, outstanding (DR-0.10): the letter before each level's line on a card."""
CHAR_WIDTH = 0.65
"""An average glyph's width as a share of the font size: text is cut to fit by this estimate."""


def fit(content: object, width: float, size: float = 12) -> str:
    """`content` cut with an ellipsis to about `width` units at font `size` (a name never runs
    out of its card; the full name stays in the card's tooltip)."""
    words = str(content)
    most = max(1, int(width / (size * CHAR_WIDTH)))
    return words if len(words) <= most else words[: max(1, most - 1)].rstrip() + "…"


def wrap(content: str, width: float, size: float = 10, lines: int = 3) -> list[str]:
    """`content` broken into at most `lines` lines of about `width` units, the last one cut."""
    out = svg.wrap(content, max(1, int(width / (size * CHAR_WIDTH))))
    if len(out) > lines:
        out = [*out[: lines - 1], fit(" ".join(out[lines - 1:]), width, size)]
    return out


def cube_fill(colour: str) -> str:
    return CUBE_FILL.get(colour, "#9a9a9a")


def cube(x: float, y: float, colour: str, size: float = 10, *, needed: bool = False) -> Element:
    """One cube: solid when placed or counted, an outlined slot when a level still `needed` it.
    "any" (AMB-35) is a slot with a question mark, as a placed cube always has a colour."""
    if colour == ANY:
        return group([el("rect", x=x, y=y, width=size, height=size, rx=2, fill="#ffffff", stroke="#777777",
                         stroke_dasharray="2 1"),
                      text(x + size / 2, y + size - 2, "?", class_="small", text_anchor="middle")])
    if needed:  # white on white would vanish: its slot is outlined in the card's ink
        return el("rect", x=x + 0.75, y=y + 0.75, width=size - 1.5, height=size - 1.5, rx=2, fill="#ffffff",
                  stroke="#a39a86" if colour == "white" else cube_fill(colour), stroke_width=1.5)
    return el("rect", x=x, y=y, width=size, height=size, rx=2, fill=cube_fill(colour), stroke="#555555",
              stroke_width=0.6)


def seat_disc(x: float, y: float, seat: int, r: float = 7, **attrs: Any) -> Element:
    """A seat's marker (an action marker, a region token's owner): its colour and its number."""
    return group([el("circle", cx=x, cy=y, r=r, fill=seat_colour(seat), stroke="#ffffff", stroke_width=1.2),
                  text(x, y + r * 0.45, seat, text_anchor="middle", fill="#ffffff", font_size=r * 1.2,
                       font_weight=700)], **attrs)


def coin(x: float, y: float, amount: object, r: float = 11) -> Element:
    """Money as a gold coin with the amount on it."""
    return group([el("circle", cx=x, cy=y, r=r, fill="#f5c542", stroke="#a77b06", stroke_width=1),
                  text(x, y + 4, amount, text_anchor="middle", font_weight=700, font_size=11)])


def panel(x: float, y: float, width: float, height: float, heading: str, **attrs: Any) -> Element:
    """A section's frame and heading; the section draws inside from y + 26."""
    return group([el("rect", x=x, y=y, width=width, height=height, rx=8, fill=FELT, stroke="#d8cfbd"),
                  text(x + 12, y + 18, heading, font_weight=700, font_size=13)], **attrs)


def matched(required: Iterable[str], placed: Iterable[str]) -> tuple[list[tuple[str, str | None]], list[str]]:
    """Each requirement of a level with the placed cube that meets it (None: still needed), and
    the cubes beyond the need. Named colours take their cubes first, so "any" takes what is left
    (AMB-35), as the terminal renderer reads a level."""
    left = list(placed)
    needs = list(required)
    met: list[str | None] = [None] * len(needs)
    for index, need in enumerate(needs):
        if need != ANY and need in left:
            left.remove(need)
            met[index] = need
    for index, need in enumerate(needs):
        if need == ANY and met[index] is None and left:
            met[index] = left.pop(0)
    return list(zip(needs, met, strict=True)), left


def effect_text(effect: Effect) -> str:
    """A reward effect in a few words (the vocabulary of components.Effect, DR-18)."""
    colours = "/".join(effect.colours) or "any"
    match effect.effect:
        case "money":
            return f"+${effect.count}"
        case "cube":
            return f"+{effect.count} {colours}"
        case "cube_choice":
            return f"+{effect.count} {colours} cube"
        case "investment_look":
            return f"look {effect.look} keep {effect.keep}"
        case "trailer":
            return f"trailer ${effect.pay_money}" if effect.pay_money else "trailer"
        case "skip_wage":
            return f"skip {plural(effect.count, 'wage')}" + (f" ({plural(effect.pay_cubes, 'cube')})"
                                                             if effect.pay_cubes else "")
        case "cubes_for_money":
            return f"pay {plural(effect.pay_cubes, 'cube')}: +${effect.count}"
    return effect.effect


def reward_text(effects: Iterable[Effect]) -> str:
    return ", ".join(effect_text(effect) for effect in effects) or "—"


def plural(count: int, word: str) -> str:
    return f"{count} {word}" + ("" if count == 1 else "s")


class Table:
    """The view, the match's component set and the seats' names: what every section reads."""

    def __init__(self, summary: dict[str, Any], view: dict[str, Any], components: DrumRollComponents) -> None:
        self.summary = summary
        self.view = view
        self.state: dict[str, Any] = view.get("state") or {}
        self.c = components
        self.players: list[dict[str, Any]] = list(self.state.get("players") or [])
        self.seats = len(self.players)
        decision = view.get("decision") or {}
        self.moving = {seat for seat in decision.get("seats") or [] if isinstance(seat, int)}
        self.scores = [int(total) for total in view.get("scores") or [] if isinstance(total, int)]

    # ---- names ------------------------------------------------------------------------------
    def name(self, seat: int) -> str:
        """The seat's player name as the match records it (public), or `seat N`."""
        for item in self.summary.get("seats") or []:
            if isinstance(item, dict) and item.get("seat") == seat and item.get("player"):
                return str(item["player"])
        return f"seat {seat}"

    def performer(self, card: str) -> Performer | None:
        try:
            return self.c.performer(card)
        except KeyError:
            return None

    def helper(self, card: str) -> Helper | None:
        try:
            return self.c.helper(card)
        except KeyError:
            return None

    def investment(self, card: str) -> Investment | None:
        try:
            return self.c.investment(card)
        except KeyError:
            return None

    def type_name(self, type_id: str) -> str:
        return next((kind.name for kind in self.c.performer_types if kind.id == type_id), type_id)

    def type_fill(self, type_id: str) -> str:
        ids = [kind.id for kind in self.c.performer_types]
        return TYPE_FILL[ids.index(type_id) % len(TYPE_FILL)] if type_id in ids else "#888888"

    def region_name(self, region: Any) -> str:
        try:
            return self.c.region(str(region)).name
        except KeyError:
            return str(region)

    def score(self, seat: int) -> int:
        return self.scores[seat] if seat < len(self.scores) else 0


def tip(node: Element, words: str) -> Element:
    """`node` with a tooltip (an SVG title as its first child, where browsers look for it)."""
    node.children.insert(0, title(words))
    return node
