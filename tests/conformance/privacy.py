"""Record-tier counterfactual check of private choices (`Ruleset.private_choice`).

The engine tier checks that the game's own view hides a private choice at the moment it is made.
This checks everything the kernel and the application add around it, along a whole bot-played
match: two matches are recorded side by side with the same seed, clock, key and moves, except
that one seat made another private choice of the same kind once. Until the game reveals that
choice, every other viewer (each other seat, a spectator) must be unable to tell the two records
apart by any path the product gives it: its state views, its log, the live stream it follows, a
fork an arbiter makes there (the prelude it reads), and the answers its own moves get. The event
hashes differ (they commit to the choice), so they are set aside in the comparison; instead the
hidden entry's hash must not be reproducible from any guess without the salt, while the recorded
payload with its salt does reproduce it (so the guessing is done right and could succeed).
"""

from __future__ import annotations

import json
import random
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from api.stream import MatchStream
from domain.application import Ringside
from domain.kernel.clock import FixedStepClock
from domain.kernel.contract import Ruleset
from domain.kernel.errors import RingsideError
from domain.kernel.integrity import ServerKey, event_hash
from domain.kernel.registry import all_games
from domain.kernel.viewers import Actor, Viewer
from tests.conformance.harness import Case, _mutations, other_private_moves, viewers

SEED = "5eed" * 16
KEY = ServerKey.from_seed(b"conformance")
MATCH = uuid.UUID(int=3)
COMMITMENTS = ("hash", "prev", "sig")
"""What an entry's commitment consists of: it differs with the hidden content by design."""


def has_private_choices(game: str) -> bool:
    """Whether the game's engine makes private choices at all (it overrides the contract's hook)."""
    return type(all_games()[game]).private_choice is not Ruleset.private_choice


@dataclass
class PrivacyReport:
    """What the record-tier check compared, so a test can insist it compared something."""

    choices: int = 0
    """Private choices varied (each in its own pair of records)."""
    positions: int = 0
    """Positions before a reveal at which both records were compared, per viewer."""
    revealed: int = 0
    """Varied choices whose reveal was reached, after which the viewers did see the difference."""
    notes: list[str] = field(default_factory=list)


class _Principal:
    """The stream's caller, as a fixed viewer."""

    def __init__(self, viewer: Viewer) -> None:
        self._viewer = viewer

    def viewer(self, fold: Any) -> Viewer:
        return self._viewer


def _open(path: Path) -> Ringside:
    return Ringside.open(data_dir=path, key=KEY, clock=FixedStepClock())


def _create(app: Ringside, case: Case) -> None:
    app.create_match(case.game, [f"P{seat}" for seat in range(case.seats)], variant=case.variant,
                     options=case.options, match_id=MATCH, seed=SEED, undo_policy="own-turn")


def _uncommitted(entry: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in entry.items() if key not in COMMITMENTS}


def _frames(stream: MatchStream) -> list[dict[str, Any]]:
    """One poll of a live stream, each frame's data without the commitment fields."""
    frames, _done = stream.poll()
    found = []
    for frame in frames:
        lines = dict(line.split(": ", 1) for line in frame.strip().split("\n") if ": " in line)
        data = json.loads(lines["data"])
        found.append({"event": lines["event"], "data": _uncommitted(data) if "seq" in data else data})
    return found


def _answers(app: Ringside, seat: int, candidates: list[Any]) -> list[str | None]:
    """How the match answers each candidate move of `seat` now (None: it would be accepted)."""
    fold = app.fold(MATCH)
    answers: list[str | None] = []
    for candidate in candidates:
        try:
            fold.check_move(seat, candidate)
        except RingsideError as error:
            answers.append(f"{type(error).__name__}: {error}")
        else:
            answers.append(None)
    return answers


def _guesses(payload: dict[str, Any], alternatives: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Payloads a viewer could try against the hidden entry's hash: the move replaced by each
    possible one, without the salt or with a made-up salt."""
    bare = {key: value for key, value in payload.items() if key != "salt"}
    guesses = []
    for move in alternatives:
        guesses.append({**bare, "move": move})
        guesses.append({**bare, "move": move, "salt": "0" * 32})
    return guesses


def _reproduces(entry: dict[str, Any], payload: dict[str, Any]) -> bool:
    return event_hash(entry["stream"], entry["seq"], entry["kind"], entry["actor"], entry["at"], payload,
                      entry["prev"]) == entry["hash"]


ATTEMPTS = 20
"""Bot matches tried, with other bot seeds, until one makes a private choice: in some games a
random bot makes one only now and then (a Russian Railroads final bonus card needs a token space)."""


def _bot_record(case: Case, path: Path) -> tuple[list[tuple[int, Any]], dict[int, dict[str, Any]], Ringside]:
    """A whole bot-played match: its moves (seat, move JSON) in order and its private choices (the
    first of `ATTEMPTS` matches, each with other bot seeds, that makes one)."""
    for attempt in range(ATTEMPTS):
        app = _open(path / str(attempt))
        _create(app, case)
        step = 0
        while app.play_bot(MATCH, seed=step + 100_000 * attempt) is not None:
            step += 1
        private = dict(app.fold(MATCH).private)
        if private or attempt == ATTEMPTS - 1:
            break
        app.close()
    moves = [(entry.payload["seat"], entry.payload["move"]) for entry in app.entries(MATCH)
             if entry.kind == "move"]
    return moves, private, app


def check_private_record(case: Case, tmp: Path, report: PrivacyReport, per_kind: int = 1) -> None:
    """Vary the first `per_kind` private choices of each kind (reveal point pattern, private
    fields) of a bot-played match of `case`, one at a time, and compare the two records."""
    moves, private, original = _bot_record(case, tmp / "original")
    ruleset = all_games()[case.game]
    seq_of_move = [entry.seq for entry in original.entries(MATCH) if entry.kind == "move"]
    taken: dict[tuple[Any, ...], int] = {}
    rng = random.Random(str(case))
    for index, seq in enumerate(seq_of_move):
        record = private.get(seq)
        if record is None or record["revealed"] == seq:
            continue
        kind = (record["fields"] is None, record["until"].rstrip("0123456789"))
        if taken.get(kind, 0) >= per_kind:
            continue
        seat, move = moves[index]
        before = original.fold(MATCH, seq - 1).state
        alternatives = other_private_moves(ruleset, before, seat, ruleset.parse_move(move))
        if not alternatives:
            continue
        taken[kind] = taken.get(kind, 0) + 1
        alternative = ruleset.dump_move(alternatives[rng.randrange(len(alternatives))])
        _compare(case, tmp / f"pair-{index}", moves, index, alternative, record, report,
                 [ruleset.dump_move(alt) for alt in alternatives])
    original.close()


def _compare(case: Case, path: Path, moves: list[tuple[int, Any]], varied: int, alternative: Any,
             record: dict[str, Any], report: PrivacyReport, alternatives: list[Any]) -> None:
    chooser = record["seat"]
    same, other = _open(path / "same"), _open(path / "other")
    for app in (same, other):
        _create(app, case)
    others = [viewer for viewer in viewers(case.seats) if not viewer.is_seat(chooser)]
    streams = {str(viewer): (MatchStream(SimpleNamespace(ringside=same), MATCH, _Principal(viewer), 0),  # type: ignore[arg-type]
                             MatchStream(SimpleNamespace(ringside=other), MATCH, _Principal(viewer), 0))  # type: ignore[arg-type]
               for viewer in others}
    report.choices += 1
    rng = random.Random(varied)
    hidden_seq: int | None = None
    looked: set[int] = set()
    ruleset = all_games()[case.game]
    forked = False
    compared = 0
    for index, (seat, move) in enumerate(moves):
        accepted = same.submit_move(MATCH, seat, move)
        try:
            other.submit_move(MATCH, seat, alternative if index == varied else move)
        except RingsideError as error:
            # only the chooser's own later moves may depend on its choice: nobody else's answer may
            assert seat == chooser or hidden_seq is None or _revealed(same, hidden_seq), (
                f"seat {seat}'s move {move} is refused only had seat {chooser} chosen otherwise: {error}")
            report.notes.append(f"{case}: stopped at move {index}, impossible after the other choice")
            break
        if index == varied:
            hidden_seq = accepted.receipt.seq
            _check_brute_force(same, hidden_seq, others, alternatives)
        if hidden_seq is None:
            continue
        if _revealed(same, hidden_seq):
            _check_revealed(same, other, hidden_seq, others, report)
            break
        head = same.fold(MATCH).seq
        for at in range(compared + 1, head + 1):  # a seat that looks through the pile knows what it holds
            looked |= set(ruleset.looking(same.fold(MATCH, at).state))
        for viewer in others:
            if viewer.kind == "seat" and viewer.seat in looked:
                continue
            _check_same(same, other, viewer, streams[str(viewer)], range(compared + 1, head + 1), rng)
            report.positions += head - compared
        compared = head
        if not forked:
            _check_fork(same, other, others)
            forked = True
    for app in (same, other):
        app.close()


def _revealed(app: Ringside, seq: int) -> bool:
    return app.fold(MATCH).private[seq]["revealed"] is not None


def _check_same(same: Ringside, other: Ringside, viewer: Viewer, streams: tuple[MatchStream, MatchStream],
                positions: range, rng: random.Random) -> None:
    """Everything `viewer` can read of the two matches is the same: now, and at the positions
    recorded since the last comparison (time travel)."""
    assert other.fold(MATCH).seq == same.fold(MATCH).seq, "the records have different lengths before the reveal"
    for at in positions:
        assert same.state(MATCH, viewer, at) == other.state(MATCH, viewer, at), (
            f"{viewer} sees another state at {at} when another seat's private choice differs")
    assert [_uncommitted(entry) for entry in same.log(MATCH, viewer)] == \
        [_uncommitted(entry) for entry in other.log(MATCH, viewer)], (
        f"{viewer}'s log tells another seat's private choice")
    assert _frames(streams[0]) == _frames(streams[1]), f"{viewer}'s live stream tells another seat's private choice"
    if viewer.kind == "seat" and viewer.seat is not None:
        legal = same.legal_moves(MATCH, viewer.seat)
        assert legal == other.legal_moves(MATCH, viewer.seat), f"{viewer}'s legal moves tell a private choice"
        candidates = [*legal[:10], *(_mutations(legal[rng.randrange(len(legal))], rng) if legal else []),
                      {"type": "no-such-move"}]
        assert _answers(same, viewer.seat, candidates) == _answers(other, viewer.seat, candidates), (
            f"the answers to {viewer}'s moves (refusals included) tell another seat's private choice")


def _check_brute_force(app: Ringside, seq: int, others: list[Viewer], alternatives: list[Any]) -> None:
    """The hidden entry's hash cannot be matched by guessing the choice, though it is salted
    with nothing a viewer has: the recorded payload with its salt does match it."""
    truth = app.entries(MATCH, seq, seq)[0]
    assert "salt" in truth.payload, "a private choice recorded without a salt"
    for viewer in others:
        shown = app.log(MATCH, viewer)[seq - 1]
        assert shown.get("redacted") and "salt" not in shown["payload"], f"{viewer} sees a private choice"
        guesses = _guesses(truth.payload, [truth.payload["move"], *alternatives])
        assert not any(_reproduces(shown, guess) for guess in guesses), (
            f"{viewer} can find the private choice by hashing guesses")
        assert _reproduces(shown, dict(truth.payload)), "the guessing does not hash what the record hashes"


def _check_fork(same: Ringside, other: Ringside, others: list[Viewer]) -> None:
    """An arbiter's fork of either match at this point shows every other viewer the same prelude
    and state, and stays sealed while the match it replays is in play."""
    forks = []
    for app in (same, other):
        accepted = app.fork(MATCH, app.fold(MATCH).seq, actor=Actor.arbiter())
        fork = uuid.UUID(accepted.receipt.match_id)
        assert app.sealed_by(fork) == str(MATCH), "a fork carrying a private choice is not sealed"
        forks.append((app, fork))
    for viewer in others:
        (a, fa), (b, fb) = forks
        assert a.log(fa, viewer)[0]["payload"]["prelude"] == b.log(fb, viewer)[0]["payload"]["prelude"], (
            f"{viewer} reads another seat's private choice in a fork's prelude")
        seen_a, seen_b = a.state(fa, viewer), b.state(fb, viewer)
        assert {**seen_a, "match_id": None} == {**seen_b, "match_id": None}, (
            f"{viewer} sees another seat's private choice in a fork's state")


def _check_revealed(same: Ringside, other: Ringside, seq: int, others: list[Viewer], report: PrivacyReport) -> None:
    """Once revealed, the choice is in every viewer's log (so the comparison above was of
    something that does differ)."""
    truth = same.entries(MATCH, seq, seq)[0].payload["move"]
    for viewer in others:
        shown = same.log(MATCH, viewer)[seq - 1]
        assert not shown.get("redacted") and shown["payload"]["move"] == truth, f"{viewer} never sees the reveal"
        assert other.log(MATCH, viewer)[seq - 1]["payload"].get("move") != truth
    report.revealed += 1
