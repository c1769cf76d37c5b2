"""Request and response bodies (pydantic v2). Game-specific parts (moves, views, options) are JSON
objects described by each game's own schemas under /games/{name}."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, model_validator

from domain.kernel.canonical import NotCanonicalError, normalize
from domain.kernel.payloads import AnnotationFields
from domain.kernel.undo import UndoRequest

MAX_INT = 2**31 - 1
Seq = Annotated[int, Field(ge=1, le=MAX_INT)]
SeatNo = Annotated[int, Field(ge=0, le=64)]


def _canonical(value: Any) -> Any:
    """Only what the record can hash exactly: no floats, string keys, bounded depth."""
    def depth(item: Any, level: int = 0) -> int:
        if level > 32:
            raise ValueError("nested too deeply (at most 32 levels)")
        if isinstance(item, dict):
            return max((depth(v, level + 1) for v in item.values()), default=level)
        if isinstance(item, list):
            return max((depth(v, level + 1) for v in item), default=level)
        return level

    depth(value)
    try:
        normalize(value)
    except NotCanonicalError as error:
        raise ValueError(str(error)) from None
    return value


JSONValue = Annotated[Any, AfterValidator(_canonical)]
CanonicalObject = Annotated[dict[str, Any], AfterValidator(_canonical)]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


# ---- games ---------------------------------------------------------------------------------
class VariantOut(BaseModel):
    description: str
    min_seats: int
    max_seats: int


class GameOut(BaseModel):
    name: str
    title: str
    engine_version: str
    default_variant: str
    variants: dict[str, VariantOut]


class GameDetail(GameOut):
    options_schema: dict[str, Any]
    move_schema: dict[str, Any]
    components: dict[str, Any]
    bots: list[str]
    position_schema: dict[str, Any] | None = Field(
        None, description="the JSON schema of the game's position format (docs/positions.md); null when the game "
                          "has none and its matches start from the setup only")


class GameList(BaseModel):
    games: list[GameOut]


class RuleTextOut(BaseModel):
    """A rule ID that refusals and score lines cite, with its title and statement in Ringside's
    own words (the rulebooks themselves are not part of the product)."""

    id: str = Field(description="the rule ID as cited, e.g. CB-3.2")
    title: str = Field(description="a short title, printed beside the ID in messages and score sheets")
    text: str = Field(description="what the rule says, in one to three sentences")
    game: str | None = Field(description="the game whose engine cites it; null for a kernel rule such as RULING, "
                                         "which any game's record can cite")


class RuleTextList(BaseModel):
    game: str
    rules: list[RuleTextOut] = Field(description="every rule a match of the game can cite, in rulebook order, "
                                                 "then the kernel's")


# ---- records -------------------------------------------------------------------------------
class ReceiptOut(BaseModel):
    """Proof of what was recorded: the entry's position, hash and the server's signature over them."""

    match_id: str
    seq: int
    hash: str
    signature: str
    key_id: str


class EventOut(BaseModel):
    """One recorded entry as the caller may see it (hidden payloads replaced, `redacted` true)."""

    stream: str
    seq: int
    kind: str
    actor: dict[str, Any]
    at: str
    payload: dict[str, Any]
    prev: str
    hash: str
    sig: str
    key: str
    redacted: bool | None = None
    retracted_by: int | None = None


class AcceptedOut(BaseModel):
    """An accepted command: the receipt of its main entry, the new version, every entry appended."""

    receipt: ReceiptOut
    version: int
    appended: list[int]
    events: list[EventOut]


# ---- matches -------------------------------------------------------------------------------
class CreateMatch(Strict):
    game: str = Field(min_length=1, max_length=64)
    players: list[Annotated[str, Field(min_length=1, max_length=80)]] = Field(min_length=1, max_length=16)
    variant: str | None = Field(None, max_length=64)
    options: CanonicalObject | None = None
    randomness: Literal["server", "recorded"] = "server"
    undo_policy: Literal["none", "own-turn", "consent", "arbiter-only"] = "own-turn"
    entropy: list[Annotated[str, Field(max_length=200)]] = Field(default_factory=list, max_length=16)
    entropy_from: Literal["seats"] | None = Field(
        None, description="'seats': every seat adds its own entropy (POST /matches/{id}/entropy) after the "
                          "seed commitment is recorded, and no chance outcome is drawn before all of it is in "
                          "(server randomness only); left out: the entropy given here is all")
    components: CanonicalObject | None = None
    title: str = Field("", max_length=200)
    position: CanonicalObject | None = Field(
        None, description="start from this position (the game's position format, docs/positions.md) instead of "
                          "the setup; refused with invalid-position, naming the field and the rule, when the game's "
                          "components or rules cannot hold it")


class SeatToken(BaseModel):
    seat: int
    player: str
    token: str


class Tokens(BaseModel):
    """Shown once: only their hashes are stored."""

    seats: list[SeatToken]
    arbiter: str
    recorder: str


class MatchCreated(BaseModel):
    match_id: str
    version: int
    receipt: ReceiptOut
    tokens: Tokens
    summary: MatchSummary


class MatchSummary(BaseModel):
    match_id: str
    game: str
    variant: str
    options: dict[str, Any]
    seats: list[dict[str, Any]]
    status: str
    version: int
    head: str
    randomness: str
    undo_policy: str
    engine_version: str
    components: dict[str, Any]
    seed_commitment: str
    fork_of: dict[str, Any] | None
    official: bool
    setup: Literal["standard", "position"] = Field(
        "standard", description="'position' for a match that starts from a position instead of the setup")
    signed_by: list[str]
    recorded_here: bool
    imported: bool
    created_at: str
    last_activity: str
    end: dict[str, Any] | None
    decision: dict[str, Any] | None
    pending_undo: list[dict[str, Any]]
    entropy_from: str | None = Field(None, description="'seats' when every seat adds entropy before the first draw")
    awaiting_entropy: list[int] | None = Field(
        None, description="entropy_from 'seats': the seats whose entropy is still missing (no draw until it is in)")


class MatchListItem(BaseModel):
    match_id: str
    game: str
    variant: str
    status: str
    players: list[str]
    created_at: str
    last_activity: str
    version: int
    fork_of: str | None
    randomness: str
    winners: list[int] | None
    official: bool
    imported: bool
    setup: Literal["standard", "position"] = Field(
        "standard", description="'position' for a match that starts from a position instead of the setup")


class MatchList(BaseModel):
    matches: list[MatchListItem]
    limit: int
    offset: int


# ---- reading -------------------------------------------------------------------------------
class StateOut(BaseModel):
    match_id: str
    seq: int
    status: str
    decision: dict[str, Any]
    state: dict[str, Any]
    scores: list[int]
    end: dict[str, Any] | None
    viewer: str


class PositionOut(BaseModel):
    """The table at a point of the match in the game's position format, as the caller may see it
    (hidden parts replaced as in the state view): as the arbiter sees it, a new match can start
    from it (POST /matches with `position`, and the same game, variant, options and seat count)."""

    match_id: str
    seq: int
    game: str
    variant: str
    options: dict[str, Any]
    seats: int
    viewer: str
    position: dict[str, Any]


class Change(BaseModel):
    path: str
    op: str
    before: Any = None
    after: Any = None


class DiffOut(BaseModel):
    model_config = ConfigDict(populate_by_name=True)

    from_: int = Field(alias="from")
    to: int
    changes: list[Change]
    viewer: str


class ChanceOutcome(BaseModel):
    outcome: Any
    weight: int


class DecisionOut(BaseModel):
    match_id: str
    version: int
    status: str
    decision: dict[str, Any]
    viewer: str
    legal_moves: dict[str, list[dict[str, Any]]] = Field(
        description="for each seat the caller may act for and that is to act now: its legal moves")
    chance_outcomes: list[ChanceOutcome] | None = Field(
        None, description="the pending chance event's possible outcomes with weights (arbiter, and the "
                          "recorder of a recorded match: they reveal what remains hidden)")


class LegalMovesOut(BaseModel):
    match_id: str
    version: int
    seat: int
    moves: list[dict[str, Any]]


class LogOut(BaseModel):
    match_id: str
    version: int
    start: int
    events: list[EventOut]
    next: int | None = Field(description="the start of the next page, or null at the head")
    viewer: str


class ScoreLineOut(BaseModel):
    seat: int
    points: int
    category: str
    rule: str
    detail: str
    refs: dict[str, Any]


class ScoreOut(BaseModel):
    seq: int
    totals: list[int]
    lines: list[ScoreLineOut]
    end: dict[str, Any] | None


class UndoList(BaseModel):
    requests: list[UndoRequest]
    """The kernel's requests as they are (kernel/undo.py): the API shows what the record holds."""


# ---- writing -------------------------------------------------------------------------------
class MoveIn(Strict):
    move: JSONValue = Field(description="the move as JSON: see GET /games/{game}/move-schema")
    seat: SeatNo | None = Field(None, description="defaults to the caller's seat; required for arbiters")
    expected_version: Seq | None = Field(None, description="refuse (409) unless the match is at this version")
    claimed_at: str | None = Field(None, max_length=40, description="the client's own time of the move")


class OutcomeIn(Strict):
    outcome: JSONValue = Field(description="the chance outcome as it happened on the table")
    expected_version: Seq | None = None


class UndoIn(Strict):
    seat: SeatNo | None = None
    from_seq: Seq | None = Field(None, description="take back from this event on (default: the seat's last move)")
    reason: str = Field("", max_length=500)


class UndoAnswerIn(Strict):
    accept: bool
    seat: SeatNo | None = Field(None, description="optional: a seat answers only for itself; an arbiter's "
                                                  "answer is the arbiter's decision")


class EntropyIn(Strict):
    entropy: str = Field(min_length=1, max_length=200,
                         description="free text of 1–200 characters, no control characters; public once recorded")
    seat: SeatNo | None = Field(None, description="defaults to the caller's seat; required for the arbiter")


class RedoIn(Strict):
    seat: SeatNo | None = None


class Correction(Strict):
    ruling: Literal["correction"]
    from_seq: Seq
    note: str = Field("", max_length=2000)


class Penalty(Strict):
    ruling: Literal["penalty"]
    seat: SeatNo
    points: int = Field(ge=-100_000, le=100_000)
    note: str = Field("", max_length=2000)


class Forfeit(Strict):
    ruling: Literal["forfeit"]
    seat: SeatNo
    note: str = Field("", max_length=2000)


class AdjudicatedResult(Strict):
    ruling: Literal["adjudicated-result"]
    ranks: list[Annotated[int, Field(ge=1, le=64)]] = Field(min_length=1, max_length=64)
    note: str = Field("", max_length=2000)


class IllegalMoveStands(Strict):
    ruling: Literal["illegal-move-stands"]
    seat: SeatNo
    move: JSONValue
    note: str = Field("", max_length=2000)


RulingIn = Annotated[Correction | Penalty | Forfeit | AdjudicatedResult | IllegalMoveStands,
                     Field(discriminator="ruling")]


class SeedOut(BaseModel):
    seed: str
    commitment: str
    revealed_in_record: bool


# ---- annotations -----------------------------------------------------------------------------
Visibility = Annotated[str, Field(pattern=r"^(public|arbiter|seat:\d{1,2})$",
                                  description="public, arbiter or seat:N")]


class AnnotationIn(Strict):
    seq: Seq
    text: str = Field(max_length=10_000)
    glyphs: list[Annotated[str, Field(max_length=8)]] = Field(default_factory=list, max_length=8)
    tags: list[Annotated[str, Field(min_length=1, max_length=40)]] = Field(default_factory=list, max_length=20)
    visibility: Visibility = "public"


class AnnotationEdit(Strict):
    text: str | None = Field(None, max_length=10_000)
    glyphs: list[Annotated[str, Field(max_length=8)]] | None = Field(None, max_length=8)
    tags: list[Annotated[str, Field(min_length=1, max_length=40)]] | None = Field(None, max_length=20)
    visibility: Visibility | None = None

    @model_validator(mode="after")
    def _changes_something(self) -> AnnotationEdit:
        """An edit that changes nothing would still be recorded as one: it is refused instead."""
        if self.text is None and self.glyphs is None and self.tags is None and self.visibility is None:
            raise ValueError("an edit changes at least one of text, glyphs, tags and visibility")
        return self


class AnnotationOut(AnnotationFields):
    """An annotation as the API shows it: the recorded fields, who wrote it and when."""

    model_config = ConfigDict(extra="allow", strict=False, frozen=False)

    author: dict[str, Any]
    created_at: str
    edited_at: str | None


class AnnotationList(BaseModel):
    annotations: list[AnnotationOut]


# ---- forks and audit -------------------------------------------------------------------------
class ForkIn(Strict):
    at: Seq
    players: list[Annotated[str, Field(min_length=1, max_length=80)]] | None = Field(None, max_length=16)
    randomness: Literal["server", "recorded"] = "server"


class ImportedOut(BaseModel):
    match_id: str
    imported_by: str
    summary: MatchSummary


class ReceiptsIn(BaseModel):
    receipts: list[dict[str, Any]] = Field(max_length=10_000)


class KeysOut(BaseModel):
    server_key_id: str
    server_public_key: str
    keys: dict[str, str]


class VerificationOut(BaseModel):
    model_config = ConfigDict(extra="allow")

    ok: bool
    intact: bool
    trusted: bool
    match_id: str | None
    game: str | None
    signers: list[dict[str, Any]]
    receipts: list[dict[str, Any]]
    events: int
    annotations: int
    checked: dict[str, int]
    notes: list[str]
    keys: list[str]
    final_state_hash: str | None
    divergence: dict[str, Any] | None
    summary: str


MatchCreated.model_rebuild()
ImportedOut.model_rebuild()
