"""What the match page shows beside the board, built from the caller's view only: the narrated log
(with its turn and round starts) and one step's details (who is to move, the score sheet with rule
texts, the change from the previous step, and what this viewer sees that a spectator does not).

Why here and not in the page's script: the sentences are the terminal's (`replay_cli.render.narrate`,
made from the redacted log entries alone), so a commentator reads the same words in both, and a
diff or a rule text computed once on the server is one request per step instead of several.
Every function takes the viewer the request's token gives and reads nothing but what that viewer
may see (redacted entries, the viewer's state views, the public score sheet). The one exception,
the round starts, reads every state but gives out only step numbers: where a round begins is
public at every table (`Ruleset.round_of`).
"""

from __future__ import annotations

import contextlib
import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any
from uuid import UUID

from domain.application import Ringside
from domain.kernel.contract import Ruleset
from domain.kernel.diff import diff
from domain.kernel.errors import RingsideError
from domain.kernel.fold import MatchFold
from domain.kernel.record import REDONE, RETRACTED, Entry
from domain.kernel.redaction import redact
from domain.kernel.rule_texts import game_rules
from domain.kernel.viewers import Viewer

MARKS = {"undo-requested": "undo", "undo-answered": "undo", "retracted": "undo", "redone": "undo",
         "ruling": "ruling", "ended": "end", "seed-revealed": "audit", "key-rotated": "audit"}
"""Log entry kinds the page marks, by the mark's name (a CSS class and a word on the entry)."""

MAX_CHANGES = 200
"""At most this many JSON paths in a step's change list: a setup step can change thousands."""


def log(ringside: Ringside, match_id: UUID, viewer: Viewer, after: int | None = None) -> dict[str, Any]:
    """Every entry of the log as `viewer` may see it, with its sentence, actor, time and mark, the
    sequence numbers where a turn starts (a move by another seat than the move before) and those
    where a round starts (`round_starts`). With `after`, only the entries after that sequence
    number are told, the turn and round starts staying whole: a live page adds the new entries,
    since one it holds changes only with a retraction, a redo or a reveal, which its stream tells
    it of (it then asks for the whole log again)."""
    from replay_cli.render.common import actor_text
    from replay_cli.render.narrate import Narrator

    fold = ringside.fold(match_id)
    summary = ringside.summary(match_id)
    narrator = Narrator(summary)
    entries: list[dict[str, Any]] = []
    turns: list[int] = [1]
    mover: int | None = None
    record = ringside.entries(match_id, 1, fold.seq)
    for entry in record:
        data = redact(entry, fold, viewer)
        payload = data.get("payload") or {}
        actor = data.get("actor") or {}
        if data.get("kind") == "move" and isinstance(payload.get("seat"), int):
            if payload["seat"] != mover and data.get("retracted_by") is None:
                turns.append(int(data["seq"]))
            if data.get("retracted_by") is None:
                mover = payload["seat"]
        if after is not None and entry.seq <= after:
            continue
        try:
            sentence = narrator.sentence(data)
        except Exception:  # an entry the narrator cannot read is still listed, by its kind
            sentence = str(data.get("kind"))
        entries.append({
            "seq": data["seq"], "kind": data.get("kind"), "at": data.get("at"),
            "actor": actor_text(actor, summary), "seat": actor.get("seat"), "text": sentence,
            "retracted_by": data.get("retracted_by"), "hidden": bool(data.get("redacted")),
            "mark": MARKS.get(str(data.get("kind"))),
        })
    return {"match_id": str(match_id), "version": fold.seq, "status": fold.status, "viewer": str(viewer),
            "after": after, "entries": entries, "turns": sorted(set(turns)), "rounds": round_starts(fold, record)}


class RoundWalk:
    """The walk `round_starts` makes, kept so that it can go on from where it stopped.

    Why: a page following a live match asks for the log after every event, and each of its
    viewers does; folding the whole record again each time (tens of milliseconds for a 600-event
    Drum Roll match) made the live page's cost grow with the match and with its audience. The
    walk's judgements about the entries it has passed stand until a retraction or a redo changes
    which steps the head lists as taken back, so a walk at version V continues over the entries
    after V, and starts over only after such an entry (or when asked for an earlier version)."""

    def __init__(self, first: Entry) -> None:
        self.fold = MatchFold(first)
        self.starts: list[int] = []
        self.latest: tuple[int, ...] | None = None
        self.taken_back = False  # whether the state is that of a step taken back since
        self.lock = threading.Lock()

    def extend(self, head: MatchFold, entries: Sequence[Entry]) -> None:
        ruleset = head.ruleset
        for entry in entries:
            before = self.fold.state
            if entry.seq > 1:
                self.fold.consume(entry)
            if self.fold.state is not before:
                self.taken_back = entry.seq in head.retracted
            if self.taken_back:
                continue
            now = ruleset.round_of(self.fold.state)
            if now is None:
                continue
            order = now if isinstance(now, tuple) else (now,)
            if self.latest is None or order > self.latest:
                self.starts.append(entry.seq)
                self.latest = order


_WALKS: OrderedDict[str, RoundWalk] = OrderedDict()
_WALKS_LOCK = threading.Lock()
WALKS_KEPT = 64
"""How many matches' round walks a process keeps (least recently asked for out first)."""

_RESTARTS = frozenset({RETRACTED, REDONE})
"""Entry kinds after which a walk starts over: they change which steps the head lists as taken back."""


def round_starts(head: MatchFold, record: Sequence[Entry]) -> list[int]:
    """The sequence numbers where a new round begins, as the game counts its rounds
    (`Ruleset.round_of`): each step whose state is in a later round than every step before it.

    The states are those time travel shows at each step (`?at=N`): one fold of the record from its
    created event, each entry consumed in turn, so a retraction or a redo changes the state as it
    does for the fold itself. A step that `head` (the fold at the head) lists as taken back starts
    no round, as it starts no turn, and neither do the entries after it that leave its state as it
    is (an undo request) until something else changes the state (the retraction): a round begun by
    a move later retracted begins again with the move that stands. A game without rounds (the
    default hook) costs no fold at all. Nothing of the states leaves here but the step numbers.
    The walk is kept per match (`RoundWalk`): a later call folds only the entries since."""
    ruleset = head.ruleset
    if type(ruleset).round_of is Ruleset.round_of or not record:
        return []
    key = f"{head.match_id}:{record[0].hash}"  # an imported copy of a match under the same ID is another walk
    with _WALKS_LOCK:
        walk = _WALKS.get(key)
        if walk is not None:
            _WALKS.move_to_end(key)
    with walk.lock if walk is not None else contextlib.nullcontext():
        seen = walk.fold.seq if walk is not None else 0
        later = [entry for entry in record if entry.seq > seen]
        if walk is None or seen > len(record) or any(entry.kind in _RESTARTS for entry in later):
            walk, later = RoundWalk(record[0]), list(record)
        walk.extend(head, later)
        starts = list(walk.starts)
    with _WALKS_LOCK:
        _WALKS[key] = walk
        _WALKS.move_to_end(key)
        while len(_WALKS) > WALKS_KEPT:
            _WALKS.popitem(last=False)
    return starts


def rule_index(game: str) -> dict[str, dict[str, str]]:
    """Each rule ID the game can cite, with its title and text (the same as `/games/{game}/rules`)."""
    try:
        return {entry.id: {"title": entry.title, "text": entry.text} for entry in game_rules(game)}
    except RingsideError:
        return {}


def step(ringside: Ringside, match_id: UUID, viewer: Viewer, at: int | None) -> dict[str, Any]:
    """One position as `viewer` sees it, with what the page needs beside the board."""
    summary = ringside.summary(match_id)
    view = ringside.state(match_id, viewer, at)
    seq = int(view["seq"])
    before = ringside.state(match_id, viewer, seq - 1) if seq > 1 else None
    sheet = ringside.score(match_id, seq)
    previous = ringside.score(match_id, seq - 1)["lines"] if seq > 1 else []
    rules = rule_index(str(summary["game"]))

    def with_rule(line: dict[str, Any]) -> dict[str, Any]:
        rule = rules.get(str(line.get("rule")), {})
        return {key: line.get(key) for key in ("seat", "points", "category", "detail", "rule")} | {
            "rule_title": rule.get("title"), "rule_text": rule.get("text")}

    from replay_cli.render.narrate import score_changes

    added, removed = score_changes(previous, sheet["lines"])
    changes = diff(before["state"], view["state"]) if before is not None else []
    decision = view.get("decision") or {}
    return {
        "match_id": str(match_id), "seq": seq, "version": int(summary["version"]), "status": view["status"],
        "viewer": str(viewer), "to_move": list(decision.get("seats") or []), "prompt": decision.get("prompt"),
        "over": bool(decision.get("over")), "scores": view["scores"], "end": view.get("end"),
        "sheet": [with_rule(line) for line in sheet["lines"]],
        "scored": [with_rule(line) for line in added], "unscored": [with_rule(line) for line in removed],
        "said": _said(summary, before, view),
        "changes": changes[:MAX_CHANGES], "more_changes": max(0, len(changes) - MAX_CHANGES),
        "yours": _beyond_spectator(ringside, match_id, viewer, seq, view),
    }


def _said(summary: dict[str, Any], before: dict[str, Any] | None, after: dict[str, Any]) -> list[str]:
    """The change in the game's own words where the terminal has them (a tile placed at (1, 0))."""
    if before is None:
        return []
    from replay_cli.render import describe_changes

    said = describe_changes(summary, before, after)
    lines = (text.plain.strip().removeprefix("~").strip() for text in said or [])
    return [line for line in lines if line]


def _beyond_spectator(ringside: Ringside, match_id: UUID, viewer: Viewer, seq: int,
                      view: dict[str, Any]) -> list[dict[str, Any]]:
    """What this viewer sees at `seq` that a spectator does not (a seat's hand, an arbiter's every
    face-down card): the paths where the two views differ, with this viewer's values only."""
    if str(viewer) == str(Viewer.spectator()):
        return []
    public = ringside.state(match_id, Viewer.spectator(), seq)
    return [{"path": change["path"], "value": change.get("after")}
            for change in diff(public["state"], view["state"]) if change["op"] != "removed"][:MAX_CHANGES]
