"""How every command writes: checked on a fold, appended as signed entries, settled, and saved
once with the expected version, retried when another writer got there first.

A command is a function of a private copy of the match that appends entries (or raises a typed
error, and then nothing is appended). `_command_steps` runs it: it checks the record may take it
here (engine version, recorded here, the caller's expected version), hands a retired key's record
over to the current key, and yields the match to save with the answer to store for its request key.
Two drivers save it: in the caller's thread (`_command`) or awaited on an event loop
(`_command_async`). A refusal computed on a cached copy is re-checked on a fresh one; a version
conflict retries up to `RETRIES` times. After every command the automatic steps follow
(`_settle`): server-mode chance outcomes, and the end of the match with the seed's reveal.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Generator
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import Any
from uuid import UUID

import orjson
from eventsourcing.persistence import IntegrityError

from ..kernel import record
from ..kernel.canonical import JSON
from ..kernel.chance import derive_outcome, derive_salt
from ..kernel.clock import utc_text
from ..kernel.errors import ConflictError, ForbiddenError, RingsideError, StaleVersionError
from ..kernel.fold import MatchFold
from ..kernel.integrity import Receipt
from ..kernel.match import Match
from ..kernel.record import Entry
from ..kernel.viewers import Actor
from ..store.group_commit import CommitStats
from ..store.recorders import Answer, AnswerRecorder
from .core import RingsideCore

RETRIES = 5
"""Attempts of a command whose save collides with another writer's before it gives up (ConflictError)."""


@dataclass(frozen=True)
class RequestKey:
    """A client's idempotency key for one command: the scope and fingerprint its caller derived,
    and how the caller answers the command's result. The answer is stored in the same transaction
    as the command's events, so a retry with the same key is answered, never applied again."""

    scope: str
    fingerprint: str
    respond: Callable[[Any], tuple[int, dict[str, Any]]]

    def answer(self, result: Any) -> Answer:
        """The answer to store (and send): compact JSON text, by orjson, since every keyed write
        renders one on the event loop (json.dumps took 28 µs of a move's, orjson 2 µs)."""
        status, body = self.respond(result)
        try:
            text = orjson.dumps(body).decode()
        except orjson.JSONEncodeError:  # integers beyond 64 bits in a move: the standard library takes them
            text = json.dumps(body, separators=(",", ":"), ensure_ascii=False)
        return Answer(self.scope, self.fingerprint, status, text)


@dataclass(frozen=True)
class Accepted:
    """The answer to an accepted command: the receipt of its main entry and the new head."""

    receipt: Receipt
    version: int
    entries: tuple[Entry, ...]
    fold: MatchFold | None = field(default=None, compare=False, repr=False)
    """The match right after the command, for callers that answer with it (no second read)."""
    answer: Answer | None = field(default=None, compare=False, repr=False)
    """What was stored for the command's request key, if it had one."""

    def to_json(self) -> dict[str, Any]:
        return {"receipt": self.receipt.to_json(), "version": self.version,
                "appended": [entry.seq for entry in self.entries]}


class Writing(RingsideCore):
    """The command machinery: commands in commands.py and annotating.py use it."""

    def _command(self, match_id: UUID, expected_version: int | None,
                 command: Callable[[Match], tuple[Entry, list[Entry]]], key: RequestKey | None = None) -> Accepted:
        """Run a command to its end, saving in this thread."""
        steps = self._command_steps(match_id, expected_version, command, key)
        step: tuple[Match, list[Answer]] | Accepted = next(steps)
        while not isinstance(step, Accepted):
            try:
                self._commits.save(*step)
            except IntegrityError as refusal:
                step = _advance(steps, refusal)
            else:
                step = _advance(steps, None)
        return step

    async def _command_async(self, match_id: UUID, expected_version: int | None,
                             command: Callable[[Match], tuple[Entry, list[Entry]]],
                             key: RequestKey | None = None) -> Accepted:
        """The same, for an event loop: the checks run here, the wait for the commit holds no thread."""
        steps = self._command_steps(match_id, expected_version, command, key)
        step: tuple[Match, list[Answer]] | Accepted = next(steps)
        while not isinstance(step, Accepted):
            try:
                await self._commits.commit(*step)
            except IntegrityError as refusal:
                step = _advance(steps, refusal)
            else:
                step = _advance(steps, None)
        return step

    def _command_steps(self, match_id: UUID, expected_version: int | None,
                       command: Callable[[Match], tuple[Entry, list[Entry]]], key: RequestKey | None,
                       ) -> CommandSteps:
        """A command's attempts: each yields the match to save (with the answer to store for its
        request key) and is sent back the save's `IntegrityError` (another writer appended first,
        or the key was answered meanwhile) or None. One logic for both drivers."""
        fresh = False  # the first try trusts this process's cached copy; later ones re-read the store
        for _ in range(RETRIES):
            match = self._matches.for_command(match_id, fresh)
            try:
                match.fold.check_engine()
                self._check_recorded_here(match.fold)
                if expected_version is not None and match.version != expected_version:
                    raise StaleVersionError(expected_version, match.version)
                rotation = self._hand_over_key(match)
                main, entries = command(match)
                if rotation is not None:
                    entries = [rotation, *entries]
            except RingsideError:
                if fresh:
                    raise
                fresh = True  # never refuse on a copy that another process may have outdated
                continue
            accepted = self._accepted(match, main, tuple(entries))
            answers = [] if key is None else [key.answer(accepted)]
            conflict = yield match, answers
            if conflict is not None:
                self._check_unanswered(key)
                if expected_version is not None:
                    raise StaleVersionError(expected_version, self._current_version(match_id)) from None
                fresh = True
                continue
            self._matches.keep(match)
            if not answers:
                return accepted
            # built whole: `dataclasses.replace` re-inspects the fields on every call, and this is
            # the first thing each move does after its commit
            return Accepted(accepted.receipt, accepted.version, accepted.entries, accepted.fold, answers[0])
        raise ConflictError(f"match {match_id} kept changing under concurrent writes; try again")

    def commit_stats(self) -> CommitStats:
        """What this process's group-commit writer has saved: batches and the commands in them."""
        return self._commits.stats

    # ==== request keys ======================================================================
    def answer(self, scope: str) -> Answer | None:
        """The stored answer to a keyed request, if it was answered."""
        recorder = self.recorder
        assert isinstance(recorder, AnswerRecorder)
        return recorder.select_answer(scope)

    def prune_answers(self, older_than: timedelta) -> int:
        """Forget the answers to idempotency keys stored more than `older_than` ago; returns how
        many. A retry with a forgotten key runs again as a new request: a move sent with its
        expected version is then refused as stale rather than applied twice. Keys are meant to
        be retried within minutes, so a retention of days loses nothing in practice."""
        recorder = self.recorder
        assert isinstance(recorder, AnswerRecorder)
        now = datetime.strptime(recorder.clock(), "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC)
        cutoff = utc_text(now - older_than)
        with self._exclusive():
            return recorder.prune_answers(cutoff)

    def record_answer(self, answer: Answer) -> None:
        """Keep the answer to a keyed request that changed nothing (a refusal), unless the key was
        answered meanwhile."""
        self._commits.save(None, [replace(answer, final=False)])

    async def record_answer_async(self, answer: Answer) -> None:
        await self._commits.commit(None, [replace(answer, final=False)])

    def _check_unanswered(self, key: RequestKey | None) -> None:
        """After a refused save: if the request's key was answered meanwhile (a duplicate won the
        race), retrying would only collide again; the caller replays the stored answer."""
        if key is not None and self.answer(key.scope) is not None:
            raise ConflictError("a request with this key was answered meanwhile")

    # ==== appending =========================================================================
    def _check_recorded_here(self, fold: MatchFold) -> None:
        """A match whose record another server signed continues only there: appending here would
        fork its history under the same ID. It can still be read, verified, annotated and forked."""
        if fold.record_key != self.key.key_id and fold.record_key not in self.retired_keys:
            raise ForbiddenError(
                f"this match was recorded by another server (key {fold.record_key}); it can be read, "
                "verified, annotated and forked here, but continues only where it is recorded")

    def _hand_over_key(self, match: Match) -> Entry | None:
        """Before this server appends to a record signed with a key it has since retired, the old key
        hands the record over to the current one: the only way a verifier accepts the new key's
        signatures on the events that follow."""
        fold = match.fold
        old = self.retired_keys.get(fold.record_key)
        if old is None:
            return None
        payload = {"key": self.key.key_id, "public_key": self.key.public_hex}
        rotation = self._chain(fold.match_id, fold.seq + 1, record.KEY_ROTATED, Actor.system(), payload,
                               fold.head, signer=old)
        match.record(rotation)
        return rotation

    def _current_version(self, match_id: UUID) -> int:
        events = list(self.events.get(match_id, desc=True, limit=1))
        return events[0].originator_version if events else 0

    def _accepted(self, match: Match, main: Entry, entries: tuple[Entry, ...]) -> Accepted:
        receipt = Receipt(main.stream, main.seq, main.hash, main.sig, main.key)
        return Accepted(receipt, match.version, entries, match.fold)

    def _append(self, match: Match, kind: str, actor: Actor, payload: dict[str, Any]) -> Entry:
        fold = match.fold
        entry = self._chain(fold.match_id, fold.seq + 1, kind, actor, payload, fold.head)
        match.record(entry)
        return entry

    def _append_chance(self, match: Match, outcome: JSON, derivation: dict[str, Any],
                       actor: Actor | None = None) -> Entry:
        fold = match.fold
        spec = fold.decision.chance
        assert spec is not None
        payload: dict[str, Any] = {"kind": spec.kind, "outcome": outcome, "derivation": derivation}
        if spec.visible_to != "all":
            payload["salt"] = derive_salt(self._seed(UUID(fold.match_id)), fold.match_id, fold.seq + 1)
        return self._append(match, record.CHANCE, actor or Actor.system(), payload)

    def _settle(self, match: Match) -> list[Entry]:
        """Append what follows automatically: server-mode chance outcomes and the end of the match."""
        fold = match.fold
        appended: list[Entry] = []
        while fold.status == "active":
            decision = fold.decision
            if decision.over:
                appended.extend(self._finish(match, "completed"))
                break
            if decision.chance is None or fold.randomness != "server":
                break
            if fold.awaiting_entropy:  # entropy_from "seats": no draw before every seat's entropy
                break
            derived = derive_outcome(self._seed(UUID(fold.match_id)), fold.match_id, fold.entropy,
                                     fold.seq + 1, decision.chance)
            appended.append(self._append_chance(match, derived.outcome, {
                "mode": "server", "index": derived.index, "draw": derived.draw}))
        return appended

    def _finish(self, match: Match, reason: str) -> list[Entry]:
        from ..kernel import rulings  # here: a process that never ends a match never loads it

        fold = match.fold
        result = rulings.ending_result(fold, reason)
        ended = self._append(match, record.ENDED, Actor.system(), {
            "reason": reason, "result": result.to_json(), "scores": fold.score_sheet().to_json(),
            "state_hash": fold.ruleset.state_hash(fold.state)})
        revealed = self._append(match, record.SEED_REVEALED, Actor.system(),
                                {"seed": self._seed(UUID(fold.match_id))})
        return [ended, revealed]


CommandSteps = Generator[tuple[Match, list[Answer]], IntegrityError | None, Accepted]


def _advance(steps: CommandSteps, refusal: IntegrityError | None) -> tuple[Match, list[Answer]] | Accepted:
    """Tell a command how its save went: the next attempt to save, or the command's answer."""
    try:
        return steps.send(refusal)
    except StopIteration as finished:
        accepted: Accepted = finished.value
        return accepted

