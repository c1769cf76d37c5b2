"""The commands on matches: create, fork, move, outcome, entropy, undo, rulings, import.

Each checks the request against the match's fold with the record's own rules (kernel/undo.py,
rulings.py, header.py: the rules verification applies to the record afterwards) before it appends
anything, then appends its entries through the machinery in writing.py.
"""

from __future__ import annotations

import contextlib
import unicodedata
from collections.abc import Callable, Iterable
from typing import Any
from uuid import UUID, uuid4

from eventsourcing.application import AggregateNotFoundError
from eventsourcing.persistence import IntegrityError

from ..kernel import record, undo
from ..kernel.annotations import AnnotationLog
from ..kernel.canonical import JSON
from ..kernel.chance import commitment, derive_salt, new_seed
from ..kernel.components import load_components
from ..kernel.contract import MatchConfig
from ..kernel.errors import ConflictError, ForbiddenError, InvalidRequestError, InvalidSeatsError, UndoRefusedError
from ..kernel.fold import entropy_actor_problem
from ..kernel.integrity import GENESIS, event_hash
from ..kernel.match import Match
from ..kernel.positions import normal_position
from ..kernel.record import Entry
from ..kernel.refusal import Refusal
from ..kernel.registry import get_game
from ..kernel.viewers import Actor
from .aggregates import KnownKey, MatchSecret, annotations_id, key_record_id, secret_id
from .writing import RETRIES, Accepted, RequestKey, Writing


class Commands(Writing):
    """Every command that appends to a match's record (annotations are annotating.py's)."""

    # ==== creating =========================================================================
    def create_match(self, game: str, players: list[str], *, variant: str | None = None,
                     options: dict[str, Any] | None = None, randomness: str = "server",
                     undo_policy: str = "own-turn", entropy: Iterable[str] = (),
                     entropy_from: str | None = None,
                     components: dict[str, Any] | None = None, match_id: UUID | None = None,
                     seed: str | None = None, actor: Actor | None = None,
                     fork_of: dict[str, Any] | None = None, prelude: list[dict[str, Any]] | None = None,
                     penalties: list[dict[str, Any]] | None = None,
                     title: str = "", position: dict[str, Any] | None = None) -> Accepted:
        """Start a match. Chance events at the start (deals) are resolved at once in server mode,
        unless `entropy_from="seats"`: then every draw waits until each seat has added its entropy
        (`add_entropy`), after the seed commitment is in the record. With a `position` (the game's
        position format) the match starts there instead of at the setup: it is validated, and its
        normal form recorded in the created event (docs/positions.md)."""
        from ..kernel.header import (  # the header's models, built on first use: a reading process never loads them
            entropy_policy_refusal,
            header_problem,
            randomness_refusal,
            seats_refusal,
            undo_policy_refusal,
            variant_refusal,
        )

        ruleset = get_game(game)
        variant = variant or ruleset.default_variant
        _refuse(variant_refusal(ruleset, variant))
        _refuse(seats_refusal(ruleset, variant, len(players)))
        if any(not isinstance(p, str) or not p.strip() or len(p) > 80 or not _name_text(p) for p in players):
            raise InvalidSeatsError("every seat needs a player name of 1–80 characters, without control "
                                    "characters (NUL, tabs, line breaks) or lone surrogates")
        _refuse(randomness_refusal(randomness))
        _refuse(undo_policy_refusal(undo_policy))
        if isinstance(entropy, (str, bytes)) or not isinstance(entropy, Iterable):
            raise InvalidRequestError("entropy must be a list of strings")
        entropy_list = [str(item)[:200] for item in entropy]
        _refuse(entropy_policy_refusal(entropy_from, randomness))
        if seed is not None and not _is_seed(seed):
            raise InvalidRequestError("a seed must be 64 hexadecimal digits")
        parsed = ruleset.parse_options(options)
        components_header, extra = self._components_header(game, components)
        start = None if position is None else _start_position(ruleset, variant, parsed, len(players), components,
                                                              position)
        match_id = match_id or uuid4()
        seed = seed or new_seed()
        header = {
            "match_id": str(match_id), "game": game, "variant": variant,
            "options": parsed.model_dump(mode="json"),
            "seats": [{"seat": seat, "player": name.strip()} for seat, name in enumerate(players)],
            "engine_version": ruleset.engine_version, "components": components_header,
            "randomness": randomness, "seed_commitment": commitment(seed), "entropy": entropy_list,
            "undo_policy": undo_policy, "fork_of": fork_of, "prelude": prelude or [], "title": title,
        }
        if start is not None:  # absent: the standard setup (older records too)
            header["position"] = start
        if prelude or start is not None:  # hidden draws, secret moves, hands: salt it against guessing
            header["salt"] = derive_salt(seed, str(match_id), 1)
        if penalties:  # a fork starts with the scores its parent had there
            header["penalties"] = penalties
        if entropy_from is not None:  # absent: the entropy given at creation is all (older records too)
            header["entropy_from"] = entropy_from
        problem = header_problem(header, ruleset)  # what verification checks of it (fork_of, prelude, ...)
        if problem is not None:
            raise InvalidRequestError(f"the created event's {problem}")
        actor_json = (actor or Actor.system()).to_json()
        at = self.clock()
        stream = str(match_id)
        hash_ = event_hash(stream, 1, record.CREATED, actor_json, at, header, GENESIS)
        created = Entry(stream, 1, record.CREATED, actor_json, at, header, GENESIS, hash_,
                        self.key.sign_head(stream, 1, hash_), self.key.key_id)
        match = Match.start(match_id, created)
        secret = MatchSecret._create(MatchSecret.Created, id=secret_id(match_id), seed=seed)
        if match_id in self._seeds or self._current_version(match_id):
            # before the seed below replaces the existing match's secret in memory
            raise InvalidRequestError(f"a match with id {match_id} already exists")
        self._seeds[match_id] = seed
        entries = (created, *self._settle(match))
        for stored in extra:  # stored under its content hash: a concurrent creation may have saved it
            with contextlib.suppress(IntegrityError):
                self.save(stored)
        try:
            self.save(match, secret)
        except IntegrityError:
            self._seeds.pop(match_id, None)  # whoever won holds this ID: its seed is the stored one
            raise InvalidRequestError(f"a match with id {match_id} already exists") from None
        self._matches.keep(match)
        return self._accepted(match, created, entries)

    def fork(self, match_id: UUID, at: int, players: list[str] | None = None, *,
             randomness: str = "server", actor: Actor | None = None) -> Accepted:
        """A what-if branch from position `at`: a new, unofficial match that starts where the
        parent stood, carrying the parent's effective moves as its prelude."""
        parent = self.fold(match_id, at)
        if players is not None and len(players) != parent.seats:
            raise InvalidSeatsError(f"a fork keeps its parent's {parent.seats} seats (the steps it replays "
                                    f"are theirs), not {len(players)}")
        prelude = [*parent.header.get("prelude", []),
                   *({"kind": s.kind, "seat": s.seat, "data": s.data} for s in parent.steps)]
        names = players or [seat["player"] for seat in parent.header["seats"]]
        return self.create_match(
            parent.header["game"], names, variant=parent.header["variant"],
            options=parent.header["options"], randomness=randomness,
            undo_policy=parent.header["undo_policy"],
            entropy_from=parent.header.get("entropy_from") if randomness == "server" else None,
            components=None if parent.config.components.content_hash() ==
            parent.ruleset.default_components().content_hash() else parent.config.components.content(),
            actor=actor, fork_of={"match_id": str(match_id), "seq": at, "hash": parent.head},
            prelude=prelude, penalties=[dict(p) for p in parent.penalties], title=f"fork of {match_id} at {at}",
            position=parent.header.get("position"))

    # ==== playing ==========================================================================
    def submit_move(self, match_id: UUID, seat: int, move: Any, *, actor: Actor | None = None,
                    expected_version: int | None = None, claimed_at: str | None = None,
                    key: RequestKey | None = None) -> Accepted:
        """A seat's move: checked against the rules, recorded, then automatic steps settled."""
        return self._command(match_id, expected_version, self._move(match_id, seat, move, actor, claimed_at), key)

    async def submit_move_async(self, match_id: UUID, seat: int, move: Any, *, actor: Actor | None = None,
                                expected_version: int | None = None, claimed_at: str | None = None,
                                key: RequestKey | None = None) -> Accepted:
        """`submit_move` for an event loop (the API's hot path)."""
        return await self._command_async(match_id, expected_version,
                                         self._move(match_id, seat, move, actor, claimed_at), key)

    def _move(self, match_id: UUID, seat: int, move: Any, actor: Actor | None,
              claimed_at: str | None) -> Callable[[Match], tuple[Entry, list[Entry]]]:
        actor = actor or Actor.player(seat)
        _check_player(seat, actor)

        def command(match: Match) -> tuple[Entry, list[Entry]]:
            fold = match.fold
            parsed = fold.check_move(seat, move)
            payload: dict[str, Any] = {"seat": seat, "move": fold.ruleset.dump_move(parsed)}
            if claimed_at is not None:
                payload["claimed_at"] = str(claimed_at)[:40]
            if fold.hides_move(seat, parsed):  # a secret or private choice: salted against guessing
                payload["salt"] = derive_salt(self._seed(match_id), str(match_id), fold.seq + 1)
            main = self._append(match, record.MOVE, actor, payload)
            return main, [main, *self._settle(match)]

        return command

    def submit_outcome(self, match_id: UUID, outcome: JSON, *, actor: Actor,
                       expected_version: int | None = None, key: RequestKey | None = None) -> Accepted:
        """A recorder's (or an arbiter's) chance outcome in recorded mode, recorded with who entered
        it; refused if it could not have happened."""
        return self._command(match_id, expected_version, self._outcome(outcome, actor), key)

    async def submit_outcome_async(self, match_id: UUID, outcome: JSON, *, actor: Actor,
                                   expected_version: int | None = None, key: RequestKey | None = None) -> Accepted:
        """`submit_outcome` for an event loop."""
        return await self._command_async(match_id, expected_version, self._outcome(outcome, actor), key)

    def _outcome(self, outcome: JSON, actor: Actor) -> Callable[[Match], tuple[Entry, list[Entry]]]:
        if actor.kind not in ("recorder", "arbiter"):
            raise ForbiddenError("only a recorder or an arbiter enters chance outcomes")

        def command(match: Match) -> tuple[Entry, list[Entry]]:
            fold = match.fold
            if fold.randomness != "recorded":
                raise ForbiddenError("this match draws its own chance outcomes (server mode)")
            fold.check_outcome(outcome)
            main = self._append_chance(match, outcome, {"mode": "recorded"}, actor)
            return main, [main, *self._settle(match)]

        return command

    def add_entropy(self, match_id: UUID, seat: int, entropy: str, *, actor: Actor | None = None,
                    key: RequestKey | None = None) -> Accepted:
        """A seat's entropy, in a match created with entropy_from "seats": once per seat, before
        the first chance draw, by the seat's player or an arbiter acting for it. The last seat's
        entropy lets the server draw: chance events waiting for it are settled in this command."""
        actor = actor or Actor.player(seat)
        problem = entropy_actor_problem(seat, actor.to_json())
        if problem is not None:
            raise ForbiddenError(problem)
        text = unicodedata.normalize("NFC", entropy) if isinstance(entropy, str) else entropy

        def command(match: Match) -> tuple[Entry, list[Entry]]:
            match.fold.check_entropy(seat, text)
            main = self._append(match, record.ENTROPY_ADDED, actor, {"seat": seat, "entropy": text})
            return main, [main, *self._settle(match)]

        return self._command(match_id, None, command, key)

    def play_bot(self, match_id: UUID, bot: str = "random", seed: int = 0) -> Accepted | None:
        """Let a bot make the next move for the first seat to act; None if no seat is to act."""
        import random

        fold = self.fold(match_id)
        if fold.status != "active" or not fold.decision.seats:
            return None
        seat = fold.decision.seats[0]
        rng = random.Random(f"{match_id}:{fold.seq}:{seed}")
        move = fold.ruleset.bots()[bot](fold.state, seat, rng)
        return self.submit_move(match_id, seat, fold.ruleset.dump_move(move),
                                actor=Actor("bot", seat, bot), expected_version=fold.seq)

    # ==== undo ==============================================================================
    def request_undo(self, match_id: UUID, seat: int, from_seq: int | None = None, *,
                     actor: Actor | None = None, reason: str = "", key: RequestKey | None = None) -> Accepted:
        """Take back this seat's moves from `from_seq` (default: its last move) onwards.

        Within the last barrier and where the policy allows, the retraction follows at once;
        otherwise the request waits for the affected seats' consent or an arbiter."""
        actor = actor or Actor.player(seat)
        _check_player(seat, actor)
        if not isinstance(reason, str):
            raise InvalidRequestError("an undo request's reason is text")

        def command(match: Match) -> tuple[Entry, list[Entry]]:
            fold = match.fold
            target = from_seq if from_seq is not None else fold.last_move_of(seat)
            if target is None:
                raise UndoRefusedError(f"seat {seat} has no move to take back")
            terms = undo.terms(fold, seat, target)
            _refuse(terms.refusal)
            request_id = undo.request_id(fold.seq + 1)
            main = self._append(match, record.UNDO_REQUESTED, actor, terms.payload(request_id, reason))
            entries = [main]
            if terms.immediate:
                entries.append(self._append(match, record.RETRACTED, Actor.system(),
                                            undo.retraction(request_id, target, "own", seat)))
                entries.extend(self._settle(match))
            return main, entries

        return self._command(match_id, None, command, key)

    def answer_undo(self, match_id: UUID, request_id: str, accept: bool, *, seat: int | None,
                    actor: Actor, key: RequestKey | None = None) -> Accepted:
        """A seat's consent (or refusal), or an arbiter's decision (seat None), on a pending request."""
        _refuse(undo.answerer_refusal(seat, actor.to_json()))

        def command(match: Match) -> tuple[Entry, list[Entry]]:
            fold = match.fold
            _refuse(undo.answer_refusal(fold, request_id, seat))
            request = fold.undo[request_id]
            main = self._append(match, record.UNDO_ANSWERED, actor,
                                {"request": request_id, "seat": seat, "accept": bool(accept)})
            entries = [main]
            if match.fold.undo[request_id].status == "granted":
                entries.append(self._append(match, record.RETRACTED, Actor.system(), undo.retraction(
                    request_id, request.from_seq, undo.granted_by(seat), request.seat)))
                entries.extend(self._settle(match))
            return main, entries

        return self._command(match_id, None, command, key)

    def redo(self, match_id: UUID, *, seat: int | None, actor: Actor, key: RequestKey | None = None) -> Accepted:
        """Put back the moves of the last retraction, while nothing else has happened since."""
        _refuse(undo.answerer_refusal(seat, actor.to_json()))

        def command(match: Match) -> tuple[Entry, list[Entry]]:
            fold = match.fold
            _refuse(undo.redo_refusal(fold, fold.redo_candidate, actor.to_json(), seat))
            main = self._append(match, record.REDONE, actor, {"retraction": fold.redo_candidate})
            return main, [main, *self._settle(match)]

        return self._command(match_id, None, command, key)

    # ==== rulings ===========================================================================
    def make_ruling(self, match_id: UUID, ruling: dict[str, Any], *, actor: Actor,
                    key: RequestKey | None = None) -> Accepted:
        """An arbiter's decision: correction (take back from a seq), penalty, forfeit, adjudicated
        result, or an illegal move that stands."""
        from ..kernel import rulings  # the rulings' models, built on first use: a reading process never loads them

        if actor.kind != "arbiter":
            raise ForbiddenError("only an arbiter may rule")
        if not isinstance(ruling, dict):
            raise InvalidRequestError("a ruling is an object with a 'ruling' field")
        kind = ruling.get("ruling")
        note = str(ruling.get("note", ""))[:2000]

        def command(match: Match) -> tuple[Entry, list[Entry]]:
            fold = match.fold
            payload = rulings.requested(ruling, note)
            checked = rulings.check_ruling(fold, payload)
            after: list[tuple[str, dict[str, Any]]] = []
            if isinstance(checked, rulings.Correction):
                after.append((record.RETRACTED, undo.retraction(None, checked.from_seq, "arbiter", None)))
            elif isinstance(checked, rulings.IllegalMoveStands):
                move = fold.ruleset.parse_move(checked.move)
                payload["move"] = fold.ruleset.dump_move(move)
                if fold.hides_move(checked.seat, move):  # as hidden as the seat's own move would have been
                    payload["salt"] = derive_salt(self._seed(match_id), str(match_id), fold.seq + 1)
                try:
                    fold.ruleset.apply(fold.state, checked.seat, move)
                except Exception as error:  # the engine cannot represent this move at all
                    raise InvalidRequestError(f"the rules engine cannot apply that move: {error}") from None
            main = self._append(match, record.RULING, actor, payload)
            entries = [main]
            for kind_after, body in after:
                entries.append(self._append(match, kind_after, actor, body))
            if kind in rulings.ENDING:
                entries.extend(self._finish(match, kind))
            else:
                entries.extend(self._settle(match))
            return main, entries

        return self._command(match_id, None, command, key)

    # ==== imports ===========================================================================
    def import_bundle(self, text: str, *, allow_engine_mismatch: bool = False) -> UUID:
        """Check a bundle and store its match exactly as it was (same IDs, hashes, signatures).
        It must be intact; it need not be signed by a key trusted here, because importing vouches
        for nothing: the match is marked imported, keeps its signers, and continues only where it
        was recorded. A record made under another engine version is imported only when explicitly
        allowed."""
        from ..kernel.bundle import read_bundle
        from ..kernel.verification import verify_bundle

        report = verify_bundle(text, allow_engine_mismatch=allow_engine_mismatch, trust=self.trust())
        if not report.intact:
            raise InvalidRequestError(f"the bundle does not verify: {report.summary()}", report=report.to_json())
        bundle = read_bundle(text)
        match_id = UUID(bundle.entries[0].stream)
        for _ in range(RETRIES):
            if self._current_version(match_id):
                raise InvalidRequestError(f"match {match_id} is already in this store")
            try:
                self.save(*self._imported(bundle, match_id))
            except IntegrityError:  # a concurrent import (of this match, or of the same set or key)
                continue
            return match_id
        raise ConflictError(f"importing match {match_id} kept colliding with concurrent writes; try again")

    def _imported(self, bundle: Any, match_id: UUID) -> list[Any]:
        """Everything an import stores: the match, its annotations and seed, new sets and keys."""
        created = bundle.entries[0]
        to_save: list[Any] = []
        _, extra = self._components_header(created.payload["game"], bundle.components)
        to_save.extend(extra)
        for key_id_, public_hex in bundle.keys.items():
            if key_id_ != self.key.key_id:
                try:
                    self.repository.get(key_record_id(key_id_))
                except AggregateNotFoundError:
                    to_save.append(KnownKey._create(KnownKey.Created, id=key_record_id(key_id_),
                                                    key_id=key_id_, public_hex=public_hex))
        match = Match.start(match_id, created)
        for entry in bundle.entries[1:]:
            match.record(entry)
        to_save.append(match)
        if bundle.annotations:
            log = AnnotationLog._create(AnnotationLog.Created, id=annotations_id(match_id),
                                        entry=bundle.annotations[0].to_json())
            for entry in bundle.annotations[1:]:
                log.record(entry)
            to_save.append(log)
        seed = match.fold.seed
        if seed is not None:
            to_save.append(MatchSecret._create(MatchSecret.Created, id=secret_id(match_id), seed=seed))
        return to_save


def _check_player(seat: int, actor: Actor) -> None:
    """A seat's player acts only for that seat (substitutes, bots, recorders and arbiters act for any)."""
    if actor.kind == "seat" and actor.seat != seat:
        raise ForbiddenError(f"seat {actor.seat}'s player cannot act for seat {seat}")


def _refuse(refusal: Refusal | None) -> None:
    """Raise the command's error of a rule that refused (the record's rules live in the kernel:
    the same rules refuse a record's event in verification)."""
    if refusal is not None:
        raise refusal.error


def _is_seed(seed: Any) -> bool:
    """A secret seed is hex text of at least 128 bits (what bytes.fromhex reads, without spaces)."""
    return (isinstance(seed, str) and len(seed) >= 32 and len(seed) % 2 == 0
            and all(c in "0123456789abcdefABCDEF" for c in seed))


def _name_text(name: str) -> bool:
    """A name every store, list and terminal can hold: no control characters (NUL, which
    PostgreSQL's text refuses, tabs, line breaks, escapes), line separators or lone surrogates."""
    return name.isprintable() or all(unicodedata.category(c) not in ("Cc", "Cs", "Zl", "Zp") for c in name)


def _start_position(ruleset: Any, variant: str, options: Any, seats: int, components: dict[str, Any] | None,
                    position: Any) -> dict[str, Any]:
    """A match's starting position, validated against the game (InvalidPositionError naming the
    field and the rule) and in the normal form its created event records."""
    chosen = ruleset.default_components() if components is None else \
        load_components(ruleset.components_model, components)
    return normal_position(ruleset, MatchConfig(variant, options, seats, chosen), position)
