"""Each event kind's payload, typed: the record's boundary, checked where entries are written and
where records are verified.

Why: a payload is a dict that anyone may have written (a bundle comes from elsewhere), and every
reader of the record (the fold, redaction, the score sheet) takes its fields as the application
wrote them. The application checks each payload it is about to sign (`check_payload`), and
verification checks each payload it reads (`payload_problem`) before it asks what the event
claims, so no reader meets a seat that is text or a retraction without its first event. The
models only type; hashing keeps the payload's own dict (see strict.py). What each field means is
in docs/architecture.md ("Payloads"); the created event's header is `header.CreatedHeader`, a
ruling's payload `rulings.Ruling`.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, TypeAdapter, ValidationError

from . import record
from .errors import InvalidRequestError
from .header import CreatedHeader
from .rulings import RULING
from .strict import OptionalText, OptionalTexts, Strict
from .undo import Authority


class MovePayload(Strict):
    """A seat's move: the game's move model as JSON; the time the client says it moved, if it
    said (the record's time is the server's `at`); and a secret move's salt, so that its hash
    cannot be matched against guesses."""

    seat: int
    move: Any
    claimed_at: OptionalText = None
    salt: OptionalText = None


class ServerDerivation(Strict):
    mode: Literal["server"]
    index: int
    draw: int


class RecordedDerivation(Strict):
    mode: Literal["recorded"]


class ChancePayload(Strict):
    kind: str
    outcome: Any
    derivation: Annotated[ServerDerivation | RecordedDerivation, Field(discriminator="mode")]
    salt: OptionalText = None
    """A hidden outcome's salt."""


class UndoRequestedPayload(Strict):
    request: str
    seat: int
    from_seq: int
    reason: str
    consent_from: list[int]
    arbiter_needed: bool


class UndoAnsweredPayload(Strict):
    request: str
    seat: int | None
    """None: the arbiter's answer."""
    accept: bool


class RetractedPayload(Strict):
    request: str | None
    """None: an arbiter's correction."""
    from_seq: int
    authority: Authority
    seat: int | None


class RedonePayload(Strict):
    retraction: int


class SeedRevealedPayload(Strict):
    seed: str


class EndedPayload(Strict):
    reason: Literal["completed", "forfeit", "adjudicated-result"]
    result: dict[str, Any]
    """Compared whole with the re-fold's result."""
    scores: dict[str, Any]
    """Compared whole with the re-fold's score sheet."""
    state_hash: str


class KeyRotatedPayload(Strict):
    key: str
    public_key: str


class EntropyAddedPayload(Strict):
    seat: int
    entropy: str


class AnnotationsOpenedPayload(Strict):
    match_id: str


class AnnotationFields(Strict):
    """What an annotation says and where it points, as recorded and as the API shows it."""

    id: str
    seq: int
    hash: str
    text: str
    glyphs: list[str]
    tags: list[str]
    visibility: str


class AnnotationAddedPayload(AnnotationFields):
    salt: OptionalText = None
    """A non-public annotation's salt: exported redacted, its hash must not give the text away."""


class AnnotationEditedPayload(Strict):
    id: str
    text: OptionalText = None
    glyphs: OptionalTexts = None
    tags: OptionalTexts = None
    visibility: OptionalText = None
    salt: OptionalText = None


PAYLOADS: dict[str, TypeAdapter[Any]] = {
    record.CREATED: TypeAdapter(CreatedHeader),
    record.MOVE: TypeAdapter(MovePayload),
    record.CHANCE: TypeAdapter(ChancePayload),
    record.UNDO_REQUESTED: TypeAdapter(UndoRequestedPayload),
    record.UNDO_ANSWERED: TypeAdapter(UndoAnsweredPayload),
    record.RETRACTED: TypeAdapter(RetractedPayload),
    record.REDONE: TypeAdapter(RedonePayload),
    record.SEED_REVEALED: TypeAdapter(SeedRevealedPayload),
    record.RULING: RULING,
    record.ENDED: TypeAdapter(EndedPayload),
    record.KEY_ROTATED: TypeAdapter(KeyRotatedPayload),
    record.ENTROPY_ADDED: TypeAdapter(EntropyAddedPayload),
    record.ANNOTATIONS_OPENED: TypeAdapter(AnnotationsOpenedPayload),
    record.ANNOTATION_ADDED: TypeAdapter(AnnotationAddedPayload),
    record.ANNOTATION_EDITED: TypeAdapter(AnnotationEditedPayload),
}
"""The model of every kind the record knows (record.MATCH_KINDS and record.ANNOTATION_KINDS)."""


def payload_problem(kind: str, payload: Any) -> str | None:
    """Why `payload` is not a payload of `kind`, naming the first field that is wrong, or None.
    A kind the record does not know is not judged here (the fold refuses it)."""
    adapter = PAYLOADS.get(kind)
    if adapter is None:
        return None
    try:
        adapter.validate_python(payload)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        return f"the {kind} event's payload is malformed ({where + ': ' if where else ''}{first['msg']})"
    return None


def check_payload(kind: str, payload: Any) -> None:
    """Refuse to write a payload that verification would refuse (InvalidRequestError)."""
    problem = payload_problem(kind, payload)
    if problem is not None:
        raise InvalidRequestError(problem)
