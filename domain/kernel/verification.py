"""Verification: the adjudicator's tool. Re-fold a whole record and check everything.

In order, for every event: its place in the sequence, the hash chain, the server signature, and
then what it claims: a move must be legal for the seat to act (rule ID on failure), a chance
outcome must have been possible and, once the seed is revealed, equal to what the seed derives;
undo must have had its authority; the final scores and result must be what the rules give. Then
the annotations' chain and the bundle's trailer. The report names the first divergence with its
sequence number, the check, the rule ID and both values.
"""

from __future__ import annotations

import hashlib
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from typing import Any

from . import component_store, rulings, undo
from .bundle import Bundle, read_bundle
from .canonical import JSON, digest_parsed, encode, encode_parsed
from .chance import derive_outcome, derive_salt
from .errors import BundleError, RingsideError
from .fold import MatchFold, entropy_actor_problem
from .header import header_problem
from .integrity import GENESIS, is_hex, key_id_of, parsed_event_hash, parsed_head_message, verify_signature
from .payloads import payload_problem
from .receipts import ReceiptCheck, check_receipts
from .record import (
    ANNOTATION_ADDED,
    ANNOTATION_EDITED,
    ANNOTATIONS_OPENED,
    CHANCE,
    CREATED,
    ENDED,
    ENTROPY_ADDED,
    KEY_ROTATED,
    MOVE,
    REDONE,
    RETRACTED,
    RULING,
    SEED_REVEALED,
    UNDO_ANSWERED,
    UNDO_REQUESTED,
    Entry,
)
from .registry import get_game
from .trust import Trust

CHECKS = ("format", "sequence", "chain", "signature", "header", "legality", "chance", "seed", "undo",
          "ruling", "score", "annotations", "trailer", "trust", "receipts", "entropy")
CHECK_OF_KIND = {MOVE: "legality", CHANCE: "chance", UNDO_REQUESTED: "undo", UNDO_ANSWERED: "undo",
                 RETRACTED: "undo", REDONE: "undo", SEED_REVEALED: "seed", RULING: "ruling", ENDED: "score",
                 KEY_ROTATED: "signature", ENTROPY_ADDED: "entropy"}
"""The check that covers each kind of event, and so reports a payload that is not of its kind."""


@dataclass
class Divergence:
    """The first place where the record and a re-fold (or the cryptography) disagree."""

    check: str
    message: str
    seq: int | None = None
    stream: str = "match"
    rule: str | None = None
    expected: JSON = None
    actual: JSON = None

    def to_json(self) -> dict[str, Any]:
        return {"check": self.check, "message": self.message, "seq": self.seq, "stream": self.stream,
                "rule": self.rule, "expected": self.expected, "actual": self.actual}


@dataclass
class Signer:
    """One key that signed part of the bundle: what it signed and whether it is trusted."""

    key_id: str
    public_key: str | None
    events: int = 0
    annotations: int = 0
    trailer: bool = False
    authorised: bool = False
    """The record itself authorises it (its created event's key, or one it rotated to)."""
    trusted_as: str | None = None

    @property
    def trusted(self) -> bool:
        return self.trusted_as is not None

    def signed(self) -> str:
        parts = [f"{self.events} events"] if self.events else []
        if self.annotations:
            parts.append(f"{self.annotations} annotation events")
        if self.trailer:
            parts.append("the trailer")
        return ", ".join(parts) or "nothing"

    def to_json(self) -> dict[str, Any]:
        return {"key_id": self.key_id, "public_key": self.public_key, "events": self.events,
                "annotations": self.annotations, "trailer": self.trailer, "signed": self.signed(),
                "authorised": self.authorised,
                "trusted": self.trusted, "trusted_as": self.trusted_as}


@dataclass
class Report:
    ok: bool
    """The record is intact, signed by a trusted key, and no receipt proves it changed."""
    match_id: str | None = None
    game: str | None = None
    events: int = 0
    annotations: int = 0
    checked: dict[str, int] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    keys: list[str] = field(default_factory=list)
    divergence: Divergence | None = None
    final_state_hash: str | None = None
    intact: bool = False
    """Every check but trust holds: the record is consistent with its own signatures and rules."""
    trusted: bool = False
    signers: list[Signer] = field(default_factory=list)
    receipts: list[ReceiptCheck] = field(default_factory=list)

    def summary(self) -> str:
        if self.ok:
            anchor = next((s for s in self.signers if s.events and s.trusted), None)
            by = f"; signed by {anchor.key_id} (trusted: {anchor.trusted_as})" if anchor else ""
            return f"OK: {self.events} events and {self.annotations} annotation events verified{by}"
        d = self.divergence
        assert d is not None
        if d.check == "trust":
            return f"NOT TRUSTED: the record is intact, but {d.message}"
        where = f"event {d.seq}" if d.seq is not None else "bundle"
        if d.stream == "annotations" and d.seq is not None:
            where = f"annotation event {d.seq}"
        rule = f" [{d.rule}]" if d.rule else ""
        return f"FAILED at {where}: {d.check}{rule}: {d.message}"

    def to_json(self) -> dict[str, Any]:
        return {"ok": self.ok, "intact": self.intact, "trusted": self.trusted, "match_id": self.match_id,
                "game": self.game, "events": self.events,
                "annotations": self.annotations, "checked": self.checked, "notes": self.notes,
                "keys": self.keys, "signers": [signer.to_json() for signer in self.signers],
                "receipts": [check.to_json() for check in self.receipts],
                "final_state_hash": self.final_state_hash,
                "divergence": self.divergence.to_json() if self.divergence else None,
                "summary": self.summary()}


class _Failed(Exception):
    def __init__(self, divergence: Divergence) -> None:
        super().__init__(divergence.message)
        self.divergence = divergence


def verify_bundle(text: str | bytes, *, allow_engine_mismatch: bool = False, trust: Trust | None = None,
                  receipts: Sequence[Any] = (), thorough: bool = False) -> Report:
    """Verify a bundle's text against `trust` (None: no key is trusted, so at best the report says
    the record is intact) and optionally a player's receipts. Never raises for bad input:
    problems become the report.

    Two walks run the same checks in the same order and differ only in which head signatures they
    check as they reach them (docs/bundle-format.md, "Verification"). The quick walk, first,
    checks an event's signature only where no later signature vouches for it: the last event of
    each run of events signed by one key in a stream (its signature covers the head hash, which
    chains back through every earlier event of the run), and redacted annotation lines and the
    line before each (the chain cannot be recomputed through them). It keeps the others. If its
    report is a success, that is the answer: every event's content is vouched by a valid head
    signature of an authorised key, and every byte of the bundle (every `sig` it did not check
    among them) by the trailer's signature, by a key that is trusted or authorised by a trusted
    record. Otherwise it checks the signatures it kept: when they all hold, the thorough walk
    would have found the same first failure, so its report is the answer; when one does not, the
    thorough walk (`thorough=True` asks for it at once) runs and names the first failure exactly."""
    if not thorough:
        report, heads = _walk(text, allow_engine_mismatch, trust, receipts, _Heads(quick=True))
        if report.ok or heads.kept_hold():
            return report
    return _walk(text, allow_engine_mismatch, trust, receipts, _Heads(quick=False))[0]


class _Heads:
    """How one walk checks head signatures: the thorough walk each one as it reaches it; the quick
    walk only those no later signature vouches for, keeping the others (`verify_bundle`)."""

    def __init__(self, quick: bool) -> None:
        self.quick = quick
        self.kept: list[tuple[str, Entry]] = []

    def valid(self, public_hex: str, entry: Entry, vouched: bool) -> bool:
        """Whether the entry's `sig` signs its head by `public_hex` (the quick walk takes a vouched
        one as valid for now, and keeps it: its head message is written only if it is checked)."""
        if self.quick and vouched:
            self.kept.append((public_hex, entry))
            return True
        return verify_signature(public_hex, parsed_head_message(entry.stream, entry.seq, entry.hash), entry.sig)

    def kept_hold(self) -> bool:
        """Whether every signature the quick walk took as valid is (a head that cannot even be
        written is not: the thorough walk then names what is wrong with it)."""
        try:
            return all(verify_signature(public_hex, parsed_head_message(entry.stream, entry.seq, entry.hash),
                                        entry.sig) for public_hex, entry in self.kept)
        except Exception:  # anything unwritable is a reason to walk thoroughly
            return False


def _vouched(entries: Sequence[Entry], index: int, redacted: Collection[int] = ()) -> bool:
    """Whether a later head signature of the walk vouches for entry `index`'s: the next entry of
    its stream is signed by the same key and its recomputed hash commits to this one's hash (so
    neither is a redacted line, whose hash is taken as signed; `redacted` holds positions from 1)."""
    if index + 1 >= len(entries) or entries[index + 1].key != entries[index].key:
        return False
    return index + 1 not in redacted and index + 2 not in redacted


def _walk(text: str | bytes, allow_engine_mismatch: bool, trust: Trust | None, receipts: Sequence[Any],
          heads: _Heads) -> tuple[Report, _Heads]:
    """One walk of every check, in order, into a report."""
    report = Report(ok=False)
    try:
        bundle = read_bundle(text, strict=False)
    except BundleError as error:
        report.divergence = Divergence("format", error.message)
        return report, heads
    report.match_id = bundle.header.get("match_id")
    report.game = bundle.header.get("game")
    report.events = len(bundle.entries)
    report.annotations = len(bundle.annotations)
    report.keys = sorted(bundle.keys)
    signers: dict[str, Signer] = {}
    anchors = trust or Trust()
    try:
        _verify(bundle, report, allow_engine_mismatch, signers, heads)
        report.intact = True
        _check_trust(bundle, report, signers, anchors)
        report.trusted = True
        if receipts:
            _check_receipts(bundle, report, signers, anchors, receipts)
    except _Failed as failed:
        report.divergence = failed.divergence
    except Exception as error:  # junk where the bundle has structure (outside any one event)
        report.divergence = Divergence("format", f"the bundle is malformed ({type(error).__name__}: {error})")
        report.intact = False
    finally:
        _describe_signers(bundle, report, signers, anchors)
    report.ok = report.divergence is None
    return report, heads


def _describe_signers(bundle: Bundle, report: Report, signers: dict[str, Signer], trust: Trust) -> None:
    for signer in signers.values():
        signer.public_key = bundle.keys.get(signer.key_id) if isinstance(bundle.keys, dict) else None
        signer.trusted_as = trust.source_of(signer.key_id, signer.public_key)
    report.signers = sorted(signers.values(), key=lambda s: (-s.events, -s.annotations, s.key_id))


def _check_trust(bundle: Bundle, report: Report, signers: dict[str, Signer], trust: Trust) -> None:
    """The record's origin is its created event's key: it must be trusted. Everything else in the
    bundle (annotations added where it was imported, the exporting server's trailer) must be signed
    by the record's own keys or by trusted ones, or the bundle's completeness is vouched by nobody."""
    keys = bundle.keys
    root = bundle.entries[0].key
    _count(report, "trust")
    if trust.source_of(root, keys.get(root)) is None:
        raise _Failed(Divergence(
            "trust", f"it was recorded under key {root}, which is not trusted here (trust the recording "
            "server's key: pin it, or name the server that publishes it)", seq=1, actual=root))
    for signer in signers.values():
        if signer.authorised or trust.source_of(signer.key_id, keys.get(signer.key_id)) is not None:
            continue
        raise _Failed(Divergence(
            "trust", f"{signer.signed()} of it are signed by key {signer.key_id}, which is neither the "
            "record's own nor trusted here", actual=signer.key_id))


def _check_receipts(bundle: Bundle, report: Report, signers: dict[str, Signer], trust: Trust,
                    receipts: Sequence[Any]) -> None:
    authorised = {key for key, signer in signers.items() if signer.authorised} | set(trust.keys)
    public = {**{key: t.public_hex for key, t in trust.keys.items()}, **bundle.keys}
    report.receipts = check_receipts(str(bundle.header.get("match_id")), bundle.entries, receipts, public,
                                     authorised)
    _count(report, "receipts")
    proof = next((check for check in report.receipts if check.proves_change), None)
    if proof is not None:
        raise _Failed(Divergence("receipts", f"a receipt proves the record changed after it was issued: "
                                 f"{proof.message}", seq=proof.seq, expected=proof.status))


def _count(report: Report, check: str) -> None:
    report.checked[check] = report.checked.get(check, 0) + 1


def _verify(bundle: Bundle, report: Report, allow_engine_mismatch: bool, signers: dict[str, Signer],
            heads: _Heads) -> None:
    keys = bundle.keys
    if not isinstance(keys, dict):
        raise _Failed(Divergence("format", "the header's keys are not an object of key IDs and public keys"))
    for listed, public in sorted(keys.items()):
        derived = key_id_of(public) if isinstance(public, str) else None
        if derived != listed:  # else anyone could file their own signatures under this server's ID
            raise _Failed(Divergence("signature", f"the bundle lists key {listed} with a public key whose ID is "
                                     f"{derived}", expected=derived, actual=listed))
    problem_by_seq = {seq: message for _, message, seq in bundle.problems if seq is not None}
    other_problems = [message for _, message, seq in bundle.problems if seq is None]
    if bundle.problems and not problem_by_seq:
        raise _Failed(Divergence("format", other_problems[0]))
    entries = bundle.entries
    if not entries:
        raise _Failed(Divergence("format", "the bundle holds no events"))
    match_id = bundle.header.get("match_id")
    revealed = next((e.payload.get("seed") for e in entries if e.kind == SEED_REVEALED and isinstance(e.payload, dict)),
                    None)
    seed = revealed if isinstance(revealed, str) else None  # else the reveal's own check names it, at its event
    fold: MatchFold | None = None
    prev = GENESIS
    expected_seq = 1
    for index, entry in enumerate(entries):
        if expected_seq in problem_by_seq:
            raise _Failed(Divergence("format", problem_by_seq[expected_seq], seq=expected_seq))
        try:
            fold = _check_entry(fold, entry, expected_seq, prev, bundle, seed, report, allow_engine_mismatch,
                                heads, _vouched(entries, index))
            _signer(signers, entry.key).events += 1
        except _Failed:
            raise
        except Exception as error:  # junk where the record has structure (a list for a payload, ...)
            raise _Failed(Divergence("format", f"the event is malformed ({type(error).__name__}: {error})",
                                     seq=expected_seq)) from None
        prev = entry.hash
        expected_seq += 1
    if expected_seq in problem_by_seq:
        raise _Failed(Divergence("format", problem_by_seq[expected_seq], seq=expected_seq))
    counts = bundle.header.get("counts", {})
    if counts.get("events") != len(entries):
        raise _Failed(Divergence("format", "the header's event count does not match the events",
                                 expected=counts.get("events"), actual=len(entries)))
    assert fold is not None
    if fold.randomness == "recorded":
        report.notes.append("recorded randomness: every outcome was checked to be possible; "
                            "fairness of a physical table cannot be checked")
    elif seed is None and any(e.kind == CHANCE for e in entries):
        report.notes.append("the seed is not revealed yet: chance outcomes were checked to be possible, "
                            "not yet against the seed")
    if fold.status != "ended":
        report.notes.append("the match is still in progress")
    report.final_state_hash = fold.state_hash()
    for key in fold.record_keys:
        _signer(signers, key).authorised = True
    _check_annotations(bundle, match_id, keys, report, counts, signers, heads)
    if other_problems:
        raise _Failed(Divergence("format", other_problems[0]))
    if not bundle.trailer_valid():
        raise _Failed(Divergence("trailer", "the bundle's trailer does not match its content "
                                 "(a byte outside the events changed, or the signature is wrong)",
                                 expected=bundle.trailer.get("sha256"), actual=bundle.body_sha256))
    _signer(signers, str(bundle.trailer["key"])).trailer = True
    _count(report, "trailer")


def _signer(signers: dict[str, Signer], key_id: str) -> Signer:
    signer = signers.get(key_id)
    if signer is None:
        signer = signers[key_id] = Signer(key_id, None)
    return signer


def _check_entry(fold: MatchFold | None, entry: Entry, expected_seq: int, prev: str, bundle: Bundle,
                 seed: str | None, report: Report, allow_engine_mismatch: bool, heads: _Heads,
                 vouched: bool) -> MatchFold:
    """Check one event of the record and advance the fold by it."""
    _check_link(entry, expected_seq, prev, bundle.header.get("match_id"), bundle.keys, report, "match",
                heads, vouched)
    authorised = entry.key if fold is None else fold.record_key
    if entry.key != authorised:
        raise _Failed(Divergence(
            "signature", f"the event is signed by key {entry.key}, which this record does not authorise: its "
            f"events are signed by {authorised} (another key needs a key-rotated event signed by it)",
            seq=entry.seq, expected=authorised, actual=entry.key))
    _check_shape(entry)
    if entry.kind == CREATED:
        return _check_created(entry, bundle, seed, report, allow_engine_mismatch)
    if fold is None:
        raise _Failed(Divergence("sequence", "the record does not start with a created event", seq=1))
    _check_claim(fold, entry, seed, report)
    if entry.kind == KEY_ROTATED:
        _check_rotation(fold, entry, bundle.keys)
    try:
        fold.consume(entry)
    except Exception as error:  # an engine that cannot fold the record is a divergence
        raise _Failed(Divergence("legality", f"the event cannot be applied: {error}", seq=entry.seq)) from None
    return fold


ACTOR_KINDS = ("seat", "substitute", "arbiter", "recorder", "bot", "system")
_ACTOR_FIELDS = frozenset(("kind", "seat", "name"))


def _check_shape(entry: Entry) -> None:
    """An event's payload is an object and its actor one the server records (kind, seat, name)."""
    actor: Any = entry.actor
    good_actor = (isinstance(actor, dict) and actor.keys() <= _ACTOR_FIELDS
                  and actor.get("kind") in ACTOR_KINDS
                  and ("seat" not in actor or type(actor["seat"]) is int)
                  and ("name" not in actor or isinstance(actor["name"], str)))
    if not good_actor:
        raise _Failed(Divergence("format", "the event's actor is not one the record knows", seq=entry.seq,
                                 actual=actor))
    if not isinstance(entry.payload, dict):
        raise _Failed(Divergence("format", "the event's payload is not an object", seq=entry.seq))


def _check_link(entry: Entry, expected_seq: int, prev: str, stream: str | None, keys: dict[str, str],
                report: Report, label: str, heads: _Heads, vouched: bool, redacted: bool = False) -> None:
    """Sequence, link, hash and signature of one entry. A redacted annotation (one the bundle's
    reader may not see) keeps its hash and signature but not its content: its hash is taken as
    signed, and the chain through it still holds. `vouched`: a later signature of the walk covers
    this one's head (`_vouched`)."""
    where = "annotations" if label == "annotations" else "match"
    if entry.seq != expected_seq:
        raise _Failed(Divergence("sequence", "events are missing or out of order", seq=expected_seq,
                                 stream=where, expected=expected_seq, actual=entry.seq))
    if entry.stream != stream:
        raise _Failed(Divergence("sequence", "the event belongs to another stream", seq=entry.seq,
                                 stream=where, expected=stream, actual=entry.stream))
    if entry.prev != prev:
        raise _Failed(Divergence("chain", "the event does not link to the previous event's hash",
                                 seq=entry.seq, stream=where, expected=prev, actual=entry.prev))
    recomputed = entry.hash if redacted and is_hex(entry.hash, 64) else parsed_event_hash(
        entry.stream, entry.seq, entry.kind, entry.actor, entry.at, entry.payload, entry.prev)
    if entry.hash != recomputed:
        raise _Failed(Divergence("chain", "the event's content does not match its hash (altered)",
                                 seq=entry.seq, stream=where, expected=recomputed, actual=entry.hash))
    _count(report, "chain")
    public = keys.get(entry.key)
    if public is None or not heads.valid(public, entry, vouched):
        raise _Failed(Divergence("signature", "the server signature on this event is not valid",
                                 seq=entry.seq, stream=where, expected=f"valid signature by {entry.key}",
                                 actual=entry.sig[:32] + "…"))
    _count(report, "signature")


def _check_created(entry: Entry, bundle: Bundle, seed: str | None, report: Report,
                   allow_engine_mismatch: bool) -> MatchFold:
    header = entry.payload
    if entry.seq != 1:
        raise _Failed(Divergence("sequence", "a second created event", seq=entry.seq))
    if entry.stream != bundle.header.get("match_id") or header.get("match_id") != entry.stream:
        raise _Failed(Divergence("header", "the match ID differs between header and record", seq=1,
                                 expected=entry.stream, actual=bundle.header.get("match_id")))
    try:
        ruleset = get_game(header["game"])
    except RingsideError as error:
        raise _Failed(Divergence("header", error.message, seq=1)) from None
    if bundle.header.get("game") != header["game"]:
        raise _Failed(Divergence("header", "the header names another game", seq=1,
                                 expected=header["game"], actual=bundle.header.get("game")))
    problem = header_problem(header, ruleset)
    if problem is not None:
        raise _Failed(Divergence("header", f"the created event's {problem}", seq=1))
    setup = "position" if "position" in header else None
    if bundle.header.get("setup") != setup:  # what a list of bundles shows must be what the record says
        raise _Failed(Divergence("header", "the header's setup is not the created event's (a match from a position "
                                 "has setup 'position', one from the standard setup none)", seq=1,
                                 expected=setup, actual=bundle.header.get("setup")))
    if header["engine_version"] != ruleset.engine_version:
        if not allow_engine_mismatch:
            raise _Failed(Divergence(
                "header", "recorded under another rules-engine version; replaying it under this one "
                "must be chosen explicitly (--allow-engine-mismatch)", seq=1,
                expected=header["engine_version"], actual=ruleset.engine_version))
        report.notes.append(f"replayed under engine {ruleset.engine_version}, recorded under "
                            f"{header['engine_version']} (explicitly allowed)")
    content_hash = digest_parsed(bundle.components)
    if content_hash != header["components"]["hash"]:
        raise _Failed(Divergence("header", "the bundle's component set is not the one the match used", seq=1,
                                 expected=header["components"]["hash"], actual=content_hash))
    if component_store.known(ruleset, content_hash) is None:  # a set seen before is not read again
        try:
            components = ruleset.components_model.model_validate(bundle.components)
        except Exception as error:
            raise _Failed(Divergence("header", f"the component set does not validate: {error}", seq=1)) from None
        component_store.remember(ruleset, components)
    if seed is not None:
        try:
            seed_commitment = hashlib.sha256(bytes.fromhex(seed)).hexdigest()
        except ValueError:
            seed_commitment = "not hex"
        if seed_commitment != header["seed_commitment"]:
            revealed = next(e.seq for e in bundle.entries if e.kind == SEED_REVEALED)
            raise _Failed(Divergence("seed", "the revealed seed does not match the commitment made at creation",
                                     seq=revealed, expected=header["seed_commitment"], actual=seed_commitment))
        _count(report, "seed")
    if seed is not None and (header.get("prelude") or "position" in header) \
            and header.get("salt") != derive_salt(seed, entry.stream, 1):
        raise _Failed(Divergence("seed", "the created event's salt is not the one the seed derives", seq=1,
                                 expected=derive_salt(seed, entry.stream, 1), actual=header.get("salt")))
    try:
        fold = MatchFold(entry)
    except RingsideError as error:
        raise _Failed(Divergence("header", error.message, seq=1)) from None
    _count(report, "header")
    return fold


def _check_claim(fold: MatchFold, entry: Entry, seed: str | None, report: Report) -> None:
    """Check what the entry claims against the fold before it is consumed."""
    payload = entry.payload
    seq = entry.seq
    if fold.last_ruling_seq == seq - 1 and fold.last_ruling.get("ruling") in rulings.ENDING \
            and entry.kind != ENDED:
        raise _Failed(Divergence("ruling", "the match went on after a ruling that ended it", seq=seq,
                                 expected=ENDED, actual=entry.kind))
    problem = payload_problem(entry.kind, payload)
    if problem is not None:  # the event's own check reports it: it is not an event of its kind
        raise _Failed(Divergence(CHECK_OF_KIND.get(entry.kind, "format"), problem, seq=seq))
    if entry.kind == MOVE:
        actor = entry.actor
        if actor.get("kind") == "seat" and actor.get("seat") != payload.get("seat"):
            raise _Failed(Divergence("legality", "a player moved for another seat", seq=seq,
                                     expected=payload.get("seat"), actual=actor.get("seat")))
        try:
            move = fold.check_move(payload["seat"], payload["move"])
        except RingsideError as error:
            raise _Failed(Divergence("legality", error.message, seq=seq, rule=getattr(error, "rule", None),
                                     expected="a legal move", actual=payload["move"])) from None
        if seed is not None and fold.hides_move(payload["seat"], move):
            _check_salt(fold, entry, seed)
        _count(report, "legality")
    elif entry.kind == CHANCE:
        _check_chance(fold, entry, seed, report)
    elif entry.kind == RETRACTED:
        _check_retraction(fold, entry)
        _count(report, "undo")
    elif entry.kind == UNDO_REQUESTED:
        _check_request(fold, entry)
        _count(report, "undo")
    elif entry.kind == UNDO_ANSWERED:
        _check_answer(fold, entry)
        _count(report, "undo")
    elif entry.kind == REDONE:
        _check_redo(fold, entry)
        _count(report, "undo")
    elif entry.kind == RULING:
        if entry.actor.get("kind") != "arbiter":
            raise _Failed(Divergence("ruling", "a ruling not made by an arbiter", seq=seq,
                                     expected="arbiter", actual=entry.actor.get("kind")))
        _check_ruling(fold, entry)
        if seed is not None and payload.get("ruling") == "illegal-move-stands" and _forced_move_hidden(fold, payload):
            _check_salt(fold, entry, seed)
        _count(report, "ruling")
    elif entry.kind == ENDED:
        _check_end(fold, entry)
        _count(report, "score")
    elif entry.kind == ENTROPY_ADDED:
        _check_entropy(fold, entry, report)
        _count(report, "entropy")
    elif entry.kind == SEED_REVEALED and (fold.status != "ended" or fold.seed is not None
                                          or payload["seed"] != seed):
        raise _Failed(Divergence("seed", "a seed revealed during play, twice, or not the seed checked "
                                 "against the commitment", seq=seq, actual=payload.get("seed")))


def _check_rotation(fold: MatchFold, entry: Entry, keys: dict[str, str]) -> None:
    """A key rotation names a new key by ID and public key, both as the bundle lists them, is made
    by the recording server (the system actor), and is signed by the key it hands over from
    (checked with every event's authorisation)."""
    payload = entry.payload
    new_key, public = payload["key"], payload["public_key"]
    problem = None
    if key_id_of(public) != new_key:
        problem = "a key rotation must name the new key's ID and the public key it derives from"
    elif keys.get(str(new_key)) != public:
        problem = "the rotated-to key is not the one the bundle lists under that ID"
    elif new_key in fold.record_keys:
        problem = "a rotation to a key the record already used"
    elif entry.actor != {"kind": "system"}:
        problem = "a key rotation not made by the recording server"
    if problem is not None:
        raise _Failed(Divergence("signature", problem, seq=entry.seq, actual=payload))


def _forced_move_hidden(fold: MatchFold, payload: dict[str, Any]) -> bool:
    """Whether an illegal-move-stands ruling records a secret or private choice (salted as the
    seat's own move would have been); a move that does not parse is reported when it is folded."""
    if fold.decision.secret:
        return True
    try:
        return fold.hides_move(payload["seat"], fold.ruleset.parse_move(payload.get("move")))
    except (RingsideError, KeyError, TypeError):
        return False


def _check_salt(fold: MatchFold, entry: Entry, seed: str) -> None:
    expected = derive_salt(seed, fold.match_id, entry.seq)
    if entry.payload.get("salt") != expected:
        raise _Failed(Divergence("seed", "the hidden event's salt is not the one the seed derives",
                                 seq=entry.seq, expected=expected, actual=entry.payload.get("salt")))


def _check_entropy(fold: MatchFold, entry: Entry, report: Report) -> None:
    """Seat entropy: under the policy, before the first draw, once per seat, well-formed, by the
    seat's player or an arbiter acting for it (the same checks as add_entropy)."""
    payload, actor = entry.payload, entry.actor
    seat = payload["seat"]
    try:
        fold.check_entropy(seat, payload["entropy"])
    except RingsideError as error:
        raise _Failed(Divergence("entropy", error.message, seq=entry.seq, actual=payload)) from None
    problem = entropy_actor_problem(seat, actor)
    if problem is not None:
        raise _Failed(Divergence("entropy", problem, seq=entry.seq, expected=f"seat {seat}'s player or an arbiter",
                                 actual=actor))
    if actor.get("kind") == "arbiter":
        report.notes.append(f"seat {seat}'s entropy (event {entry.seq}) was entered by an arbiter, who can read "
                            "the seed: the draws are not protected from the arbiter")


def _check_chance(fold: MatchFold, entry: Entry, seed: str | None, report: Report) -> None:
    """A chance outcome must have been possible (`check_outcome`), answer the pending chance
    event, and in server mode be derived from the seed (once it is revealed). An outcome the
    revealed seed derives is one the pending event could produce (the derivation picks among the
    outcomes of positive weight), so the possibility check runs only when the derivation does not
    match, in the order the checks are reported in."""
    payload = entry.payload
    if fold.awaiting_entropy:
        raise _Failed(Divergence("entropy", "a chance outcome drawn before every seat had added its entropy",
                                 seq=entry.seq, expected=f"entropy from seats {fold.awaiting_entropy} first",
                                 actual=entry.kind))
    spec = fold.decision.chance
    derivation = payload.get("derivation", {})
    server = fold.randomness == "server"
    claimed: dict[str, Any] | None = None
    wanted: dict[str, Any] | None = None
    if server and seed is not None and spec is not None and fold.status == "active" \
            and derivation.get("mode") == "server":
        try:
            derived = derive_outcome(seed, fold.match_id, fold.entropy, entry.seq, spec)
        except ValueError:  # nothing left to draw: check_outcome says so
            pass
        else:
            claimed = {"outcome": payload["outcome"], "index": derivation.get("index"), "draw": derivation.get("draw")}
            wanted = {"outcome": derived.outcome, "index": derived.index, "draw": derived.draw}
    # equal encodings, as equal digests, without hashing (the claim is read from a canonical line)
    derived_as_claimed = wanted is not None and encode_parsed(claimed) == encode(wanted)
    if not derived_as_claimed:
        try:
            fold.check_outcome(payload["outcome"])
        except RingsideError as error:
            raise _Failed(Divergence("chance", error.message, seq=entry.seq, actual=payload["outcome"])) from None
    assert spec is not None
    if payload.get("kind") != spec.kind:
        raise _Failed(Divergence("chance", "the outcome answers another chance event", seq=entry.seq,
                                 expected=spec.kind, actual=payload.get("kind")))
    if server:
        if derivation.get("mode") != "server":
            raise _Failed(Divergence("chance", "a server-mode match with an outcome not derived from the seed",
                                     seq=entry.seq))
        if seed is not None and not derived_as_claimed:
            raise _Failed(Divergence("chance", "the outcome is not the one the revealed seed derives",
                                     seq=entry.seq, expected=wanted, actual=claimed))
    if seed is not None and spec.visible_to != "all":
        _check_salt(fold, entry, seed)
    _count(report, "chance")


def _check_retraction(fold: MatchFold, entry: Entry) -> None:
    refusal = undo.authority_refusal(fold, entry.payload, entry.actor)
    if refusal is not None:
        raise _Failed(Divergence("undo", refusal.finding, seq=entry.seq, expected=refusal.expected,
                                 actual=refusal.actual))


def _check_ruling(fold: MatchFold, entry: Entry) -> None:
    """A ruling must be one the application accepts at that point (the same `check_ruling`)."""
    try:
        rulings.check_ruling(fold, entry.payload)
    except RingsideError:
        raise _Failed(Divergence("ruling", "a ruling the arbiter could not have made there", seq=entry.seq,
                                 actual=entry.payload)) from None


def _check_request(fold: MatchFold, entry: Entry) -> None:
    """A request must take back the seat's own move, by its player, and ask exactly whom the match's
    undo policy asks (the same terms the application records it under)."""
    payload, actor = entry.payload, entry.actor
    seat, target = payload["seat"], payload["from_seq"]
    try:
        terms = undo.terms(fold, seat, target)
    except RingsideError as error:
        raise _Failed(Divergence("undo", error.message, seq=entry.seq, actual=target)) from None
    wanted = terms.asks(undo.request_id(entry.seq))
    claimed = {key: payload.get(key) for key in wanted}
    problem = None
    if terms.refusal is not None:
        problem = terms.refusal.finding
    elif claimed != wanted:
        problem = "an undo request that does not ask whom the match's undo policy asks"
    elif actor.get("kind") == "seat" and actor.get("seat") != seat:
        problem = "an undo request by another seat's player"
    if problem is not None:
        raise _Failed(Divergence("undo", problem, seq=entry.seq, expected=wanted, actual={**claimed, "actor": actor}))


def _check_answer(fold: MatchFold, entry: Entry) -> None:
    """An answer must be to a pending request, by the arbiter for the arbiter, or by a seat that was
    asked (its player answering only for itself): the application's own rules for answers."""
    payload, actor = entry.payload, entry.actor
    request, seat = payload["request"], payload["seat"]
    refusal = undo.answer_refusal(fold, request, seat) or undo.answerer_refusal(seat, actor)
    if refusal is not None:
        pending = fold.undo.get(request)
        raise _Failed(Divergence("undo", refusal.finding, seq=entry.seq,
                                 expected=pending.to_json() if pending else None,
                                 actual={"seat": seat, "actor": actor}))


def _check_redo(fold: MatchFold, entry: Entry) -> None:
    """A redo puts back the last retraction while nothing else happened, by its seat or an arbiter."""
    refusal = undo.redo_refusal(fold, entry.payload["retraction"], entry.actor)
    if refusal is not None:
        raise _Failed(Divergence("undo", refusal.finding, seq=entry.seq, expected=refusal.expected,
                                 actual=refusal.actual))


def _check_end(fold: MatchFold, entry: Entry) -> None:
    payload = entry.payload
    reason = payload.get("reason")
    if reason == "completed" and not fold.decision.over:
        raise _Failed(Divergence("score", "the match was ended before the rules say it is over", seq=entry.seq))
    ruling = fold.last_ruling
    if reason != "completed" and (reason not in rulings.ENDING or ruling.get("ruling") != reason
                                  or fold.last_ruling_seq != entry.seq - 1):
        raise _Failed(Divergence("score", "the match was ended early without the arbiter's ruling to end it",
                                 seq=entry.seq, expected="completed, or a forfeit or adjudicated result ruled just "
                                 "before", actual=reason))
    state_hash = fold.game_state_hash()
    if payload.get("state_hash") != state_hash:
        raise _Failed(Divergence("score", "the recorded final state differs from the re-fold's", seq=entry.seq,
                                 expected=state_hash, actual=payload.get("state_hash")))
    result = rulings.ending_result(fold, str(reason)).to_json()
    scores = fold.score_sheet().to_json()
    if encode(scores) != encode_parsed(payload.get("scores")):  # equal encodings, as equal digests
        raise _Failed(Divergence("score", "the recorded final scores differ from the re-fold's", seq=entry.seq,
                                 expected=scores["totals"], actual=(payload.get("scores") or {}).get("totals")))
    if encode(result) != encode_parsed(payload.get("result")):
        raise _Failed(Divergence("score", "the recorded result differs from the re-fold's", seq=entry.seq,
                                 expected=result, actual=payload.get("result")))


def _check_annotations(bundle: Bundle, match_id: str | None, keys: dict[str, str], report: Report,
                       counts: dict[str, Any], signers: dict[str, Signer], heads: _Heads) -> None:
    annotations = bundle.annotations
    problem_by_seq = {seq: message for _, message, seq in bundle.annotation_problems}
    if not problem_by_seq and counts.get("annotations") != len(annotations):
        raise _Failed(Divergence("annotations", "the header's annotation count does not match",
                                 stream="annotations", expected=counts.get("annotations"),
                                 actual=len(annotations)))
    prev = GENESIS
    stream = f"{match_id}/annotations"
    hashes = {entry.seq: entry.hash for entry in bundle.entries}
    for expected_seq, entry in enumerate(annotations, start=1):
        if expected_seq in problem_by_seq:  # an unreadable annotation line: the first broken one
            raise _Failed(Divergence("format", problem_by_seq[expected_seq], seq=expected_seq,
                                     stream="annotations"))
        redacted = expected_seq in bundle.redacted_annotations
        if redacted and (entry.kind not in (ANNOTATION_ADDED, ANNOTATION_EDITED)
                         or set(entry.payload) != {"id", "hidden"} or entry.payload["hidden"] is not True
                         or not isinstance(entry.payload["id"], str)):
            # a redacted line's hash is taken as signed, so it must carry nothing but its ID: any
            # content on it would be unchecked content
            raise _Failed(Divergence("format", "a redacted annotation line carries content besides its ID",
                                     seq=expected_seq, stream="annotations", actual=entry.payload))
        _check_link(entry, expected_seq, prev, stream, keys, report, "annotations", heads,
                    _vouched(annotations, expected_seq - 1, bundle.redacted_annotations), redacted=redacted)
        _signer(signers, entry.key).annotations += 1
        if expected_seq == 1 and entry.kind != ANNOTATIONS_OPENED:
            raise _Failed(Divergence("annotations", "the annotation stream does not start opened",
                                     seq=1, stream="annotations"))
        problem = None if redacted else payload_problem(entry.kind, entry.payload)
        if problem is not None:
            raise _Failed(Divergence("annotations", problem, seq=entry.seq, stream="annotations"))
        anchor = entry.payload.get("seq")
        if anchor is not None and "hash" in entry.payload and hashes.get(anchor) != entry.payload["hash"]:
            raise _Failed(Divergence("annotations", "an annotation is anchored to an event hash not in the record",
                                     seq=entry.seq, stream="annotations", expected=hashes.get(anchor),
                                     actual=entry.payload["hash"]))
        prev = entry.hash
        _count(report, "annotations")
    if problem_by_seq:
        first = min(problem_by_seq)
        raise _Failed(Divergence("format", problem_by_seq[first], seq=first, stream="annotations"))
