"""The undo protocol's rules: barriers, what a request asks, who answers it, what authority a
retraction needs, and who may redo one.

Why one module: the application applies these rules when it records an undo step, and
verification applies them again to every undo step of a record it is handed. Written out twice
they drifted (the application once wrote retractions its own verification refused as "without the
authority it claims"). Each rule is computed here once, from the fold, and both call it; where the
two speak differently, the rule returns a `Refusal` with both voices.

The protocol (docs/architecture.md, "Undo"): a seat may take back its own moves up to the last
barrier (another seat moved, a chance outcome was drawn, something hidden was revealed, a ruling
was made) at once under `own-turn` and `consent`; past a barrier `consent` asks every other seat,
`arbiter-only` always asks an arbiter, `own-turn` refuses. A solo match under `consent` has nobody
to ask, so past a barrier it needs an arbiter.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, get_args

from .errors import ForbiddenError, MatchOverError, NotFoundError, UndoRefusedError
from .refusal import Refusal
from .values import evolve

if TYPE_CHECKING:
    from .fold import MatchFold

UndoPolicy = Literal["none", "own-turn", "consent", "arbiter-only"]
UNDO_POLICIES: tuple[str, ...] = get_args(UndoPolicy)
Authority = Literal["own", "consent", "arbiter"]
"""Who let a retraction happen: the seat alone (within the barrier), the seats asked, an arbiter."""

PAST_BARRIER = ("past a barrier (another seat acted, a chance outcome was drawn or something hidden was revealed): "
                "this match's undo policy (own-turn) allows that only by an arbiter's ruling")


@dataclass
class UndoRequest:
    """A pending, granted, declined, stale or done request to take moves back."""

    id: str
    seat: int
    from_seq: int
    requested_seq: int
    consent_from: list[int]
    arbiter_needed: bool
    answers: dict[str, bool] = field(default_factory=dict)
    status: str = "pending"

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "seat": self.seat, "from_seq": self.from_seq,
                "requested_seq": self.requested_seq, "consent_from": self.consent_from,
                "arbiter_needed": self.arbiter_needed, "answers": self.answers, "status": self.status}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> UndoRequest:
        return cls(**data)

    def granted(self) -> bool:
        """An arbiter's yes grants it; else, unless it needs an arbiter, every seat asked must say yes."""
        if self.answers.get("arbiter") is True:
            return True
        if self.arbiter_needed:
            return False
        return all(self.answers.get(str(seat)) is True for seat in self.consent_from)

    def answered(self, seat: int | None, accept: bool) -> UndoRequest:
        """The request after an answer (seat None: the arbiter's): one no declines it."""
        who = "arbiter" if seat is None else str(seat)
        request = evolve(self, answers={**self.answers, who: bool(accept)})
        if not accept:
            return evolve(request, status="declined")
        return evolve(request, status="granted") if request.granted() else request


def request_id(seq: int) -> str:
    """A request's ID: its own event's sequence number, so unique and reproducible."""
    return f"u{seq}"


def within_barrier(fold: MatchFold, seat: int, from_seq: int) -> bool:
    """True when `seat` may take back its moves from `from_seq` with nobody's consent: since then
    only that seat moved, no chance was drawn, nothing hidden was revealed and no ruling was made."""
    if from_seq <= fold.last_ruling_seq:
        return False
    steps = fold.steps  # in seq order: the tail from `from_seq` is found by bisection, not a scan
    tail = steps.between(steps.index_of(from_seq), len(steps)) if isinstance(from_seq, int) \
        else [step for step in steps if step.seq >= from_seq]
    return all(step.kind == "move" and step.seat == seat and not step.barrier for step in tail)


def check_target(fold: MatchFold, seat: int, from_seq: int) -> None:
    """The moves to take back start with an effective move of `seat`, in a match that allows undo."""
    fold.check_active()
    if fold.undo_policy == "none":
        raise UndoRefusedError("undo is off for this match (policy: none)")
    steps = fold.steps
    if isinstance(from_seq, int):  # the steps are in seq order: found by bisection, not a scan
        index = steps.index_of(from_seq)
        target = steps[index] if index < len(steps) and steps[index].seq == from_seq else None
    else:
        target = next((step for step in steps if step.seq == from_seq), None)
    if target is None or target.kind != "move":
        raise UndoRefusedError(f"event {from_seq} is not a move that can be taken back")
    if target.seat != seat:
        raise UndoRefusedError(f"event {from_seq} is seat {target.seat}'s move, not seat {seat}'s")


@dataclass(frozen=True)
class UndoTerms:
    """What a request to take back `seat`'s moves from `from_seq` is under the match's policy:
    whether it is granted at once, whom it asks, and whether it needs an arbiter."""

    seat: int
    from_seq: int
    policy: str
    seats: int
    own: bool
    """Within the last barrier (see `within_barrier`)."""

    @property
    def immediate(self) -> bool:
        return self.own and self.policy in ("own-turn", "consent")

    @property
    def consent_from(self) -> list[int]:
        if self.immediate or self.policy == "arbiter-only":
            return []
        return [s for s in range(self.seats) if s != self.seat]

    @property
    def arbiter_needed(self) -> bool:
        # past a barrier with no other seat to ask (a solo match), only an arbiter may allow it:
        # nobody takes a move back alone to re-roll a die
        return not self.immediate and (self.policy == "arbiter-only" or not self.consent_from)

    @property
    def refusal(self) -> Refusal | None:
        """Under own-turn, nobody can be asked: past a barrier only an arbiter's ruling takes moves back."""
        if self.policy == "own-turn" and not self.own:
            return Refusal(UndoRefusedError(PAST_BARRIER), "an undo past a barrier that the match's policy "
                           "(own-turn) leaves to an arbiter's ruling")
        return None

    def asks(self, request: str) -> dict[str, Any]:
        """What the policy decides of a request's record: its ID, whose moves, whom it asks."""
        return {"request": request, "seat": self.seat, "consent_from": self.consent_from,
                "arbiter_needed": self.arbiter_needed}

    def payload(self, request: str, reason: str) -> dict[str, Any]:
        """The undo-requested event's payload."""
        return {"request": request, "seat": self.seat, "from_seq": self.from_seq, "reason": reason[:500],
                "consent_from": self.consent_from, "arbiter_needed": self.arbiter_needed}


def terms(fold: MatchFold, seat: int, from_seq: int) -> UndoTerms:
    """The terms of a request to take back `seat`'s moves from `from_seq`; raises UndoRefusedError
    (or MatchOverError) when those are not moves it can ask to take back at all."""
    check_target(fold, seat, from_seq)
    return _terms(fold, seat, from_seq)


def _terms(fold: MatchFold, seat: int, from_seq: int) -> UndoTerms:
    return UndoTerms(seat, from_seq, fold.undo_policy, fold.seats, within_barrier(fold, seat, from_seq))


def retraction(request: str | None, from_seq: int, authority: str, seat: int | None) -> dict[str, Any]:
    """The retracted event's payload: which request (None for an arbiter's correction), from which
    event, on whose authority, and whose moves (None: the arbiter's correction)."""
    return {"request": request, "from_seq": from_seq, "authority": authority, "seat": seat}


def granted_by(seat: int | None) -> str:
    """The authority of a retraction that a granted request lets through, by who granted it last."""
    return "arbiter" if seat is None else "consent"


def answerer_refusal(seat: int | None, actor: Mapping[str, Any]) -> Refusal | None:
    """Seat None means the arbiter decides: only an arbiter may; a seat's player answers only for
    itself (substitutes, bots, recorders and arbiters act for any seat)."""
    kind = actor.get("kind")
    if seat is None and kind != "arbiter":
        return Refusal(ForbiddenError("only an arbiter decides for the arbiter; a seat answers as its own seat"),
                       "an arbiter's answer not given by an arbiter")
    if seat is not None and kind == "seat" and actor.get("seat") != seat:
        return Refusal(ForbiddenError(f"seat {actor.get('seat')}'s player cannot act for seat {seat}"),
                       "an answer for a seat that was not asked, or by another seat's player")
    return None


def answer_refusal(fold: MatchFold, request: Any, seat: int | None) -> Refusal | None:
    """An answer is given to a pending request of a match in play, as the arbiter or as a seat
    the request asks."""
    if fold.status != "active":
        return Refusal(MatchOverError("the match is over: nothing more can be played"),
                       "an answer to an undo request after the match ended")
    pending = fold.undo.get(request) if isinstance(request, str) else None
    if pending is None:
        return Refusal(NotFoundError(f"no undo request {request}"), "an answer to an undo request that is not pending")
    if pending.status != "pending":
        return Refusal(UndoRefusedError(f"undo request {request} is {pending.status}, not pending"),
                       "an answer to an undo request that is not pending")
    if seat is not None and seat not in pending.consent_from:
        return Refusal(ForbiddenError(f"seat {seat} is not asked to consent to this request"),
                       "an answer for a seat that was not asked, or by another seat's player")
    return None


def redo_refusal(fold: MatchFold, retraction_seq: Any, actor: Mapping[str, Any],
                 seat: int | None = None) -> Refusal | None:
    """A redo puts back the last change, a retraction, while the match is in play; by the seat
    whose moves it took back or by an arbiter. `seat` is the seat a command names, if any: it must
    be that seat too."""
    if fold.status != "active":
        return Refusal(MatchOverError("the match is over: nothing more can be played"), "a redo after the match ended")
    candidate = fold.redo_candidate
    if candidate is None or retraction_seq != candidate:
        return Refusal(UndoRefusedError("nothing to redo: the last change was not a retraction"),
                       "a redo of moves that were not the last change", expected=candidate, actual=retraction_seq)
    taken_back = fold.retractions[candidate].get("seat")
    named_other = seat is not None and taken_back != seat
    by_other = actor.get("kind") != "arbiter" and (taken_back is None or actor.get("seat") != taken_back)
    if named_other or by_other:
        return Refusal(ForbiddenError("only the seat whose moves were taken back (or an arbiter) may redo them"),
                       "a redo by someone other than the seat whose moves were taken back or an arbiter",
                       expected=taken_back, actual=dict(actor))
    return None


def authority_refusal(fold: MatchFold, payload: Mapping[str, Any], actor: Mapping[str, Any]) -> Refusal | None:
    """A retraction had the authority it claims: `own` right after a request the seat could make
    alone (the same terms the request was recorded under), `consent` or `arbiter` after the request
    was granted so, or `arbiter` for an arbiter's correction recorded just before it."""
    authority = payload.get("authority")
    from_seq = payload.get("from_seq")
    request = fold.undo.get(payload.get("request") or "")
    if request is not None and from_seq != request.from_seq:
        return Refusal(UndoRefusedError("a retraction of other moves than the request asked for"),
                       "a retraction of other moves than the request asked for",
                       expected=request.from_seq, actual=from_seq)
    ok = False
    if authority == "own":
        ok = (request is not None and request.status == "pending" and isinstance(from_seq, int)
              and _terms(fold, request.seat, from_seq).immediate)
    elif authority == "consent":
        ok = (request is not None and request.status == "granted" and request.granted()
              and fold.undo_policy == "consent")
    elif authority == "arbiter" and request is not None:
        ok = request.status == "granted" and request.answers.get("arbiter") is True
    elif authority == "arbiter":  # an arbiter's correction: right after the ruling, from its event
        ruling = fold.last_ruling
        ok = (actor.get("kind") == "arbiter" and fold.last_ruling_seq == fold.seq
              and ruling.get("ruling") == "correction" and ruling.get("from_seq") == from_seq)
    if ok:
        return None
    return Refusal(UndoRefusedError(f"a retraction without the authority it claims ({authority})"),
                   f"a retraction without the authority it claims ({authority})",
                   expected="a granted undo", actual=authority)
