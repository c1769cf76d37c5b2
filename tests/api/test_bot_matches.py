"""Whole bot matches of every registered game played over HTTP, and hidden information checked for
every viewer at every position (the test game has hidden hands, face-down draws and secret votes)."""

from __future__ import annotations

import itertools
import json
import random
import threading
from typing import Any

import httpx
import pytest

from domain.application import state_view
from domain.kernel.bundle import read_bundle
from domain.kernel.fold import MatchFold
from domain.kernel.integrity import head_message, verify_signature
from domain.kernel.registry import all_games
from domain.kernel.viewers import Viewer

from .support import Match, Server, bearer, create, play_one, play_to_end

GAMES = sorted(all_games())
OPTIONAL = ("redacted", "retracted_by")


def viewers(match: Match, seats: int) -> dict[str, str | None]:
    tokens: dict[str, str | None] = {f"seat:{seat}": match.seat(seat) for seat in range(seats)}
    return {**tokens, "spectator": None, "arbiter": match.arbiter, "recorder": match.recorder}


def full_log(client: httpx.Client, match: Match, token: str | None) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    start: int | None = 1
    while start is not None:
        page = client.get(match.path("/events"), params={"start": start, "limit": 50}, headers=bearer(token)).json()
        events += page["events"]
        start = page["next"]
    return events


def check_redaction(arbiter_log: list[dict[str, Any]], log: list[dict[str, Any]], viewer: str, sees_all: bool) -> None:
    """Generic: a viewer's entry is the arbiter's entry without salts, or a redacted stub."""
    assert [e["seq"] for e in log] == [e["seq"] for e in arbiter_log]
    for full, seen in zip(arbiter_log, log, strict=True):
        assert (seen["hash"], seen["kind"], seen["prev"]) == (full["hash"], full["kind"], full["prev"])
        if sees_all:
            assert seen == full
            continue
        assert "salt" not in seen["payload"], (viewer, seen)
        if seen.get("redacted"):
            assert set(seen["payload"]) <= {"kind", "seat", "hidden"}, (viewer, seen)
            if full["kind"] == "move" and viewer.startswith("seat:"):
                assert f"seat:{full['payload']['seat']}" != viewer, "a seat's own move hidden from it"
        else:
            expected = {k: v for k, v in full["payload"].items() if k != "salt"}
            assert seen["payload"] == expected, (viewer, seen)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("randomness", ["server", "recorded"])
def test_whole_bot_match_over_http(client: httpx.Client, game: str, randomness: str) -> None:
    match = create(client, game, ["ann", "bob"], randomness=randomness)
    steps = play_to_end(client, match, seed=7)
    assert steps > 0
    summary = client.get(match.path()).json()
    assert summary["status"] == "ended" and summary["end"]["reason"] == "completed"
    report = client.get(match.path("/verification")).json()
    assert report["ok"], report["summary"]
    keys = client.get("/keys").json()
    arbiter_log = full_log(client, match, match.arbiter)
    assert [e["seq"] for e in arbiter_log] == list(range(1, summary["version"] + 1))
    for entry in arbiter_log:
        assert verify_signature(
            keys["keys"][entry["key"]], head_message(entry["stream"], entry["seq"], entry["hash"]), entry["sig"]
        )
    for viewer, token in viewers(match, 2).items():
        sees_all = viewer == "arbiter" or (viewer == "recorder" and randomness == "recorded")
        check_redaction(arbiter_log, full_log(client, match, token), viewer, sees_all)
    if randomness == "server":
        check_views_at_every_position(client, match, viewers(match, 2))
    score = client.get(match.path("/score")).json()
    assert score["totals"] == summary["end"]["result"]["totals"]
    assert all(line["rule"] for line in score["lines"])
    listed = client.get("/matches", params={"game": game, "status": "ended", "limit": 500}).json()["matches"]
    assert match.id in [item["match_id"] for item in listed]


def check_views_at_every_position(client: httpx.Client, match: Match, tokens: dict[str, str | None]) -> None:
    """Every viewer's state at every position is exactly the game's view for that viewer, refolded
    here from the exported bundle: the API never serves more (or another viewer's) information."""
    bundle = read_bundle(client.get(match.path("/bundle")).content)
    fold = MatchFold(bundle.entries[0])
    expected_viewer = {name: Viewer.parse(name) for name in tokens if name != "recorder"}
    expected_viewer["recorder"] = Viewer.spectator()  # server mode: the recorder sees public information
    for entry in [None, *bundle.entries[1:]]:
        if entry is not None:
            fold.consume(entry)
        for name, token in tokens.items():
            served = client.get(match.path("/state"), params={"at": fold.seq}, headers=bearer(token)).json()
            assert served.pop("viewer") == str(expected_viewer[name])
            assert served == json.loads(json.dumps(state_view(fold, expected_viewer[name]))), (name, fold.seq)


VARIANTS = [
    (name, variant, info.max_seats)
    for name, ruleset in sorted(all_games().items())
    for variant, info in ruleset.variants.items()
]


@pytest.mark.parametrize(("game", "variant", "seats"), VARIANTS, ids=[f"{g}-{v}-{n}" for g, v, n in VARIANTS])
def test_every_variant_at_full_table_over_http(client: httpx.Client, game: str, variant: str, seats: int) -> None:
    match = create(client, game, [f"p{i}" for i in range(seats)], variant=variant)
    play_to_end(client, match, seed=seats)
    assert client.get(match.path()).json()["status"] == "ended"
    assert client.get(match.path("/verification")).json()["ok"]


class StreamReader(threading.Thread):
    """Collects one viewer's server-sent events until the stream ends."""

    def __init__(self, url: str, token: str | None) -> None:
        super().__init__(daemon=True)
        self.url, self.token = url, token
        self.frames: list[tuple[str, dict[str, Any]]] = []
        self.ready = threading.Event()

    def run(self) -> None:
        with (
            httpx.Client(timeout=60) as http,
            http.stream("GET", self.url, params={"after": 0}, headers=bearer(self.token)) as response,
        ):
            self.ready.set()
            event = None
            for line in response.iter_lines():
                if line.startswith("event: "):
                    event = line[7:]
                elif line.startswith("data: ") and event:
                    self.frames.append((event, json.loads(line[6:])))
                    if event == "end":
                        return


def dicevote_state_checks(state: dict[str, Any], viewer: str, arbiter_state: dict[str, Any]) -> None:
    hands, votes = state["state"]["hands"], state["state"]["votes"]
    for seat, hand in enumerate(hands):
        mine = viewer == f"seat:{seat}" or viewer == "arbiter"
        full_hand = arbiter_state["state"]["hands"][seat]
        if mine:
            assert hand == full_hand
        else:
            assert hand == {"count": len(full_hand)}, (viewer, seat, hand)
            assert votes[seat] in (None, "cast"), (viewer, seat, votes)
    assert state["state"]["deck"] == {"count": arbiter_state["state"]["deck"]["count"]}
    assert set(state) >= {"decision", "scores", "seq"}


@pytest.mark.parametrize("seats", [2, 3])
def test_hidden_information_every_viewer_every_position(client: httpx.Client, server: Server, seats: int) -> None:
    match = create(client, "test-dicevote", [f"p{i}" for i in range(seats)], options={"rounds": 2, "hand_size": 2})
    views = viewers(match, seats)
    readers = {name: StreamReader(server.url + match.path("/stream"), token) for name, token in views.items()}
    for reader in readers.values():
        reader.start()
        assert reader.ready.wait(10)
    rng = random.Random(3)
    positions = [client.get(match.path()).json()["version"]]
    while True:
        # at every head: each viewer's log obeys the redaction rules, including the secret votes
        arbiter_log = full_log(client, match, match.arbiter)
        votes = [e for e in arbiter_log if e["kind"] == "move" and e["payload"]["move"]["type"] == "vote"]
        for name, token in views.items():
            log = full_log(client, match, token)
            sees_all = name == "arbiter"
            check_redaction(arbiter_log, log, name, sees_all)
            by_seq = {e["seq"]: e for e in log}
            for index, vote in enumerate(votes):
                group = votes[index - index % seats : index - index % seats + seats]
                complete = len(group) == seats
                own = name == f"seat:{vote['payload']['seat']}"
                assert (not by_seq[vote["seq"]].get("redacted")) == (complete or own or sees_all), (name, vote)
        if play_one(client, match, rng) is None:
            break
        positions.append(client.get(match.path()).json()["version"])
    head = positions[-1]
    arbiter_log = full_log(client, match, match.arbiter)
    arbiter_states = {
        at: client.get(match.path("/state"), params={"at": at}, headers=bearer(match.arbiter)).json()
        for at in range(1, head + 1)
    }
    # the recipient of each face-down draw: the seat whose hand grew at that event
    recipients: dict[int, int] = {}
    for entry in arbiter_log:
        if entry["kind"] == "chance" and entry["payload"]["kind"] == "draw":
            before = arbiter_states[entry["seq"] - 1]["state"]["hands"]
            after = arbiter_states[entry["seq"]]["state"]["hands"]
            grew = [s for s in range(seats) if len(after[s]) > len(before[s])]
            assert len(grew) == 1
            recipients[entry["seq"]] = grew[0]
    assert recipients
    for name, token in views.items():
        shown = "spectator" if name == "recorder" else name  # server mode: the recorder sees public info
        log = {e["seq"]: e for e in full_log(client, match, token)}
        for seq, seat in recipients.items():
            visible = shown in ("arbiter", f"seat:{seat}")
            assert ("outcome" in log[seq]["payload"]) == visible, (name, seq)
            assert "derivation" not in log[seq]["payload"] or visible
        for at in range(1, head + 1):  # the state at every position as every viewer
            state = client.get(match.path("/state"), params={"at": at}, headers=bearer(token)).json()
            assert state["seq"] == at
            dicevote_state_checks(state, shown, arbiter_states[at])
        decision = client.get(match.path("/decision"), headers=bearer(token)).json()
        assert decision["chance_outcomes"] is None or shown == "arbiter"
    # the live streams: nothing hidden leaked, secret votes re-sent once revealed
    for name, reader in readers.items():
        reader.join(30)
        assert not reader.is_alive(), name
        entries = [data for event, data in reader.frames if event == "entry"]
        assert [e["seq"] for e in entries] == list(range(1, head + 1))
        final = {e["seq"]: e for e in full_log(client, match, views[name])}
        shown = "spectator" if name == "recorder" else name
        for entry in entries:
            assert "salt" not in entry["payload"] or shown == "arbiter"
            if entry["seq"] in recipients:
                assert ("outcome" in entry["payload"]) == (shown in ("arbiter", f"seat:{recipients[entry['seq']]}"))
        revealed = {data["seq"]: data for event, data in reader.frames if event == "revealed"}
        for seq, data in revealed.items():
            assert data == {k: v for k, v in final[seq].items() if v is not None or k not in OPTIONAL}
        hidden_votes = [e["seq"] for e in entries if e.get("redacted") and e["kind"] == "move"]
        assert set(hidden_votes) <= set(revealed), name
        assert reader.frames[-1][0] == "end"


def test_the_stream_carries_the_annotations_each_viewer_may_read(client: httpx.Client, server: Server) -> None:
    """Annotations made while a match streams reach each viewer as `annotations` frames holding the
    list that viewer may read (as GET /annotations gives it): a seat's own notes to that seat, the
    arbiter's to the arbiter, and never a frame for a change the viewer may not see."""
    match = create(client, "test-dicevote", ["p0", "p1"], options={"rounds": 2, "hand_size": 2})
    views = viewers(match, 2)
    readers = {name: StreamReader(server.url + match.path("/stream"), token) for name, token in views.items()}
    for reader in readers.values():
        reader.start()
        assert reader.ready.wait(10)
    rng = random.Random(11)
    notes = [(match.arbiter, "public", "a sharp start"), (match.seat(0), "seat:0", "keep the high card"),
             (match.arbiter, "arbiter", "watch seat 1's timing"), (match.seat(1), "public", "gg")]
    for token, visibility, text in notes:
        play_one(client, match, rng)
        head = client.get(match.path()).json()["version"]
        answer = client.post(match.path("/annotations"), headers=bearer(token),
                             json={"seq": head, "text": text, "visibility": visibility})
        assert answer.status_code == 201, answer.text
    play_to_end(client, match, seed=2)
    for name, reader in readers.items():
        reader.join(30)
        assert not reader.is_alive(), name
        lists = [data["annotations"] for event, data in reader.frames if event == "annotations"]
        expected = client.get(match.path("/annotations"), headers=bearer(views[name])).json()["annotations"]
        assert lists and lists[-1] == expected, name
        assert all(a != b for a, b in itertools.pairwise(lists)), name  # only changes are sent
        shown = "spectator" if name == "recorder" else name
        readable = {"public"} | ({"seat:0", "seat:1", "arbiter"} if shown == "arbiter" else {shown})
        for listed in lists:
            assert {note["visibility"] for note in listed} <= readable, (name, listed)
            assert all("salt" not in note for note in listed)
    texts = {name: {note["text"] for note in client.get(match.path("/annotations"),
                                                         headers=bearer(token)).json()["annotations"]}
             for name, token in views.items()}
    assert texts["spectator"] == {"a sharp start", "gg"}
    assert texts["seat:0"] == {"a sharp start", "keep the high card", "gg"}
    assert texts["arbiter"] == {"a sharp start", "keep the high card", "watch seat 1's timing", "gg"}


def test_a_stream_resumed_after_a_hidden_entry_sends_its_reveal(client: httpx.Client, server: Server) -> None:
    """A client that read the log up to N, with an entry hidden from it (a secret vote), and opens
    the stream after N gets that entry as `revealed` once the group's votes are in; a `revealed`
    frame carries no id, so the resume point stays the last entry sent."""
    match = create(client, "test-dicevote", ["p0", "p1"], options={"rounds": 2, "hand_size": 2})
    rng = random.Random(4)
    hidden = None
    while hidden is None:
        assert play_one(client, match, rng) is not None
        hidden = next((e["seq"] for e in full_log(client, match, None) if e.get("redacted") and e["kind"] == "move"),
                      None)
    after = client.get(match.path()).json()["version"]
    lines: list[str] = []

    def read() -> None:
        with httpx.Client(timeout=60) as http, \
                http.stream("GET", server.url + match.path("/stream"), params={"after": after}) as response:
            ready.set()
            for line in response.iter_lines():
                lines.append(line)
                if line == "event: end":
                    return

    ready = threading.Event()
    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    assert ready.wait(10)
    play_to_end(client, match, seed=1)
    reader.join(30)
    assert not reader.is_alive()
    frames = "\n".join(lines).split("\n\n")
    revealed = [frame for frame in frames if frame.startswith("event: revealed")]
    assert any(f'"seq":{hidden},' in frame for frame in revealed), (hidden, revealed)
    assert all("\nid: " not in frame for frame in revealed)
    ids = [int(line[4:]) for line in lines if line.startswith("id: ")]
    assert ids == list(range(after + 1, client.get(match.path()).json()["version"] + 1))
