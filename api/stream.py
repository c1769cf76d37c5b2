"""Server-sent events: each match's new entries as they are recorded, redacted per viewer.

The stream polls the store (so it sees writes from every worker on every host), fetching the fold
*before* the entries and never sending an entry newer than that fold: hidden chance outcomes and
secret moves are judged by a fold that already knows about them. Entries first sent redacted are
re-sent as `revealed` once the viewer may see them (a secret vote after the whole group voted).

Events: `entry` (id = seq, data = the redacted entry), `revealed` (the same data, no id: the
resume point stays the last entry sent) for any entry the client holds redacted, those it read
before the stream opened (before `after`) included, `annotations`
(no id; data = `{"match_id", "annotations"}`, the whole list the caller may see, as `GET
/annotations` gives it, sent when it changes: a commentator's note reaches the viewers who may read
it as it is made, and a note they may not read sends nothing), `end` (the match is over and
everything was sent; the stream then closes), comments as heartbeats.
"""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator
from typing import Any
from uuid import UUID

import anyio

from domain.kernel.redaction import redact
from domain.kernel.viewers import Viewer

from .auth import Principal
from .context import ApiContext


def _frame(event: str, data: dict[str, Any], event_id: int | None = None) -> str:
    lines = [f"event: {event}"]
    if event_id is not None:
        lines.append(f"id: {event_id}")
    lines.append("data: " + json.dumps(data, separators=(",", ":")))
    return "\n".join(lines) + "\n\n"


class MatchStream:
    """One client's stream of one match."""

    def __init__(self, ctx: ApiContext, match_id: UUID, principal: Principal, after: int) -> None:
        self.ctx = ctx
        self.match_id = match_id
        self.principal = principal
        self.sent = after
        self.redacted: set[int] = set()
        """The entries the client holds redacted: sent so, or (`_seeded`) read before `after`."""
        self._seeded = after == 0
        self.notes_version = 0
        """The annotation stream's length when the annotations were last read (0: none yet)."""
        self.notes: list[dict[str, Any]] = []
        """The annotations last sent (none before the first poll: a client that read them just
        before the stream opened still gets any added in between)."""

    def poll(self) -> tuple[list[str], bool]:
        """New frames since the last poll, and whether the stream is complete."""
        ringside = self.ctx.ringside
        fold = ringside.fold(self.match_id)
        viewer: Viewer = self.principal.viewer(fold)
        frames: list[str] = []
        if not self._seeded:  # a client resuming at `after` holds those entries as they were then
            self._seeded = True
            for entry in ringside.entries(self.match_id, 1, min(self.sent, fold.seq)):
                if redact(entry, fold, viewer).get("redacted"):
                    self.redacted.add(entry.seq)
        if self.redacted and fold.seq > self.sent:  # visibility changes only with new entries
            for entry in ringside.entries(self.match_id, min(self.redacted), max(self.redacted)):
                if entry.seq in self.redacted:
                    data = redact(entry, fold, viewer)
                    if not data.get("redacted"):
                        self.redacted.discard(entry.seq)
                        frames.append(_frame("revealed", data))
        if fold.seq > self.sent:
            for entry in ringside.entries(self.match_id, self.sent + 1, fold.seq):
                data = redact(entry, fold, viewer)
                if data.get("redacted"):
                    self.redacted.add(entry.seq)
                frames.append(_frame("entry", data, entry.seq))
                self.sent = entry.seq
        notes = self._annotations(viewer)
        if notes is not None:
            frames.append(notes)
        done = fold.status != "active" and self.sent >= fold.seq
        if done:
            frames.append(_frame("end", {"match_id": str(self.match_id), "version": fold.seq,
                                         "status": fold.status}))
        return frames, done

    def _annotations(self, viewer: Viewer) -> str | None:
        """The `annotations` frame, when the list the viewer may see changed since the last one
        (one indexed read of the annotation stream's length per poll; the list only when it grew)."""
        ringside = self.ctx.ringside
        version = ringside.annotation_version(self.match_id)
        if version == self.notes_version:
            return None
        self.notes_version = version
        visible = ringside.annotations(self.match_id, viewer)
        if visible == self.notes:
            return None
        self.notes = visible
        return _frame("annotations", {"match_id": str(self.match_id), "annotations": visible})

    async def frames(self) -> AsyncIterator[str]:
        settings = self.ctx.settings
        started = last = time.monotonic()
        yield f"retry: {int(settings.stream_poll_seconds * 1000) + 1000}\n\n"
        while True:
            frames, done = await anyio.to_thread.run_sync(self.poll)
            for frame in frames:
                yield frame
            now = time.monotonic()
            if frames:
                last = now
            if done or now - started > settings.stream_max_seconds:
                return
            if now - last > settings.stream_heartbeat_seconds:
                last = now
                yield ": keep-alive\n\n"
            await anyio.sleep(settings.stream_poll_seconds)
