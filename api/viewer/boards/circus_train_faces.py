"""Circus Train's pieces as small SVG shapes: talent counters, Local News counters, action cards and
trains, with the names and colours the component set gives them.

Private to the Circus Train board (`circus_train.py`, `circus_train_map.py`). Everything a piece
shows comes from the match's component set and the id in the view; an id the set does not know is
drawn with the id itself, never guessed from another set. Every shape carries a `<title>` with its
full name, so the short labels a crowded board needs never hide what a piece is.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from .svg import Element, el, group, number, text, title

TALENT_COLOURS = {"clown": "#e8590c", "acrobat": "#ae3ec9", "freak": "#0c8599", "horse": "#8d5b2d",
                  "cannonball": "#495057", "big_cat": "#f08c00", "elephant": "#7c8a99"}
"""The shipped talent types' colours; another set's types take FALLBACK_COLOURS in set order."""

FALLBACK_COLOURS = ("#5c7cfa", "#37b24d", "#f03e3e", "#1098ad", "#d6336c", "#74b816", "#f59f00", "#845ef7")

CHARACTER_COLOUR = "#c9a227"
"""Special Characters are talent counters of no type (CT-0.6): one gold for all of them."""

SEASON_COLOURS = {1: "#3f9c4a", 2: "#e0b000", 3: "#d0453c"}
"""The seasons' stripe colours (CT-0.4): green, yellow, red."""

CARD_LABELS = {"fast_transit": "Fast", "rapid_transit": "Rapid", "overnight_transit": "Night",
               "basic_transit": "Basic", "hold": "Hold", "overnight_hire": "N.Hire",
               "wage_transit": "Wage", "rest": "Rest"}
"""Short labels for the shipped action cards, which must fit a chip; other cards are cut short."""


def season_colour(season: Any) -> str:
    return SEASON_COLOURS.get(season, "#999999") if isinstance(season, int) else "#999999"


def initials(name: str) -> str:
    """`Human Cannonballs` -> `HC`, `Clowns` -> `C`: a counter's label from its type's name."""
    words = [word for word in name.replace("&", " ").split() if word[:1].isalpha()]
    return "".join(word[0].upper() for word in words[:2]) or name[:2]


class Faces:
    """Names, labels and colours of one component set's pieces, by id (the id when unknown)."""

    def __init__(self, components: Any) -> None:
        self.components = components
        self.cities = {c.id: c for c in components.cities}
        self.talents = {t.id: t.name for t in components.talent_types}
        self.talent_order = [t.id for t in components.talent_types]
        self.characters = {c.id: c.name for c in components.special_characters}
        self.cards = {c.id: c for c in components.action_cards}
        self.counters = {c.id: c for c in components.local_news}
        self.events = {e.id: e for e in components.event_cards}
        self.seasons = {s.season: s for s in components.seasons}

    # ---- names ------------------------------------------------------------------------------
    def city(self, city: Any) -> str:
        found = self.cities.get(city)
        return found.name if found is not None else str(city)

    def talent(self, talent: Any, count: int = 1) -> str:
        """`Clown` for one, `Clowns` for several; a Special Character by its name."""
        if talent in self.characters:
            return self.characters[talent]
        name = self.talents.get(talent, str(talent))
        return name[:-1] if count == 1 and name.endswith("s") else name

    def talents_text(self, items: Iterable[Any]) -> str:
        counts = Counter(items)
        return ", ".join(self.talent(t, counts[t]) + (f" ×{counts[t]}" if counts[t] > 1 else "")
                         for t in self.ordered(counts))

    def ordered(self, talents: Iterable[Any]) -> list[Any]:
        """Talent ids in the set's order (Clowns first), then characters and unknown ids by id."""
        found = set(talents)
        known = [t for t in self.talent_order if t in found]
        return known + sorted(str(t) for t in found if t not in self.talent_order)

    def card(self, card: Any) -> str:
        found = self.cards.get(card)
        return found.name if found is not None else str(card)

    def card_label(self, card: Any) -> str:
        if card in CARD_LABELS:
            return CARD_LABELS[card]
        return self.card(card)[:6]

    def counter(self, counter_id: Any) -> str:
        """A Local News counter in words, for its tooltip: `LN14 Performance Request: 2 pts, +5 Acrobats`."""
        counter: Any = self.counters.get(counter_id)
        kind = getattr(counter, "kind", None)
        if kind == "performance_request":
            bonuses = "".join(f", +{points} {self.talent(t, 2)}" for t, points in counter.bonuses.items())
            two = " (two-week show)" if counter.two_week else ""
            return f"{counter_id} Performance Request: {counter.base_points} pts{bonuses}{two}"
        if kind == "points":
            return f"{counter_id} Points counter: {counter.victory_points} VP"
        if kind == "bankrupt_circus":
            return f"{counter_id} Bankrupt Circus: {self.talents_text(counter.talents)}"
        if kind == "special_character":
            return f"{counter_id} Special Character: {self.talent(counter.character)}"
        return str(counter_id)

    def counter_label(self, counter_id: Any) -> str:
        """What a Local News counter's face says in a few characters: `R3` (a request worth 3, `R3²`
        for a two-week show), `2VP`, `BC` (Bankrupt Circus), `SC` (Special Character)."""
        counter: Any = self.counters.get(counter_id)
        kind = getattr(counter, "kind", None)
        if kind == "performance_request":
            return f"R{counter.base_points}" + ("²" if counter.two_week else "")
        if kind == "points":
            return f"{counter.victory_points}VP"
        if kind == "bankrupt_circus":
            return "BC"
        if kind == "special_character":
            return "SC"
        return str(counter_id)[:4]

    def counter_season(self, counter_id: Any) -> Any:
        return getattr(self.counters.get(counter_id), "season", None)

    # ---- colours ----------------------------------------------------------------------------
    def talent_colour(self, talent: Any) -> str:
        if talent in self.characters:
            return CHARACTER_COLOUR
        if talent in TALENT_COLOURS:
            return TALENT_COLOURS[talent]
        index = self.talent_order.index(talent) if talent in self.talent_order else len(self.talent_order)
        return FALLBACK_COLOURS[index % len(FALLBACK_COLOURS)]

    def talent_label(self, talent: Any) -> str:
        return initials(self.talent(talent, 2))


# ---- shapes ------------------------------------------------------------------------------------
def talent_chip(faces: Faces, talent: Any, x: float, y: float, count: int = 1, r: float = 7) -> Element:
    """A round talent counter centred on (x, y); a count above one is written beside it."""
    label = faces.talent_label(talent)
    character = talent in faces.characters
    shape: Element
    if character:  # a Special Character: a gold diamond, not a disc, so it reads as "no type"
        shape = el("path", d=f"M{x:.2f} {y - r - 1:.2f}L{x + r + 1:.2f} {y:.2f}L{x:.2f} {y + r + 1:.2f}"
                             f"L{x - r - 1:.2f} {y:.2f}Z", fill=faces.talent_colour(talent), stroke="#5c4a00")
    else:
        shape = el("circle", cx=x, cy=y, r=r, fill=faces.talent_colour(talent), stroke="#ffffff", stroke_width=1)
    parts: list[Element] = [title(faces.talent(talent, count) + (f" ×{count}" if count > 1 else "")), shape,
                            text(x, y + 3, label, text_anchor="middle", class_="ct-chip",
                                 style="font-size:6.5px" if len(label) > 1 else None)]
    if count > 1:
        parts.append(text(x + r + 2, y + 4, f"×{count}", class_="ct-count"))
    return group(parts, data_talent=str(talent), data_count=count)


def chip_width(count: int, r: float = 7) -> float:
    """The room a talent chip takes in a row, its count included."""
    return 2 * r + 4 + (6 * len(f"×{count}") + 2 if count > 1 else 0)


def talent_row(faces: Faces, talents: Iterable[Any], x: float, y: float, r: float = 7) -> list[Element]:
    """A circus or a city's talent counters, one chip per type with its count, left to right from x."""
    counts = Counter(talents)
    out = []
    for talent in faces.ordered(counts):
        out.append(talent_chip(faces, talent, x + r, y, counts[talent], r))
        x += chip_width(counts[talent], r)
    return out


def news_badge(faces: Faces, counter_id: Any, x: float, y: float) -> Element:
    """A Local News counter (tent-shaped, CT-0.8) in its season's colour, its face in short, with
    (x, y) its bottom-left corner."""
    label = faces.counter_label(counter_id)
    width = max(22, 6.5 * len(label) + 8)
    colour = season_colour(faces.counter_season(counter_id))
    tent = (f"M{x:.2f} {y:.2f}L{x + 3:.2f} {y - 12:.2f}L{x + width / 2:.2f} {y - 15:.2f}"
            f"L{x + width - 3:.2f} {y - 12:.2f}L{x + width:.2f} {y:.2f}Z")
    return group([title(faces.counter(counter_id)),
                  el("path", d=tent, fill=colour, stroke="#3d3d3d", stroke_width=0.8),
                  text(x + width / 2, y - 3, label, text_anchor="middle", class_="ct-news")],
                 data_news=str(counter_id))


def news_width(faces: Faces, counter_id: Any) -> float:
    return max(22, 6.5 * len(faces.counter_label(counter_id)) + 8)


def card_chip(faces: Faces, card: Any, x: float, y: float, *, played: bool = False,
              width: float = 46) -> Element:
    """An action card, upright in hand or faded on the discard pile: its short name and how far it
    moves the train."""
    found = faces.cards.get(card)
    moves = getattr(found, "move_max", None)
    fill, stroke, ink = ("#efeae0", "#c2b8a3", "#8a8170") if played else ("#fffaf0", "#6b4f1d", "#2b2214")
    parts: list[Element] = [
        title(f"{faces.card(card)}" + (f" (moves up to {moves})" if moves else "") + (" — played" if played else "")),
        el("rect", x=x, y=y, width=width, height=32, rx=3, fill=fill, stroke=stroke),
        text(x + width / 2, y + 14, faces.card_label(card), text_anchor="middle", class_="ct-card",
             style=f"fill:{ink}"),
    ]
    if moves:
        parts.append(text(x + width / 2, y + 27, f"{moves}▸", text_anchor="middle", class_="ct-move",
                          style=f"fill:{ink}"))
    attrs = {"data_discard": str(card)} if played else {"data_card": str(card)}
    return group(parts, **attrs)


def card_back(x: float, y: float, width: float = 46) -> Element:
    """A card the view does not show: its back, nothing else."""
    return el("rect", x=x, y=y, width=width, height=32, rx=3, class_="hidden-card")


def train(seat: int, colour: str, x: float, y: float, label: str, scale: float = 1.35) -> list[Element]:
    """A small locomotive in the seat's colour, its bottom-left corner at (x, y), the seat's number
    on the cab; drawn at 22 by 15 units and scaled."""
    body = "M0 -3L0 -9L13 -9L13 -14L21 -14L21 -3Z"
    shapes: list[Element] = [
        el("path", d=body, fill=colour, stroke="#1b1b1b", stroke_width=0.8),
        el("rect", x=3, y=-13, width=3, height=4, fill="#1b1b1b"),
        el("circle", cx=4, cy=-2, r=2.2, fill="#1b1b1b"),
        el("circle", cx=10, cy=-2, r=2.2, fill="#1b1b1b"),
        el("circle", cx=17, cy=-2, r=2.2, fill="#1b1b1b"),
        text(17, -5.5, seat, text_anchor="middle", class_="ct-train-no"),
    ]
    return [title(label), group(shapes, transform=f"translate({number(x)} {number(y)}) scale({number(scale)})")]
