"""Redaction of recorded events for a viewer: the log shows each viewer only what it may know.

Three kinds of entry can carry hidden information, and the kernel handles them for every game:
- a secret simultaneous move (or an arbiter's illegal-move-stands ruling that makes it) stays
  hidden from other seats until the whole group has chosen;
- a private choice (`Ruleset.private_choice`: the whole move, or named fields of it) stays hidden
  from everyone but its seat until the game reaches the point that reveals it (or the match ends);
  a partly private move shows its public fields and names the hidden ones (`hidden_fields`);
- a chance outcome drawn face down (or into one seat's hand) stays hidden from everyone else.
A fork's created event replays its parent's steps (the prelude): the same rules apply to each
of them, and the event is salted when it has a prelude. A match started from a position records
it in its created event: its hidden parts are hidden as the game's view hides them, and the event
is salted then too.
Hidden payloads are replaced, their salts and derivation indices dropped (either would let a
viewer recompute the secret); the hash stays so the chain can still be followed. Arbiters see all.
"""

from __future__ import annotations

from typing import Any

from .fold import MatchFold, prelude_visibility
from .positions import hidden_position
from .record import CHANCE, CREATED, MOVE, RULING, Entry
from .viewers import Viewer


def _chance_visible(fold: MatchFold, seq: int, viewer: Viewer) -> bool:
    visibility = fold.hidden_chance.get(seq, "all")
    if visibility == "all" or viewer.sees_all:
        return True
    if visibility == "none":
        return False
    return viewer.kind == "seat" and viewer.seat in visibility


def _move_visible(fold: MatchFold, seq: int, seat: int, viewer: Viewer, as_of: int) -> bool:
    if seq not in fold.secret_reveal or viewer.sees_all or viewer.is_seat(seat):
        return True
    revealed = fold.secret_reveal[seq]
    return revealed is not None and revealed <= as_of


def _private_payload(payload: dict[str, Any], fields: list[str] | None, head: dict[str, Any]) -> dict[str, Any]:
    """A private move's payload as others see it before the reveal: `head` (seat, ruling), the
    move's public part when only some fields are private, and the marks saying so."""
    shown = {**head, "hidden": True, "private": True}
    if fields is not None:
        shown["move"] = {key: value for key, value in payload["move"].items() if key not in fields}
        shown["hidden_fields"] = list(fields)
    return shown


def redact(entry: Entry, fold: MatchFold, viewer: Viewer, as_of: int | None = None) -> dict[str, Any]:
    """The entry as JSON for `viewer`, judged by what is known at `as_of` (default: the head)."""
    data = entry.to_json()
    as_of = fold.seq if as_of is None else as_of
    payload = dict(entry.payload)
    hidden = False
    if entry.kind == MOVE and not _move_visible(fold, entry.seq, payload["seat"], viewer, as_of):
        payload = {"seat": payload["seat"], "hidden": True}
        hidden = True
    elif entry.kind == RULING and "move" in payload and \
            not _move_visible(fold, entry.seq, payload["seat"], viewer, as_of):
        # an arbiter's illegal-move-stands during a secret choice is that seat's secret move
        payload = {"ruling": payload["ruling"], "seat": payload["seat"], "hidden": True}
        hidden = True
    elif entry.kind in (MOVE, RULING) and "move" in payload and not fold.private_visible(entry.seq, viewer, as_of):
        head = {"seat": payload["seat"]} if entry.kind == MOVE else \
            {"ruling": payload["ruling"], "seat": payload["seat"]}
        payload = _private_payload(payload, fold.private[entry.seq]["fields"], head)
        hidden = True
    elif entry.kind == CHANCE and not _chance_visible(fold, entry.seq, viewer):
        payload = {"kind": payload["kind"], "hidden": True}
        hidden = True
    if entry.kind == CREATED and payload.get("prelude") and not viewer.sees_all:
        # a fork's prelude replays its parent's steps: hidden draws and pending secret moves included
        secret = prelude_visibility(fold.ruleset, fold.config, payload["prelude"], payload.get("position"))
        shown = viewer.seat if viewer.kind == "seat" else None
        prelude = [{"kind": step["kind"], "seat": step.get("seat"), "hidden": True}
                   if index in secret and shown not in secret[index] else step
                   for index, step in enumerate(payload["prelude"])]
        hidden = prelude != payload["prelude"]
        payload["prelude"] = prelude
    if entry.kind == CREATED and isinstance(payload.get("position"), dict) and not viewer.sees_all:
        # a match from a position: its hidden parts (hands, face-down items) as the game's view hides them
        position = hidden_position(fold.ruleset, payload["position"], viewer)
        hidden = hidden or position != payload["position"]
        payload["position"] = position
    if not viewer.sees_all:
        payload.pop("salt", None)
    data["payload"] = payload
    if hidden:
        data["redacted"] = True
    if entry.seq in fold.retracted:
        data["retracted_by"] = fold.retracted[entry.seq]
    return data
