"""The queries on matches: state and legal moves, the log, scores, diffs, summaries, the match
list, annotations, bundles and verification, the seed for an arbiter.

Every read is made as a viewer (seat, spectator, arbiter) and goes through the game's view and
the record's redaction; nothing here appends. Positions are read by folding (core.py), and what a
fold looks like to a reader is read_models.py's.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any
from uuid import UUID

from ..kernel.annotations import hidden_entries, visible_to
from ..kernel.diff import diff
from ..kernel.errors import MatchNotFoundError, RingsideError
from ..kernel.fold import prelude_visibility
from ..kernel.positions import position_hides
from ..kernel.redaction import redact
from ..kernel.trust import Trust
from ..kernel.viewers import Viewer
from .aggregates import annotations_id
from .core import RingsideCore
from .read_models import state_view, summary


class Queries(RingsideCore):
    """Every read of a match, and its export and verification."""

    def components_of(self, match_id: UUID) -> dict[str, Any]:
        fold = self.fold(match_id)
        return fold.config.components.content()

    def sealed_by(self, match_id: UUID) -> str | None:
        """The match in play whose hidden information this fork carries, or None. A fork replays its
        parent's steps, face-down draws and pending secret choices included; until every ancestor
        it took them from has ended, the fork keeps them as hidden as a match in play would: only
        its arbiter may export or fork it, whatever the fork's own status."""
        fold = self.fold(match_id)
        prelude = fold.header.get("prelude") or []
        position = fold.header.get("position")
        hides = position is not None and position_hides(fold.ruleset, position, fold.seats)
        if not hides and (not prelude or not prelude_visibility(fold.ruleset, fold.config, prelude, position)):
            return None
        seen: set[str] = set()
        fork_of = fold.header.get("fork_of")
        while isinstance(fork_of, dict) and isinstance(fork_of.get("match_id"), str):
            ancestor_id = fork_of["match_id"]
            if ancestor_id in seen:
                return None
            seen.add(ancestor_id)
            try:
                ancestor = self.fold(UUID(ancestor_id))
            except (ValueError, RingsideError):  # not held here: its own server keeps it sealed
                return None
            if ancestor.status == "active":
                return ancestor_id
            fork_of = ancestor.header.get("fork_of")
        return None

    def seed_for_arbiter(self, match_id: UUID) -> dict[str, Any]:
        """The secret seed, for an arbiter's eyes only. It enters the public record only when the
        match ends (automatically): published during play it would expose every future draw."""
        fold = self.fold(match_id)
        return {"seed": self._seed(match_id), "commitment": fold.header["seed_commitment"],
                "revealed_in_record": fold.seed is not None}

    # ==== the record and its views ============================================================
    def state(self, match_id: UUID, viewer: Viewer, at: int | None = None) -> dict[str, Any]:
        """The state as `viewer` may see it, at the head or at event `at`."""
        fold = self.fold(match_id, at)
        return state_view(fold, viewer)

    def head_version(self, match_id: UUID) -> int:
        """How many events the match's record holds, read from the store's last event, without
        folding the match (a reader of one position needs the head's number, not its state)."""
        events = list(self.events.get(match_id, desc=True, limit=1))
        if not events:
            raise MatchNotFoundError(f"no match {match_id}")
        version: int = events[0].originator_version
        return version

    def legal_moves(self, match_id: UUID, seat: int) -> list[dict[str, Any]]:
        fold = self.fold(match_id)
        if fold.status != "active" or fold.decision.chance is not None or seat not in fold.decision.seats:
            return []
        return [fold.ruleset.dump_move(move) for move in fold.ruleset.legal_moves(fold.state, seat)]

    def log(  # type: ignore[override]  # shadows eventsourcing's deprecated `log` alias on purpose
        self, match_id: UUID, viewer: Viewer, start: int = 1, limit: int | None = None
    ) -> list[dict[str, Any]]:
        """Events as `viewer` may see them, with retracted ones marked."""
        fold = self.fold(match_id)
        # never past the fold: an entry appended since would be redacted by a fold that does not
        # know it is hidden (a concurrent write could otherwise leak a face-down draw)
        stop = fold.seq if limit is None else min(start + limit - 1, fold.seq)
        return [redact(entry, fold, viewer) for entry in self.entries(match_id, start, stop)] \
            if start <= stop else []

    def score(self, match_id: UUID, at: int | None = None) -> dict[str, Any]:
        fold = self.fold(match_id, at)
        return {"seq": fold.seq, **fold.score_sheet().to_json(), "end": fold.end}

    def diff(self, match_id: UUID, a: int, b: int, viewer: Viewer) -> dict[str, Any]:
        before, after = self.state(match_id, viewer, a), self.state(match_id, viewer, b)
        return {"from": a, "to": b, "changes": diff(before, after)}

    def summary(self, match_id: UUID) -> dict[str, Any]:
        """The match's facts, with whether this server recorded it: an imported record is never
        official here, whoever signed it, and lists its signers for the reader to judge."""
        fold = self.fold(match_id)
        recorded_here = fold.created_key in self.own_keys()
        return {**summary(fold), "recorded_here": recorded_here, "imported": not recorded_here,
                "official": recorded_here and fold.header.get("fork_of") is None}

    def list_matches(self, **filters: Any) -> list[dict[str, Any]]:
        own = self.own_keys()
        rows = self.index.search(**filters)
        for row in rows:
            recorded_by = row.pop("recorded_by", None)
            row["imported"] = recorded_by is not None and recorded_by not in own
            row["official"] = row["official"] and not row["imported"]
        return rows

    # ==== annotations ======================================================================
    def annotations(self, match_id: UUID, viewer: Viewer) -> list[dict[str, Any]]:
        self.fold(match_id)  # 404 for an unknown match
        log = self._annotation_log(match_id)
        if log is None:
            return []
        items = [item for item in log.fold.items.values() if visible_to(item, viewer)]
        return sorted(items, key=lambda item: (item["seq"], item["seq_in_stream"]))

    def annotation_version(self, match_id: UUID) -> int:
        """How many events the match's annotation stream holds (0: none yet)."""
        events = list(self.events.get(annotations_id(match_id), desc=True, limit=1))
        return events[0].originator_version if events else 0

    # ==== bundles and verification ============================================================
    def export_bundle(self, match_id: UUID, viewer: Viewer | None = None) -> str:
        """The match's bundle as `viewer` may read it (default: the arbiter, who sees everything).
        The match's events are whole (callers let only the arbiter export a match whose hidden
        information is still hidden); the annotations the viewer may not see are redacted."""
        from ..kernel.bundle import write_bundle

        entries = self.entries(match_id)
        fold = self.fold(match_id)
        annotations = self.annotation_entries(match_id)
        return write_bundle(entries, annotations, fold.config.components.content(), self.known_keys(),
                            self.key, self.clock(), redacted=hidden_entries(annotations, viewer or Viewer.arbiter()))

    def verify_match(self, match_id: UUID, receipts: Iterable[Any] = (), trust: Trust | None = None) -> Any:
        """The verification report of the stored record, against this server's own keys (and any
        further `trust`), checking a player's `receipts` too when given."""
        from ..kernel.verification import verify_bundle

        anchors = self.trust() if trust is None else self.trust().merge(trust)
        return verify_bundle(self.export_bundle(match_id), trust=anchors, receipts=list(receipts))
