"""Circus Train at the terminal: a panel like Carcassonne's map (the calendar, each player's train,
money, talent by type and points, the cities with their counters, the viewer's own hand, the
decision), and Circus Train's words for the log (`narrate`) and for what a step changed
(`describe_changes`).

Everything comes from the viewer's view of the state. Circus Train keeps little hidden (A-6: the
Local News bag, the Destination deck and the undrawn event cards, of which a view holds only the
counts), and hands are public by the rules; the panel still lists only the viewer's own hand, as
a player looks at the table, and the size of everyone's. Names of cities, talents, cards and
counters come from the match's component set; when it is not known here, IDs are shown.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from ..output import compact
from .common import components_of, decision_text, header, seat_label, seat_style

if TYPE_CHECKING:
    from .narrate import Narrator


def a(name: str) -> str:
    """`a Clown`, `an Acrobat`, `an Elephant`."""
    return f"{'an' if name[:1].lower() in 'aeiou' else 'a'} {name}"


class Names:
    """Readable names for a component set's IDs (the ID itself when the set does not know it)."""

    def __init__(self, summary: dict[str, Any]) -> None:
        components = components_of(summary)
        self.components = components
        self.cities = {c.id: c.name for c in getattr(components, "cities", ())}
        self.talents = {t.id: t.name for t in getattr(components, "talent_types", ())}
        self.order = [t.id for t in getattr(components, "talent_types", ())]
        self.characters = {c.id: c.name for c in getattr(components, "special_characters", ())}
        self.cards = {c.id: c.name for c in getattr(components, "action_cards", ())}
        self.events = {e.id: e for e in getattr(components, "event_cards", ())}
        self.counters = {c.id: c for c in getattr(components, "local_news", ())}
        self.destinations = {d.id: d.city for d in getattr(components, "destination_cards", ())}
        self.seasons = {s.season: s for s in getattr(components, "seasons", ())}

    def city(self, city: Any) -> str:
        return self.cities.get(city, str(city)) if city is not None else "—"

    def talent(self, talent: Any, count: int = 1) -> str:
        """`Clowns` for several, `Clown` for one; a Special Character by its name."""
        if talent in self.characters:
            return self.characters[talent]
        name = self.talents.get(talent, str(talent))
        return name[:-1] if count == 1 and name.endswith("s") else name

    def card(self, card: Any) -> str:
        return self.cards.get(card, str(card))

    def talents_text(self, items: list[Any] | tuple[Any, ...]) -> str:
        """A multiset of talent (and Special Character) IDs: `Clowns ×2, Acrobat, Big Bertha`."""
        counts = Counter(items)
        ordered = [t for t in self.order if t in counts] + sorted(t for t in counts if t not in self.order)
        return ", ".join(self.talent(t, counts[t]) + (f" ×{counts[t]}" if counts[t] > 1 else "") for t in ordered)

    def counter(self, counter_id: Any) -> str:
        """A Local News counter by what it is: `LN14 Performance Request: 2 pts, +5 Acrobats`."""
        counter: Any = self.counters.get(counter_id)
        kind = getattr(counter, "kind", None)
        if kind == "performance_request":
            bonuses = "".join(f", +{points} {self.talent(t, 2)}" for t, points in counter.bonuses.items())
            two = " (two-week show)" if counter.two_week else ""
            points = counter.base_points
            return f"{counter_id} Performance Request: {points} pt{'' if points == 1 else 's'}{bonuses}{two}"
        if kind == "points":
            return f"{counter_id} Points counter: {counter.victory_points} VP"
        if kind == "bankrupt_circus":
            return f"{counter_id} Bankrupt Circus: {self.talents_text(counter.talents)}"
        if kind == "special_character":
            return f"{counter_id} Special Character: {self.talent(counter.character)}"
        return str(counter_id)


def _count(value: Any) -> int | None:
    """How many items a pile holds: a view gives hidden piles as {"count": n}, open ones as lists."""
    if isinstance(value, dict):
        count = value.get("count")
        return count if isinstance(count, int) else None
    return len(value) if isinstance(value, list) else None


def _viewer_seat(viewer: str | None) -> int | None:
    if viewer and viewer.startswith("seat:") and viewer[5:].isdigit():
        return int(viewer[5:])
    return None


def render(summary: dict[str, Any], view: dict[str, Any], viewer: str | None = None) -> list[RenderableType]:
    state = view.get("state") or {}
    names = Names(summary)
    players = state.get("players") or []
    if not isinstance(players, list) or not isinstance(state.get("calendar"), dict):
        raise ValueError("not a Circus Train view")  # render_state falls back to the generic panels
    out: list[RenderableType] = [header(summary, view, viewer), decision_text(summary, view)]
    out.append(_calendar(summary, state, names))
    out.append(_players(summary, view, names))
    seat = _viewer_seat(viewer)
    if seat is not None and seat < len(players):
        hand = players[seat].get("hand") or []
        line = Text(f"your hand ({seat_label(summary, seat)}): ", style="bold")
        line.append(", ".join(_cards(names, hand)) or "no cards")
        out.append(line)
    out.append(_cities(summary, state, names))
    out.append(_supply(state, names))
    return out


def _cards(names: Names, cards: list[Any]) -> list[str]:
    counts = Counter(cards)
    return [names.card(c) + (f" ×{counts[c]}" if counts[c] > 1 else "") for c in sorted(counts, key=names.card)]


def _calendar(summary: dict[str, Any], state: dict[str, Any], names: Names) -> Text:
    calendar = state.get("calendar") or {}
    text = Text()
    text.append(f"{calendar.get('month')} (season {calendar.get('season')}), week {calendar.get('week')} of "
                f"{calendar.get('weeks_total')}", style="bold")
    text.append(f"   first player: {seat_label(summary, state.get('first'))}")
    event = names.events.get(state.get("event"))
    if state.get("event"):
        text.append(f"\nevent card in force: {event.name}: {event.text}" if event else
                    f"\nevent card in force: {state.get('event')}", style="italic")
    marks = state.get("marks") or {}
    if marks:
        text.append(f"\nevent markers: {compact(marks, 120)}", style="italic")
    return text


def _players(summary: dict[str, Any], view: dict[str, Any], names: Names) -> Table:
    state = view.get("state") or {}
    players = state.get("players") or []
    scores = view.get("scores") or []
    decision = view.get("decision") or {}
    advanced = summary.get("variant") in ("advanced", "solitaire-advanced") or any(
        p.get("reputation") for p in players)
    table = Table(title="Players", title_justify="left")
    # the score is the sheet's total; VP is the state's own track, shown only where they differ
    show_vp = any(player.get("vp") != (scores[seat] if seat < len(scores) else None)
                  for seat, player in enumerate(players))
    columns = [("seat", "right"), ("player", "left"), ("score", "right"), ("train", "left"), ("money", "right"),
               *([("VP", "right")] if show_vp else []), ("best performance", "right")]
    for column, justify in columns:
        table.add_column(column, justify=justify)  # type: ignore[arg-type]
    if advanced:
        table.add_column("reputation", justify="right")
    for column in ("talent", "performed", "hand", "discard"):
        table.add_column(column, justify="left" if column == "talent" else "right", overflow="fold")
    for seat, player in enumerate(players):
        name = next((str(s.get("player")) for s in summary.get("seats", []) if s.get("seat") == seat), f"seat {seat}")
        train = names.city(player.get("city")) if player.get("city") else "not on the map"
        if player.get("show"):
            show = player["show"]
            train += " (a two-week show)" if show == player.get("city") else f" (two-week show in {names.city(show)})"
        row: list[Text | str] = [Text(str(seat), style=seat_style(seat)),
                                 name + (" ◀" if seat in decision.get("seats", []) else ""),
                                 str(scores[seat]) if seat < len(scores) else "", train,
                                 f"${player.get('money')}", *([str(player.get("vp"))] if show_vp else []),
                                 str(player.get("best"))]
        if advanced:
            row.append(str(player.get("reputation")))
        row += [names.talents_text(player.get("circus") or []) or "none", str(len(player.get("requests") or [])),
                f"{len(player.get('hand') or [])} cards", str(len(player.get("discard") or []))]
        table.add_row(*row)
    return table


def _cities(summary: dict[str, Any], state: dict[str, Any], names: Names) -> RenderableType:
    news, talents, characters = state.get("news") or {}, state.get("talents") or {}, state.get("characters") or {}
    trains: dict[str, list[int]] = {}
    for seat, player in enumerate(state.get("players") or []):
        if player.get("city"):
            trains.setdefault(player["city"], []).append(seat)
    cities = sorted(set(news) | set(talents) | set(characters) | set(trains), key=names.city)
    if not cities:
        return Text("(no counters on the map)")
    table = Table(title="The map: cities with counters or trains", title_justify="left")
    for column in ("city", "Local News", "talent", *(["Special Character"] if characters else []), "trains"):
        table.add_column(column)
    for city in cities:
        here = Text()
        for seat in trains.get(city, []):
            if here:
                here.append(", ")
            here.append(seat_label(summary, seat), style=seat_style(seat))
        row: list[Text | str] = [names.city(city), names.counter(news[city]) if city in news else "",
                                 names.talents_text(talents.get(city) or [])]
        if characters:
            row.append(names.talent(characters[city]) if city in characters else "")
        table.add_row(*row, here)
    return table


def _supply(state: dict[str, Any], names: Names) -> Text:
    calendar = state.get("calendar") or {}
    season = names.seasons.get(calendar.get("season"))
    pool = state.get("pool") or {}
    text = Text("pool: ", style="bold")
    text.append(", ".join(f"{names.talent(t, n)} {n}" for t, n in sorted(
        pool.items(), key=lambda item: names.order.index(item[0]) if item[0] in names.order else 99)) or "empty")
    if season is not None:
        text.append(f"  (Special Hire ${season.special_hire_cost} a talent in season {season.season})")
    piles = [f"Local News bag {_count(state.get('bag'))}", f"destination deck {_count(state.get('deck'))}",
             f"destination discards {_count(state.get('dest_discard'))}"]
    if _count(state.get("events_left")):
        piles.append(f"event cards left {_count(state.get('events_left'))}")
    if state.get("reserve"):
        piles.append(f"reserve: {names.talents_text(state['reserve'])}")
    text.append("\n" + " · ".join(piles), style="dim")
    return text


# ==== words ===================================================================================
def narrate(narrator: Narrator, entry: dict[str, Any]) -> str | None:
    """Circus Train's sentences: cards played with the cities the train passes, hires, performances
    (in the city the train went to, which an earlier move of the log says), wages, steals; the
    counters and cards that come out of the bag and the deck, and what the die shows."""
    names = Names(narrator.summary)
    kind = entry.get("kind")
    p = entry.get("payload") or {}
    if kind == "chance" and not p.get("hidden"):
        return _chance(narrator, names, str(p.get("kind")), p.get("outcome"))
    if kind != "move" or p.get("hidden"):
        return None
    seat = p.get("seat")
    who = narrator.seat(seat)
    move = p.get("move") or {}
    kind_of = move.get("type")
    here = narrator.recall(f"city:{seat}")
    at = f" in {names.city(here)}" if here else ""
    if kind_of == "pick_talent":
        return f"{who} takes {a(names.talent(move.get('talent')))} as a starting talent"
    if kind_of == "choose_start":
        narrator.remember(f"city:{seat}", move.get("city"))
        return f"{who} puts the train on {names.city(move.get('city'))}"
    if kind_of == "play_card":
        card = names.card(move.get("card"))
        verb = {"replay": f"replays {card} from the discard pile",
                "eddie": f"replays {card} free with Engineer Eddie"}.get(str(move.get("source")), f"plays {card}")
        path = [names.city(city) for city in move.get("path") or []]
        if path:
            narrator.remember(f"city:{seat}", (move.get("path") or [])[-1])
            route = f", moving {'from ' + names.city(here) + ' ' if here else ''}to {path[-1]}"
            route += f" by {', '.join(path[:-1])}" if len(path) > 1 else ""
        else:
            route = f", staying{at}" if here else ""
        option = {"move": "", "perform_hire": ", to perform or hire",
                  "parade": f", for a parade ({move.get('parade_reward')})"}.get(str(move.get("option")), "")
        return f"{who} {verb}{route}{option}"
    if kind_of == "pocket_wages":
        return f"{who} pockets {move.get('bills')} wage bill(s) instead of playing a card"
    if kind_of == "use_sam":
        return f"{who} spends Smuggler Sam for reputation"
    if kind_of == "claim_character":
        return f"{who} tries to claim the Special Character{at}"
    if kind_of == "perform":
        famous = f" with a famous {move['famous']} (Ringmaster Ronald)" if move.get("famous") else ""
        return f"{who} performs{at}{famous}"
    if kind_of == "hire":
        if move.get("sam"):
            return f"{who} hires {a(names.talent(move.get('talent')))}{at} with Smuggler Sam, no roll"
        return f"{who} tries to hire {a(names.talent(move.get('talent')))}{at}"
    if kind_of == "buy_after_failure":
        return f"{who} pays for the talent after the failed roll"
    if kind_of == "steal":
        return f"{who} tries to steal {names.talents_text(move.get('talents') or [])} from " \
               f"{narrator.seat(move.get('victim'))}"
    if kind_of == "buy_from_pool":
        return f"{who} buys {a(names.talent(move.get('talent')))} from the pool"
    if kind_of == "keep_talent":
        kept = names.talents_text(move.get("talents") or [])
        return f"{who} pays wages for {kept} (any other talent is fired)" if kept else \
            f"{who} pays no wages: every talent is fired"
    if kind_of == "send_fired":
        return f"{who} sends the fired talent to {names.city(move.get('city'))}"
    if kind_of == "long_steal":
        return f"{who} takes {a(names.talent(move.get('talent')))} from {narrator.seat(move.get('victim'))} " \
               "(the long month's steal)"
    if kind_of == "rest_bonus":
        return f"{who} takes the Rest bonus: {names.talent(move.get('bonus'))}"
    if kind_of == "block_link":
        return f"{who} blocks the rail link {names.city(move.get('a'))}–{names.city(move.get('b'))} this month"
    if kind_of == "return_talent":
        return f"{who} returns {a(names.talent(move.get('talent')))} to the pool"
    if kind_of == "pass":
        return f"{who} passes"
    return None


def _chance(narrator: Narrator, names: Names, kind: str, outcome: Any) -> str | None:
    if kind == "first_player":
        return f"{narrator.seat(outcome)} takes the First Player marker"
    if kind == "destination_card":
        return f"destination card drawn: {names.city(names.destinations.get(outcome, outcome))}"
    if kind in ("initial_request", "local_news"):
        return f"Local News counter drawn: {names.counter(outcome)}"
    if kind.startswith("die:"):
        return f"the die for the {kind[4:].replace('_', ' ')} roll shows {outcome}"
    if kind == "event_card":
        event = names.events.get(outcome)
        return f"event card revealed: {event.name}: {event.text}" if event else f"event card revealed: {outcome}"
    return None


def describe_changes(summary: dict[str, Any], before: dict[str, Any], after: dict[str, Any]) -> list[Text]:
    """What changed between two views in Circus Train's terms: the calendar, each player's train,
    money, points and circus, the cards that went to the discard pile, the counters that came to or
    left each city, the pool and the piles, the event card, the scores and who acts next."""
    names = Names(summary)
    old, new = before.get("state") or {}, after.get("state") or {}
    out: list[Text] = []

    def add(text: str, style: str = "yellow") -> None:
        out.append(Text(f"  {text}", style=style))

    def counted(a: Any, b: Any, what: str, money: bool = False) -> None:
        if a != b:
            shown = (lambda v: f"${v}") if money else str
            delta = f" ({b - a:+d})" if isinstance(a, int) and isinstance(b, int) else ""
            add(f"~ {what} {shown(a)} → {shown(b)}{delta}")

    old_cal, new_cal = old.get("calendar") or {}, new.get("calendar") or {}
    if old_cal.get("month") != new_cal.get("month"):
        add(f"~ a new month: {old_cal.get('month')} → {new_cal.get('month')} (season {new_cal.get('season')})")
    if old_cal.get("week") != new_cal.get("week"):
        add(f"~ week {old_cal.get('week')} → {new_cal.get('week')} of {new_cal.get('weeks_total')}")
    if old.get("first") != new.get("first"):
        add(f"~ first player: {seat_label(summary, new.get('first'))}")
    old_players = old.get("players") or []
    for seat, player in enumerate(new.get("players") or []):
        was = old_players[seat] if seat < len(old_players) else {}
        who = seat_label(summary, seat)
        if was.get("city") != player.get("city"):
            add(f"~ {who}'s train: {names.city(was.get('city'))} → {names.city(player.get('city'))}")
        counted(was.get("money"), player.get("money"), f"{who}: money", money=True)
        counted(was.get("vp"), player.get("vp"), f"{who}: VP")
        counted(was.get("best"), player.get("best"), f"{who}: best performance")
        counted(was.get("reputation"), player.get("reputation"), f"{who}: reputation")
        gained = Counter(player.get("circus") or []) - Counter(was.get("circus") or [])
        lost = Counter(was.get("circus") or []) - Counter(player.get("circus") or [])
        if gained:
            add(f"+ {who}'s circus: {names.talents_text(list(gained.elements()))}", "green")
        if lost:
            add(f"- {who}'s circus: {names.talents_text(list(lost.elements()))}", "red")
        for request in (player.get("requests") or [])[len(was.get("requests") or []):]:
            add(f"+ {who} has performed {names.counter(request)}", "green")
        discarded = Counter(player.get("discard") or []) - Counter(was.get("discard") or [])
        if discarded:
            add(f"~ {who} to the discard pile: {', '.join(_cards(names, list(discarded.elements())))}")
        if len(was.get("discard") or []) > len(player.get("discard") or []) and not discarded:
            add(f"~ {who} takes the discard pile back into the hand")
        counted(len(was.get("hand") or []), len(player.get("hand") or []), f"{who}: cards in hand")
        if was.get("show") != player.get("show"):
            add(f"~ {who}: two-week show " + (f"in {names.city(player['show'])}" if player.get("show") else "over"))
    _board(names, old, new, add)
    for card in (new.get("dest_discard") or [])[len(old.get("dest_discard") or []):]:
        add(f"~ destination card {names.city(names.destinations.get(card, card))} to the discards", "dim")
    for pile, what in (("bag", "Local News bag"), ("deck", "destination deck"), ("events_left", "event cards left")):
        counted(_count(old.get(pile)), _count(new.get(pile)), what)
    if old.get("event") != new.get("event"):
        event = names.events.get(new.get("event"))
        add(f"~ event card in force: {event.name}" if event else
            "~ the event card is discarded" if not new.get("event") else f"~ event card in force: {new.get('event')}")
    if old.get("marks") != new.get("marks"):
        add(f"~ event markers: {compact(new.get('marks'), 100)}")
    old_scores, new_scores = before.get("scores") or [], after.get("scores") or []
    for seat, total in enumerate(new_scores):
        was_total = old_scores[seat] if seat < len(old_scores) else 0
        vp = [(p[seat].get("vp") if seat < len(p) else None) for p in (old_players, new.get("players") or [])]
        if total != was_total and vp != [was_total, total]:  # the VP line above says it already
            add(f"~ {seat_label(summary, seat)}: score {was_total} → {total} ({total - was_total:+d})")
    if before.get("decision") != after.get("decision"):
        add(decision_text(summary, after).plain, "dim")
    return out or [Text("  (no visible change)", style="dim")]


def _items(value: Any) -> list[Any]:
    """A city's talent counters (a list) or Special Character (one ID) as a list."""
    return [value] if isinstance(value, str) else list(value or [])


def _board(names: Names, old: dict[str, Any], new: dict[str, Any], add: Any) -> None:
    old_news, new_news = old.get("news") or {}, new.get("news") or {}
    for city in sorted(set(old_news) | set(new_news), key=names.city):
        if old_news.get(city) != new_news.get(city):
            if city in old_news:
                add(f"- {names.counter(old_news[city])} leaves {names.city(city)}", "red")
            if city in new_news:
                add(f"+ {names.counter(new_news[city])} in {names.city(city)}", "green")
    for key, label in (("talents", "talent"), ("characters", "Special Character")):
        old_map, new_map = old.get(key) or {}, new.get(key) or {}
        for city in sorted(set(old_map) | set(new_map), key=names.city):
            was_items, now_items = _items(old_map.get(city)), _items(new_map.get(city))
            gained = Counter(now_items) - Counter(was_items)
            lost = Counter(was_items) - Counter(now_items)
            if gained:
                add(f"+ {label} in {names.city(city)}: {names.talents_text(list(gained.elements()))}", "green")
            if lost:
                add(f"- {label} leaves {names.city(city)}: {names.talents_text(list(lost.elements()))}", "red")
    old_pool, new_pool = old.get("pool") or {}, new.get("pool") or {}
    changed = [t for t in sorted(set(old_pool) | set(new_pool)) if old_pool.get(t) != new_pool.get(t)]
    if changed:
        add("~ pool: " + ", ".join(f"{names.talent(t, 2)} {old_pool.get(t, 0)} → {new_pool.get(t, 0)}"
                                   for t in changed))
