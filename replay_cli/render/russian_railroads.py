"""Russian Railroads at the terminal, at most 100 columns wide: the round and turn order, the action
spaces with what lies on them, the engineer area, the supply, then each player's board (the three
railways space by space, the industry track, workers and rubles, engineers, tokens, final bonus
cards and the score by category).

A railway is drawn one cell per space: `GY` a real track marker (bold, on its colour), `gy` an
empty space that counts as the track ahead of it (a virtual track, RR-14.4, shaded), `·` a space
with no track ahead. Under it a bar shows how far the locomotives reach (RR-0.6): spaces past the
bar score nothing (RR-14.3) and are dimmed. Multipliers sit over the Trans-Siberian spaces they
double (RR-10.4), special spaces (§13) under their space, ticked once gained. The letters carry
everything the colours do, so the board reads the same with `--no-color`.

Everything comes from the viewer's view: another seat's final bonus cards and the bonus deck are
counts there, and are drawn as counts. Names, costs, lengths and the industry lane come from the
match's component set; a set not known here makes `render_state` fall back to the generic panels
rather than draw the board of another set.

The game's words for the log and for what a step changed (`narrate`, `describe_changes`) are in
russian_railroads_words.py, imported here so that the render package finds every hook of the game
in one module.
"""

from __future__ import annotations

from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.constrain import Constrain
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from domain.games.russian_railroads.components import (
    ActionSpace,
    IndustrySpace,
    Railway,
    RussianRailroadsComponents,
    default_components,
)
from domain.kernel.viewers import count_of

from .common import decision_text, header, known_components, seat_label, seat_style
from .russian_railroads_words import describe_changes as describe_changes  # the log's words, beside the boards
from .russian_railroads_words import narrate as narrate

WIDTH = 100
"""The widest line drawn: every renderable is constrained to it."""
CELL = 5
"""Characters per railway space or industry place (four drawn, one apart)."""
LEFT = 4
"""The label column in front of a railway's cells (`TS`, `SP`, `KV`)."""

CODES = {"black": "bk", "grey": "gy", "brown": "br", "beige": "be", "white": "wh"}
REAL = {"black": "bold bright_white on grey19", "grey": "bold black on grey62",
        "brown": "bold bright_white on dark_orange3", "beige": "bold black on wheat1",
        "white": "bold black on bright_white"}
VIRTUAL = {"black": "grey50", "grey": "grey70", "brown": "dark_orange3", "beige": "wheat1", "white": "bright_white"}
SPECIALS = {"worker": "wk", "token": "tk", "doubling": "x2", "medal": "md"}
SECTIONS = {"track": "Track spaces", "locomotive": "Locomotives and factories", "industry": "Industry",
            "auxiliary": "Auxiliary", "turn_order": "Turn order", "last_round": "Last round"}
LEGEND = ("GY real track · gy virtual track (scores as the track ahead, RR-14.4) · a dot: nothing to score · "
          "━━▶ locomotive reach (RR-0.6), spaces past it dimmed · ×2 multiplier, ○ free multiplier space · "
          "special spaces: +gy a new track, wk a worker, tk a bonus token, x2 SP doubling, ★n star VP, "
          "md the Kiev medal; * the locomotive must reach it too; ✓ gained · industry: [F7] a factory, [  ] an "
          "empty gap, ▲ a marker")


def render(summary: dict[str, Any], view: dict[str, Any], viewer: str | None = None) -> list[RenderableType]:
    state = view.get("state") or {}
    players = state.get("players")
    if not isinstance(players, list) or not players or not all("tracks" in p for p in players) \
            or not isinstance(state.get("strip"), list):
        raise ValueError("not a Russian Railroads view")  # render_state falls back to the generic panels
    components = _components(summary, state)
    first_gap = str((summary.get("options") or {}).get("industry_first_gap") or "after_four_spaces")
    board = Board(summary, view, components, first_gap)
    items: list[RenderableType] = [header(summary, view, viewer), decision_text(summary, view),
                                   board.round_line(), board.spaces_table(), board.engineer_table(),
                                   board.supply()]
    items += [board.player_panel(seat) for seat in range(len(players))]
    items.append(Text(LEGEND, style="dim"))
    return [Constrain(item, WIDTH) for item in items]


def _components(summary: dict[str, Any], state: dict[str, Any]) -> RussianRailroadsComponents:
    """The match's component set, or the shipped one (common.known_components)."""
    found: RussianRailroadsComponents = known_components(summary, state, RussianRailroadsComponents,
                                                         default_components())
    return found


def industry_lane(components: RussianRailroadsComponents, first_gap: str) -> tuple[IndustrySpace, ...]:
    """The industry track as the match reads it (RR-9.2): under AMB-13 (a) the first factory gap
    comes one place earlier than printed. The same reading as the engine's `board.lane`, which
    needs a state (and caches by component set) where a renderer has only the view."""
    lane = list(components.industry)
    if first_gap == "after_start_and_three":
        gap = next((i for i, place in enumerate(lane) if place.kind == "gap"), 0)
        if gap >= 2:
            lane[gap - 1], lane[gap] = lane[gap], lane[gap - 1]
    return tuple(lane)


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" + ("" if count == 1 else "s")


def cost_text(workers: int, rubles: int) -> str:
    """`2 workers`, `1 worker + 1 ruble`, `1 ruble`, `free`."""
    parts = ([_plural(workers, "worker")] if workers else []) + ([_plural(rubles, "ruble")] if rubles else [])
    return " + ".join(parts) or "free"


def placement_text(summary: dict[str, Any], placement: list[Any]) -> Text:
    """What one seat put on a space: `seat 1 (bob): 2 workers, 1 ruble`, in the seat's colour."""
    _, seat, workers, temporary, black, rubles = placement
    parts = ([_plural(workers, "worker")] if workers else []) + \
        ([f"{temporary} temporary"] if temporary else []) + (["the black worker"] if black else []) + \
        ([_plural(rubles, "ruble")] if rubles else [])
    text = Text(seat_label(summary, seat), style=seat_style(seat))
    return text.append(": " + ", ".join(parts) if parts else "")


def track_cells(railway: Railway, tracks: dict[str, int], reach: int) -> list[tuple[str, str]]:
    """(text, style) of each space of a railway: its real track, the virtual track the nearest
    marker ahead gives it (RR-14.4), or nothing; dimmed past the locomotives' reach (RR-14.3)."""
    at = {position: colour for colour, position in tracks.items() if position >= 1}
    cells: list[tuple[str, str]] = []
    ahead: str | None = None
    for space in range(railway.spaces, 0, -1):  # from the far end back, remembering the marker ahead
        beyond = " dim" if space > reach else ""
        if space in at:
            ahead = at[space]
            cells.append((f" {CODES.get(ahead, ahead[:2]).upper()} ", REAL.get(ahead, "bold reverse") + beyond))
        elif ahead is not None:
            cells.append((f" {CODES.get(ahead, ahead[:2])} ", VIRTUAL.get(ahead, "") + beyond))
        else:
            cells.append(("  · ", "dim"))
    return cells[::-1]


class Board:
    """The pieces of the drawing for one view, sharing the component set and the seats' names."""

    def __init__(self, summary: dict[str, Any], view: dict[str, Any], components: RussianRailroadsComponents,
                 first_gap: str) -> None:
        self.summary = summary
        self.view = view
        self.state: dict[str, Any] = view.get("state") or {}
        self.c = components
        self.lane = industry_lane(components, first_gap)
        self.seats = len(self.state["players"])
        self.placements: list[list[Any]] = list(self.state.get("placements") or [])

    # ---- the table ------------------------------------------------------------------------------
    def _on(self, space: str) -> list[list[Any]]:
        return [p for p in self.placements if p[0] == space]

    def _occupants(self, space: str) -> Text:
        text = Text()
        for placement in self._on(space):
            if text:
                text.append("\n")
            text.append_text(placement_text(self.summary, placement))
        return text

    def round_line(self) -> Text:
        state = self.state
        text = Text()
        if not state.get("round"):
            text.append("setup", style="bold")
        else:
            rounds = state.get("rounds")
            last = " (the last round)" if state.get("round") == rounds else ""
            text.append(f"round {state.get('round')} of {rounds}{last}", style="bold")
        order = state.get("order") or []
        if order:
            text.append("   turn order: ")
            for place, seat in enumerate(order, 1):
                if place > 1:
                    text.append(" → ")
                passed = (state["players"][seat] or {}).get("passed")
                text.append(f"{place}. {seat_label(self.summary, seat)}", style=seat_style(seat))
                if passed:
                    text.append(" (passed)", style="dim")
        return text

    def _available(self, space: ActionSpace) -> bool:
        """The spaces of this player count's board side (RR-3.6) that are open this round: the last
        round covers the turn-order spaces and opens its own (RR-16.1, RR-16.2)."""
        if self.seats not in space.players:
            return False
        last = self.state.get("round") == self.state.get("rounds")
        return space.last_round == "normal" or (space.last_round == "only") == last

    def spaces_table(self) -> Table:
        table = Table(title="Action spaces", title_justify="left", box=box.SIMPLE_HEAD, padding=(0, 1),
                      show_edge=False)
        table.add_column("space")
        table.add_column("cost", no_wrap=True)
        table.add_column("on it")
        spaces = [s for s in self.c.spaces if s.section != "engineer" and self._available(s)]
        for section in SECTIONS:
            rows = [s for s in spaces if s.section == section]
            for index, space in enumerate(rows):
                title = Text(f"{SECTIONS[section]}: ", style="bold") if index == 0 else Text("  ")
                name = title.append(space.name)
                table.add_row(name, cost_text(space.workers, space.rubles), self._occupants(space.id),
                              end_section=index == len(rows) - 1)
        return table

    def engineer_table(self) -> Table:
        """The engineer area left to right (RR-11.1): previews, the two changing action spaces and
        the hiring space, each engineer with its action, value and cost."""
        table = Table(title="Engineers: preview, changing (left, right), hire for 1 ruble",
                      title_justify="left", box=box.SIMPLE_HEAD, padding=(0, 1),
                      show_edge=False, pad_edge=False)
        for column in ("space", "engineer", "cost", "action, and what lies on it"):
            table.add_column(column, no_wrap=column != "action, and what lies on it")
        try:
            slots = [slot.kind for slot in self.c.for_players(self.seats).engineer_slots]
        except KeyError:
            slots = []
        strip = self.state.get("strip") or []
        changing = iter(("left", "right"))
        for index, engineer_id in enumerate(strip):
            kind = slots[index] if index < len(slots) else "?"
            side = next(changing, "") if kind == "changing" else ""
            space_id = f"engineer_{side}" if side else "hire" if kind == "hire" else ""
            label = side or kind
            if engineer_id is None:
                table.add_row(label, Text("(empty)", style="dim"), "", "")
                continue
            engineer = self._engineer(engineer_id)
            action = Text(engineer.action if engineer is not None else "")
            occupants = self._occupants(space_id) if space_id else Text()
            if occupants:
                action.append("\n").append_text(occupants)
            cost = cost_text(engineer.workers, engineer.rubles) if engineer is not None and kind != "preview" else ""
            value = f" ({engineer.value})" if engineer is not None else ""
            table.add_row(label, f"{engineer_id}{value}", cost, action)
        return table

    def _engineer(self, engineer_id: str) -> Any:
        try:
            return self.c.engineer(engineer_id)
        except KeyError:
            return None

    def supply(self) -> Text:
        state = self.state
        text = Text("supply: ", style="bold")
        stacks = state.get("stacks") or {}
        shown = [f"{value}×{count}" for value, count in sorted(stacks.items(), key=lambda item: int(item[0]))
                 if count]
        text.append("locomotives " + (" ".join(shown) if shown else "all taken"))
        pool = state.get("pool") or []
        text.append(" · factory pool " + (", ".join(map(str, pool)) if pool else "empty"))
        text.append(f"\nmultipliers left {state.get('multipliers_left')}")
        deck = state.get("bonus_deck")
        text.append(f" · final bonus deck {_plural(count_of(deck), 'card')}")
        for card_id in state.get("face_up") or []:
            text.append(f"\nface-up card {card_id}: {self._label(self.c.card, card_id)}")
        if isinstance(deck, list) and deck:
            text.append("\nthe final bonus deck: "
                        + "; ".join(f"{card} {self._label(self.c.bonus_card, card)}" for card in deck))
        starting = state.get("starting_cards") or []
        if starting:
            text.append("\nstarting bonus cards to draft: "
                        + "; ".join(f"{card} {self._label(self.c.starting_card, card)}" for card in starting))
        return text

    @staticmethod
    def _label(lookup: Any, item_id: str) -> str:
        try:
            return str(lookup(item_id).label)
        except KeyError:
            return ""

    # ---- a player's board ---------------------------------------------------------------------------
    def player_panel(self, seat: int) -> Panel:
        player = self.state["players"][seat]
        parts: list[RenderableType] = []
        for railway in self.c.railways:
            parts.append(self.railway_block(railway, player))
        parts.append(self.industry_block(player))
        parts.append(self.holdings(seat, player))
        parts.append(self.score_line(seat))
        positions = self.state.get("positions") or []
        place = positions[seat] if seat < len(positions) else 0
        title = Text(seat_label(self.summary, seat), style=seat_style(seat))
        if place:
            title.append(f" · turn order {place}")
        if player.get("passed"):
            title.append(" · passed")
        scores = self.view.get("scores") or []
        if seat < len(scores):
            title.append(f" · {scores[seat]} VP")
        return Panel(Group(*parts), title=title, title_align="left", border_style=seat_style(seat), expand=False)

    def railway_block(self, railway: Railway, player: dict[str, Any]) -> Text:
        tracks: dict[str, int] = dict((player.get("tracks") or {}).get(railway.id) or {})
        locomotives = list((player.get("locomotives") or {}).get(railway.id) or [])
        reach = sum(locomotives)
        claimed = set(player.get("claimed") or [])
        text = Text(f"{railway.short} {railway.name}", style="bold")
        if locomotives:
            sum_text = "+".join(map(str, locomotives))
            text.append(f"   locomotive{'s' if len(locomotives) > 1 else ''} {sum_text}, reach {reach}")
        else:
            text.append("   no locomotive: its tracks score nothing (RR-14.3)", style="italic")
        beside = [CODES.get(c, c[:2]).upper() for c, position in tracks.items() if position == 0]
        if beside:
            text.append(f"   beside it: {' '.join(beside)}")
        if not tracks:
            text.append("   no tracks yet", style="dim")
        if f"{railway.id}:terminus" in claimed:
            text.append("   terminus ✓", style="green")
        text.append("\n" + " " * LEFT + "".join(f"{space:^4} " for space in range(1, railway.spaces + 1)),
                    style="dim")
        if railway.id == self.c.railways[0].id and self.c.constants.multiplier_spaces:
            text.append("\n" + " " * LEFT)
            text.append_text(self._multipliers(railway, int(player.get("multipliers") or 0)))
        text.append("\n" + f"{railway.short:<{LEFT}}")
        for cell, style in track_cells(railway, tracks, reach):
            text.append(cell, style=style)
            text.append(" ")
        text.append("\n" + " " * LEFT)
        shown = min(reach, railway.spaces)
        if shown:
            text.append("━" * (shown * CELL - 2) + "▶", style="bold")
        text.append("\n" + " " * LEFT)
        text.append_text(self._specials(railway, claimed))
        return text

    def _multipliers(self, railway: Railway, placed: int) -> Text:
        """×2 over each Trans-Siberian space a placed multiplier doubles, ○ over free ones (RR-10.2)."""
        over = {space: index < placed for index, space in enumerate(self.c.constants.multiplier_spaces)}
        text = Text()
        for space in range(1, railway.spaces + 1):
            if space not in over:
                text.append(" " * CELL)
            elif over[space]:
                text.append(" ×2  ", style="bold magenta")
            else:
                text.append("  ○  ", style="dim")
        text.rstrip()
        return text

    def _specials(self, railway: Railway, claimed: set[str]) -> Text:
        by_space = {special.space: special for special in railway.specials}
        text = Text()
        for space in range(1, railway.spaces + 1):
            special = by_space.get(space)
            if special is None:
                text.append(" " * CELL)
                continue
            if special.benefit in ("tracks", "white"):
                code = "+" + CODES.get(special.colour or "", (special.colour or "?")[:2])
            elif special.benefit == "star":
                code = f"★{special.vp}"
            else:
                code = SPECIALS.get(special.benefit, special.benefit[:2])
            code += "*" if special.locomotive else ""
            gained = f"{railway.id}:{space}" in claimed
            text.append(f"{code + ('✓' if gained else ''):<4} ", style="green" if gained else "cyan")
        return text

    def industry_block(self, player: dict[str, Any]) -> Text:
        """The industry track (RR-9.2): each place's VP, factories in their gaps (RR-8.4) and the
        markers under the places they stand on."""
        factories = list(player.get("factories") or [])
        markers = list(player.get("markers") or [])
        gained_token = "industry" in set(player.get("claimed") or [])
        text = Text("Industry", style="bold")
        text.append(f"   marker{'s' if len(markers) > 1 else ''} on " +
                    ", ".join(self._place_name(index) for index in markers))
        text.append("\n" + " " * LEFT)
        gap = 0
        for place in self.lane:
            if place.kind == "gap":
                value = factories[gap] if gap < len(factories) else None
                gap += 1
                if value is None:
                    text.append("[  ] ", style="dim")
                else:
                    text.append(f"[{self._factory_code(value)}]".ljust(4) + " ", style="bold yellow")
            elif place.token:
                text.append(f"{'tk' + ('✓' if gained_token else ''):^4} ", style="green" if gained_token else "cyan")
            else:
                text.append(f"{place.vp if place.vp is not None else '':^4} ")
        text.append("\n" + " " * LEFT)
        for index in range(len(self.lane)):
            if index in markers:
                label = "▲" + (str(markers.index(index) + 1) if len(markers) > 1 else "")
                text.append(f"{label:^4} ", style="bold")
            else:
                text.append(" " * CELL)
        text.rstrip()
        built = [(gap_index, value) for gap_index, value in enumerate(factories) if value is not None]
        if built:
            text.append("\nfactories: " + "; ".join(
                f"gap {gap_index + 1} {self._factory_label(value)}" for gap_index, value in built))
        return text

    def _place_name(self, index: int) -> str:
        if not 0 <= index < len(self.lane):
            return f"place {index}"
        place = self.lane[index]
        if place.kind == "gap":
            return f"place {index} (a factory)"
        return f"place {index}" + (" (the token space)" if place.token else f" ({place.vp} VP)")

    def _factory_code(self, value: int) -> str:
        label = self._factory_label(value)
        code = label.split(":", 1)[0]
        return code if ":" in label and len(code) <= 2 else str(value)

    def _factory_label(self, value: int) -> str:
        try:
            return f"{self.c.factory(value).label} (locomotive {value})"
        except KeyError:
            return f"the factory of locomotive {value}"

    def holdings(self, seat: int, player: dict[str, Any]) -> Text:
        text = Text()
        text.append(f"workers {player.get('workers')}", style="bold")
        text.append(f" (reserve {player.get('reserve')}")
        gained = int(player.get("gained_workers") or 0)
        text.append(f", {gained} gained)" if gained else ")")
        text.append(f" · temporary {player.get('temporary')}")
        if player.get("black_worker"):
            text.append(" · the black worker" + (" (in supply)" if player.get("black_in_supply") else " (placed)"))
        text.append(f" · rubles {player.get('rubles')}", style="bold")
        text.append(f" · multipliers {player.get('multipliers')}")
        flags = [name for key, name in (("revalued", "revaluation (T5)"), ("medal", "Kiev medal (T6)"))
                 if player.get(key)]
        if flags:
            text.append(" · " + ", ".join(flags))
        engineers = list(player.get("engineers") or [])
        used = {p[0] for p in self.placements if p[1] == seat}
        text.append("\nengineers: ")
        text.append("; ".join(self._engineer_text(e, e in used) for e in engineers) if engineers else "none")
        tokens = list(player.get("tokens") or [])
        text.append("\nbonus tokens used: ")
        text.append("; ".join(f"{t} {self._label(self.c.token, t)}" for t in tokens) if tokens else "none")
        text.append("\nfinal bonus cards: ")
        cards = player.get("bonus_cards")
        if isinstance(cards, list):
            text.append("; ".join(f"{card} {self._label(self.c.bonus_card, card)}" for card in cards) or "none")
        else:
            count = count_of(cards)
            text.append(f"{_plural(count, 'card')} face down" if count else "none")
        return text

    def _engineer_text(self, engineer_id: str, used: bool) -> str:
        engineer = self._engineer(engineer_id)
        if engineer is None:
            return engineer_id
        cost = cost_text(engineer.workers, engineer.rubles)
        return f"{engineer_id} {engineer.action} (value {engineer.value}, {cost})" + (" used" if used else "")

    def score_line(self, seat: int) -> Text:
        """The seat's points so far by category, from the score lines of the view (each line names
        its rule; `ringside score` lists them one by one)."""
        by_category: dict[str, int] = {}
        for line in self.state.get("lines") or []:
            if line[0] == seat:
                by_category[str(line[2])] = by_category.get(str(line[2]), 0) + int(line[1])
        scores = self.view.get("scores") or []
        total = scores[seat] if seat < len(scores) else sum(by_category.values())
        text = Text(f"score {total} VP", style="bold")
        if by_category:
            text.append(": " + " · ".join(f"{category} {points}" for category, points in by_category.items()))
        return text
