"""The replay viewer over plain HTTP: the board endpoint (`/matches/{id}/board.svg`), the pages
(`/` the match list, `/view/{id}` a match) and the page's own JSON reads (`/view/{id}/log`,
`/view/{id}/step`), against a real server process: status codes, content types, the viewer each
token makes, nothing loaded from another host, and 4xx problems for bad input.

The test game (test-dicevote, drawn by the generic board) keeps this fast; the four games' pages
are opened in a real browser in test_browser.py. The log's round starts are checked on a match of
each of the four games, played over HTTP into its third round, against the game's own round
counter in a fold of the record."""

from __future__ import annotations

import itertools
import random
import re
import uuid
from collections.abc import Callable
from html.parser import HTMLParser
from typing import Any
from urllib.parse import urljoin, urlsplit
from xml.etree import ElementTree

import httpx
import pytest

from domain.kernel.fold import MatchFold
from domain.kernel.record import Entry
from tests.api.support import Match, bearer, create, play_one

OTHER_HOST = re.compile(r"(https?:)?//[\w.-]+\.\w")
"""A URL naming a host: the viewer's pages and assets name none (the SVG namespace aside)."""


@pytest.fixture(scope="module")
def match(client: httpx.Client) -> Match:
    """A test-dicevote match of 20 steps: hands are hidden from the other seat and from spectators."""
    played = create(client, "test-dicevote", ["ann", "bob"], title="pages", options={"rounds": 30})
    rng = random.Random(5)
    while client.get(played.path()).json()["version"] < 20:
        assert play_one(client, played, rng) is not None
    return played


class Loaded(HTMLParser):
    """Every URL a page loads or links to (src and href)."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[tuple[str, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.urls += [(tag, value) for name, value in attrs if name in ("src", "href") and value]


def loaded(html: str) -> list[tuple[str, str]]:
    parser = Loaded()
    parser.feed(html)
    return parser.urls


def without_svg_namespace(text: str) -> str:
    return text.replace("http://www.w3.org/2000/svg", "")


def seat_scores(svg: str) -> dict[int, int]:
    """Each seat panel's score as the board marks it (`data-seat`, with `data-score` on the panel
    or on a piece inside it)."""
    scores = {}
    for panel in ElementTree.fromstring(svg).iter():
        if "data-seat" in panel.attrib:
            marked = [node for node in panel.iter() if "data-score" in node.attrib]
            if marked:
                scores[int(panel.attrib["data-seat"])] = int(marked[0].attrib["data-score"])
    return scores


# ---- the board -----------------------------------------------------------------------------------
def test_the_board_is_svg_drawn_at_the_step_asked(client: httpx.Client, match: Match) -> None:
    for at in (1, 7, 20):
        board = client.get(match.path(f"/board.svg?at={at}"))
        assert board.status_code == 200, board.text
        assert board.headers["content-type"].startswith("image/svg+xml")
        assert "private" in board.headers["cache-control"]
        assert board.text.startswith("<svg") and f'data-seq="{at}"' in board.text
        assert 'data-game="test-dicevote"' in board.text
        assert not OTHER_HOST.search(without_svg_namespace(board.text))
    head = client.get(match.path("/board.svg"))
    assert f'data-seq="{client.get(match.path()).json()["version"]}"' in head.text


def test_the_board_is_the_callers_view(client: httpx.Client, match: Match) -> None:
    """Drawn from the same view /state answers: every viewer gets the picture of its own view, and
    the board endpoint asks for the same token as the state."""
    for token in (None, match.seat(0), match.seat(1), match.arbiter):
        state = client.get(match.path("/state?at=12"), headers=bearer(token)).json()
        board = client.get(match.path("/board.svg?at=12"), headers=bearer(token)).text
        assert seat_scores(board) == dict(enumerate(state["scores"]))
    assert client.get(match.path("/board.svg"), headers=bearer("rs_not-a-token")).status_code == 401
    other = create(client, "test-dicevote", ["cy", "di"])
    refused = client.get(match.path("/board.svg"), headers=bearer(other.seat(0)))
    assert refused.status_code == 403 and refused.headers["content-type"] == "application/problem+json"


@pytest.mark.parametrize("query", ["at=-1", "at=0", "at=abc", "at=1.5", "at=999999", f"at={2**70}"])
def test_a_bad_step_is_a_problem(client: httpx.Client, match: Match, query: str) -> None:
    paths = [match.path(f"/board.svg?{query}"), f"/view/{match.id}/step?{query}"]
    if query != "at=999999":  # a page linked past the head opens at the head (below)
        paths.append(f"/view/{match.id}?{query}")
    for path in paths:
        answer = client.get(path)
        assert answer.status_code == 422, (path, answer.status_code, answer.text)
        assert answer.headers["content-type"] == "application/problem+json", path


def test_a_page_linked_past_the_head_opens_at_the_head(client: httpx.Client, match: Match) -> None:
    head = client.get(match.path()).json()["version"]
    assert f'data-at="{head}"' in client.get(f"/view/{match.id}?at=999999").text


def test_an_unknown_match_is_404(client: httpx.Client) -> None:
    unknown = uuid.uuid4()
    for path in (f"/matches/{unknown}/board.svg", f"/view/{unknown}/step", f"/view/{unknown}/log"):
        answer = client.get(path)
        assert answer.status_code == 404 and answer.headers["content-type"] == "application/problem+json", path
    page = client.get(f"/view/{unknown}")
    assert page.status_code == 404 and page.headers["content-type"].startswith("text/html")
    assert client.get("/view/not-a-uuid").status_code == 422


# ---- the pages -----------------------------------------------------------------------------------
def test_the_start_page_lists_and_filters_matches(client: httpx.Client, match: Match) -> None:
    page = client.get("/")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert f'href="view/{match.id}"' in page.text
    links = {url for tag, url in loaded(page.text) if tag == "a"}
    assert {"docs", "redoc", "games", "keys", "health"} <= links
    for _, url in loaded(page.text):
        assert not urlsplit(url).netloc, url
        assert client.get(urljoin(str(page.url), url)).status_code == 200, url
    assert not OTHER_HOST.search(page.text)
    assert match.id in client.get("/?game=test-dicevote&status=active&player=an").text
    assert match.id not in client.get("/?game=carcassonne").text
    assert match.id not in client.get("/?player=nobody-plays-here").text
    assert match.id not in client.get("/?since=2999-01-01").text
    assert match.id in client.get("/?since=2000-01-01&until=2999-01-01&game=&status=").text
    for bad in ("since=yesterday", "status=won", "offset=-1"):
        answer = client.get(f"/?{bad}")
        assert answer.status_code == 422 and answer.headers["content-type"] == "application/problem+json", bad


def test_the_start_page_pages(client: httpx.Client) -> None:
    made = {create(client, "test-dicevote", ["page", "turner"]).id for _ in range(27)}
    first = client.get("/?player=turner").text
    second = client.get("/?player=turner&offset=25").text
    on_first, on_second = made & set(re.findall(r"view/([0-9a-f-]{36})", first)), \
        made & set(re.findall(r"view/([0-9a-f-]{36})", second))
    assert len(on_first) == 25 and len(on_second) == 2 and not on_first & on_second
    assert 'rel="next"' in first and 'rel="prev"' in second and 'rel="next"' not in second


def test_the_match_page_is_public_and_loads_only_from_this_server(client: httpx.Client, match: Match) -> None:
    """The frame holds public facts only: no hand of any seat, whatever the token (none is sent
    to the page's URL; the script fetches the rest with it)."""
    page = client.get(f"/view/{match.id}?at=5")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert f'data-match="{match.id}"' in page.text and 'data-at="5"' in page.text
    assert not OTHER_HOST.search(page.text)
    kinds = {tag for tag, _ in loaded(page.text)}
    assert {"script", "link"} <= kinds
    for tag, url in loaded(page.text):
        assert not urlsplit(url).netloc, url
        asset = client.get(urljoin(str(page.url), url))
        assert asset.status_code == 200, url
        if tag == "script":
            assert "javascript" in asset.headers["content-type"]
            assert not OTHER_HOST.search(asset.text), url
            assert "innerHTML" not in asset.text  # text goes in as textContent; the board as parsed SVG
    policy = page.headers["content-security-policy"]
    assert "default-src 'self'" in policy and "script-src 'self'" in policy and "connect-src 'self'" in policy
    assert page.headers["referrer-policy"] == "no-referrer"
    assert client.get("/").headers["content-security-policy"] == policy
    assert client.get("/viewer-static/viewer.css").headers["content-type"].startswith("text/css")
    assert client.get("/viewer-static/nothing.js").status_code == 404
    arbiter = client.get(match.path("/state?at=5"), headers=bearer(match.arbiter)).json()
    hands = [hand for hand in arbiter["state"]["hands"] if hand]
    assert hands and '"hands"' not in page.text


# ---- the page's JSON reads -----------------------------------------------------------------------
def test_the_log_is_narrated_for_the_viewer(client: httpx.Client, match: Match) -> None:
    spectator = client.get(f"/view/{match.id}/log").json()
    seat = client.get(f"/view/{match.id}/log", headers=bearer(match.seat(0))).json()
    events = client.get(match.path("/events?limit=1000")).json()["events"]
    assert [entry["seq"] for entry in spectator["entries"]] == [event["seq"] for event in events]
    assert spectator["viewer"] == "spectator" and seat["viewer"] == "seat:0"
    assert all(entry["text"] and entry["actor"] and entry["at"] for entry in spectator["entries"])
    assert spectator["entries"][0]["text"].startswith("the match begins")
    hidden = [entry for entry in spectator["entries"] if entry["hidden"]]
    assert hidden and all("face down" in entry["text"] or "secret" in entry["text"] for entry in hidden)
    assert spectator["turns"][0] == 1 and spectator["turns"] == sorted(spectator["turns"])
    moves = [event for event in events if event["kind"] == "move"]
    starts = {moves[0]["seq"]} | {b["seq"] for a, b in itertools.pairwise(moves)
                                  if a["payload"]["seat"] != b["payload"]["seat"]}
    assert starts <= set(spectator["turns"])


def test_the_log_after_a_step_is_the_tail_of_the_whole_log(client: httpx.Client, match: Match) -> None:
    """What a live page adds: `?after=N` tells the entries after N exactly as the whole log does,
    with the whole turn and round starts, for each viewer."""
    for token in (None, match.seat(0), match.arbiter):
        whole = client.get(f"/view/{match.id}/log", headers=bearer(token)).json()
        for after in (0, 1, 7, whole["version"] - 1, whole["version"], whole["version"] + 5):
            tail = client.get(f"/view/{match.id}/log", params={"after": after}, headers=bearer(token)).json()
            assert tail["entries"] == [entry for entry in whole["entries"] if entry["seq"] > after], after
            assert (tail["turns"], tail["rounds"], tail["version"], tail["after"]) == \
                (whole["turns"], whole["rounds"], whole["version"], after)
    assert client.get(f"/view/{match.id}/log", params={"after": -1}).status_code == 422


def test_the_step_matches_the_state(client: httpx.Client, match: Match) -> None:
    for token, viewer in ((None, "spectator"), (match.seat(1), "seat:1"), (match.arbiter, "arbiter")):
        for at in (1, 9, 20):
            step = client.get(f"/view/{match.id}/step?at={at}", headers=bearer(token)).json()
            state = client.get(match.path(f"/state?at={at}"), headers=bearer(token)).json()
            assert step["seq"] == at and step["viewer"] == viewer
            assert step["scores"] == state["scores"] and step["to_move"] == state["decision"]["seats"]
            score = client.get(match.path(f"/score?at={at}")).json()
            assert [line["rule"] for line in step["sheet"]] == [line["rule"] for line in score["lines"]]
            assert all(line["rule_text"] for line in step["sheet"])
            if viewer == "spectator":
                assert step["yours"] == []
            if viewer == "seat:1" and at > 4:
                assert {"path": "/hands/1", "value": state["state"]["hands"][1]} in step["yours"]
                assert all(item["path"] != "/hands/0" for item in step["yours"])
            if at > 1:
                diff = client.get(match.path(f"/diff?from={at - 1}&to={at}"), headers=bearer(token)).json()
                assert step["changes"] == [{**change, "path": change["path"].removeprefix("/state")}
                                           for change in diff["changes"] if change["path"].startswith("/state/")]


# ---- round starts --------------------------------------------------------------------------------
def record_of(client: httpx.Client, match: Match) -> list[Entry]:
    """The whole record as the arbiter reads it (salts and all: what a fold needs)."""
    events: list[dict[str, Any]] = []
    start: int | None = 1
    while start is not None:
        page = client.get(match.path("/events"), params={"start": start, "limit": 1000},
                          headers=bearer(match.arbiter)).json()
        events += page["events"]
        start = page["next"]
    return [Entry.from_json(event) for event in events]


def folded(record: list[Entry]) -> list[tuple[Entry, Any]]:
    """Each entry with the game state after it: one fold of the record from its created event, as
    time travel shows the match at each step."""
    fold = MatchFold(record[0])
    states = [(record[0], fold.state)]
    for entry in record[1:]:
        fold.consume(entry)
        states.append((entry, fold.state))
    return states


def changes(record: list[Entry], counter: Callable[[Any], Any]) -> list[int]:
    """The steps where `counter` of the state (None: no round yet) changes to a new value."""
    starts, last = [], None
    for entry, state in folded(record):
        value = counter(state)
        if value is not None and value != last:
            starts.append(entry.seq)
        last = value
    return starts


def play_until(client: httpx.Client, match: Match, rng: random.Random, reached: Callable[[Any], bool],
               limit: int = 400) -> None:
    """Random legal moves over the API until the folded state is `reached` (checked every few steps)."""
    for played in itertools.count(1):
        assert play_one(client, match, rng) is not None, "the match ended first"
        if played % 8 == 0 and reached(folded(record_of(client, match))[-1][1]):
            return
        assert played < limit, "the match did not get there"


def rr_round(state: Any) -> int | None:
    """Russian Railroads' round counter (RR-3.1, RR-4.2): 0 during setup."""
    return int(state.round) or None


def dr_round(state: Any) -> tuple[int, int] | None:
    """Drum Roll's preparation round within its performance (DR-0.12, DR-3.4): 0s during setup."""
    return (state.performance, state.round) if state.round else None


def ct_week(state: Any) -> int | None:
    """Circus Train's calendar (CT-0.2: a round is a week): the week from when the first one's
    Ringmaster Phase is under way (its Roustabout Phase waits on the agenda), none in setup."""
    under_way = state.week > 0 or any(step.kind == "roustabout" for step in state.agenda)
    return int(state.week) if under_way else None


@pytest.fixture(scope="module")
def round_matches(client: httpx.Client) -> dict[str, Match]:
    """A match of each game played over the API into its third round (Circus Train: its fifth,
    past April's end); Carcassonne's first seat takes back the tile that began round 2 and lays
    one again."""
    played: dict[str, Match] = {}
    targets: dict[str, Callable[[Any], bool]] = {
        "russian-railroads": lambda state: (rr_round(state) or 0) >= 3,
        "drum-roll": lambda state: (dr_round(state) or (0, 0)) >= (1, 3),
        "circus-train": lambda state: (ct_week(state) or 0) >= 4,
    }
    for game, reached in targets.items():
        match = create(client, game, ["ann", "bob"])
        play_until(client, match, random.Random(3), reached)
        played[game] = match
    match = create(client, "carcassonne", ["ann", "bob", "cyd"], undo_policy="own-turn")
    rng = random.Random(4)
    while True:  # to seat 0's tile of turn 4, the first of round 2
        assert play_one(client, match, rng) is not None
        state = folded(record_of(client, match))[-1][1]
        if (state.turn, state.seat, state.phase) == (4, 0, "figure"):
            break
    undone = client.post(match.path("/undo-requests"), headers=bearer(match.seat(0)), json={"reason": "misplaced"})
    assert undone.status_code == 200, undone.text
    play_until(client, match, rng, lambda state: state.turn > 7)
    played["carcassonne"] = match
    return played


def rounds_of(client: httpx.Client, match: Match) -> list[int]:
    """The log's round starts, which are the same for every viewer (step numbers only)."""
    answers = [client.get(f"/view/{match.id}/log", headers=bearer(token)).json()
               for token in (None, match.seat(0), match.seat(1), match.arbiter)]
    rounds = answers[0]["rounds"]
    assert all(answer["rounds"] == rounds for answer in answers)
    assert all(type(seq) is int for seq in rounds) and rounds == sorted(set(rounds))
    return list(rounds)


def test_a_game_without_rounds_has_no_round_starts(client: httpx.Client, match: Match) -> None:
    """The test game does not implement the hook (`Ruleset.round_of` is None by default)."""
    assert client.get(f"/view/{match.id}/log").json()["rounds"] == []


def test_rr_3_1_rr_4_2_the_round_starts_are_where_the_round_counter_moves(
        client: httpx.Client, round_matches: dict[str, Match]) -> None:
    match = round_matches["russian-railroads"]
    rounds = rounds_of(client, match)
    assert rounds == changes(record_of(client, match), rr_round)
    assert len(rounds) >= 3


def test_dr_0_12_dr_3_4_the_round_starts_are_where_performance_and_round_change(
        client: httpx.Client, round_matches: dict[str, Match]) -> None:
    match = round_matches["drum-roll"]
    rounds = rounds_of(client, match)
    assert rounds == changes(record_of(client, match), dr_round)
    assert len(rounds) >= 3


def test_ct_0_2_ct_12_4_the_round_starts_are_the_weeks_of_the_calendar(
        client: httpx.Client, round_matches: dict[str, Match]) -> None:
    match = round_matches["circus-train"]
    record = record_of(client, match)
    rounds = rounds_of(client, match)
    assert rounds == changes(record, ct_week)
    weeks = {entry.seq: state.week for entry, state in folded(record)}
    assert [weeks[seq] for seq in rounds] == list(range(len(rounds))) and len(rounds) >= 5  # April's 4, then May


def test_cb_1_3_a_carcassonne_round_starts_with_each_turn_of_the_first_seat(
        client: httpx.Client, round_matches: dict[str, Match]) -> None:
    """No counter: a round is one turn of every seat, so it starts with each turn of the seat that
    laid the first tile. The tile taken back (own-turn undo) starts nothing; the one laid again does."""
    match = round_matches["carcassonne"]
    log = client.get(f"/view/{match.id}/log").json()
    record = record_of(client, match)
    movers = {entry.seq: entry.payload["seat"] for entry in record if entry.kind == "move"}
    first = movers[min(movers)]
    assert first == 0
    assert rounds_of(client, match) == [turn for turn in log["turns"] if movers.get(turn) == first]
    retracted = [entry["seq"] for entry in log["entries"] if entry["retracted_by"] is not None]
    assert len(retracted) == 1 and movers[retracted[0]] == first
    assert len(log["rounds"]) >= 3 and log["rounds"][0] < retracted[0] < log["rounds"][1]  # round 2 begun again
