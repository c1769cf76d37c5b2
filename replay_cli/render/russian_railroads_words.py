"""Russian Railroads' words for the log (`narrate`) and for what a step changed (`describe_changes`),
kept apart from the player boards (russian_railroads.py), which imports them.

A sentence is made from the entry alone, with the names of the match's component set (action
spaces, engineers, railways, factories, bonus tokens, face-up, final and starting bonus cards;
the IDs stand when the set is not known here). What an entry does not carry comes from earlier
entries of the same log, through the narrator's `remember`/`recall` (taken back with a retraction):
- which seat a turn-order card is dealt to (the setup deals seat by seat from seat 0, flow.setup);
- whether a `place` or `decline` is the reuse of a turn-order worker (RR-12.13): once every seat
  has passed, the seats whose workers stand on the turn-order spaces decide in turn, the second
  space first; any other `decline` leaves the rest of the white track's advancements (RR-13.3).
A final bonus card kept face down stays "a final bonus card" until the record reveals it.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from rich.text import Text

from domain.games.russian_railroads.components import RussianRailroadsComponents, default_components
from domain.kernel.viewers import count_of

from .common import known_components, seat_changes, seat_label

if TYPE_CHECKING:
    from .narrate import Narrator

TURN_ORDER = ("turn_order_2", "turn_order_1")
"""The turn-order spaces in the order their workers are reused (RR-12.13: the second space first)."""
PARTS = {"industry": "the industry advancement", "multiplier": "the multiplier", "repeat": "the repeat",
         "token": "the bonus token", "face_up": "the face-up card", "take:locomotive": "the locomotive",
         "take:factory": "the factory", "take:locomotive_or_factory": "the locomotive or factory",
         "take:card": "the locomotive card"}
"""How the parts of an action (effects.part_label) are said."""


class Names:
    """Names from the match's component set, IDs when it is not known here."""

    def __init__(self, summary: dict[str, Any]) -> None:
        try:
            self.c: RussianRailroadsComponents | None = known_components(
                summary, {}, RussianRailroadsComponents, default_components())
        except ValueError:
            self.c = None

    def _find(self, lookup: str, item: Any) -> Any | None:
        if self.c is None:
            return None
        try:
            return getattr(self.c, lookup)(item)
        except (KeyError, ValueError, TypeError):
            return None

    def railway(self, railway: Any) -> str:
        found = self._find("railway", str(railway))
        return f"the {found.name} railway" if found is not None else f"railway {railway}"

    def space(self, space: Any) -> str:
        """`the “2 black advancements” space`, `the left changing engineer`."""
        found = self._find("space", str(space))
        if found is None:
            return f"space {space}"
        if found.section == "engineer":
            return "the engineer-hiring space" if space == "hire" else str(found.name)
        return f"the “{found.name}” space"

    def engineer(self, engineer: Any) -> str:
        """`engineer E8 (1 black advancement and 3 VP)`."""
        found = self._find("engineer", str(engineer))
        return f"engineer {engineer} ({found.action})" if found is not None else f"engineer {engineer}"

    def labelled(self, lookup: str, what: str, item: Any) -> str:
        """`bonus token T6 (Kiev medal)`: a card or token by its ID and label."""
        found = self._find(lookup, str(item))
        return f"{what} {item} ({found.label})" if found is not None else f"{what} {item}"

    def factory(self, value: Any) -> str:
        found = self._find("factory", int(value)) if isinstance(value, int) else None
        return f"factory {found.label}" if found is not None else f"the factory of locomotive {value}"

    def special(self, claimed: str) -> str:
        """A special space gained (`trans_siberian:2`, `kiev:terminus`, `industry`) in words."""
        railway, _, space = claimed.partition(":")
        if not space:
            return f"the {railway} token space"
        if space == "terminus":
            return f"the end of {self.railway(railway)}"
        return f"special space {space} of {self.railway(railway)}"

    def is_space(self, space: Any) -> bool:
        return self._find("space", str(space)) is not None

    def final_bonus_vp(self) -> int:
        return int(self.c.constants.final_bonus_vp) if self.c is not None else 10


def plural(count: int, word: str) -> str:
    return f"{count} {word}" + ("" if count == 1 else "s")


def payment_text(move: dict[str, Any]) -> str:
    """`1 worker and 1 ruble`, `the black worker`, `2 temporary workers`, `nothing`."""
    parts = []
    if move.get("workers"):
        parts.append(plural(int(move["workers"]), "worker"))
    if move.get("temporary"):
        parts.append(plural(int(move["temporary"]), "temporary worker"))
    if move.get("black"):
        parts.append("the black worker")
    if move.get("rubles"):
        parts.append(plural(int(move["rubles"]), "ruble"))
    if not parts:
        return "nothing"
    return ", ".join(parts[:-1]) + " and " + parts[-1] if len(parts) > 1 else parts[0]


def part_text(part: str) -> str:
    """A part of an action as said: `the black advancement`, `an advancement of any track`."""
    if part.startswith("advance:"):
        colour = part.removeprefix("advance:")
        return {"any": "an advancement of any track",
                "black_or_grey": "the black or grey advancement"}.get(colour, f"the {colour} advancement")
    return PARTS.get(part, part.replace("_", " ").replace(":", " "))


# ==== narrate =====================================================================================
def narrate(narrator: Narrator, entry: dict[str, Any]) -> str | None:
    """Russian Railroads' sentence for a move or chance draw, or None for the kernel's words."""
    kind = entry.get("kind")
    p = entry.get("payload") or {}
    names = Names(narrator.summary)
    if kind == "created":
        narrator.remember("setup_deals", not p.get("prelude"))  # a fork's deal happened in its parent
        return None
    if kind == "chance":
        return _chance(narrator, names, str(p.get("kind")), p)
    if kind != "move":
        return None
    seat = p.get("seat")
    who = narrator.seat(seat)
    move = p.get("move") or {}
    if p.get("hidden"):
        if move.get("type") == "take_bonus_card":  # the card is private, the taking is not (RR-21.2)
            return f"{who} takes a final bonus card and keeps it face down (shown at final scoring)"
        return None
    return _turn_move(narrator, names, who, seat, move) or _part_move(names, who, move) \
        or _bonus_move(names, who, move)


def _chance(narrator: Narrator, names: Names, kind: str, p: dict[str, Any]) -> str | None:
    outcome = p.get("outcome")
    if kind == "final bonus card removed unseen":
        if p.get("hidden"):
            return "a final bonus card is removed from the game unseen"
        return f"{names.labelled('bonus_card', 'final bonus card', outcome)} is removed from the game unseen"
    if p.get("hidden"):
        return None
    if kind.startswith("engineer from deck"):
        return f"{names.engineer(outcome)} comes out from deck {kind.removeprefix('engineer from deck').strip()}"
    if kind == "turn-order card":
        count = int(narrator.recall("deals", 0))
        narrator.remember("deals", count + 1)
        seats = len(narrator.summary.get("seats") or [])
        if narrator.recall("setup_deals", False) and count < seats:
            return f"{narrator.seat(count)} is dealt turn-order card {outcome}"
        return f"turn-order card {outcome} is dealt"
    return None


def _turn_move(narrator: Narrator, names: Names, who: str, seat: Any, move: dict[str, Any]) -> str | None:
    """An action or a pass (RR-5.2, RR-12.3) and the turn-order worker's reuse (RR-12.13)."""
    kind = move.get("type")
    reusing = narrator.recall("reuse", ())
    if kind == "pass":
        _passed(narrator)
        return f"{who} passes for the rest of the round"
    if kind == "decline":
        if reusing and reusing[0] == seat:
            narrator.remember("reuse", reusing[1:])
            return f"{who} leaves the turn-order worker where it stands"
        return f"{who} stops the white track's advancements there"
    if kind != "place":
        return None
    space = move.get("space")
    if reusing and reusing[0] == seat:
        narrator.remember("reuse", reusing[1:])
        return f"{who} moves the turn-order worker to {names.space(space)} and takes that action"
    if reusing:
        narrator.remember("reuse", ())  # a new round: nobody else reuses
    if space in TURN_ORDER:
        narrator.remember("turn_order", (*narrator.recall("turn_order", ()), (seat, space)))
    payment = payment_text(move)
    if not names.is_space(space):
        return f"{who} uses own {names.engineer(space)}, paying {payment}"
    if space == "hire":
        return f"{who} hires the engineer on the hiring space, paying {payment}"
    return f"{who} puts {payment} on {names.space(space)}"


def _passed(narrator: Narrator) -> None:
    """Count passes: when every seat has passed, the round's turn-order workers may be reused, the
    second space's first (RR-12.13)."""
    seats = len(narrator.summary.get("seats") or []) or 1
    passes = int(narrator.recall("passes", 0)) + 1
    narrator.remember("passes", passes)
    if passes % seats == 0:
        holders = narrator.recall("turn_order", ())
        order = [seat for space in TURN_ORDER for seat, held in holders if held == space]
        narrator.remember("reuse", tuple(order))
        narrator.remember("turn_order", ())


def _part_move(names: Names, who: str, move: dict[str, Any]) -> str | None:
    """A part of an action: a track advancement, an industry advancement, a locomotive, a factory."""
    kind = move.get("type")
    if kind == "advance":
        return f"{who} advances the {move.get('colour')} track on {names.railway(move.get('railway'))}"
    if kind == "move_marker":
        marker = "the second industry marker" if move.get("marker") == 1 else "the industry marker"
        return f"{who} moves {marker} one place along the industry track"
    if kind == "place_locomotive":
        slot = int(move.get("slot") or 0) + 1
        return f"{who} puts the locomotive on {names.railway(move.get('railway'))} (locomotive space {slot})"
    if kind == "take_factory":
        where = " from the face-up pool" if move.get("from_pool") else ""
        what = names.factory(move.get("value")) if move.get("value") is not None else "a factory"
        replacing = f", replacing the factory in factory space {int(move['replace']) + 1}" \
            if move.get("replace") is not None else ""
        return f"{who} builds {what}{where}{replacing}"
    if kind == "next_part":
        return f"{who} chooses {part_text(str(move.get('part')))} as the next part of the action"
    if kind == "repeat":
        return f"{who} repeats the action of {names.space(move.get('space'))}"
    return None


def _bonus_move(names: Names, who: str, move: dict[str, Any]) -> str | None:
    kind = move.get("type")
    if kind == "choose_token":
        return f"{who} takes {names.labelled('token', 'bonus token', move.get('token'))}"
    if kind == "choose_card":
        return f"{who} takes {names.labelled('card', 'face-up card', move.get('card'))}"
    if kind == "take_bonus_card":
        return f"{who} keeps {names.labelled('bonus_card', 'final bonus card', move.get('card'))} face down"
    if kind == "take_bonus_vp":
        return f"{who} takes {names.final_bonus_vp()} VP instead of a final bonus card"
    if kind == "draft_bonus":
        return f"{who} takes {names.labelled('starting_card', 'starting bonus card', move.get('card'))}"
    return None


# ==== describe_changes =============================================================================
def describe_changes(summary: dict[str, Any], before: dict[str, Any], after: dict[str, Any]) -> list[Text] | None:
    """What changed between two views in Russian Railroads' terms: the round and turn order, the
    workers and rubles put on spaces, the engineers, the supply, each player's tracks, locomotives,
    factories, industry markers, workers, rubles, multipliers, engineers, tokens and bonus cards,
    the special spaces gained, the scores and who acts next. None when the views are not Russian
    Railroads'."""
    new = after.get("state") or {}
    if not isinstance(new.get("players"), list) or not isinstance(new.get("strip"), list):
        return None
    names = Names(summary)

    def score(seat: int, was: int, now: int) -> str:
        return f"~ {seat_label(summary, seat)}: {was} → {now} VP ({now - was:+d})"

    return seat_changes(summary, before, after, table=lambda old, new_, add: _table(summary, names, old, new_, add),
                        seat=lambda seat, was, now, add: _player(seat_label(summary, seat), names, was, now, add),
                        score=score)


def _table(summary: dict[str, Any], names: Names, old: dict[str, Any], new: dict[str, Any], add: Any) -> None:
    if old.get("round") != new.get("round"):
        add(f"~ round {old.get('round')} → {new.get('round')}")
    if old.get("positions") != new.get("positions") and any(new.get("positions") or []):
        add("~ turn-order cards: " + ", ".join(f"{seat_label(summary, seat)} {place or '-'}"
                                               for seat, place in enumerate(new["positions"])))
    if old.get("order") != new.get("order") and new.get("order"):
        add("~ turn order: " + " → ".join(seat_label(summary, seat) for seat in new["order"]))
    old_placed = Counter(tuple(p) for p in old.get("placements") or [])
    new_placed = Counter(tuple(p) for p in new.get("placements") or [])
    for space, seat, *paid in (new_placed - old_placed).elements():
        payment = payment_text(dict(zip(("workers", "temporary", "black", "rubles"), paid, strict=False)))
        where = names.space(space) if names.is_space(space) else names.engineer(space)
        add(f"+ {seat_label(summary, seat)}: {payment} on {where}", "green")
    if new_placed != old_placed and not new_placed:
        add("- every worker and ruble comes back from the action spaces", "dim")
    old_strip, new_strip = list(old.get("strip") or []), list(new.get("strip") or [])
    if old_strip != new_strip:
        shown = [str(e) if e else "empty" for e in new_strip]
        add("~ engineer area: " + ", ".join(shown))
    for key, what in (("pool", "factory pool"), ("face_up", "face-up cards")):
        if old.get(key) != new.get(key):
            add(f"~ {what}: " + (", ".join(map(str, new.get(key) or [])) or "empty"))
    if old.get("multipliers_left") != new.get("multipliers_left"):
        add(f"~ multipliers left {old.get('multipliers_left')} → {new.get('multipliers_left')}", "dim")
    if count_of(old.get("bonus_deck")) != count_of(new.get("bonus_deck")):
        add(f"~ final bonus deck {count_of(old.get('bonus_deck'))} → {count_of(new.get('bonus_deck'))} cards", "dim")
    old_stacks, new_stacks = old.get("stacks") or {}, new.get("stacks") or {}
    for value in sorted(set(new_stacks) | set(old_stacks), key=lambda v: int(v)):
        if old_stacks.get(value) != new_stacks.get(value):
            add(f"~ locomotive {value}s in the supply {old_stacks.get(value)} → {new_stacks.get(value)}", "dim")


def _player(who: str, names: Names, was: dict[str, Any], now: dict[str, Any], add: Any) -> None:
    def counted(key: str, what: str) -> None:
        a, b = was.get(key), now.get(key)
        if a != b and isinstance(a, int) and isinstance(b, int):
            add(f"~ {who}: {what} {a} → {b} ({b - a:+d})")

    old_tracks, new_tracks = was.get("tracks") or {}, now.get("tracks") or {}
    for railway, colours in new_tracks.items():
        for colour, position in colours.items():
            before = (old_tracks.get(railway) or {}).get(colour)
            if before != position:
                start = f"{before} → " if before is not None else "new, at "
                add(f"~ {who}: {colour} track on {names.railway(railway)} {start}{position}")
    old_locos, new_locos = was.get("locomotives") or {}, now.get("locomotives") or {}
    for railway in new_locos.keys() | old_locos.keys():
        if list(old_locos.get(railway) or []) != list(new_locos.get(railway) or []):
            shown = "+".join(map(str, new_locos.get(railway) or [])) or "none"
            add(f"~ {who}: locomotives on {names.railway(railway)}: {shown}")
    if list(was.get("factories") or []) != list(now.get("factories") or []):
        built = [names.factory(v) for v in now.get("factories") or [] if v is not None]
        add(f"~ {who}'s factories: " + ("; ".join(built) or "none"))
    if list(was.get("markers") or []) != list(now.get("markers") or []):
        add(f"~ {who}: industry markers {was.get('markers')} → {now.get('markers')}")
    for key, what in (("workers", "workers"), ("reserve", "reserve workers"), ("temporary", "temporary workers"),
                      ("rubles", "rubles"), ("multipliers", "multipliers")):
        counted(key, what)
    _gained(who, "engineers", was, now, names.engineer, add)
    _gained(who, "tokens", was, now, lambda t: names.labelled("token", "bonus token", t), add)
    _gained(who, "claimed", was, now, names.special, add)
    cards_was, cards_now = was.get("bonus_cards"), now.get("bonus_cards")
    if isinstance(cards_was, list) and isinstance(cards_now, list):
        _gained(who, "bonus_cards", was, now, lambda c: names.labelled("bonus_card", "final bonus card", c), add)
    elif count_of(cards_was) != count_of(cards_now):
        add(f"~ {who}: final bonus cards {count_of(cards_was)} → {count_of(cards_now)} (face down)")
    for key, on, off in (("passed", "has passed", "is back in the round"),
                         ("black_worker", "gains the black worker", "gives the black worker back"),
                         ("medal", "gains the Kiev medal", "loses the Kiev medal"),
                         ("revalued", "gains the revaluation", "loses the revaluation")):
        if bool(was.get(key)) != bool(now.get(key)):
            add(f"~ {who} {on if now.get(key) else off}")


def _gained(who: str, key: str, was: dict[str, Any], now: dict[str, Any], name: Any, add: Any) -> None:
    old, new = Counter(map(str, was.get(key) or [])), Counter(map(str, now.get(key) or []))
    for item in (new - old).elements():
        add(f"+ {who} gains {name(item)}", "green")
    for item in (old - new).elements():
        add(f"- {who} loses {name(item)}", "red")
