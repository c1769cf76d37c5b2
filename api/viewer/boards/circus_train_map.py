"""Circus Train's map: where each city sits on the board, the rail links, the cities with their
counters, and the trains.

Private to the Circus Train board (`circus_train.py`). The component data gives cities latitude
and longitude, not board positions, and a map drawn straight from geography piles the Great Lakes
cities (Detroit, Toledo, Cleveland) onto each other. So the shipped map has a hand-made schematic
layout (`SHIPPED_LAYOUT`, geography kept, distances evened out so every city's box and its
counters stay readable); any other set is placed from its coordinates, or on a ring when a city
has none. Every layout is a pure function of the set, so the same view always gives the same bytes.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .circus_train_faces import Faces, news_badge, news_width, talent_row, train
from .svg import Element, el, group, seat_colour, text, title

MAP_X, MAP_Y, MAP_W, MAP_H = 8.0, 64.0, 792.0, 540.0
"""The map's frame in the board's viewBox."""

BOX_W, BOX_H = 86.0, 34.0
"""A city's box: its name above, its counters below."""

SHIPPED_LAYOUT: Mapping[str, tuple[int, int]] = {
    "winnipeg": (60, 118), "duluth": (165, 195), "minneapolis": (70, 252), "milwaukee": (195, 292),
    "chicago": (205, 382), "grand_rapids": (305, 300), "detroit": (395, 322), "toronto": (450, 212),
    "montreal": (700, 112), "buffalo": (505, 305), "syracuse": (585, 240), "albany": (655, 180),
    "boston": (750, 290), "new_york": (712, 370), "toledo": (368, 406), "cleveland": (460, 382),
    "pittsburgh": (528, 456), "columbus": (430, 462), "cincinnati": (345, 522), "indianapolis": (268, 452),
    "st_louis": (110, 470), "louisville": (215, 562), "harrisburg": (620, 420), "philadelphia": (720, 445),
    "baltimore": (655, 502), "washington": (560, 520), "richmond": (660, 576),
}
"""City centres for the shipped map (`default-filled-in-v1`), keyed by city id."""


@dataclass(frozen=True)
class Layout:
    """Each city's centre on the board."""

    centres: Mapping[str, tuple[float, float]]

    def at(self, city: str) -> tuple[float, float]:
        return self.centres[city]


def layout_of(cities: Sequence[Any]) -> Layout:
    """Where each city of the set goes: the shipped table when it places every city, else the
    cities' coordinates projected into the frame, else a ring in the set's order."""
    ids = [c.id for c in cities]
    if ids and all(city in SHIPPED_LAYOUT for city in ids):
        return Layout({city: (float(SHIPPED_LAYOUT[city][0]), float(SHIPPED_LAYOUT[city][1])) for city in ids})
    if ids and all(c.lat_tenths is not None and c.lon_tenths is not None for c in cities):
        return _projected(cities)
    return _ring(ids)


def _projected(cities: Sequence[Any]) -> Layout:
    """An equirectangular projection (longitude shrunk by the cosine of the middle latitude) fitted
    into the frame, leaving half a box of margin on every side."""
    lats = [c.lat_tenths for c in cities]
    lons = [c.lon_tenths for c in cities]
    shrink = math.cos(math.radians((max(lats) + min(lats)) / 20))
    width = max(1.0, (max(lons) - min(lons)) * shrink)
    height = max(1.0, float(max(lats) - min(lats)))
    left, top = MAP_X + BOX_W / 2 + 10, MAP_Y + BOX_H + 40
    scale = min((MAP_W - BOX_W - 20) / width, (MAP_H - BOX_H - 80) / height)
    return Layout({c.id: (round(left + (c.lon_tenths - min(lons)) * shrink * scale, 1),
                          round(top + (max(lats) - c.lat_tenths) * scale, 1)) for c in cities})


def _ring(ids: Sequence[str]) -> Layout:
    cx, cy = MAP_X + MAP_W / 2, MAP_Y + MAP_H / 2 + 10
    rx, ry = MAP_W / 2 - BOX_W, MAP_H / 2 - BOX_H - 30
    count = max(1, len(ids))
    return Layout({city: (round(cx + rx * math.cos(2 * math.pi * i / count - math.pi / 2), 1),
                          round(cy + ry * math.sin(2 * math.pi * i / count - math.pi / 2), 1))
                   for i, city in enumerate(ids)})


# ---- drawing -----------------------------------------------------------------------------------
def draw_map(faces: Faces, state: Mapping[str, Any], summary_names: Sequence[str]) -> list[Element]:
    """The frame, the links (blocked ones marked), the cities with their counters, then the trains
    on top, so nothing hides a train."""
    layout = layout_of(faces.components.cities)
    marks = state.get("marks") or {}
    blocked = {tuple(sorted(pair)) for pair in marks.get("blocked_links") or [] if len(pair) == 2}
    out: list[Element] = [el("rect", x=MAP_X, y=MAP_Y, width=MAP_W, height=MAP_H, rx=10, fill="#f3ecd9",
                             stroke="#cdbf9c"),
                          text(MAP_X + 12, MAP_Y + MAP_H - 10, "the map", class_="label")]
    out.append(group([_link(faces, layout, link.a, link.b, tuple(sorted((link.a, link.b))) in blocked)
                      for link in faces.components.links], class_="links"))
    out.append(group([_city(faces, layout, city, state) for city in faces.components.cities], class_="cities"))
    out.append(group(_trains(faces, layout, state, summary_names), class_="trains"))
    return out


def _link(faces: Faces, layout: Layout, a: str, b: str, blocked: bool) -> Element:
    (x1, y1), (x2, y2) = layout.at(a), layout.at(b)
    line = el("line", x1=x1, y1=y1, x2=x2, y2=y2, stroke="#b3261e" if blocked else "#6d5c3d",
              stroke_width=2.5 if blocked else 2, stroke_dasharray="6 4" if blocked else None, stroke_linecap="round")
    parts: list[Element] = [title(f"{faces.city(a)} – {faces.city(b)}" + (" (blocked this month)" if blocked else "")),
                            line]
    if blocked:
        mx, my = (x1 + x2) / 2, (y1 + y2) / 2
        parts.append(text(mx, my + 5, "✕", text_anchor="middle", class_="ct-blocked"))
    return group(parts, data_link=f"{a} {b}", data_blocked="true" if blocked else None)


def _city(faces: Faces, layout: Layout, city: Any, state: Mapping[str, Any]) -> Element:
    """A city's box: its name, then its Local News counter, its Special Character and its talent
    counters; a start city (CT-5.20) has a blue frame, a city an event blocks a red one."""
    x, y = layout.at(city.id)
    left, top = x - BOX_W / 2, y - BOX_H / 2
    marks = state.get("marks") or {}
    blocked = marks.get("blocked_city") == city.id
    penalised = city.id in (marks.get("penalised") or [])
    stroke = "#b3261e" if blocked else "#2f6fb0" if city.start_city else "#8a7a5a"
    notes = [city.name] + (["start city"] if city.start_city else []) + (["in Canada"] if city.canada else []) \
        + (["blocked by the event card"] if blocked else []) + (["penalised by the event card"] if penalised else [])
    parts: list[Element] = [
        title(" · ".join(notes)),
        el("rect", x=left, y=top, width=BOX_W, height=BOX_H, rx=5, fill="#fffdf7", stroke=stroke,
           stroke_width=2 if blocked or city.start_city else 1.2),
        text(left + 5, top + 11, city.name, class_="ct-city"),
    ]
    if penalised:
        parts.append(text(left + BOX_W - 4, top + 11, "−", text_anchor="end", class_="ct-blocked"))
    cursor = left + 4
    news = (state.get("news") or {}).get(city.id)
    if news is not None:
        parts.append(news_badge(faces, news, cursor, top + BOX_H - 2))
        cursor += news_width(faces, news) + 3
    character = (state.get("characters") or {}).get(city.id)
    items = ([character] if character else []) + list((state.get("talents") or {}).get(city.id) or [])
    if items:
        parts.extend(talent_row(faces, items, cursor, top + BOX_H - 9, r=6.5))
    return group(parts, class_="city", data_city=city.id)


def _trains(faces: Faces, layout: Layout, state: Mapping[str, Any], names: Sequence[str]) -> list[Element]:
    """Each seat's train on its city's box, side by side when several share a city; one on a
    two-week show (CT-9.14) flies a flag."""
    by_city: dict[str, list[int]] = {}
    for seat, player in enumerate(state.get("players") or []):
        city = player.get("city")
        if city in layout.centres:
            by_city.setdefault(city, []).append(seat)
    out: list[Element] = []
    for city in sorted(by_city):
        x, y = layout.at(city)
        seats = by_city[city]
        start = x - (len(seats) * 31 - 2) / 2
        for index, seat in enumerate(seats):
            player = (state.get("players") or [])[seat]
            name = names[seat] if seat < len(names) else f"seat {seat}"
            show = " — two-week show" if player.get("show") else ""
            left = start + index * 31
            label = f"{name}'s train in {faces.city(city)}{show}"
            parts = train(seat, seat_colour(seat), left, y - BOX_H / 2 + 1, label)
            if player.get("show"):
                parts.append(el("path", d=f"M{left + 24:.2f} {y - BOX_H / 2 - 18:.2f}v-10l9 3-9 3",
                                fill="#b3261e", stroke="#1b1b1b", stroke_width=0.6))
            out.append(group(parts, class_="train", data_seat=seat, data_city=city))
    return out
