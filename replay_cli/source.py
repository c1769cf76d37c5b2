"""Where a command reads and writes matches: the local store, a bundle file, or a remote server.

Every command talks to a `Source`, whose methods take and return plain JSON-like values, so the
same command code works on all three. `LocalSource` wraps the `Ringside` application;
`BundleSource` folds an exported bundle in memory (read-only; nothing is stored); the remote
source lives in `remote.py`.
"""

from __future__ import annotations

import hashlib
import random
from abc import ABC, abstractmethod
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any
from uuid import UUID

import click

from domain.kernel.canonical import JSON
from domain.kernel.errors import RingsideError
from domain.kernel.registry import all_games, get_game
from domain.kernel.trust import Trust
from domain.kernel.viewers import Actor, Viewer

from .output import EXIT_USAGE, CliError

if TYPE_CHECKING:
    from domain.application import Ringside
    from domain.kernel.fold import MatchFold
    from domain.kernel.record import Entry

READ_ONLY = "a bundle file is read-only here: import it into a store first (ringside import FILE)"


def catalogue() -> list[dict[str, Any]]:
    """Every registered game with its variants, options and bots (from the ruleset contract)."""
    games = []
    for name, ruleset in all_games().items():
        schema = ruleset.options_model.model_json_schema()
        options = {key: {"type": _schema_type(spec), "default": spec.get("default"),
                         "description": spec.get("description", "")}
                   for key, spec in schema.get("properties", {}).items()}
        games.append({
            "name": name, "title": ruleset.title, "engine_version": ruleset.engine_version,
            "default_variant": ruleset.default_variant,
            "variants": {v: {"description": info.description, "min_seats": info.min_seats,
                             "max_seats": info.max_seats} for v, info in ruleset.variants.items()},
            "options": options, "bots": sorted(ruleset.bots()),
        })
    return games


def _schema_type(spec: dict[str, Any]) -> str:
    if "type" in spec:
        return str(spec["type"])
    kinds = [str(item.get("type", "?")) for item in spec.get("anyOf", []) if item.get("type") != "null"]
    return "|".join(kinds) or "any"


class Source(ABC):
    """What commands can ask of a store, a bundle or a server. Match IDs are strings."""

    kind = "source"
    writable = True

    def close(self) -> None:  # noqa: B027 - most sources hold nothing to release
        """Release connections."""

    def games(self) -> list[dict[str, Any]]:
        return catalogue()

    def command(self, match_id: str, acting: bool = False) -> str:
        """How a command line reaches this match again (for the hints the CLI prints): `ringside`
        with the options that choose this source, and when `acting`, the token that may act for
        every seat."""
        return "ringside"

    def seats(self, match_id: str) -> list[dict[str, Any]]:
        """The match's seats and their players, as created."""
        return list(self.summary(match_id).get("seats") or [])

    def ensure_game(self, match_id: str) -> None:
        """Register the game the match is played in (and here, not knowing it: every game)."""
        from .games import install_all

        install_all()

    def move_schema(self, game: str) -> dict[str, Any]:
        """The JSON schema of a game's moves."""
        return get_game(game).move_schema()

    def components(self, match_id: str) -> dict[str, Any] | None:
        """The content of the component set the match is played with (None when not known here)."""
        return None

    def answered_as(self, match_id: str, viewer: Viewer) -> str:
        """Whom the last read of this match was answered for: the viewer asked for, here."""
        return str(viewer)

    @abstractmethod
    def resolve(self, ref: str) -> str:
        """A full match ID for `ref` (a full ID or a unique prefix)."""

    @abstractmethod
    def summary(self, match_id: str) -> dict[str, Any]: ...

    @abstractmethod
    def state(self, match_id: str, viewer: Viewer, at: int | None = None) -> dict[str, Any]: ...

    @abstractmethod
    def log(self, match_id: str, viewer: Viewer, start: int = 1,
            limit: int | None = None) -> list[dict[str, Any]]: ...

    @abstractmethod
    def position(self, match_id: str, viewer: Viewer, at: int | None = None) -> dict[str, Any]:
        """The table at the head or after event `at` in the game's position format, as `viewer`
        may see it (docs/positions.md)."""

    @abstractmethod
    def score(self, match_id: str, at: int | None = None) -> dict[str, Any]: ...

    def diff(self, match_id: str, a: int, b: int, viewer: Viewer) -> dict[str, Any]:
        from domain.kernel.diff import diff

        before, after = self.state(match_id, viewer, a), self.state(match_id, viewer, b)
        return {"from": a, "to": b, "changes": diff(before, after)}

    def summary_at(self, match_id: str, at: int) -> dict[str, Any]:
        """What a reader of position `at` is shown of the match beside the state there: the facts
        fixed when it was created (game, variant, seats, components, fork) and its length
        (`version`, the head's). A source that holds the head gives its whole summary; the store
        takes the facts from the position's fold and the length from the store, so that showing
        one position never folds the head as well."""
        return self.summary(match_id)

    def score_lines(self, match_id: str, start: int, stop: int) -> dict[int, list[dict[str, Any]]]:
        """The score sheet's lines after each event from start - 1 (at least 1) to stop, so that
        a reader can say which lines each event produced. The sheet is public at every position.
        This asks for each position; stores and bundles walk the record once instead."""
        return {seq: list(self.score(match_id, seq)["lines"]) for seq in range(max(start - 1, 1), stop + 1)}

    @abstractmethod
    def annotations(self, match_id: str, viewer: Viewer) -> list[dict[str, Any]]: ...

    @abstractmethod
    def export(self, match_id: str) -> str: ...

    @abstractmethod
    def verify(self, match_id: str, allow_engine_mismatch: bool = False, trust: Trust | None = None,
               receipts: Sequence[Any] = (), thorough: bool = False) -> dict[str, Any]: ...

    # ---- writing (local store and remote server) --------------------------------------------
    def _read_only(self) -> CliError:
        return CliError(READ_ONLY)

    def list_matches(self, **filters: Any) -> list[dict[str, Any]]:
        raise self._read_only()

    def create(self, game: str, players: list[str], **options: Any) -> dict[str, Any]:
        raise self._read_only()

    def legal_moves(self, match_id: str, seat: int) -> list[dict[str, Any]]:
        raise self._read_only()

    def submit_move(self, match_id: str, seat: int, move: Any, actor: Actor | None = None) -> dict[str, Any]:
        raise self._read_only()

    def submit_outcome(self, match_id: str, outcome: JSON) -> dict[str, Any]:
        raise self._read_only()

    def chance_outcomes(self, match_id: str) -> list[JSON]:
        """The possible outcomes of the pending chance event (for a recorder)."""
        raise self._read_only()

    def add_entropy(self, match_id: str, seat: int, text: str, actor: Actor | None = None) -> dict[str, Any]:
        """A seat's entropy (matches created with entropy_from "seats")."""
        raise self._read_only()

    def bot_move(self, match_id: str, seat: int, bot: str, rng: random.Random) -> dict[str, Any]:
        """Let a bot choose and submit `seat`'s move."""
        raise self._read_only()

    def annotate(self, match_id: str, seq: int, text: str, actor: Actor, glyphs: list[str],
                 tags: list[str], visibility: str) -> dict[str, Any]:
        raise self._read_only()

    def edit_annotation(self, match_id: str, annotation_id: str, actor: Actor,
                        **changes: Any) -> dict[str, Any]:
        raise self._read_only()

    def request_undo(self, match_id: str, seat: int, from_seq: int | None, reason: str) -> dict[str, Any]:
        raise self._read_only()

    def answer_undo(self, match_id: str, request_id: str, accept: bool, seat: int | None,
                    actor: Actor) -> dict[str, Any]:
        raise self._read_only()

    def redo(self, match_id: str, seat: int | None, actor: Actor) -> dict[str, Any]:
        raise self._read_only()

    def ruling(self, match_id: str, body: dict[str, Any], actor: Actor) -> dict[str, Any]:
        raise self._read_only()

    def fork(self, match_id: str, at: int, players: list[str] | None) -> dict[str, Any]:
        raise self._read_only()

    def arbiter_seed(self, match_id: str) -> dict[str, Any]:
        raise self._read_only()

    def import_bundle(self, text: str) -> str:
        raise self._read_only()


# ==== the local store ===============================================================================
class LocalSource(Source):
    """The embedded store: SQLite in a data directory, or PostgreSQL."""

    kind = "store"

    def __init__(self, store: str | None = None, data_dir: str | None = None) -> None:
        self._store = store
        self._data_dir = data_dir
        self._app: Ringside | None = None
        self._recent: dict[str, MatchFold] = {}
        self._created_entries: dict[str, Entry | None] = {}

    @property
    def app(self) -> Ringside:
        if self._app is None:
            from domain.application import Ringside
            from domain.store.settings import StoreSettings

            settings = StoreSettings.resolve(self._data_dir, self._store)
            try:
                self._app = Ringside(settings)
            except RingsideError:
                raise
            except Exception as error:  # a store that cannot be opened is the user's input
                raise CliError(str(settings.open_error(error))) from None
        return self._app

    def close(self) -> None:
        if self._app is not None:
            self._app.close()
            self._app = None

    def components(self, match_id: str) -> dict[str, Any] | None:
        return self.app.components_of(self._id(match_id))

    def command(self, match_id: str, acting: bool = False) -> str:
        import shlex

        return f"ringside --store {shlex.quote(self._store)}" if self._store else "ringside"

    def resolve(self, ref: str) -> str:
        ref = ref.strip()
        try:
            return str(UUID(ref))
        except ValueError:
            pass
        shown = repr(ref if len(ref) <= 40 else ref[:40] + "…")
        if len(ref) < 4 or any(c not in "0123456789abcdef-" for c in ref.lower()):
            raise CliError(f"{shown} is neither a match ID nor a bundle file")
        if len(ref) > 36:  # longer than any match ID: the prefix of none
            raise CliError(f"no such match: no match ID is as long as {shown} ({len(ref)} characters)")
        found = [m["match_id"] for m in self.app.list_matches(limit=100_000)
                 if str(m["match_id"]).startswith(ref.lower())]
        if not found:
            raise CliError(f"no such match: no match whose ID starts with {shown} in this store")
        if len(found) > 1:
            raise CliError(f"{shown} matches {len(found)} matches; give more of the ID")
        return str(found[0])

    def _id(self, match_id: str) -> UUID:
        return UUID(match_id)

    def ensure_game(self, match_id: str) -> None:
        """The game its created event names (an unknown match: every game, and the read that
        follows says there is no such match)."""
        from .games import ensure_game, install_all

        try:
            created = self._created(match_id)
        except RingsideError:
            install_all()
            return
        ensure_game(created.payload.get("game") if created else None)

    def seats(self, match_id: str) -> list[dict[str, Any]]:
        """From the created event (the header a fold reads them from), without folding the match."""
        created = self._created(match_id)
        return list(created.payload.get("seats") or []) if created else super().seats(match_id)

    def _created(self, match_id: str) -> Entry | None:
        if match_id not in self._created_entries:
            found = self.app.entries(self._id(match_id), 1, 1)
            self._created_entries[match_id] = found[0] if found else None
        return self._created_entries[match_id]

    def fold(self, match_id: str, at: int | None = None) -> MatchFold:
        return self.app.fold(self._id(match_id), at)

    def summary(self, match_id: str) -> dict[str, Any]:
        return self.app.summary(self._id(match_id))

    def state(self, match_id: str, viewer: Viewer, at: int | None = None) -> dict[str, Any]:
        if at is None:
            return self.app.state(self._id(match_id), viewer)
        from domain.application import state_view

        return state_view(self._fold_at(match_id, at), viewer)

    def position(self, match_id: str, viewer: Viewer, at: int | None = None) -> dict[str, Any]:
        from domain.kernel.positions import position_view

        return position_view(self.fold(match_id) if at is None else self._fold_at(match_id, at), viewer)

    def summary_at(self, match_id: str, at: int) -> dict[str, Any]:
        from domain.application import summary

        return {**summary(self._fold_at(match_id, at)), "version": self.app.head_version(self._id(match_id))}

    def _fold_at(self, match_id: str, at: int) -> MatchFold:
        """The fold after event `at` (read-only: callers must not change it). Walking forwards
        (step, diff) folds on from the last position read instead of from the nearest snapshot
        each time; the position is checked against the stored head, never a fold of it."""
        import copy

        recent = self._recent.get(match_id)
        if recent is not None and recent.seq == at:
            return recent
        fold: MatchFold | None = None
        if recent is not None and recent.seq < at <= recent.seq + 50:
            fold = copy.deepcopy(recent)
            for entry in self.app.entries(self._id(match_id), recent.seq + 1, at):
                fold.consume(entry)
            if fold.seq != at:
                fold = None
        if fold is None:
            fold = self.app.fold(self._id(match_id), at)  # the position alone: no fold of the head
        self._recent[match_id] = fold
        return fold

    def log(self, match_id: str, viewer: Viewer, start: int = 1, limit: int | None = None) -> list[dict[str, Any]]:
        return self.app.log(self._id(match_id), viewer, start, limit)

    def score(self, match_id: str, at: int | None = None) -> dict[str, Any]:
        return self.app.score(self._id(match_id), at)

    def score_lines(self, match_id: str, start: int, stop: int) -> dict[int, list[dict[str, Any]]]:
        import copy

        first = max(start - 1, 1)
        fold = copy.deepcopy(self.app.fold(self._id(match_id), first))  # the cached fold is shared: walk a copy
        sheets = {first: [line.to_json() for line in fold.score_sheet().lines]}
        for entry in self.app.entries(self._id(match_id), first + 1, stop) if stop > first else []:
            fold.consume(entry)
            sheets[entry.seq] = [line.to_json() for line in fold.score_sheet().lines]
        return sheets

    def annotations(self, match_id: str, viewer: Viewer) -> list[dict[str, Any]]:
        return self.app.annotations(self._id(match_id), viewer)

    def export(self, match_id: str) -> str:
        return self.app.export_bundle(self._id(match_id))

    def verify(self, match_id: str, allow_engine_mismatch: bool = False, trust: Trust | None = None,
               receipts: Sequence[Any] = (), thorough: bool = False) -> dict[str, Any]:
        from domain.kernel.verification import verify_bundle

        anchors = self.app.trust() if trust is None else self.app.trust().merge(trust)
        report = verify_bundle(self.export(match_id), allow_engine_mismatch=allow_engine_mismatch, trust=anchors,
                               receipts=receipts, thorough=thorough)
        return report.to_json()

    def list_matches(self, **filters: Any) -> list[dict[str, Any]]:
        return self.app.list_matches(**filters)

    def create(self, game: str, players: list[str], **options: Any) -> dict[str, Any]:
        accepted = self.app.create_match(game, players, **options)
        return {"match_id": accepted.receipt.match_id, **accepted.to_json()}

    def legal_moves(self, match_id: str, seat: int) -> list[dict[str, Any]]:
        return self.app.legal_moves(self._id(match_id), seat)

    def submit_move(self, match_id: str, seat: int, move: Any, actor: Actor | None = None) -> dict[str, Any]:
        return self.app.submit_move(self._id(match_id), seat, move, actor=actor).to_json()

    def submit_outcome(self, match_id: str, outcome: JSON) -> dict[str, Any]:
        return self.app.submit_outcome(self._id(match_id), outcome, actor=Actor("recorder")).to_json()

    def add_entropy(self, match_id: str, seat: int, text: str, actor: Actor | None = None) -> dict[str, Any]:
        return self.app.add_entropy(self._id(match_id), seat, text, actor=actor).to_json()

    def chance_outcomes(self, match_id: str) -> list[JSON]:
        spec = self.fold(match_id).decision.chance
        return [] if spec is None else [outcome for outcome, weight in spec.outcomes if weight > 0]

    def bot_move(self, match_id: str, seat: int, bot: str, rng: random.Random) -> dict[str, Any]:
        fold = self.fold(match_id)
        bots = fold.ruleset.bots()
        if bot not in bots:
            raise CliError(f"{fold.ruleset.name} has no bot {bot!r} (bots: {', '.join(sorted(bots))})")
        move = bots[bot](fold.state, seat, rng)
        return self.app.submit_move(self._id(match_id), seat, fold.ruleset.dump_move(move),
                                    actor=Actor("bot", seat, bot), expected_version=fold.seq).to_json()

    def annotate(self, match_id: str, seq: int, text: str, actor: Actor, glyphs: list[str],
                 tags: list[str], visibility: str) -> dict[str, Any]:
        return self.app.annotate(self._id(match_id), seq, text, actor=actor, glyphs=glyphs, tags=tags,
                                 visibility=visibility)

    def edit_annotation(self, match_id: str, annotation_id: str, actor: Actor, **changes: Any) -> dict[str, Any]:
        return self.app.edit_annotation(self._id(match_id), annotation_id, actor=actor, **changes)

    def request_undo(self, match_id: str, seat: int, from_seq: int | None, reason: str) -> dict[str, Any]:
        return self.app.request_undo(self._id(match_id), seat, from_seq, reason=reason).to_json()

    def answer_undo(self, match_id: str, request_id: str, accept: bool, seat: int | None,
                    actor: Actor) -> dict[str, Any]:
        return self.app.answer_undo(self._id(match_id), request_id, accept, seat=seat, actor=actor).to_json()

    def redo(self, match_id: str, seat: int | None, actor: Actor) -> dict[str, Any]:
        return self.app.redo(self._id(match_id), seat=seat, actor=actor).to_json()

    def ruling(self, match_id: str, body: dict[str, Any], actor: Actor) -> dict[str, Any]:
        return self.app.make_ruling(self._id(match_id), body, actor=actor).to_json()

    def fork(self, match_id: str, at: int, players: list[str] | None) -> dict[str, Any]:
        accepted = self.app.fork(self._id(match_id), at, players)
        return {"match_id": accepted.receipt.match_id, **accepted.to_json()}

    def arbiter_seed(self, match_id: str) -> dict[str, Any]:
        return self.app.seed_for_arbiter(self._id(match_id))

    def import_bundle(self, text: str) -> str:
        return str(self.app.import_bundle(text))


# ==== a bundle file ==================================================================================
class BundleSource(Source):
    """An exported bundle, folded in memory: every read works offline; nothing can be written."""

    kind = "bundle"
    writable = False

    def __init__(self, path: Path) -> None:
        from domain.kernel import component_store
        from domain.kernel.annotations import AnnotationFold
        from domain.kernel.bundle import read_bundle
        from domain.kernel.fold import MatchFold

        from .games import ensure_game

        self.path = path
        self.text = read_bundle_file(path)
        try:
            self.bundle = read_bundle(self.text)
            if not self.bundle.entries:
                raise CliError(f"{path} holds no events")
            created = self.bundle.entries[0]
            ensure_game(created.payload.get("game"))
            ruleset = get_game(created.payload["game"])
            if self.bundle.components:
                component_store.remember(ruleset, ruleset.components_model.model_validate(self.bundle.components))
            self.entries: list[Entry] = self.bundle.entries
            self.match_id = created.stream
            self._fold_cls = MatchFold
            self._cache: MatchFold | None = None
            self.head = self.fold()
            self.notes = AnnotationFold(self.bundle.annotations[0]) if self.bundle.annotations else None
            for entry in self.bundle.annotations[1:]:
                assert self.notes is not None
                self.notes.consume(entry)
        except CliError:
            raise
        except RecursionError:
            raise CliError(f"{path} cannot be read as a bundle: its JSON is nested too deeply") from None
        except RingsideError as error:
            raise CliError(f"{path} cannot be read as a bundle: {error.message} "
                           "(ringside verify names the first problem)") from None
        except Exception as error:
            raise CliError(f"{path} cannot be read as a bundle: {_first_line(error)} "
                           "(ringside verify names the first problem)") from None

        self._warn_unless_verified()

    def _warn_unless_verified(self) -> None:
        """What is read from a bundle is what the file says: if the file does not verify (a byte
        changed, a signature, a move the rules refuse), say so on stderr before showing it; if it is
        intact but signed by a key not trusted here, say that in a note."""
        from .trust import local_trust

        try:
            report = verify_text(self.text, trust=local_trust(None))
        except Exception as error:  # verification found something it could not even report
            click.echo(f"ringside: warning: {self.path} could not be verified ({type(error).__name__}): "
                       "treat what follows with suspicion", err=True)
            return
        if report.get("intact") and not report.get("ok"):
            signer = (report.get("divergence") or {}).get("actual")
            click.echo(f"ringside: note: {self.path} is intact but signed by key {signer}, which is not trusted here "
                       f"(see: ringside verify {self.path} --trust-server URL)", err=True)
        elif not report.get("ok"):
            click.echo(f"ringside: warning: {self.path} does not verify ({report.get('summary')}); what follows "
                       f"is only what the file says (see: ringside verify {self.path})", err=True)

    def resolve(self, ref: str) -> str:
        return self.match_id

    def arbiter_seed(self, match_id: str) -> dict[str, Any]:
        """A bundle holds the seed only when it was exported after the match ended."""
        seed = self.head.seed
        if seed is None:
            raise CliError("this bundle was exported during play: its seed is not in the record yet")
        return {"seed": seed, "commitment": self.head.header["seed_commitment"], "revealed_in_record": True}

    def fold(self, at: int | None = None) -> MatchFold:
        """The fold after event `at` (default: all). Folds forwards from the last fold when it can,
        so stepping through a bundle costs one event per step."""
        last = len(self.entries)
        target = last if at is None else at
        if not 1 <= target <= last:
            raise CliError(f"positions in this match run from 1 to {last}, not {target}")
        fold = self._cache
        if fold is None or fold.seq > target:
            fold = self._fold_cls(self.entries[0])
        else:
            import copy

            fold = copy.deepcopy(fold)
        for entry in self.entries[fold.seq:target]:
            fold.consume(entry)
        self._cache = fold
        return fold

    def summary(self, match_id: str) -> dict[str, Any]:
        from domain.application import summary

        return {**summary(self.head), "source": str(self.path)}

    def state(self, match_id: str, viewer: Viewer, at: int | None = None) -> dict[str, Any]:
        from domain.application import state_view

        return state_view(self.fold(at), viewer)

    def position(self, match_id: str, viewer: Viewer, at: int | None = None) -> dict[str, Any]:
        from domain.kernel.positions import position_view

        return position_view(self.fold(at), viewer)

    def log(self, match_id: str, viewer: Viewer, start: int = 1, limit: int | None = None) -> list[dict[str, Any]]:
        from domain.kernel.redaction import redact

        stop = len(self.entries) if limit is None else start - 1 + limit
        return [redact(entry, self.head, viewer) for entry in self.entries[max(start, 1) - 1:stop]]

    def score(self, match_id: str, at: int | None = None) -> dict[str, Any]:
        fold = self.fold(at)
        return {"seq": fold.seq, **fold.score_sheet().to_json(), "end": fold.end}

    def score_lines(self, match_id: str, start: int, stop: int) -> dict[int, list[dict[str, Any]]]:
        first = max(start - 1, 1)
        fold = self._fold_cls(self.entries[0])
        sheets: dict[int, list[dict[str, Any]]] = {}
        for entry in self.entries[: min(stop, len(self.entries))]:
            if entry.seq > 1:
                fold.consume(entry)
            if entry.seq >= first:
                sheets[entry.seq] = [line.to_json() for line in fold.score_sheet().lines]
        return sheets

    def annotations(self, match_id: str, viewer: Viewer) -> list[dict[str, Any]]:
        from domain.kernel.annotations import visible_to

        if self.notes is None:
            return []
        items = [item for item in self.notes.items.values() if visible_to(item, viewer)]
        return sorted(items, key=lambda item: (item["seq"], item["seq_in_stream"]))

    def export(self, match_id: str) -> str:
        return self.text

    def verify(self, match_id: str, allow_engine_mismatch: bool = False, trust: Trust | None = None,
               receipts: Sequence[Any] = (), thorough: bool = False) -> dict[str, Any]:
        return verify_text(self.text, allow_engine_mismatch, trust, receipts, thorough)


MAX_BUNDLE_BYTES = 256 * 1024 * 1024
"""The most a bundle file may hold once decompressed: far more than any match records (a long
Carcassonne match exports a few megabytes), far less than would exhaust memory. A gzip file
that decompresses to more (a gzip bomb: a few hundred kilobytes can hold gigabytes) is refused
as it is read, never held whole."""

GZIP_MAGIC = b"\x1f\x8b"


class BundleFileError(ValueError):
    """A bundle file that cannot be read as one: bad gzip data, or too large. One line."""


def read_bundle_file(path: Path) -> str:
    """A bundle file's text exactly as stored: UTF-8, its line ends untouched (reading it as text
    would turn CRLF into LF and so hide a file that is no longer the bundle that was signed),
    gunzipped first if it is gzip data (`ringside export -o - | gzip`). Only regular files are
    read (a FIFO or a device would block or never end)."""
    try:
        data = read_bundle_bytes(path)
    except OSError as error:
        raise CliError(f"cannot read {path}: {error.strerror or error}") from None
    except BundleFileError as error:
        raise CliError(f"cannot read {path}: {error}") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise CliError(f"cannot read {path}: it is not UTF-8 text (byte {error.start})") from None


def read_bundle_bytes(path: Path, limit: int = MAX_BUNDLE_BYTES) -> bytes:
    """The bytes of the bundle in a regular file, gunzipped if the file is gzip data. Gzip is
    told by its magic bytes, not the name: a `.jsonl` that holds gzip data is read, a `.gz` that
    does not is read as it is. Raises OSError when the file cannot be read, BundleFileError for
    bad gzip data or more than `limit` bytes (stored or decompressed)."""
    import gzip
    import io
    import zlib

    data = read_regular_file(path, limit)
    if not data.startswith(GZIP_MAGIC):
        return data
    try:
        with gzip.GzipFile(fileobj=io.BytesIO(data)) as unpacked:
            text = unpacked.read(limit + 1)
    except (OSError, EOFError, zlib.error) as error:  # gzip.BadGzipFile is an OSError
        raise BundleFileError(f"it is not valid gzip data ({_first_line(error)})") from None
    if len(text) > limit:
        raise BundleFileError(f"decompressed, it holds more than {_mib(limit)}, more than any bundle "
                              "(refused: a damaged file, or a gzip bomb)")
    return text


def _mib(size: int) -> str:
    return f"{size / (1024 * 1024):g} MiB"


def read_regular_file(path: Path, limit: int | None = None) -> bytes:
    """The bytes of a regular file; an OSError for anything else (opened without blocking, so a
    FIFO or a device is refused, not waited on; Windows has neither flag, nor FIFOs in its file
    system). With a `limit`, a file larger than that is refused (BundleFileError) unread."""
    import os
    import stat

    descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
                         | getattr(os, "O_BINARY", 0))
    try:
        status = os.fstat(descriptor)
        if not stat.S_ISREG(status.st_mode):
            raise OSError(f"{path} is not a regular file")
        if limit is not None and status.st_size > limit:
            raise BundleFileError(f"it holds {_mib(status.st_size)}, more than any bundle (at most {_mib(limit)})")
        chunks, size = [], 0
        while chunk := os.read(descriptor, 1 << 20):
            chunks.append(chunk)
            size += len(chunk)
            if limit is not None and size > limit:  # it grew while being read
                raise BundleFileError(f"it holds more than any bundle (at most {_mib(limit)})")
        return b"".join(chunks)
    finally:
        os.close(descriptor)


def verify_text(text: str | bytes, allow_engine_mismatch: bool = False, trust: Trust | None = None,
                receipts: Sequence[Any] = (), thorough: bool = False) -> dict[str, Any]:
    """`thorough`: check every event's head signature (verify_bundle's thorough walk)."""
    from domain.kernel.verification import verify_bundle

    return verify_bundle(text, allow_engine_mismatch=allow_engine_mismatch, trust=trust, receipts=receipts,
                         thorough=thorough).to_json()


def deterministic_seed(seed: int, index: int) -> str:
    """A match's secret seed derived from a simulation seed, so simulations can be reproduced."""
    return hashlib.sha256(f"ringside-simulate:{seed}:{index}".encode()).hexdigest()


def _first_line(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return text[0] if text else type(error).__name__


__all__ = ["EXIT_USAGE", "BundleSource", "LocalSource", "Source", "catalogue", "get_game", "verify_text"]
