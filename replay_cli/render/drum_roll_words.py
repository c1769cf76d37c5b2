"""Drum Roll's words for the log (`narrate`) and for what a step changed (`describe_changes`),
kept apart from the panel (drum_roll.py), which imports them.

A sentence is made from the entry alone, with the card, helper and region names of the match's
component set (when this process knows it; otherwise the IDs stand). The few facts an entry does
not carry come from earlier entries of the same log, through the narrator's `remember`/`recall`
(taken back with a retraction): which seat a setup draw is for (the setup draws regions seat by
seat, then the opening draft seat by seat), which performer is on stage (a dazzling choice names
it), and whether a private move is the opening draft's keep or a ballot (the only two private
moves of the game, DR-2.9 and DR-10.2). Hidden draws and private moves stay hidden: they are told
from the payload the viewer got, which names no card.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from rich.text import Text

from domain.games.drum_roll.components import DrumRollComponents, default_components
from domain.kernel.viewers import count_of

from .common import known_components, seat_changes, seat_label

if TYPE_CHECKING:
    from .narrate import Narrator

SPACES = {"ticket": "the Ticket sale space", "investment": "the Investment space",
          "hire_performer": "the Hire performer space", "hire_helper": "the Hire helper space"}
"""Non-cube action spaces a marker goes to, as the board names them (DR-5)."""
LEVELS = ("poor", "good", "outstanding")
DRAFT = "performer drawn for the opening draft"
INVESTMENT_DRAWS = ("investment card drawn", "investment card drawn from under the deck",
                    "investment card drawn after the reshuffle")
"""The chance kinds (the spec labels of flow.py, investments.py and round_end.py) told here."""


class Names:
    """Card, helper, region and cube names from the match's component set, IDs when it is unknown."""

    def __init__(self, summary: dict[str, Any]) -> None:
        try:
            self.c: DrumRollComponents | None = known_components(summary, {}, DrumRollComponents,
                                                                 default_components())
        except ValueError:
            self.c = None

    def card(self, card: Any) -> str:
        """`the Fire Eater (P32)` for a performer or helper, `Double Vote (I25)` for an investment card."""
        if self.c is not None:
            for lookup, article in ((self.c.performer, "the "), (self.c.helper, "the "), (self.c.investment, "")):
                try:
                    return f"{article}{_with_id(lookup(str(card)).name, str(card))}"
                except KeyError:
                    continue
        return f"card {card}"

    def performer_type(self, card: Any) -> str:
        """The performer's type by name (`Juggler`), or "" when the card is not a known performer."""
        if self.c is None:
            return ""
        try:
            kind = self.c.performer(str(card)).type
        except KeyError:
            return ""
        return next((t.name for t in self.c.performer_types if t.id == kind), kind)

    def performer(self, card: Any) -> str:
        """`the Fire Eater (P32, Juggler)`."""
        kind = self.performer_type(card)
        return self.card(card)[:-1] + f", {kind})" if kind else self.card(card)

    def region(self, region: Any) -> str:
        if self.c is not None:
            try:
                return self.c.region(str(region)).name
            except KeyError:
                pass
        return str(region)

    def action(self, colour: str) -> str:
        """A cube action's printed name (`Rehearsal` for white, DR-0.5), or the colour itself."""
        if self.c is not None:
            for resource in self.c.resources:
                if resource.id == colour:
                    return resource.name
        return colour

    def investment_kind(self, card: Any) -> str:
        if self.c is None:
            return ""
        try:
            return str(self.c.investment(str(card)).kind)
        except KeyError:
            return ""

    def constant(self, name: str, default: int) -> int:
        return int(getattr(self.c.constants, name)) if self.c is not None else default


def _with_id(name: str, card: str) -> str:
    """`Fire Eater (P32)`; a name that ends in its own brackets takes the ID inside them:
    `Agent (yellow/green; H07)`."""
    return f"{name[:-1]}; {card})" if name.endswith(")") else f"{name} ({card})"


def cubes_text(colours: Any) -> str:
    """`a yellow and a red cube`, `two white cubes`, `a blue cube`."""
    counts = Counter(str(colour) for colour in colours or [])
    if not counts:
        return "no cubes"
    number = {1: "a", 2: "two", 3: "three", 4: "four", 5: "five"}
    parts = [f"{number.get(n, str(n))} {colour}" for colour, n in counts.items()]
    noun = "cube" if max(counts.values()) == 1 else "cubes"  # "a yellow and a red cube"
    return (", ".join(parts[:-1]) + " and " + parts[-1] if len(parts) > 1 else parts[0]) + f" {noun}"


def ordinal(index: int) -> str:
    return {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth", 6: "sixth"}.get(index, f"#{index}")


# ==== narrate =====================================================================================
def narrate(narrator: Narrator, entry: dict[str, Any]) -> str | None:
    """Drum Roll's sentence for a move or chance draw, or None for the kernel's words."""
    kind = entry.get("kind")
    p = entry.get("payload") or {}
    names = Names(narrator.summary)
    if kind == "created":
        narrator.remember("setup_draws", not p.get("prelude"))  # a fork's setup happened in its parent
        return None
    if kind == "chance":
        return _chance(narrator, names, str(p.get("kind")), p)
    if kind != "move":
        return None
    who = narrator.seat(p.get("seat"))
    if p.get("hidden"):
        return _hidden_move(narrator, who, p)
    move = p.get("move") or {}
    said = _setup_move(narrator, names, who, move) or _round_move(narrator, names, who, move) \
        or _performance_move(narrator, names, who, p.get("seat"), move) or _card_move(names, who, move)
    return said


def _hidden_move(narrator: Narrator, who: str, p: dict[str, Any]) -> str | None:
    """A private move as others see it before the reveal: which decision it is, never its answer."""
    if not p.get("private"):
        return None
    if narrator.recall("drafting"):
        return f"{who} keeps one of the two performers drawn, face down (shown when every seat has chosen)"
    return f"{who} casts a secret vote (shown when every seat has voted)"


def _chance(narrator: Narrator, names: Names, kind: str, p: dict[str, Any]) -> str | None:
    outcome = p.get("outcome")
    hidden = bool(p.get("hidden"))
    if kind == DRAFT:
        narrator.remember("drafting", True)
        seat = _next_draw(narrator, "draft_draws", names.constant("starting_draw", 2))
        who = narrator.seat(seat) if seat is not None else "a seat"
        if hidden:
            return f"{who} draws a performer face down for the opening draft (only that seat sees it)"
        return f"{who} draws {names.performer(outcome)} for the opening draft"
    if kind in INVESTMENT_DRAWS:
        where = {"investment card drawn from under the deck": " from under the investment deck",
                 "investment card drawn after the reshuffle": " after the discards are shuffled into a new deck"
                 }.get(kind, "")
        if hidden:
            return f"an investment card is drawn face down{where} (only its taker sees it)"
        return f"investment card {names.card(outcome)} is drawn{where}"
    if hidden:
        return None
    if kind == "helper drawn into the row":
        return f"{names.card(outcome)} is drawn into the helper row"
    if kind == "performer drawn from the bottom of the deck":
        return f"{names.performer(outcome)} comes off the bottom of the performer deck"
    if kind == "region token drawn":
        return _region(narrator, names, outcome)
    if kind == "start player":
        return f"{narrator.seat(outcome)} is the start player"
    return None


def _next_draw(narrator: Narrator, key: str, per_seat: int) -> int | None:
    """The seat a setup draw is for: the setup draws seat by seat from seat 0 (flow.setup), so the
    n-th draw of its kind is seat n // per_seat's. None when the log does not start at the setup."""
    count = int(narrator.recall(key, 0))
    narrator.remember(key, count + 1)
    if not narrator.recall("setup_draws", False):
        return None
    seats = len(narrator.summary.get("seats") or [])
    seat = count // max(per_seat, 1)
    return seat if seat < seats else None


def _region(narrator: Narrator, names: Names, outcome: Any) -> str:
    seats = len(narrator.summary.get("seats") or [])
    count = int(narrator.recall("region_draws", 0))
    seat = _next_draw(narrator, "region_draws", 1)
    if seat is not None:
        return f"{narrator.seat(seat)} draws the {names.region(outcome)} region token"
    if count == seats and narrator.recall("setup_draws", False):
        return f"the imaginary third player draws the {names.region(outcome)} region token (DR-22.1)"
    return f"region token drawn: {names.region(outcome)}"


def _setup_move(narrator: Narrator, names: Names, who: str, move: dict[str, Any]) -> str | None:
    kind = move.get("type")
    if kind == "keep_performer":
        return f"{who} keeps {names.performer(move.get('card'))} from the opening draft; the other goes to the left"
    if kind == "take_cubes":
        narrator.remember("drafting", False)
        return f"{who} takes {cubes_text(move.get('colours'))} as starting cubes"
    if kind == "deposit":
        amount = int(move.get("amount") or 0)
        return f"{who} puts {amount} money on the Bank Clerk" if amount else \
            f"{who} puts no money on the Bank Clerk this round"
    if kind == "return_organiser":
        return f"{who} returns the Show Organiser to the helper row and starts the next round" if move.get("returned") \
            else f"{who} keeps the Show Organiser"
    return None


def _round_move(narrator: Narrator, names: Names, who: str, move: dict[str, Any]) -> str | None:
    kind = move.get("type")
    if kind == "place_marker":
        narrator.remember("drafting", False)
        space = str(move.get("space"))
        where = SPACES.get(space) or f"the {names.action(space)} action ({space} cube)"
        unlock = f", unlocking it with {names.card(move['unlock'])}" if move.get("unlock") else ""
        return f"{who} places a marker on {where}{unlock}"
    if kind == "pass_marker":
        return f"{who} passes with a marker and takes {names.constant('pass_money', 1)} money"
    if kind == "hire_performer":
        return f"{who} hires {names.performer(move.get('card'))} from the performer row"
    if kind == "hire_helper":
        return f"{who} hires {names.card(move.get('card'))} from the helper row"
    if kind == "decline":
        return f"{who} declines the hire: the marker comes back with no effect"
    if kind == "place_cube":
        level = str(move.get("level"))
        return (f"{who} places {cubes_text([move.get('colour')])} on the {level} level of "
                f"{names.card(move.get('performer'))}")
    if kind == "exchange_cube":
        return (f"{who} uses {names.card(move.get('helper'))} to swap {cubes_text([move.get('give')])} "
                f"for {cubes_text([move.get('take')])}")
    if kind == "done_sharing":
        return f"{who} finishes sharing"
    if kind == "cast_vote":
        return f"{who} votes to postpone the performance" if move.get("postpone") else \
            f"{who} votes to perform now"
    if kind == "play_double_vote":
        return f"{who} plays a Double Vote card: the vote counts twice" if move.get("play") else \
            f"{who} plays no Double Vote card"
    return None


def _performance_move(narrator: Narrator, names: Names, who: str, seat: Any, move: dict[str, Any]) -> str | None:
    kind = move.get("type")
    if kind == "perform":
        narrator.remember(f"on_stage:{seat}", move.get("card"))
        return f"{who} sends {names.performer(move.get('card'))} into the ring"
    if kind == "choose_dazzling":
        card = narrator.recall(f"on_stage:{seat}")
        performer = names.card(card) if card else "the dazzling performer"
        return f"{who} flips {performer} for its flip fame" if move.get("flip") else \
            f"{who} takes the dazzling reward of {performer}"
    if kind == "take_reward_cube":
        return f"{who} takes {cubes_text([move.get('colour')])} as a reward"
    if kind == "keep_investment":
        return (f"{who} keeps the {ordinal(int(move.get('index') or 0) + 1)} investment card looked at; "
                "the others go under the deck")
    if kind == "take_trailer":
        shared = f", shared with {names.card(move['shared_by'])}" if move.get("shared_by") else ""
        return f"{who} pays for a trailer and puts it on {names.card(move.get('performer'))}{shared}"
    if kind == "pay_cubes":
        return f"{who} pays {cubes_text(move.get('cubes'))} for the reward"
    if kind == "skip_wage":
        return f"{who} skips the wage of {names.card(move.get('card'))} this performance"
    if kind == "decline_reward":
        return f"{who} declines the reward"
    if kind == "play_longer_applause":
        return f"{who} plays {names.card(move.get('card'))}"
    if kind == "done_applause":
        return f"{who} plays no more Longer Applause cards"
    return None


def _card_move(names: Names, who: str, move: dict[str, Any]) -> str | None:
    kind = move.get("type")
    if kind == "discard_investment":
        return f"{who} discards {names.card(move.get('card'))} down to the hand limit"
    if kind != "play_investment":
        return None
    card = move.get("card")
    text = f"{who} plays {names.card(card)}"
    effect = names.investment_kind(card)
    colours = list(move.get("colours") or [])
    if colours:
        verb = "paying" if effect == "extra_income_cube" else "taking"
        text += f", {verb} {cubes_text(colours)}"
    if move.get("performer"):
        what = "firing" if effect == "fire_performer" else "putting a trailer on"
        text += f", {what} {names.card(move['performer'])}"
    if move.get("shared_by"):
        text += f", shared with {names.card(move['shared_by'])}"
    return text


# ==== describe_changes =============================================================================
def describe_changes(summary: dict[str, Any], before: dict[str, Any], after: dict[str, Any]) -> list[Text] | None:
    """What changed between two views in Drum Roll's terms: the round and performance, the start
    player, the rows and piles, each circus's money, fame, ticket, markers, cubes, performers (hired,
    gone, cubes placed, flipped, trailers), helpers and hand, the votes, the scores and who acts
    next. None when the views are not Drum Roll's."""
    new = after.get("state") or {}
    if not isinstance(new.get("players"), list) or "performer_row" not in new:
        return None
    names = Names(summary)
    old_players = (before.get("state") or {}).get("players") or []

    def score(seat: int, was: int, now: int) -> str | None:
        fame = [(p[seat].get("fame") if seat < len(p) else None) for p in (old_players, new["players"])]
        if fame == [was, now]:  # the score is the fame, already said
            return None
        return f"~ {seat_label(summary, seat)}: score {was} → {now} ({now - was:+d})"

    return seat_changes(summary, before, after, table=lambda old, new_, add: _table(summary, names, old, new_, add),
                        seat=lambda seat, was, now, add: _circus(seat_label(summary, seat), names, was, now, add),
                        score=score)


def _row(state: dict[str, Any], key: str) -> dict[str, int]:
    return {str(item[0]): int(item[1]) for item in state.get(key) or [] if isinstance(item, list) and len(item) == 2}


def _table(summary: dict[str, Any], names: Names, old: dict[str, Any], new: dict[str, Any], add: Any) -> None:
    if old.get("performance") != new.get("performance"):
        add(f"~ performance {old.get('performance')} → {new.get('performance')}")
    if old.get("round") != new.get("round"):
        add(f"~ preparation round {old.get('round')} → {new.get('round')}")
    if old.get("start_player") != new.get("start_player") and new.get("start_player") is not None:
        add(f"~ start player: {seat_label(summary, new.get('start_player'))}")
    for key, what in (("performer_row", "performer row"), ("helper_row", "helper row")):
        was, now = _row(old, key), _row(new, key)
        for card in now:
            if card not in was:
                add(f"+ {names.card(card)} joins the {what}", "green")
            elif now[card] != was[card]:
                add(f"~ discount tokens on {names.card(card)}: {was[card]} → {now[card]}")
        for card in was:
            if card not in now:
                add(f"- {names.card(card)} leaves the {what}", "red")
    for key, what in (("performer_discard", "performer discards"), ("helper_discard", "helper discards"),
                      ("investment_discard", "investment discards")):
        if count_of(old.get(key)) != count_of(new.get(key)):
            add(f"~ {what} {count_of(old.get(key))} → {count_of(new.get(key))}", "dim")
    for key, what in (("performer_deck", "performer deck"), ("helper_deck", "helper deck"),
                      ("investment_deck", "investment deck")):
        if count_of(old.get(key)) != count_of(new.get(key)):
            add(f"~ {what} {count_of(old.get(key))} → {count_of(new.get(key))} cards", "dim")
    if old.get("votes") != new.get("votes") and new.get("votes"):
        add("~ votes: " + ", ".join(f"{seat_label(summary, seat)} {ballot or 'not yet'}"
                                    for seat, ballot in enumerate(new["votes"])))


def _circus(who: str, names: Names, was: dict[str, Any], now: dict[str, Any], add: Any) -> None:
    def counted(key: str, what: str, unit: str = "") -> None:
        a, b = was.get(key), now.get(key)
        if a != b and isinstance(a, int) and isinstance(b, int):
            add(f"~ {who}: {what} {a}{unit} → {b}{unit} ({b - a:+d})")

    counted("money", "money")
    counted("deposit", "deposit on the Bank Clerk")
    counted("fame", "fame")
    counted("ticket", "ticket on space")
    counted("markers", "markers to place")
    if was.get("region") != now.get("region") and now.get("region"):
        add(f"~ {who}: region {names.region(now['region'])}")
    old_cubes, new_cubes = was.get("cubes") or {}, now.get("cubes") or {}
    gained = {c: n - int(old_cubes.get(c) or 0) for c, n in new_cubes.items() if n != int(old_cubes.get(c) or 0)}
    if gained:
        add(f"~ {who}'s cube supply: " + ", ".join(f"{colour} {delta:+d}" for colour, delta in gained.items()))
    _performers(who, names, was, now, add)
    helpers_was, helpers_now = list(was.get("helpers") or []), list(now.get("helpers") or [])
    for helper in helpers_now:
        if helper not in helpers_was:
            add(f"+ {names.card(helper)} joins {who}'s circus", "green")
    for helper in helpers_was:
        if helper not in helpers_now:
            add(f"- {names.card(helper)} leaves {who}'s circus", "red")
    _hand(who, names, was.get("hand"), now.get("hand"), add)


def _performers(who: str, names: Names, was: dict[str, Any], now: dict[str, Any], add: Any) -> None:
    old = {str(p.get("card")): p for p in was.get("performers") or [] if isinstance(p, dict)}
    new = {str(p.get("card")): p for p in now.get("performers") or [] if isinstance(p, dict)}
    for card, hired in new.items():
        had = old.get(card)
        if had is None:
            add(f"+ {names.card(card)} joins {who}'s circus", "green")
            had = {}
        for index, level in enumerate(LEVELS):
            placed = Counter(_level(hired, index)) - Counter(_level(had, index))
            removed = Counter(_level(had, index)) - Counter(_level(hired, index))
            if placed:
                add(f"+ {cubes_text(list(placed.elements()))} on the {level} level of {names.card(card)}", "green")
            if removed:
                add(f"- {cubes_text(list(removed.elements()))} off the {level} level of {names.card(card)}", "red")
        if hired.get("flipped") is not None and had.get("flipped") is None:
            add(f"~ {names.card(card)} is flipped")
        if hired.get("trailer") and not had.get("trailer"):
            add(f"+ a trailer for {names.card(card)}", "green")
        if hired.get("level") is not None and hired.get("performed") != had.get("performed"):
            reached = int(hired["level"])
            words = ("no level", *LEVELS)[reached] if 0 <= reached <= 3 else str(reached)
            add(f"~ {names.card(card)} performs: {words}")
    for card in old:
        if card not in new:
            add(f"- {names.card(card)} leaves {who}'s circus", "red")


def _level(hired: dict[str, Any], index: int) -> list[str]:
    cubes = hired.get("cubes") or []
    return [str(c) for c in cubes[index]] if index < len(cubes) else []


def _hand(who: str, names: Names, was: Any, now: Any, add: Any) -> None:
    """The investment hand: its cards when the viewer may see them, else its size."""
    if isinstance(was, list) and isinstance(now, list):
        old = Counter(str(item[0] if isinstance(item, list) else item) for item in was)
        new = Counter(str(item[0] if isinstance(item, list) else item) for item in now)
        for card in (new - old).elements():
            add(f"+ {names.card(card)} into {who}'s hand", "green")
        for card in (old - new).elements():
            add(f"- {names.card(card)} leaves {who}'s hand", "red")
    elif count_of(was) != count_of(now):
        add(f"~ {who}: investment cards in hand {count_of(was)} → {count_of(now)}")
