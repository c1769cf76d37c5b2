"""The replay viewer over plain HTTP: the board endpoint (`/matches/{id}/board.svg`), the pages
(`/` the match list, `/view/{id}` a match) and the page's own JSON reads (`/view/{id}/log`,
`/view/{id}/step`), against a real server process: status codes, content types, the viewer each
token makes, nothing loaded from another host, and 4xx problems for bad input.

The test game (test-dicevote, drawn by the generic board) keeps this fast; the four games' pages
are opened in a real browser in test_browser.py."""

from __future__ import annotations

import itertools
import random
import re
import uuid
from collections.abc import Iterator
from html.parser import HTMLParser
from urllib.parse import urljoin, urlsplit
from xml.etree import ElementTree

import httpx
import pytest

from tests.api.support import Match, Server, bearer, create, play_one

OTHER_HOST = re.compile(r"(https?:)?//[\w.-]+\.\w")
"""A URL naming a host: the viewer's pages and assets name none (the SVG namespace aside)."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("viewer-pages") / "data").start()
    yield running
    running.stop()


@pytest.fixture(scope="module")
def client(server: Server) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.url, timeout=60) as http:
        yield http


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
