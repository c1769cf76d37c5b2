"""The record's rules have one home each (kernel/undo.py, rulings.py, header.py, payloads.py), and
the application and verification agree because they call it: what one refuses the other refuses,
in its own words, and what the application records its verification accepts."""

from __future__ import annotations

import json
import uuid
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from domain.application import Ringside
from domain.kernel import record, rulings, undo
from domain.kernel.bundle import read_bundle, write_bundle
from domain.kernel.clock import FixedStepClock
from domain.kernel.errors import ForbiddenError, InvalidRequestError, MatchOverError
from domain.kernel.header import CreatedHeader, header_problem
from domain.kernel.integrity import GENESIS, ServerKey, event_hash
from domain.kernel.payloads import PAYLOADS, check_payload, payload_problem
from domain.kernel.registry import get_game
from domain.kernel.verification import verify_bundle
from domain.kernel.viewers import Actor
from tests.adversarial.support import reforge
from tests.support.helpers import new_match, play_to_end

ROOT = Path(__file__).resolve().parents[2]
RECORDS = sorted([*(ROOT / "tests" / "fixtures" / "records").glob("*.ringside.jsonl"),
                  *(ROOT / "tools" / "vectors").glob("*.ringside.jsonl")])
ARBITER = Actor.arbiter()


def _lines(path: Path) -> list[dict[str, Any]]:
    found = []
    for raw in path.read_text(encoding="utf-8").splitlines():
        try:
            line = json.loads(raw)
        except ValueError:
            continue  # the vectors' deliberately broken lines
        if isinstance(line, dict) and line.get("type") in ("event", "annotation") and not line.get("redacted"):
            found.append(line)
    return found


def test_every_payload_of_every_shipped_record_is_of_its_kind() -> None:
    """The models type what was always written: nothing in a fixture or a test vector is refused
    (except the vectors' deliberately altered payloads, which are still of their kind)."""
    kinds = set()
    for path in RECORDS:
        for line in _lines(path):
            kinds.add(line["kind"])
            assert payload_problem(line["kind"], line["payload"]) is None, (path.name, line["seq"])
    assert kinds == set(PAYLOADS) == {*record.MATCH_KINDS, *record.ANNOTATION_KINDS}


@pytest.mark.parametrize(("kind", "payload", "where"), [
    (record.MOVE, {"seat": True, "move": {"type": "pass"}}, "seat"),
    (record.MOVE, {"seat": 0, "move": {}, "salt": None}, "salt"),
    (record.MOVE, {"seat": 0, "move": {}, "extra": 1}, "extra"),
    (record.CHANCE, {"kind": "die", "outcome": 3, "derivation": {"mode": "server", "index": 1}}, "derivation"),
    (record.UNDO_REQUESTED, {"request": "u3", "seat": 0, "from_seq": "2", "reason": "", "consent_from": [],
                             "arbiter_needed": False}, "from_seq"),
    (record.UNDO_ANSWERED, {"request": "u3", "seat": None, "accept": 1}, "accept"),
    (record.RETRACTED, {"request": None, "from_seq": 2, "authority": "mine", "seat": None}, "authority"),
    (record.RULING, {"ruling": "penalty", "note": "", "seat": 0, "points": 1.0}, "penalty.points"),
    (record.RULING, {"ruling": "pardon", "note": ""}, "Input tag 'pardon'"),
    (record.ENDED, {"reason": "bored", "result": {}, "scores": {}, "state_hash": ""}, "reason"),
    (record.ENTROPY_ADDED, {"seat": "0", "entropy": "x"}, "seat"),
    (record.ANNOTATION_EDITED, {"id": "a1", "text": None}, "text"),
])
def test_a_payload_not_of_its_kind_is_named_by_its_first_wrong_field(kind: str, payload: dict[str, Any],
                                                                     where: str) -> None:
    problem = payload_problem(kind, payload)
    assert problem is not None and problem.startswith(f"the {kind} event's payload is malformed ({where}")
    with pytest.raises(InvalidRequestError, match="payload is malformed"):
        check_payload(kind, payload)


def test_the_header_model_types_the_header_and_its_checks_name_what_they_always_named() -> None:
    ruleset = get_game("test-dicevote")
    header = read_bundle((ROOT / "tests" / "fixtures" / "records" / "fork.ringside.jsonl").read_text()).entries[0]
    fork = dict(header.payload)
    assert header_problem(fork, get_game(fork["game"])) is None
    CreatedHeader.model_validate(fork)
    good = json.loads((ROOT / "tools" / "vectors" / "valid.ringside.jsonl").read_text().splitlines()[1])["payload"]
    assert header_problem(good, ruleset) is None
    cases = {
        "variant": ("grand", "variant 'grand' is not one of test-dicevote's"),
        "seats": ([{"seat": 1, "player": "a"}, {"seat": 0, "player": "b"}],
                  "seats are not 2–4 numbered seats with their players"),
        "randomness": ("dice", "randomness or undo policy is not one there is"),
        "undo_policy": ("never", "randomness or undo policy is not one there is"),
        "entropy": ([1], "players' entropy is not a list of strings"),
        "entropy_from": (None, "entropy policy is not 'seats' in a server-mode match"),
        "components": ({"hash": "x"}, "component set is not named by its hash"),
        "prelude": ([{"kind": "move", "data": {}}], "prelude is not a list of steps"),
        "seed_commitment": (7, "fork or seed commitment is malformed"),
        "penalties": ([{"seat": 0, "points": 1, "reason": "", "seq": 3}],
                      "inherited penalties are malformed (or not a fork's)"),
        "title": (None, "title is malformed (Input should be a valid string)"),
        "position": ([], "position is not an object of the game's position format"),
        "setup": ("position", "setup is malformed (Extra inputs are not permitted)"),
    }
    for field, (value, problem) in cases.items():
        assert header_problem({**good, field: value}, ruleset) == problem, field
    # several faults: the first in the order the checks always ran
    assert header_problem({**good, "penalties": "x", "entropy": [1], "variant": "grand"}, ruleset) == \
        "variant 'grand' is not one of test-dicevote's"


def test_a_ruling_is_refused_with_the_words_the_application_always_used(sqlite_app: Ringside) -> None:
    match_id = new_match(sqlite_app)
    fold = sqlite_app.fold(match_id)
    refusals: dict[str, list[dict[str, Any]]] = {
        "ruling must be correction, penalty, forfeit, adjudicated-result or illegal-move-stands":
            [{"ruling": "pardon"}, {"ruling": ["penalty"]}, {}],
        "seat must be 0..1": [{"ruling": "penalty", "seat": True, "points": 1},
                              {"ruling": "penalty", "seat": 7, "points": "x"}, {"ruling": "forfeit"}],
        "points must be a whole number": [{"ruling": "penalty", "seat": 1, "points": 2.0}],
        "from_seq must be a whole number": [{"ruling": "correction", "from_seq": None}],
        "event 1 is not an effective move or outcome": [{"ruling": "correction", "from_seq": 1}],
        "ranks must list a rank 1..2 for each seat": [{"ruling": "adjudicated-result", "ranks": [1]},
                                                      {"ruling": "adjudicated-result", "ranks": [True, 2]}],
    }
    for message, requests in refusals.items():
        for request in requests:
            with pytest.raises(InvalidRequestError) as refused:
                rulings.check_ruling(fold, rulings.requested(request, ""))
            assert refused.value.message == message, request
            with pytest.raises(InvalidRequestError) as refused:
                sqlite_app.make_ruling(match_id, request, actor=ARBITER)
            assert refused.value.message == message, request
    assert sqlite_app.fold(match_id).seq == fold.seq  # nothing was recorded
    seat = fold.decision.seats[0] if fold.decision.seats else 0
    other = 1 - seat
    with pytest.raises(InvalidRequestError, match=f"seat {other} is not to act now"):
        sqlite_app.make_ruling(match_id, {"ruling": "illegal-move-stands", "seat": other, "move": {"type": "pass"}},
                               actor=ARBITER)
    assert rulings.requested({"ruling": "forfeit", "seat": 1, "points": 9, "note": "x"}, "late") == \
        {"ruling": "forfeit", "note": "late", "seat": 1}  # what is recorded: the kind's own fields only


def test_the_application_writes_no_created_event_its_verification_would_refuse(sqlite_app: Ringside) -> None:
    cases: list[tuple[Any, Any, str]] = [
        ("parent", None, "the created event's fork or seed commitment is malformed"),
        ({"match_id": "x"}, [{"kind": "teleport", "seat": 0, "data": {}}], "the created event's prelude is not"),
    ]
    for fork_of, prelude, problem in cases:
        with pytest.raises(InvalidRequestError, match=problem):
            sqlite_app.create_match("test-dicevote", ["a", "b"], fork_of=fork_of, prelude=prelude)
    with pytest.raises(InvalidRequestError, match="inherited penalties"):
        sqlite_app.create_match("test-dicevote", ["a", "b"], penalties=[{"seat": 0, "points": 1}])
    assert sqlite_app.list_matches() == []


def test_a_redo_is_recorded_only_by_whom_verification_accepts(sqlite_app: Ringside) -> None:
    """Before the rules had one home, a recorder naming the seat could redo its moves: recorded, and
    refused by the record's own verification ("a redo by someone other than the seat ...")."""
    match_id = new_match(sqlite_app, players=1, variant="solo", options={"rounds": 2})
    sqlite_app.submit_move(match_id, 0, {"type": "pass"})
    sqlite_app.request_undo(match_id, 0)
    head = sqlite_app.fold(match_id).seq
    with pytest.raises(ForbiddenError, match="only the seat whose moves were taken back"):
        sqlite_app.redo(match_id, seat=0, actor=Actor("recorder", None, "table"))
    assert sqlite_app.fold(match_id).seq == head
    sqlite_app.redo(match_id, seat=0, actor=Actor("substitute", 0, "Sam"))
    assert sqlite_app.verify_match(match_id).ok


def test_a_refusal_speaks_for_both(sqlite_app: Ringside) -> None:
    """The same rule gives the command's error and verification's finding."""
    match_id = new_match(sqlite_app)
    play_to_end(sqlite_app, match_id)
    fold = sqlite_app.fold(match_id)
    refusal = undo.answer_refusal(fold, "u1", None)
    assert refusal is not None and isinstance(refusal.error, MatchOverError)
    assert refusal.finding == "an answer to an undo request after the match ended"
    refusal = undo.answerer_refusal(None, {"kind": "seat", "seat": 0})
    assert refusal is not None and isinstance(refusal.error, ForbiddenError)
    assert refusal.finding == "an arbiter's answer not given by an arbiter"


KEY = ServerKey.from_seed(b"record-rules")


@pytest.fixture(scope="module")
def undone(tmp_path_factory: pytest.TempPathFactory) -> str:
    app = Ringside.open(data_dir=tmp_path_factory.mktemp("undone"), key=KEY, clock=FixedStepClock())
    try:
        match_id = new_match(app, players=1, variant="solo", options={"rounds": 2},
                             match_id=uuid.UUID(int=13))
        app.submit_move(match_id, 0, {"type": "pass"})  # within the barrier: taken back at once
        app.request_undo(match_id, 0)
        app.redo(match_id, seat=0, actor=Actor.player(0))
        app.annotate(match_id, 2, "note", actor=Actor.player(0))
        play_to_end(app, match_id)
        return app.export_bundle(match_id)
    finally:
        app.close()


def _forged(text: str, kind: str, change: dict[str, Any]) -> Any:
    def forge(events: list[dict[str, Any]]) -> None:
        target = next(event for event in events if event["kind"] == kind)
        target["payload"].update(change)

    return verify_bundle(reforge(text, forge, KEY))


def _forged_annotation(text: str, change: dict[str, Any]) -> Any:
    """The bundle with its first added annotation changed, the annotation chain re-hashed and re-signed."""
    bundle = read_bundle(text)
    prev, rebuilt = GENESIS, []
    for entry in bundle.annotations:
        payload = {**entry.payload, **change} if entry.kind == record.ANNOTATION_ADDED else entry.payload
        hash_ = event_hash(entry.stream, entry.seq, entry.kind, entry.actor, entry.at, payload, prev)
        rebuilt.append(replace(entry, payload=payload, prev=prev, hash=hash_,
                               sig=KEY.sign_head(entry.stream, entry.seq, hash_)))
        prev = hash_
    return verify_bundle(write_bundle(bundle.entries, rebuilt, bundle.components, bundle.keys, KEY,
                                      "2026-01-01T00:00:00.000000Z"))


@pytest.mark.parametrize(("kind", "change", "check"), [
    (record.MOVE, {"seat": True}, "legality"),
    (record.UNDO_REQUESTED, {"consent_from": "1"}, "undo"),
    (record.RETRACTED, {"authority": None}, "undo"),
    (record.ENDED, {"scores": []}, "score"),
    (record.SEED_REVEALED, {"seed": 7}, "seed"),
    (record.CREATED, {"title": 7}, "header"),
])
def test_a_payload_not_of_its_kind_is_caught_by_its_events_check(undone: str, kind: str, change: dict[str, Any],
                                                                 check: str) -> None:
    report = _forged(undone, kind, change)
    assert not report.ok and report.divergence is not None, report.summary()
    assert report.divergence.check == check, report.summary()
    seq = next(entry.seq for entry in read_bundle(undone).entries if entry.kind == kind)
    assert report.divergence.seq == seq
    assert "malformed" in report.divergence.message


@pytest.mark.parametrize("change", [{"text": 7}, {"glyphs": None}, {"seq": "2"}, {"extra": True}])
def test_an_annotation_not_of_its_kind_is_caught(undone: str, change: dict[str, Any]) -> None:
    assert verify_bundle(undone).intact
    assert _forged_annotation(undone, {}).intact  # the forgery itself is sound
    report = _forged_annotation(undone, change)
    assert not report.intact and report.divergence is not None
    assert (report.divergence.check, report.divergence.stream, report.divergence.seq) == ("annotations",
                                                                                          "annotations", 2)
    assert "annotation-added event's payload is malformed" in report.divergence.message
