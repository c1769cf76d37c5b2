"""Circus Train's board as SVG, drawn from one viewer's view: the calendar, the map with its links,
cities, counters and trains, each seat's panel, the Talent Pool and piles, and who is to move.

The board shows everything the view holds and nothing else. Circus Train keeps little hidden (A-6:
the Local News bag, the Destination deck and the undrawn event cards, of which every view but the
arbiter's holds only counts), so the board draws those piles as counts for every viewer, the
arbiter included: contents of a bag are never a board fact. Hands are public by A-6 and sit in
every view, so each panel shows its seat's hand face up; a view that held a hand only as a count
(`{"count": n}`) would get card backs and the count. The seat a viewer plays is marked "you".

The map's layout, pieces and shapes live in `circus_train_map.py` and `circus_train_faces.py`.

Data attributes (for the page and browser tests, compared with the state API's view):

- root `<svg>`: `data-game="circus-train"`, `data-seq` (the view's seq), `data-viewer` (`seat:N`,
  `spectator`, `arbiter`).
- calendar `<g class="calendar">`: `data-month` (name), `data-week` (1-based, of the whole game),
  `data-weeks` (weeks in the game); each week cell `data-week="N"`, the current one also
  `data-current="true"`.
- city `<g class="city" data-city="ID">`; in it the Local News counter `data-news="LN.."` and the
  talent counters (and Special Character) `data-talent="ID" data-count="N"`.
- rail link `<g data-link="A B">`, `data-blocked="true"` when an event card blocks it.
- train `<g class="train" data-seat="N" data-city="ID">`, one per seat whose train is on the map.
- seat panel `<g class="player" data-seat="N" data-score="T">` (T = `view["scores"][N]`), with
  `data-money`, `data-best`, `data-vp`, `data-city` (empty when not on the map), `data-to-move`
  ("true" while the decision waits for the seat), `data-you` ("true" for the viewer's own seat);
  inside it the circus chips `data-talent` + `data-count`, the hand `<g class="hand"
  data-hand-count="K">` with one `data-card="ID"` per card in hand (in view order), and the
  discard pile's cards `data-discard="ID"`.
- Talent Pool `<g class="pool">` with `data-talent` + `data-count` chips; piles `<g class="piles">`
  with `data-bag`, `data-deck`, `data-events-left` (counts) and `data-dest-discard` (count).
- decision `<g class="decision">`: `data-to-move` (space-separated seats, empty when none),
  `data-status` (the view's status), `data-chance` (the chance kind awaited, if any).
- event card in force `<g class="event" data-event="ID">`.
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping, Sequence
from typing import Any

from .circus_train_faces import Faces, card_back, card_chip, season_colour, talent_row
from .circus_train_map import MAP_H, MAP_W, MAP_X, MAP_Y, draw_map
from .generic import seat_names
from .svg import Element, document, el, group, seat_colour, text, title

WIDTH, HEIGHT = 1280.0, 800.0
PANEL_X, PANEL_W = 812.0, 460.0
BAND_Y = MAP_Y + MAP_H + 8
"""The band under the map: the decision, the pool, the piles and the event card."""

STYLE = """
.ct-title { font-size: 20px; font-weight: 700; fill: #5a2d0c }
.ct-sub { font-size: 11px; fill: #555 }
.ct-chip { font-size: 8px; font-weight: 700; fill: #fff }
.ct-count { font-size: 9px; font-weight: 600; fill: #333 }
.ct-news { font-size: 8.5px; font-weight: 700; fill: #111 }
.ct-card { font-size: 10px; font-weight: 600 }
.ct-move { font-size: 8.5px }
.ct-train-no { font-size: 7px; font-weight: 700; fill: #fff }
.ct-city { font-size: 10px; font-weight: 600; fill: #3b2f1c }
.ct-blocked { font-size: 14px; font-weight: 700; fill: #b3261e }
.ct-month { font-size: 10px; font-weight: 600; fill: #333 }
.ct-week { font-size: 8px; fill: #333 }
.ct-name { font-size: 15px; font-weight: 700 }
.ct-score { font-size: 20px; font-weight: 700; fill: #fff }
.ct-stat { font-size: 11px; fill: #333 }
.ct-value { font-size: 13px; font-weight: 600; fill: #222 }
.ct-key { font-size: 9px; fill: #777 }
.ct-tag { font-size: 9px; font-weight: 700; fill: #fff }
.ct-decision { font-size: 13px; font-weight: 600 }
"""


def draw(summary: dict[str, Any], view: dict[str, Any], viewer: str | None = None) -> str:
    """The whole board; a view that is not a Circus Train view raises, and the registry falls back
    to the generic drawing."""
    from domain.games.circus_train.components import CircusTrainComponents, default_components
    from replay_cli.render.common import known_components

    state = view.get("state") or {}
    if not isinstance(state.get("players"), list) or not isinstance(state.get("calendar"), dict):
        raise ValueError("not a Circus Train view")
    faces = Faces(known_components(summary, state, CircusTrainComponents, default_components()))
    names = seat_names(summary)
    names += [f"seat {seat}" for seat in range(len(names), len(state["players"]))]
    seq = int(view.get("seq", 0) or 0)
    shown_as = viewer or "spectator"
    children: list[Element] = [el("style", [STYLE]),
                               el("rect", x=0, y=0, width=WIDTH, height=HEIGHT, fill="#fbf8f1"),
                               *_heading(summary, seq, shown_as),
                               _calendar(faces, state),
                               *draw_map(faces, state, names),
                               *_band(faces, view, names),
                               *_panels(faces, view, names, _seat_of(viewer))]
    label = f"Circus Train at step {seq}, as {shown_as}"
    return document(WIDTH, HEIGHT, children, label=label,
                    attrs={"data-game": "circus-train", "data-seq": seq, "data-viewer": shown_as})


def _seat_of(viewer: str | None) -> int | None:
    if viewer and viewer.startswith("seat:") and viewer[5:].isdigit():
        return int(viewer[5:])
    return None


def _to_move(view: Mapping[str, Any]) -> list[int]:
    decision = view.get("decision") or {}
    if view.get("status") != "active" or decision.get("over"):
        return []
    return [seat for seat in decision.get("seats") or [] if isinstance(seat, int) and not isinstance(seat, bool)]


# ---- heading and calendar ----------------------------------------------------------------------
def _heading(summary: Mapping[str, Any], seq: int, viewer: str) -> list[Element]:
    variant = str(summary.get("variant") or "")
    options = [name.replace("_", " ") for name, on in sorted((summary.get("options") or {}).items()) if on is True]
    sub = " · ".join(part for part in (variant, *options, f"step {seq}", f"as {viewer}") if part)
    return [text(14, 30, "Circus Train", class_="ct-title"), text(14, 50, sub, class_="ct-sub")]


def _calendar(faces: Faces, state: Mapping[str, Any]) -> Element:
    """The six months' weeks (CT-0.3) in their seasons' colours (CT-0.4): weeks gone are pale, the
    current one dark with a marker above."""
    calendar = state.get("calendar") or {}
    week_now = calendar.get("week")
    current = week_now if isinstance(week_now, int) else 0
    months = list(faces.components.months)
    total = sum(m.weeks for m in months) or 1
    left, right, top = 330.0, 1272.0, 22.0
    cell = (right - left) / total
    parts: list[Element] = [title(f"{calendar.get('month')}, week {current} of {calendar.get('weeks_total')}")]
    week = 0
    for month in months:
        x0 = left + week * cell
        parts.append(text(x0 + 2, top - 6, month.name + (" (long)" if month.long_month else ""), class_="ct-month"))
        for _ in range(month.weeks):
            week += 1
            parts.append(_week_cell(left + (week - 1) * cell, top, cell, week, current, month.season))
        parts.append(el("line", x1=left + week * cell, y1=top - 16, x2=left + week * cell, y2=top + 22,
                        stroke="#8a8170", stroke_width=1))
    if 1 <= current <= total:
        mx = left + (current - 0.5) * cell
        parts.append(el("path", d=f"M{mx - 6:.2f} {top + 34:.2f}L{mx + 6:.2f} {top + 34:.2f}L{mx:.2f} {top + 26:.2f}Z",
                        fill="#5a2d0c"))
    return group(parts, class_="calendar", data_month=str(calendar.get("month", "")), data_week=current,
                 data_weeks=calendar.get("weeks_total"))


def _week_cell(x: float, y: float, width: float, week: int, current: int, season: int) -> Element:
    colour = season_colour(season)
    state = "current" if week == current else "past" if week < current else "future"
    opacity = {"current": 1.0, "past": 0.35, "future": 0.7}[state]
    rect = el("rect", x=x + 1, y=y, width=width - 2, height=20, rx=3, fill=colour, fill_opacity=opacity,
              stroke="#1b1b1b" if state == "current" else "none", stroke_width=2)
    label = text(x + width / 2, y + 13, week, text_anchor="middle", class_="ct-week",
                 style="fill:#fff;font-weight:700" if state == "current" else None)
    return group([rect, label], data_week=week, data_current="true" if state == "current" else None)


# ---- the band under the map --------------------------------------------------------------------
def _band(faces: Faces, view: Mapping[str, Any], names: Sequence[str]) -> list[Element]:
    state = view.get("state") or {}
    x, y = MAP_X, BAND_Y
    return [_decision(view, names, x, y), _pool(faces, state, x, y + 52), _piles(faces, state, x, y + 80),
            *_event(faces, state, x, y + 106), _legend(x, 790)]


def _decision(view: Mapping[str, Any], names: Sequence[str], x: float, y: float) -> Element:
    """Who is to move and what for; at the end, the result."""
    decision = view.get("decision") or {}
    seats = _to_move(view)
    chance = (decision.get("chance") or {}).get("kind") if view.get("status") == "active" else None
    parts: list[Element] = [el("rect", x=x, y=y, width=MAP_W, height=40, rx=8, fill="#fff",
                               stroke=seat_colour(seats[0]) if seats else "#8a8170", stroke_width=2)]
    if view.get("status") != "active" or decision.get("over"):
        end = view.get("end") or {}
        result = end.get("result") or {} if isinstance(end, dict) else {}
        winners = ", ".join(names[s] if s < len(names) else f"seat {s}" for s in result.get("winners") or [])
        reason = end.get("reason", "over") if isinstance(end, dict) else "over"
        parts.append(text(x + 14, y + 25, f"Match over ({reason})" + (f": won by {winners}" if winners else ""),
                          class_="ct-decision"))
    elif chance:
        parts.append(text(x + 14, y + 25, f"Waiting for chance: {str(chance).replace('_', ' ')}", class_="ct-decision"))
    else:
        parts.append(text(x + 14, y + 25, "To move:", class_="ct-decision"))
        cursor = x + 100
        for seat in seats:
            parts.append(el("circle", cx=cursor, cy=y + 20, r=7, fill=seat_colour(seat)))
            cursor += 12
        who = ", ".join(f"{names[s] if s < len(names) else 'seat ' + str(s)} (seat {s})" for s in seats)
        prompt = str(decision.get("prompt") or "")
        parts.append(text(cursor, y + 25, who + (f"  —  {prompt}" if prompt else ""), class_="ct-decision"))
    return group(parts, class_="decision", data_to_move=" ".join(map(str, seats)),
                 data_status=str(view.get("status", "")), data_chance=str(chance) if chance else None)


def _pool(faces: Faces, state: Mapping[str, Any], x: float, y: float) -> Element:
    """The Talent Pool (CT-0.7) by type, and this season's Special Hire price (CT-10.3)."""
    pool = {talent: count for talent, count in (state.get("pool") or {}).items() if isinstance(count, int)}
    parts: list[Element] = [text(x + 4, y + 4, "Talent Pool", class_="ct-key")]
    cursor = x + 70
    for talent in faces.ordered(pool):
        chip = talent_row(faces, [talent] * max(pool[talent], 1), cursor, y, r=7)[0]
        if pool[talent] == 0:
            chip.attrs["opacity"] = 0.35
            chip.attrs["data_count"] = 0
        parts.append(chip)
        cursor += 48
    season = faces.seasons.get((state.get("calendar") or {}).get("season"))
    if season is not None:
        parts.append(text(cursor + 8, y + 4, f"Special Hire ${season.special_hire_cost} a talent (season "
                                             f"{season.season})", class_="ct-key"))
    return group(parts, class_="pool")


def _count(value: Any) -> int | None:
    """A pile's size: hidden piles come as {"count": n}, open ones as lists."""
    if isinstance(value, dict):
        count = value.get("count")
        return count if isinstance(count, int) else None
    return len(value) if isinstance(value, list) else None


def _piles(faces: Faces, state: Mapping[str, Any], x: float, y: float) -> Element:
    """The face-down piles as counts (A-6): a board never shows what is in a bag or deck, even to
    the arbiter, whose view holds it."""
    bag, deck = _count(state.get("bag")), _count(state.get("deck"))
    events, discards = _count(state.get("events_left")), _count(state.get("dest_discard"))
    words = [f"Local News bag: {bag}", f"Destination deck: {deck}", f"Destination discards: {discards}"]
    if events:
        words.append(f"Event cards left: {events}")
    reserve = state.get("reserve") or []
    if reserve:
        words.append(f"Reserve: {faces.talents_text(reserve)}")
    first = state.get("first")
    if isinstance(first, int):
        words.append(f"First player: seat {first}")
    return group([text(x + 4, y + 4, "   ·   ".join(words), class_="ct-stat")], class_="piles",
                 data_bag=bag, data_deck=deck, data_events_left=events, data_dest_discard=discards)


def _event(faces: Faces, state: Mapping[str, Any], x: float, y: float) -> list[Element]:
    """The event card in force (CT-21.17) with its text, and what it marks on the map."""
    event_id = state.get("event")
    if not event_id:
        return []
    card = faces.events.get(event_id)
    heading = f"Event card in force: {card.name}" if card is not None else f"Event card in force: {event_id}"
    lines = textwrap.wrap(card.text if card is not None else "", 125)[:3]
    marks = state.get("marks") or {}
    if marks.get("blocked_links"):
        lines.append("Blocked links (dashed red on the map): " + ", ".join(
            f"{faces.city(a)}–{faces.city(b)}" for a, b in marks["blocked_links"]))
    if marks.get("blocked_city"):
        lines.append(f"Blocked city: {faces.city(marks['blocked_city'])}")
    if marks.get("penalised"):
        lines.append("Penalised cities: " + ", ".join(faces.city(c) for c in marks["penalised"]))
    parts: list[Element] = [el("rect", x=x, y=y - 12, width=MAP_W, height=18 + 14 * len(lines[:4]), rx=6,
                               fill="#fff4e0", stroke="#d9a441"),
                            text(x + 10, y + 2, heading, class_="ct-stat", style="font-weight:700")]
    parts += [text(x + 10, y + 16 + 14 * i, line, class_="ct-key") for i, line in enumerate(lines[:4])]
    return [group(parts, class_="event", data_event=str(event_id))]


def _legend(x: float, y: float) -> Element:
    words = ("Counters: R3 Performance Request worth 3 (² two-week show) · 2VP Points · BC Bankrupt Circus · "
             "SC Special Character · tent colour = season · blue frame = start city")
    return group([text(x + 4, y, words, class_="ct-key")], class_="legend")


# ---- seat panels -------------------------------------------------------------------------------
def _panels(faces: Faces, view: Mapping[str, Any], names: Sequence[str], you: int | None) -> list[Element]:
    state = view.get("state") or {}
    players = state.get("players") or []
    scores = view.get("scores") or []
    moving = set(_to_move(view))
    gap = 8.0
    height = min(150.0, (HEIGHT - MAP_Y - 8 - gap * (len(players) - 1)) / max(1, len(players)))
    advanced = any(isinstance(p.get("reputation"), int) and p.get("reputation") for p in players)
    out = []
    for seat, player in enumerate(players):
        score = scores[seat] if seat < len(scores) and isinstance(scores[seat], int) else 0
        out.append(_panel(faces, seat, player, names[seat], score, MAP_Y + seat * (height + gap), height,
                          to_move=seat in moving, you=seat == you, advanced=advanced))
    return out


def _panel(faces: Faces, seat: int, player: Mapping[str, Any], name: str, score: int, y: float, height: float,
           *, to_move: bool, you: bool, advanced: bool) -> Element:
    """One seat: name and score, where its train is, money and markers, its circus, its cards."""
    x, colour = PANEL_X, seat_colour(seat)
    parts: list[Element] = [
        el("rect", x=x, y=y, width=PANEL_W, height=height, rx=8, fill="#fffdf8" if not to_move else "#fff8e6",
           stroke=colour if to_move else "#d5ccb8", stroke_width=3 if to_move else 1),
        el("rect", x=x, y=y, width=7, height=height, rx=3, fill=colour),
        text(x + 16, y + 22, name, class_="ct-name"),
        el("rect", x=x + PANEL_W - 58, y=y + 6, width=50, height=28, rx=6, fill=colour),
        text(x + PANEL_W - 33, y + 27, score, text_anchor="middle", class_="ct-score",
             style="fill:#222" if _light(colour) else None),
        text(x + PANEL_W - 64, y + 16, "score", text_anchor="end", class_="ct-key"),
    ]
    tag_x = x + 26 + 9.2 * len(name)
    for word, fill in (("TO MOVE", colour) if to_move else ("", ""), ("YOU", "#5a2d0c") if you else ("", "")):
        if word:
            parts += [el("rect", x=tag_x, y=y + 10, width=8 + 6.5 * len(word), height=15, rx=7, fill=fill),
                      text(tag_x + 4 + 3.25 * len(word), y + 21, word, text_anchor="middle", class_="ct-tag")]
            tag_x += 14 + 6.5 * len(word)
    parts.append(_stats(faces, player, score, x + 16, y + 42, advanced))
    parts.append(text(x + 16, y + 79, "circus", class_="ct-key"))
    circus = list(player.get("circus") or [])
    parts += talent_row(faces, circus, x + 52, y + 76, r=8) if circus else [text(x + 52, y + 79, "no talent",
                                                                                  class_="ct-key")]
    parts.append(_cards(faces, player, x + 16, y + min(height - 38, 94)))
    return group(parts, class_="player", data_seat=seat, data_score=score, data_money=player.get("money"),
                 data_best=player.get("best"), data_vp=player.get("vp"), data_city=player.get("city") or "",
                 data_to_move="true" if to_move else None, data_you="true" if you else None)


def _light(colour: str) -> bool:
    """Whether white text would be hard to read on `colour` (a `#rrggbb` seat colour)."""
    red, green, blue = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return 0.299 * red + 0.587 * green + 0.114 * blue > 160


def _stats(faces: Faces, player: Mapping[str, Any], score: int, x: float, y: float, advanced: bool) -> Element:
    """Where the train is, money, Best Performance, VP (when it is not the score), reputation (the
    advanced game, CT-19.1) and how many requests the seat has performed, as labelled tiles."""
    city = player.get("city")
    where = faces.city(city) if city else "not on the map"
    if player.get("show"):
        where += " (show)"
    items = [("train in", where, 128), ("money", f"${player.get('money')}", 58), ("best", str(player.get("best")), 44)]
    if player.get("vp") != score:
        items.append(("VP", str(player.get("vp")), 40))
    if advanced:
        items.append(("reputation", str(player.get("reputation")), 64))
    requests = list(player.get("requests") or [])
    items.append(("performed", str(len(requests)), 60))
    parts: list[Element] = []
    if requests:
        parts.append(title("performed: " + ", ".join(faces.counter(r) for r in requests)))
    for key, value, width in items:
        parts.append(text(x, y, key, class_="ct-key"))
        parts.append(text(x, y + 15, value, class_="ct-value"))
        x += width
    return group(parts, class_="stats")


def _cards(faces: Faces, player: Mapping[str, Any], x: float, y: float) -> Element:
    """The hand face up (public, A-6), then the discard pile faded; a hand the view gives only as a
    count is drawn as backs."""
    hand = player.get("hand")
    parts: list[Element] = []
    width, step = 45.0, 48.0
    cursor = x
    if isinstance(hand, list):
        for card in hand:
            parts.append(card_chip(faces, card, cursor, y, width=width))
            cursor += step
        count = len(hand)
    else:
        count = _count(hand) or 0
        for _ in range(count):
            parts.append(card_back(cursor, y, width=width))
            cursor += step
        parts.append(text(cursor, y + 18, f"{count} cards", class_="ct-key"))
        cursor += 50
    if not count:
        parts.append(text(cursor, y + 18, "no cards in hand", class_="ct-key"))
        cursor += 90
    hand_group = group(parts, class_="hand", data_hand_count=count)
    discard = list(player.get("discard") or [])
    played: list[Element] = []
    if discard:
        cursor += 6
        played.append(el("line", x1=cursor - 5, y1=y - 2, x2=cursor - 5, y2=y + 34, stroke="#b8ad96",
                         stroke_dasharray="3 2"))
        for card in discard:
            played.append(card_chip(faces, card, cursor, y, played=True, width=width))
            cursor += step
    return group([hand_group, group(played, class_="discard")], class_="cards")
