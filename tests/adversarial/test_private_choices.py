"""A seat's private choice stays its own until the game reveals it, whatever the path to it.

Sealed Bonus (tests/support/sealedbonus.py) has both kinds of private choice: a pledge, private
whole until every seat has pledged (SB-2.2, SB-2.3), and a bonus card taken face down, whose
`card` field is private until final scoring while the table sees that a card was taken (SB-3.1).
Each test names a way another seat could learn the choice and checks it is closed, including by
brute force against the event hash, and that the full record still verifies everything.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import httpx
import pytest

from api.stream import MatchStream
from domain.application import Ringside
from domain.kernel.bundle import read_bundle
from domain.kernel.fold import MatchFold
from domain.kernel.redaction import redact
from domain.kernel.verification import verify_bundle
from domain.kernel.viewers import Actor, Viewer
from tests.api.support import Server, bearer, create
from tests.support.helpers import play_to_end

from .test_hidden_info import _brute_force

SEAT0, SEAT1, SPECTATOR, ARBITER = Viewer.of_seat(0), Viewer.of_seat(1), Viewer.spectator(), Viewer.arbiter()
GAME = "test-sealedbonus"


def _match(app: Ringside, **kwargs: Any) -> uuid.UUID:
    kwargs.setdefault("seed", "cd" * 32)
    return uuid.UUID(app.create_match(GAME, ["P0", "P1"], **kwargs).receipt.match_id)


def _pledge(app: Ringside, match_id: uuid.UUID, seat: int, coins: int) -> int:
    return app.submit_move(match_id, seat, {"type": "pledge", "coins": coins}).receipt.seq


def _to_bonus(app: Ringside, match_id: uuid.UUID) -> None:
    """Round 0: seat 0 pledges 3, seat 1 pledges 1 (revealed); then seat 0 takes a bonus card."""
    _pledge(app, match_id, 0, 3)
    _pledge(app, match_id, 1, 1)


class _As:
    def __init__(self, viewer: Viewer) -> None:
        self._viewer = viewer

    def viewer(self, fold: MatchFold) -> Viewer:
        return self._viewer


def test_a_private_pledge_is_hidden_from_other_seats_until_every_seat_has_pledged(sqlite_app: Ringside) -> None:
    match_id = _match(sqlite_app)
    seq = _pledge(sqlite_app, match_id, 0, 3)
    for viewer in (SEAT1, SPECTATOR):
        entry = sqlite_app.log(match_id, viewer)[seq - 1]
        assert entry["redacted"] and entry["payload"] == {"seat": 0, "hidden": True, "private": True}, entry
        assert sqlite_app.state(match_id, viewer)["state"]["pledges"][0] == "pledged"
    for viewer in (SEAT0, ARBITER):
        assert sqlite_app.log(match_id, viewer)[seq - 1]["payload"]["move"] == {"type": "pledge", "coins": 3}
    assert sqlite_app.log(match_id, ARBITER)[seq - 1]["payload"]["salt"]
    _pledge(sqlite_app, match_id, 1, 1)  # the last pledge reveals them all (SB-2.3)
    shown = sqlite_app.log(match_id, SEAT1)[seq - 1]
    assert not shown.get("redacted") and shown["payload"]["move"]["coins"] == 3 and "salt" not in shown["payload"]
    assert sqlite_app.state(match_id, SEAT1)["state"]["last_pledges"] == [3, 1]


def test_a_bonus_card_shows_that_a_card_was_taken_and_hides_which_until_final_scoring(sqlite_app: Ringside) -> None:
    match_id = _match(sqlite_app)
    _to_bonus(sqlite_app, match_id)
    seq = sqlite_app.submit_move(match_id, 0, {"type": "take", "card": "star"}).receipt.seq
    for viewer in (SEAT1, SPECTATOR):
        entry = sqlite_app.log(match_id, viewer)[seq - 1]
        assert entry["payload"] == {"seat": 0, "move": {"type": "take"}, "hidden": True, "private": True,
                                    "hidden_fields": ["card"]}, entry
        assert "star" not in json.dumps(sqlite_app.state(match_id, viewer))
    assert sqlite_app.state(match_id, SEAT0)["state"]["cards"][0] == ["star"]
    play_to_end(sqlite_app, match_id)  # final scoring reveals every card (SB-3.2)
    assert sqlite_app.log(match_id, SEAT1)[seq - 1]["payload"]["move"] == {"type": "take", "card": "star"}
    report = sqlite_app.verify_match(match_id)
    assert report.ok, report.summary()


def test_neither_kind_of_private_choice_can_be_brute_forced_from_its_hash(sqlite_app: Ringside) -> None:
    match_id = _match(sqlite_app)
    pledge = _pledge(sqlite_app, match_id, 0, 2)
    shown = sqlite_app.log(match_id, SEAT1)[pledge - 1]
    guesses = [{"seat": 0, "move": {"type": "pledge", "coins": coins}} for coins in range(5)]
    assert _brute_force(shown, guesses) == []
    truth = sqlite_app.entries(match_id, pledge, pledge)[0].payload
    assert _brute_force(shown, [truth]) == [truth]  # with the salt, which the seat does not have
    _pledge(sqlite_app, match_id, 1, 0)
    take = sqlite_app.submit_move(match_id, 0, {"type": "take", "card": "laurel"}).receipt.seq
    shown = sqlite_app.log(match_id, SEAT1)[take - 1]
    guesses = [{"seat": 0, "move": {"type": "take", "card": card}} for card in ("laurel", "purse", "star")]
    assert _brute_force(shown, guesses) == [] and "salt" in sqlite_app.entries(match_id, take, take)[0].payload


def test_a_retracted_private_choice_stays_hidden_after_the_reveal(sqlite_app: Ringside) -> None:
    match_id = _match(sqlite_app)
    first = _pledge(sqlite_app, match_id, 0, 4)
    sqlite_app.request_undo(match_id, 0)  # own-turn: nothing happened since
    _pledge(sqlite_app, match_id, 0, 1)
    _pledge(sqlite_app, match_id, 1, 2)
    seen = sqlite_app.log(match_id, SEAT1)[first - 1]
    assert seen.get("redacted") and "retracted_by" in seen and "coins" not in json.dumps(seen["payload"])
    assert sqlite_app.state(match_id, SEAT1)["state"]["last_pledges"] == [1, 2]
    assert sqlite_app.verify_match(match_id).ok


def test_the_reveal_is_an_undo_barrier(sqlite_app: Ringside) -> None:
    """Seat 1's pledge showed seat 0's: it cannot be taken back alone, or seat 1 could pledge again
    knowing it."""
    match_id = _match(sqlite_app)
    _pledge(sqlite_app, match_id, 0, 2)
    last = _pledge(sqlite_app, match_id, 1, 1)
    assert not sqlite_app.fold(match_id).own_undo_allowed(1, last)


def test_a_private_move_forced_by_a_ruling_is_as_private_and_salted(sqlite_app: Ringside) -> None:
    match_id = _match(sqlite_app)
    forced = sqlite_app.make_ruling(match_id, {"ruling": "illegal-move-stands", "seat": 0,
                                               "move": {"type": "pledge", "coins": 4}},
                                    actor=Actor.arbiter()).receipt.seq
    entry = sqlite_app.log(match_id, SEAT1)[forced - 1]
    assert entry["payload"] == {"ruling": "illegal-move-stands", "seat": 0, "hidden": True, "private": True}
    assert _brute_force(entry, [{"ruling": "illegal-move-stands", "note": "", "seat": 0,
                                 "move": {"type": "pledge", "coins": coins}} for coins in range(5)]) == []
    play_to_end(sqlite_app, match_id)
    report = sqlite_app.verify_match(match_id)  # with the seed: the ruling's salt is checked
    assert report.ok and report.checked["ruling"] == 1, report.summary()


def test_a_fork_does_not_carry_another_seats_private_choice(sqlite_app: Ringside) -> None:
    parent = _match(sqlite_app)
    _to_bonus(sqlite_app, parent)
    sqlite_app.submit_move(parent, 0, {"type": "take", "card": "purse"})
    fork = uuid.UUID(sqlite_app.fork(parent, sqlite_app.fold(parent).seq, actor=Actor.arbiter()).receipt.match_id)
    assert sqlite_app.sealed_by(fork) == str(parent)  # only the fork's arbiter may export or fork it
    for viewer in (SEAT1, SPECTATOR):
        created = sqlite_app.log(fork, viewer)[0]
        assert "purse" not in json.dumps(created) and "salt" not in created["payload"]
        taken = [step for step in created["payload"]["prelude"] if step["kind"] == "move" and step["seat"] == 0]
        assert taken[-1] == {"kind": "move", "seat": 0, "hidden": True}
        assert "purse" not in json.dumps(sqlite_app.state(fork, viewer))
    # the revealed pledges are public in the prelude; the bonus card is the fork's seat 0's own
    assert "purse" in json.dumps(sqlite_app.log(fork, SEAT0)[0]["payload"]["prelude"])
    full = sqlite_app.entries(fork, 1, 1)[0].payload
    guess = {key: value for key, value in full.items() if key != "salt"}
    assert _brute_force(sqlite_app.log(fork, SEAT1)[0], [guess]) == []
    play_to_end(sqlite_app, fork)
    assert sqlite_app.verify_match(fork).ok


def test_the_live_stream_hides_a_private_choice_then_sends_it_revealed(sqlite_app: Ringside) -> None:
    match_id = _match(sqlite_app)
    stream = MatchStream(SimpleNamespace(ringside=sqlite_app), match_id, _As(SEAT1), 0)  # type: ignore[arg-type]
    stream.poll()
    seq = _pledge(sqlite_app, match_id, 0, 3)
    frames, _ = stream.poll()
    assert len(frames) == 1 and '"coins"' not in frames[0] and '"private":true' in frames[0]
    _pledge(sqlite_app, match_id, 1, 0)
    frames, _ = stream.poll()
    revealed = [frame for frame in frames if frame.startswith("event: revealed")]
    assert len(revealed) == 1 and f'"seq":{seq},' in revealed[0] and '"coins":3' in revealed[0]
    assert "\nid: " not in revealed[0]  # a reveal leaves a client's resume point at the last entry sent


def test_time_travel_and_snapshots_keep_private_choices_private(sqlite_app: Ringside) -> None:
    match_id = _match(sqlite_app)
    _to_bonus(sqlite_app, match_id)
    take = sqlite_app.submit_move(match_id, 0, {"type": "take", "card": "star"}).receipt.seq
    play_to_end(sqlite_app, match_id)
    fold = sqlite_app.fold(match_id)
    restored = MatchFold.from_snapshot(json.loads(json.dumps(fold.to_snapshot())))
    assert restored.private == fold.private
    entry = sqlite_app.entries(match_id, take, take)[0]
    for as_of in (take, fold.seq):
        assert redact(entry, restored, SEAT1, as_of) == redact(entry, fold, SEAT1, as_of)
    assert redact(entry, fold, SEAT1, take)["payload"].get("hidden_fields") == ["card"]  # before the reveal
    assert redact(entry, fold, SEAT1)["payload"]["move"]["card"] == "star"


def test_verification_of_the_full_record_checks_a_private_choices_salt(sqlite_app: Ringside) -> None:
    """The arbiter's bundle holds every private choice with its salt; once the seed is revealed a
    wrong salt is a divergence (the hash chain and signatures are re-made, so only the salt check
    can catch it)."""
    from domain.kernel.integrity import event_hash

    match_id = _match(sqlite_app)
    pledge = _pledge(sqlite_app, match_id, 0, 3)
    play_to_end(sqlite_app, match_id)
    bundle = read_bundle(sqlite_app.export_bundle(match_id))
    assert verify_bundle(sqlite_app.export_bundle(match_id), trust=sqlite_app.trust()).ok
    key = sqlite_app.key
    lines = []
    prev = None
    for entry in bundle.entries:
        data = entry.to_json()
        if entry.seq == pledge:
            data["payload"] = {**data["payload"], "salt": "0" * 32}
        if prev is not None:
            data["prev"] = prev
        data["hash"] = event_hash(data["stream"], data["seq"], data["kind"], data["actor"], data["at"],
                                  data["payload"], data["prev"])
        data["sig"] = key.sign_head(data["stream"], data["seq"], data["hash"])
        prev = data["hash"]
        lines.append(data)
    from domain.kernel.bundle import write_bundle
    from domain.kernel.record import Entry

    forged = write_bundle([Entry.from_json(line) for line in lines], [], bundle.components, sqlite_app.known_keys(),
                          key, sqlite_app.clock())
    report = verify_bundle(forged, trust=sqlite_app.trust())
    assert not report.ok and report.divergence is not None
    assert (report.divergence.check, report.divergence.seq) == ("seed", pledge), report.summary()


# ---- over HTTP ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def http(tmp_path_factory: pytest.TempPathFactory) -> Iterator[httpx.Client]:
    server = Server(Path(tmp_path_factory.mktemp("private")) / "data").start()
    try:
        with httpx.Client(base_url=server.url, timeout=30) as client:
            yield client
    finally:
        server.stop()


def test_over_http_a_seat_cannot_export_or_fork_a_match_holding_private_choices(http: httpx.Client) -> None:
    match = create(http, GAME)
    moved = http.post(match.path("/moves"), json={"seat": 0, "move": {"type": "pledge", "coins": 2}},
                      headers=bearer(match.seat(0)))
    assert moved.status_code == 200, moved.text
    mine = moved.json()["events"][-1]
    assert mine["payload"]["move"] == {"type": "pledge", "coins": 2}  # the seat's own answer shows it
    for token in (match.seat(1), None):
        log = http.get(match.path("/events"), headers=bearer(token)).json()
        assert '"coins": 2' not in json.dumps(log) and '"coins":2' not in json.dumps(log)
        assert http.get(match.path("/bundle"), headers=bearer(token)).status_code in (401, 403)
        assert http.post(match.path("/forks"), json={"at": 2}, headers=bearer(token)).status_code in (401, 403)
    forked = http.post(match.path("/forks"), json={"at": 3}, headers=bearer(match.arbiter))
    assert forked.status_code == 201, forked.text
    fork = forked.json()
    seat1 = fork["tokens"]["seats"][1]["token"]
    assert http.get(f"/matches/{fork['match_id']}/bundle", headers=bearer(seat1)).status_code == 403
    created = http.get(f"/matches/{fork['match_id']}/events", headers=bearer(seat1)).json()["events"][0]
    pledged = [step for step in created["payload"]["prelude"] if step["kind"] == "move"]
    assert pledged == [{"kind": "move", "seat": 0, "hidden": True}], pledged
