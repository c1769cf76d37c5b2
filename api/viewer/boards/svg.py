"""A small SVG writer every board uses: elements with escaped text and attributes, and the document.

Why not a library: the boards need a handful of shapes and text, and every attribute value and text
node here is escaped in one place, so a player's name or an annotation never becomes markup.
Numbers are written as integers or with at most two decimals, so the same view always gives the
same bytes (drawings are compared in tests and cached by ETag).
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterable, Mapping
from html import escape
from typing import TypeAlias

Attr: TypeAlias = "str | int | float | bool | None"
Node: TypeAlias = "Element | str"

SEAT_COLOURS = ("#d62728", "#1f77b4", "#2ca02c", "#e6b800", "#9467bd", "#17becf")
"""Seat 0, 1, ... the same colours on every board and in the page's tables (viewer.css)."""


def seat_colour(seat: int | None) -> str:
    return "#777777" if seat is None else SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def number(value: float) -> str:
    """An SVG number: an integer as is, anything else rounded to two decimals without trailing zeros."""
    if isinstance(value, bool):
        return str(int(value))
    if isinstance(value, int) or float(value).is_integer():
        return str(int(value))
    return f"{value:.2f}".rstrip("0").rstrip(".")


class Element:
    """One SVG element: `tag`, attributes (None and False left out, True written as "true",
    `class_` and `data_seat` written as `class` and `data-seat`), and children."""

    __slots__ = ("attrs", "children", "tag")

    def __init__(self, tag: str, attrs: Mapping[str, Attr] | None = None, children: Iterable[Node] = ()) -> None:
        self.tag = tag
        self.attrs = dict(attrs or {})
        self.children = list(children)

    def add(self, *children: Node) -> Element:
        self.children.extend(children)
        return self

    def __str__(self) -> str:
        parts = [f"<{self.tag}"]
        for name, value in self.attrs.items():
            if value is None or value is False:
                continue
            key = name.rstrip("_").replace("_", "-")
            if value is True:  # XML has no bare attributes
                parts.append(f' {key}="true"')
            elif isinstance(value, (int, float)):
                parts.append(f' {key}="{number(value)}"')
            else:
                parts.append(f' {key}="{escape(str(value), quote=True)}"')
        if not self.children:
            return "".join(parts) + "/>"
        inner = "".join(escape(child, quote=False) if isinstance(child, str) else str(child) for child in self.children)
        return "".join(parts) + ">" + inner + f"</{self.tag}>"


def el(tag: str, children: Iterable[Node] = (), **attrs: Attr) -> Element:
    """`el("rect", x=0, y=0, width=10, height=10, class_="tile")`."""
    return Element(tag, attrs, children)


def text(x: float, y: float, content: object, **attrs: Attr) -> Element:
    """A text node at (x, y); `content` is written as escaped text."""
    return Element("text", {"x": x, "y": y, **attrs}, [str(content)])


def title(content: object) -> Element:
    """A tooltip (and the accessible name) of its parent."""
    return Element("title", {}, [str(content)])


def group(children: Iterable[Node] = (), **attrs: Attr) -> Element:
    return Element("g", attrs, children)


STYLE = """
text { font-family: system-ui, -apple-system, "Segoe UI", sans-serif }
text:not([font-size]) { font-size: 12px }
text:not([fill]) { fill: #222 }
.label { font-size: 10px }
.label:not([fill]) { fill: #555 }
.small { font-size: 9px }
.big { font-size: 16px; font-weight: 600 }
.hidden-card { fill: #c9c3b6; stroke: #8a8478 }
"""


def document(width: float, height: float, children: Iterable[Node], *, label: str,
             attrs: Mapping[str, Attr] | None = None) -> str:
    """A whole `<svg>` that scales to its container (viewBox, no fixed size), with `label` as its
    accessible name and the shared style sheet above."""
    root = Element("svg", {"xmlns": "http://www.w3.org/2000/svg", "viewBox": f"0 0 {number(width)} {number(height)}",
                           "role": "img", "aria-label": label, "class": "board", **(attrs or {})})
    root.add(Element("title", {}, [label]), Element("style", {}, [STYLE]))
    root.add(*children)
    return str(root)


def wrap(words: str, width: int) -> list[str]:
    """`words` in lines of at most `width` characters, broken at spaces only (a longer word stands
    alone): SVG text does not wrap by itself."""
    return textwrap.wrap(words, width, break_long_words=False, break_on_hyphens=False)
