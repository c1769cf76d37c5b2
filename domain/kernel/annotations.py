"""Annotations: commentary on a match, in a stream of its own so it never changes the record.

Each annotation is anchored to a sequence number and that event's hash (so it cannot silently
drift to another event), has an author, text, glyphs (as in chess: !, ?, !!, ??, !?, ?!), tags and
a visibility: public, one seat (and arbiters), or arbiters only. The stream is hash-chained and
signed like the match record, and exported with it.
"""

from __future__ import annotations

import re
from typing import Any

from eventsourcing.domain import Aggregate

from .errors import ForbiddenError, InvalidRequestError, NotFoundError
from .record import ANNOTATION_ADDED, ANNOTATION_EDITED, ANNOTATIONS_OPENED, Entry
from .viewers import Viewer

_NUMBERED = re.compile(r"a([1-9][0-9]{0,8})")
"""An annotation ID of the form a<number>, as both numbering rules make them (AnnotationFold.next_id)."""

GLYPHS = ("!", "?", "!!", "??", "!?", "?!", "□", "=", "+=", "=+", "±", "∓", "+-", "-+", "∞", "N")


def check_visibility(visibility: str, seats: int) -> str:
    if visibility in ("public", "arbiter"):
        return visibility
    # exactly the form visible_to compares against ("seat:0", never "seat:00" or other digits)
    found = re.fullmatch(r"seat:(0|[1-9][0-9]{0,3})", visibility) if isinstance(visibility, str) else None
    if found is not None and int(found.group(1)) < seats:
        return visibility
    raise InvalidRequestError(f"visibility must be public, arbiter or seat:N (N < {seats}), not {visibility!r}")


def check_glyphs(glyphs: list[str]) -> list[str]:
    if not isinstance(glyphs, (list, tuple)):
        raise InvalidRequestError(f"glyphs are a list of: {' '.join(GLYPHS)}")
    unknown = [glyph for glyph in glyphs if glyph not in GLYPHS]
    if unknown:
        raise InvalidRequestError(f"unknown glyphs {unknown}; use {' '.join(GLYPHS)}")
    return list(glyphs)


def visible_to(annotation: dict[str, Any], viewer: Viewer) -> bool:
    visibility = annotation["visibility"]
    if visibility == "public" or viewer.sees_all:
        return True
    return visibility == f"seat:{viewer.seat}" and viewer.kind == "seat"


def hidden_entries(entries: list[Entry], viewer: Viewer) -> set[int]:
    """The positions of the annotation events `viewer` may not see: every event of an annotation
    whose visibility (as it stands now) excludes the viewer. A bundle exports them redacted."""
    if viewer.sees_all or not entries:
        return set()
    fold = AnnotationFold(entries[0])
    for entry in entries[1:]:
        fold.consume(entry)
    return {entry.seq for entry in entries[1:]
            if entry.payload.get("id") in fold.items and not visible_to(fold.items[entry.payload["id"]], viewer)}


class AnnotationFold:
    """The annotations of one match after the stream's entries so far."""

    def __init__(self, opened: Entry) -> None:
        self.match_id: str = opened.payload["match_id"]
        self.seq = opened.seq
        self.head = opened.hash
        self.items: dict[str, dict[str, Any]] = {}

    def consume(self, entry: Entry) -> None:
        if entry.seq != self.seq + 1:
            raise ValueError(f"annotation entry {entry.seq} does not follow {self.seq}")
        payload = entry.payload
        content = {k: v for k, v in payload.items() if k != "salt"}  # the salt only guards the hash
        if entry.kind == ANNOTATION_ADDED:
            self.items[payload["id"]] = {**content, "author": entry.actor, "created_at": entry.at,
                                         "edited_at": None, "seq_in_stream": entry.seq}
        elif entry.kind == ANNOTATION_EDITED:
            item = self.items[payload["id"]]
            item.update({k: v for k, v in content.items() if k != "id"})
            item["edited_at"] = entry.at
        self.seq, self.head = entry.seq, entry.hash

    def next_id(self) -> str:
        """The ID a new annotation gets: `a` and one more than the highest number an ID in this
        stream holds, so a new stream numbers its annotations a1, a2, ... in the order they are added
        (what a reader counting them expects).

        Streams written before this rule numbered each annotation by its position in the stream
        (position 1 is the stream's opened event, so the first annotation was a2, and an edit used
        up a position too: a2, a3, a5). Those IDs are in signed payloads and stay as they are; new
        annotations in such a stream continue after the highest of them, so an ID is never used
        twice in a stream whichever rule made it. Edits look an annotation up by the ID it was
        given, under either rule."""
        numbers = [int(found.group(1)) for found in map(_NUMBERED.fullmatch, self.items) if found]
        return f"a{max([len(self.items), *numbers]) + 1}"

    def get(self, annotation_id: str) -> dict[str, Any]:
        try:
            return self.items[annotation_id]
        except KeyError:
            raise NotFoundError(f"no annotation {annotation_id}") from None

    def check_author(self, annotation_id: str, actor: dict[str, Any]) -> None:
        author = self.get(annotation_id)["author"]
        if author != actor:
            raise ForbiddenError("only the author may edit an annotation")


class AnnotationLog(Aggregate):
    """The eventsourcing aggregate of a match's annotation stream."""

    TOPIC = "ringside.annotations/1"

    class Event(Aggregate.Event):
        TOPIC = "ringside.annotations.event/1"
        class_version = 1
        entry: dict[str, Any]

        def apply(self, aggregate: Aggregate) -> None:
            assert isinstance(aggregate, AnnotationLog)
            aggregate.fold.consume(Entry.from_json(self.entry))

    class Created(Event, Aggregate.Created):
        TOPIC = "ringside.annotations.opened/1"
        class_version = 1

        def apply(self, aggregate: Aggregate) -> None:
            """The created entry is consumed by __init__; nothing more to apply."""

    class Added(Event):
        TOPIC = "ringside.annotations.added/1"
        class_version = 1

    class Edited(Event):
        TOPIC = "ringside.annotations.edited/1"
        class_version = 1

    def __init__(self, entry: dict[str, Any]) -> None:
        self.fold = AnnotationFold(Entry.from_json(entry))

    def record(self, entry: Entry) -> None:
        event_class = {ANNOTATION_ADDED: self.Added, ANNOTATION_EDITED: self.Edited}[entry.kind]
        self.trigger_event(event_class, entry=entry.to_json())


__all__ = ["ANNOTATIONS_OPENED", "AnnotationFold", "AnnotationLog", "check_glyphs", "check_visibility",
           "hidden_entries", "visible_to"]
