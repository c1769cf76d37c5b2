"""Drum Roll at the terminal, at most 100 columns wide: the performance and preparation round (and
the vote when one is held), the start player and the markers placed this round, the performer and
helper rows (each card's name, type, printed and effective cost, discount tokens), the general
supply and the piles, then one panel per circus (money and the bank clerk's deposit, fame, ticket,
region, cubes by colour, each performer's cubes level by level against what the level needs, its
trailer and flip, the helpers, the investment hand, the markers left).

A performer's levels read `poor ■red good □yellow outstanding □white`: `■colour` a cube placed
for that requirement, `□colour` one still needed (`□any` takes any colour), `+colour` a cube
placed beyond the requirement. The words carry everything the colours do, so the panel reads the
same with `--no-color`.

Everything comes from the viewer's view (`views.view`): the decks are counts, another seat's hand
and opening draft are counts, and ballots not yet revealed read "cast"; they are drawn as such, so
a spectator's panel names no card of a hand or a deck. Names, types, costs and level requirements
come from the match's component set; a set not known here makes `render_state` fall back to the
generic panels rather than draw another set's cards.

The game's words for the log and for what a step changed (`narrate`, `describe_changes`) are in
drum_roll_words.py, imported here so that the render package finds every hook of the game in one
module.
"""

from __future__ import annotations

from typing import Any

from rich import box
from rich.color import Color, ColorParseError
from rich.console import Group, RenderableType
from rich.constrain import Constrain
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from domain.games.drum_roll.components import ANY, DrumRollComponents, Performer, default_components
from domain.kernel.viewers import count_of

from .common import decision_text, header, known_components, seat_label, seat_style
from .drum_roll_words import describe_changes as describe_changes  # the log's words live beside the panel
from .drum_roll_words import narrate as narrate

WIDTH = 100
"""The widest line drawn: every renderable is constrained to it."""
LEVELS = ("poor", "good", "outstanding")
ACTIONS = {"cube": "cube", "ticket": "ticket sale", "investment": "investment", "hire_performer": "hire performer",
           "hire_helper": "hire helper"}
"""The action spaces a held marker names (actions.py's step kinds), as the board prints them."""
LEGEND = ("■colour a cube placed on the level · □colour a cube the level still needs (□any: any colour) · "
          "+colour a cube beyond the need · ⚑ flipped · trailer: its own, or shared from a bizarre performer")


def render(summary: dict[str, Any], view: dict[str, Any], viewer: str | None = None) -> list[RenderableType]:
    state = view.get("state") or {}
    players = state.get("players")
    if not isinstance(players, list) or not players or not all("performers" in p for p in players) \
            or "performer_row" not in state:
        raise ValueError("not a Drum Roll view")  # render_state falls back to the generic panels
    table = Board(summary, view, _components(summary, state))
    items: list[RenderableType] = [header(summary, view, viewer), decision_text(summary, view),
                                   table.round_line(), *table.vote_lines(), *table.placed_lines(),
                                   table.performer_row(), table.helper_row(), table.supply()]
    items += [table.circus(seat) for seat in range(len(players))]
    items.append(Text(LEGEND, style="dim"))
    return [Constrain(item, WIDTH) for item in items]


def _components(summary: dict[str, Any], state: dict[str, Any]) -> DrumRollComponents:
    """The match's component set, or the shipped one (common.known_components)."""
    found: DrumRollComponents = known_components(summary, state, DrumRollComponents, default_components())
    return found


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" + ("" if count == 1 else "s")


def colour_style(colour: str) -> str:
    """A cube colour's terminal style when the colour's id is one the terminal knows, else none."""
    try:
        Color.parse(colour)
    except ColorParseError:
        return ""
    return f"bold {colour}"


def level_marks(required: list[str], placed: list[str]) -> list[tuple[str, str]]:
    """(text, style) of each cube of one level: each requirement in order met by a placed cube of
    its colour (or, for "any", by any cube left), then the cubes placed beyond the need."""
    left = list(placed)
    met: list[str | None] = [None] * len(required)
    for index, need in enumerate(required):  # named colours first, so "any" takes only what is left
        if need != ANY and need in left:
            left.remove(need)
            met[index] = need
    for index, need in enumerate(required):
        if need == ANY and left:
            met[index] = left.pop(0)
    marks = [(f"□{need}", "dim") if cube is None else (f"■{cube}", colour_style(cube))
             for need, cube in zip(required, met, strict=True)]
    marks += [(f"+{extra}", colour_style(extra)) for extra in left]
    return marks


class Board:
    """The pieces of the drawing for one view, sharing the component set and the seats' names."""

    def __init__(self, summary: dict[str, Any], view: dict[str, Any], components: DrumRollComponents) -> None:
        self.summary = summary
        self.view = view
        self.state: dict[str, Any] = view.get("state") or {}
        self.c = components
        self.seats = len(self.state["players"])

    # ---- names ------------------------------------------------------------------------------------
    def _performer(self, card: str) -> Performer | None:
        try:
            return self.c.performer(card)
        except KeyError:
            return None

    def type_name(self, type_id: str) -> str:
        return next((kind.name for kind in self.c.performer_types if kind.id == type_id), type_id)

    def card_name(self, card: str) -> str:
        """Any card's name by its id: performer, helper or investment."""
        for lookup in (self.c.performer, self.c.helper, self.c.investment):
            try:
                return f"{lookup(card).name}"
            except KeyError:
                continue
        return card

    def region_name(self, region: Any) -> str:
        if not region:
            return "none"
        try:
            return self.c.region(str(region)).name
        except KeyError:
            return str(region)

    def who(self, seat: Any) -> Text:
        return Text(seat_label(self.summary, seat), style=seat_style(seat if isinstance(seat, int) else None))

    # ---- the table ------------------------------------------------------------------------------
    def round_line(self) -> Text:
        state = self.state
        text = Text()
        performance, round_ = state.get("performance") or 0, state.get("round") or 0
        constants = self.c.constants
        if not performance:
            text.append("setup", style="bold")
        else:
            text.append(f"performance {performance} of {constants.performances}", style="bold")
            text.append(f" · preparation round {round_}" if round_ else "")
            if round_ >= constants.rounds_max:
                text.append(" (the last before the performance)", style="dim")
            elif round_ >= constants.rounds_min:
                text.append(" (a vote on the performance follows it)", style="dim")
        start = state.get("start_player")
        text.append("\nstart player: ")
        text.append_text(self.who(start) if start is not None else Text("not chosen yet", style="dim"))
        if state.get("organiser_returned") is not None:
            text.append("  (returned the show organiser: starts the next round)", style="dim")
        if state.get("neutral_region"):
            text.append(f" · the imaginary third player's region: {self.region_name(state['neutral_region'])}")
        return text

    def vote_lines(self) -> list[Text]:
        """The vote held after the last round that had one (DR-10): each ballot as the viewer may
        see it ("cast" until all are in), and who doubled theirs."""
        state = self.state
        if not state.get("vote_round"):
            return []
        votes = list(state.get("votes") or [])
        doubled = list(state.get("doubled") or [])
        text = Text(f"vote after round {state['vote_round']}: ", style="bold")
        for seat, ballot in enumerate(votes):
            if seat:
                text.append(" · ")
            text.append_text(self.who(seat))
            text.append(f" {ballot or 'not yet voted'}" + (" (doubled)" if seat < len(doubled) and doubled[seat]
                                                            else ""))
        return [text]

    def held(self) -> list[dict[str, Any]]:
        """The markers placed this round, in placement order, from the pending resolution step."""
        for step in self.state.get("agenda") or []:
            if isinstance(step, dict) and step.get("t") == "resolve":
                return [item for item in step.get("held") or [] if isinstance(item, dict)]
        return []

    def placed_lines(self) -> list[Text]:
        placed = self.held()
        if not placed:
            return []
        text = Text("markers placed this round: ", style="bold")
        for index, item in enumerate(placed):
            if index:
                text.append(" · ")
            kind = str(item.get("t"))
            space = f"{item.get('colour')} cube" if kind == "cube" else ACTIONS.get(kind, kind)
            text.append(f"{space} ")
            text.append(f"seat {item.get('seat')}", style=seat_style(item.get("seat")))
        return [text]

    def performer_row(self) -> Table:
        table = Table(title="Performer row", title_justify="left", box=box.SIMPLE_HEAD, padding=(0, 1),
                      show_edge=False)
        for column, justify in (("card", "left"), ("type", "left"), ("cost", "right"), ("disc.", "right"),
                                ("wage", "right"), ("cubes p/g/o", "left"), ("fame p/g/o ⚑", "left")):
            table.add_column(column, justify=justify, no_wrap=True)  # type: ignore[arg-type]
        for card, discounts in self._row("performer_row"):
            performer = self._performer(card)
            if performer is None:
                table.add_row(card, "", "", str(discounts), "", "", "")
                continue
            cost = Text(f"{max(performer.hire_cost - discounts, 0)}", style="bold")
            if discounts:
                cost.append(f" ({performer.hire_cost})", style="dim")
            needs = Text()
            for index, level in enumerate(performer.levels):
                if index:
                    needs.append("/")
                for colour in level.cubes:
                    needs.append(colour, style=colour_style(colour))
            fame = "/".join(str(level.fame) for level in performer.levels) + f" ⚑{performer.flip_fame}"
            table.add_row(f"{card} {performer.name}", self.type_name(performer.type), cost,
                          "●" * discounts if discounts <= 5 else str(discounts), str(performer.wage), needs, fame)
        if not table.row_count:
            table.add_row(Text("(empty)", style="dim"), "", "", "", "", "", "")
        return table

    def helper_row(self) -> Table:
        table = Table(title="Helper row", title_justify="left", box=box.SIMPLE_HEAD, padding=(0, 1),
                      show_edge=False)
        for column, justify in (("card", "left"), ("cost", "right"), ("disc.", "right"), ("wage", "right"),
                                ("what it does", "left")):
            table.add_column(column, justify=justify)  # type: ignore[arg-type]
        for card, discounts in self._row("helper_row"):
            try:
                helper = self.c.helper(card)
            except KeyError:
                table.add_row(card, "", str(discounts), "", "")
                continue
            cost = Text(f"{max(helper.hire_cost - discounts, 0)}", style="bold")
            if discounts:
                cost.append(f" ({helper.hire_cost})", style="dim")
            table.add_row(f"{card} {helper.name}", cost, "●" * discounts if discounts <= 5 else str(discounts),
                          str(helper.wage), Text(helper.text, overflow="ellipsis", no_wrap=True))
        if not table.row_count:
            table.add_row(Text("(empty)", style="dim"), "", "", "", "")
        return table

    def _row(self, key: str) -> list[tuple[str, int]]:
        return [(str(item[0]), int(item[1])) for item in self.state.get(key) or []
                if isinstance(item, list) and len(item) == 2]

    def supply(self) -> Text:
        state = self.state
        text = Text("general supply: ", style="bold")
        cubes = state.get("cubes") or {}
        for index, resource in enumerate(self.c.resources):
            if index:
                text.append(", ")
            text.append(f"{resource.id}", style=colour_style(resource.id))
            text.append(f" {cubes.get(resource.id, 0)}")
        text.append(f" · discount tokens {state.get('discounts')} · trailers {state.get('trailers')}")
        under = count_of(state.get("investment_bottom"))
        text.append(f"\ndecks: performers {count_of(state.get('performer_deck'))}, "
                    f"helpers {count_of(state.get('helper_deck'))}, "
                    f"investments {count_of(state.get('investment_deck'))}"
                    + (f" (+{under} under it)" if under else ""))
        text.append(f" · discards: performers {count_of(state.get('performer_discard'))}, "
                    f"helpers {count_of(state.get('helper_discard'))}, "
                    f"investments {count_of(state.get('investment_discard'))}")
        open_decks = [(deck, state[deck]) for deck in ("performer_deck", "helper_deck", "investment_deck",
                                                       "investment_bottom") if isinstance(state.get(deck), list)]
        for deck, cards in open_decks:
            if cards:
                text.append(f"\n{deck.replace('_', ' ')}: " + ", ".join(map(str, cards)), style="dim")
        return text

    # ---- a circus ---------------------------------------------------------------------------------
    def circus(self, seat: int) -> Panel:
        player = self.state["players"][seat]
        parts: list[RenderableType] = [self.holdings(player), self.performers(player), self.cards(seat, player)]
        title = Text(seat_label(self.summary, seat), style=seat_style(seat))
        title.append(f" · fame {player.get('fame')} · ${player.get('money')}")
        if player.get("deposit"):
            title.append(f" (+${player['deposit']} on the bank clerk)")
        title.append(f" · {self.region_name(player.get('region'))}")
        decision = self.view.get("decision") or {}
        if seat in (decision.get("seats") or []):
            title.append(" ◀")
        return Panel(Group(*parts), title=title, title_align="left", border_style=seat_style(seat), expand=False)

    def holdings(self, player: dict[str, Any]) -> Text:
        track = self.c.ticket_track.spaces
        ticket = int(player.get("ticket") or 0)
        text = Text()
        text.append(f"money ${player.get('money')}", style="bold")
        if player.get("deposit"):
            text.append(f" + ${player['deposit']} deposited")
        text.append(f" · fame {player.get('fame')}")
        where = f"space {ticket} of {len(track)}" if ticket else "the start"
        income = f" (${track[ticket - 1]})" if 0 < ticket <= len(track) else ""
        text.append(f" · ticket on {where}{income}")
        text.append(f" · markers to place {player.get('markers')}")
        text.append("\ncubes: ")
        cubes = player.get("cubes") or {}
        shown = [(resource.id, int(cubes.get(resource.id) or 0)) for resource in self.c.resources]
        for index, (colour, count) in enumerate(shown):
            if index:
                text.append(", ")
            text.append(colour, style=colour_style(colour) if count else "dim")
            text.append(f" {count}", style="" if count else "dim")
        text.append(f" ({sum(count for _, count in shown)} in all)")
        return text

    def performers(self, player: dict[str, Any]) -> Table | Text:
        performers = [p for p in player.get("performers") or [] if isinstance(p, dict)]
        if not performers:
            return Text("no performers", style="dim")
        table = Table(box=box.SIMPLE_HEAD, padding=(0, 1), show_edge=False, pad_edge=False)
        table.add_column("performer (and its trailer, flip, last level)")
        table.add_column("cubes placed against each level's need", no_wrap=True)
        for hired in performers:
            card = str(hired.get("card"))
            performer = self._performer(card)
            name = Text(f"{card} {performer.name if performer else ''}".rstrip())
            if performer is not None:
                name.append(f" [{self.type_name(performer.type)}]", style="dim")
            levels = Text()
            placed = list(hired.get("cubes") or [[], [], []])
            for index, level_name in enumerate(LEVELS):
                if index:
                    levels.append("  ")
                levels.append(level_name + " ", style="italic")
                required = performer.levels[index].cubes if performer is not None else []
                cubes = [str(c) for c in (placed[index] if index < len(placed) else [])]
                for mark, style in level_marks(required, cubes):
                    levels.append(mark, style=style)
            status = self._status(hired)
            if status:
                name.append("\n  " + status, style="italic")
            table.add_row(name, levels)
        return table

    @staticmethod
    def _status(hired: dict[str, Any]) -> str:
        parts = []
        if hired.get("flipped") is not None:
            parts.append(f"⚑ flipped (performance {hired['flipped']})")
        if hired.get("trailer"):
            parts.append("trailer")
        if hired.get("shares_trailer_of"):
            parts.append(f"shares {hired['shares_trailer_of']}'s trailer")
        if hired.get("level") is not None:
            level = int(hired["level"])
            word = "flip" if level == 3 and hired.get("flipped") is not None else \
                ("none", *LEVELS)[level] if 0 <= level <= 3 else str(level)
            parts.append(f"last: {word} (perf. {hired.get('performed')})")
        return ", ".join(parts)

    def cards(self, seat: int, player: dict[str, Any]) -> Text:
        text = Text("helpers: ", style="bold")
        helpers = [str(h) for h in player.get("helpers") or []]
        text.append("; ".join(f"{h} {self.card_name(h)}" for h in helpers) if helpers else "none")
        text.append("\ninvestment hand: ", style="bold")
        hand = player.get("hand")
        if isinstance(hand, list):
            shown = []
            for item in hand:
                card, used = (item[0], item[1]) if isinstance(item, list) else (item, 0)
                uses = self._uses(str(card))
                spent = f" (used {used}" + (f" of {uses})" if uses else ")") if used else ""
                shown.append(f"{card} {self.card_name(str(card))}{spent}")
            text.append("; ".join(shown) if shown else "none")
        else:
            text.append(_plural(count_of(hand), "card") + " face down" if count_of(hand) else "none")
        drawn, kept = player.get("drawn"), player.get("kept")
        if isinstance(drawn, list) and drawn:
            text.append("\nopening draft, drawn: " + "; ".join(f"{c} {self.card_name(str(c))}" for c in drawn))
            if kept:
                text.append(f" · keeps {kept}")
        elif isinstance(drawn, dict) and count_of(drawn):
            text.append(f"\nopening draft: {_plural(count_of(drawn), 'performer')} drawn face down"
                        + (", one kept" if kept else ""))
        skipped = [str(c) for c in player.get("skipped") or []]
        if skipped:
            text.append("\nno wage this performance: " + ", ".join(skipped))
        return text

    def _uses(self, card: str) -> int | None:
        try:
            return self.c.investment(card).uses
        except KeyError:
            return None
