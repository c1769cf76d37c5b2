"""The commands on a match's annotation stream: annotate, and edit one's own annotation.

Annotations live in their own hash-chained stream (`AnnotationLog`), so commentary never changes
the match's versions; the stream is opened by the first annotation.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any
from uuid import UUID

from eventsourcing.persistence import IntegrityError

from ..kernel import record
from ..kernel.annotations import AnnotationLog, check_glyphs, check_visibility
from ..kernel.errors import ConflictError, InvalidRequestError, NotFoundError
from ..kernel.viewers import Actor
from .writing import RETRIES, RequestKey, Writing


class Annotating(Writing):
    """Annotations: added anchored to an event and its hash, edited by their author."""

    def annotate(self, match_id: UUID, seq: int, text: str, *, actor: Actor, glyphs: list[str] | None = None,
                 tags: list[str] | None = None, visibility: str = "public",
                 key: RequestKey | None = None) -> dict[str, Any]:
        """Add an annotation anchored to event `seq` and its hash."""
        fold = self.fold(match_id)
        if not isinstance(seq, int) or isinstance(seq, bool) or not 1 <= seq <= fold.seq:
            raise InvalidRequestError(f"there is no event {seq} (the match is at {fold.seq})")
        anchor = self.entries(match_id, seq, seq)[0]
        body = {"seq": seq, "hash": anchor.hash, "text": _text(text), "glyphs": check_glyphs(glyphs or []),
                "tags": _tags(tags or []), "visibility": check_visibility(visibility, fold.seats)}
        if body["visibility"] != "public":
            body["salt"] = secrets.token_hex(16)  # exported redacted, its hash must not give the text away

        def add(log: AnnotationLog) -> str:
            annotation_id = log.fold.next_id()  # a1, a2, ... in order of addition (older IDs kept)
            self._append_annotation(log, record.ANNOTATION_ADDED, actor, {"id": annotation_id, **body})
            return annotation_id

        return self._annotation_command(match_id, add, create=True, key=key)

    def edit_annotation(self, match_id: UUID, annotation_id: str, *, actor: Actor, text: str | None = None,
                        glyphs: list[str] | None = None, tags: list[str] | None = None,
                        visibility: str | None = None, key: RequestKey | None = None) -> dict[str, Any]:
        """Change one's own annotation; the earlier text stays in the stream."""
        changes: dict[str, Any] = {"id": annotation_id}
        if text is not None:
            changes["text"] = _text(text)
        if glyphs is not None:
            changes["glyphs"] = check_glyphs(glyphs)
        if tags is not None:
            changes["tags"] = _tags(tags)
        if visibility is not None:
            changes["visibility"] = check_visibility(visibility, self.fold(match_id).seats)

        def edit(log: AnnotationLog) -> str:
            log.fold.check_author(annotation_id, actor.to_json())
            if changes.get("visibility", log.fold.get(annotation_id)["visibility"]) != "public":
                changes["salt"] = secrets.token_hex(16)
            self._append_annotation(log, record.ANNOTATION_EDITED, actor, changes)
            return annotation_id

        return self._annotation_command(match_id, edit, create=False, key=key)

    def _annotation_command(self, match_id: UUID, change: Callable[[AnnotationLog], str],
                            create: bool, key: RequestKey | None) -> dict[str, Any]:
        """Apply a change to the annotation stream, retrying when another writer got there first."""
        for _ in range(RETRIES):
            log = self._annotation_log(match_id, create=create)
            if log is None:
                raise NotFoundError(f"match {match_id} has no annotations")
            annotation = dict(log.fold.items[change(log)])
            try:
                self.save(log, answers=[] if key is None else [key.answer(annotation)])
            except IntegrityError:
                self._check_unanswered(key)
                continue
            return annotation
        raise ConflictError(f"the annotations of {match_id} kept changing under concurrent writes; try again")

    def _append_annotation(self, log: AnnotationLog, kind: str, actor: Actor, payload: dict[str, Any]) -> None:
        fold = log.fold
        log.record(self._chain(f"{fold.match_id}/annotations", fold.seq + 1, kind, actor, payload, fold.head))


def _text(text: str) -> str:
    if not isinstance(text, str) or len(text) > 10_000:
        raise InvalidRequestError("annotation text must be a string of at most 10,000 characters")
    return text


def _tags(tags: list[str]) -> list[str]:
    if not isinstance(tags, (list, tuple)) or len(tags) > 20 \
            or not all(isinstance(tag, str) and 0 < len(tag) <= 40 for tag in tags):
        raise InvalidRequestError("tags must be up to 20 strings of 1–40 characters")
    return sorted(set(tags))

