"""The replay viewer in a real browser: headless Chromium from the operating system's packages,
driven through Playwright's sync API, with every request to another host refused.

A match of each of the four games is created and played over the API (random legal moves), then
opened as a seat and as a spectator: scrubbed with keys and the slider, the page's step, board,
scores and hand are checked against `GET /state?at=N` for the same token; every response the
spectator's page receives (documents, assets, fetches, the live stream) is searched for the
values only the arbiter's view holds; a live match is followed while moves are posted; the
audit panel verifies the record and checks receipts. One screenshot per game (wide and phone)
goes to RINGSIDE_TEST_ARTIFACTS (default tests/artifacts/).

Kept cheap in CI: one server and one browser for the module (each test opens its own context),
and the tests share one xdist group, so they run in one worker.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest

from domain.kernel.diff import diff
from tests.api.support import Match, Server, add_account, bearer, create, play_one

pytestmark = pytest.mark.xdist_group("browser")

playwright_api = pytest.importorskip("playwright.sync_api", reason="needs Playwright (make installs it)")
from playwright.sync_api import Browser, BrowserContext, Page, Route, expect  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
GAMES = {"carcassonne": ["ann", "bob", "cyd"], "circus-train": ["ann", "bob"], "drum-roll": ["ann", "bob", "cyd"],
         "russian-railroads": ["ann", "bob", "cyd"]}
MOVES = 36
"""Steps played in each game's match: past setup into real play, a few seconds each."""

WAIT = 30_000
"""How long `expect` waits for the page (ms): a generous bound, never a sleep."""
expect.set_options(timeout=WAIT)

CAPTURE = """
// Tee every fetch's body (the live stream's too, chunk by chunk) into window.__seen, for the test
// to search: what the page's script received, exactly as it arrived.
window.__seen = [];
const original = window.fetch;
window.fetch = async (...args) => {
  const response = await original(...args);
  const reader = response.clone().body?.getReader();
  if (reader) {
    const decoder = new TextDecoder();
    (async () => {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        window.__seen.push(decoder.decode(value, { stream: true }));
      }
    })().catch(() => {});
  }
  return response;
};
"""


def chromium() -> str | None:
    return os.environ.get("RINGSIDE_TEST_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")


def artifacts() -> Path:
    folder = Path(os.environ.get("RINGSIDE_TEST_ARTIFACTS") or ROOT / "tests" / "artifacts")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture(scope="module")
def matches(client: httpx.Client) -> dict[str, Match]:
    """One match of each game, MOVES steps into play (random legal moves, as each seat)."""
    played = {}
    for number, (game, players) in enumerate(GAMES.items()):
        match = create(client, game, players)
        rng = random.Random(number)
        for _ in range(MOVES):
            if play_one(client, match, rng) is None:
                break
        played[game] = match
    return played


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    executable = chromium()
    if executable is None:
        if os.environ.get("CI"):
            pytest.fail("no Chromium for the browser tests (.ci/run installs it)")
        pytest.skip("needs Chromium from the system's packages (apt-get install chromium)")
    with playwright_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=executable, args=["--no-sandbox"])
        yield launched
        launched.close()


class Tab:
    """One browser context with one page: requests to another host refused (and listed), page
    errors collected, and every response body kept for the hidden-information check."""

    def __init__(self, browser: Browser, width: int = 1280, height: int = 800) -> None:
        self.context: BrowserContext = browser.new_context(viewport={"width": width, "height": height})
        self.outside: list[str] = []
        self.errors: list[str] = []
        self.documents: list[str] = []
        self.context.route("**/*", self._local_only)
        self.context.add_init_script(CAPTURE)
        self.page: Page = self.context.new_page()
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.on("response", self._keep)
        self.fetched: list[tuple[str, str | None]] = []
        """Each fetch the page's script made: its URL and its Authorization header."""
        self.page.on("request", lambda request: self.fetched.append(
            (request.url, request.headers.get("authorization"))) if request.resource_type == "fetch" else None)

    def _local_only(self, route: Route) -> None:
        if urlsplit(route.request.url).hostname in ("127.0.0.1", "localhost", "::1"):
            route.continue_()
        else:
            self.outside.append(route.request.url)
            route.abort("internetdisconnected")

    def _keep(self, response: Any) -> None:
        if response.request.resource_type in ("document", "script", "stylesheet"):
            with contextlib.suppress(Exception):  # a page navigated away before its body was read
                self.documents.append(response.text())

    def received(self) -> str:
        """Everything the page received: documents and assets, every fetch's body, and the DOM."""
        seen = self.page.evaluate("window.__seen.join('')")
        return "\n".join([*self.documents, seen, self.page.content()])

    def close(self) -> None:
        assert self.outside == [], f"the page asked another host: {self.outside}"
        assert self.errors == [], f"script errors: {self.errors}"
        self.context.close()


def open_match(tab: Tab, server: Server, match: Match, at: int | None = None, token: str | None = None) -> None:
    url = f"{server.url}/view/{match.id}" + (f"?at={at}" if at else "") + (f"#token={token}" if token else "")
    tab.page.goto(url)
    if token:  # the token left the address at once, into this tab's session storage
        expect(tab.page).not_to_have_url(re.compile("token"), timeout=WAIT)
        assert tab.page.evaluate(f"sessionStorage.getItem('ringside-token:{match.id}')") == token
    shown(tab.page, at or version_of(tab.page))


def version_of(page: Page) -> int:
    return int(page.locator("body").get_attribute("data-version") or 0)


def shown(page: Page, seq: int) -> None:
    """Wait until the page shows step `seq` in full: the counter, the board and the details."""
    expect(page.locator("#step")).to_have_attribute("data-seq", str(seq), timeout=WAIT)
    expect(page.locator("#board svg")).to_have_attribute("data-seq", str(seq), timeout=WAIT)
    expect(page.locator("body")).to_have_attribute("data-shown", str(seq), timeout=WAIT)


def check_step(page: Page, client: httpx.Client, match: Match, seq: int, token: str | None) -> None:
    """What the page shows at `seq` is what `/state?at=seq` answers the same token."""
    shown(page, seq)
    state = client.get(match.path(f"/state?at={seq}"), headers=bearer(token)).json()
    assert f"at={seq}" in page.url
    scores = {int(row.get_attribute("data-seat") or -1): int(row.get_attribute("data-score") or 0)
              for row in page.locator("#scores tr[data-seat]").all()}
    assert scores == dict(enumerate(state["scores"])), (seq, scores, state["scores"])
    expect(page.locator("#log li[aria-current]")).to_have_attribute("data-seq", str(seq))
    # what this viewer sees beyond a spectator (a seat's hand): exactly the state's values there
    public = client.get(match.path(f"/state?at={seq}")).json()
    expected = {change["path"]: change["after"] for change in diff(public["state"], state["state"])
                if change["op"] != "removed"}
    shown_values = {item.get_attribute("data-path"): json.loads(item.get_attribute("data-value") or "null")
                    for item in page.locator("#yours dd[data-path]").all()}
    assert shown_values == expected, (seq, shown_values, expected)
    if token is None:
        expect(page.locator("#yours-box")).to_be_hidden()


def press(page: Page, key: str) -> None:
    page.locator("#board").focus()
    page.keyboard.press(key)


def slide(page: Page, seq: int) -> None:
    """Drag the slider to `seq`: set its value and send the input event a drag sends."""
    page.locator("#slider").evaluate("(s, v) => { s.value = v; s.dispatchEvent(new Event('input')); }", str(seq))


# ---- scrubbing, as a seat and as a spectator ------------------------------------------------------
@pytest.mark.parametrize("game", list(GAMES))
def test_scrubbing_shows_the_state_of_each_step(browser: Browser, server: Server, client: httpx.Client,
                                                matches: dict[str, Match], game: str) -> None:
    match = matches[game]
    head = client.get(match.path()).json()["version"]
    for token in (match.seat(0), None):
        tab = Tab(browser)
        try:
            page = tab.page
            open_match(tab, server, match, at=5, token=token)
            check_step(page, client, match, 5, token)
            expect(page.locator("#viewer")).to_have_attribute("data-viewer", "seat:0" if token else "spectator")
            press(page, "ArrowRight")
            press(page, "ArrowRight")
            check_step(page, client, match, 7, token)
            press(page, "ArrowLeft")
            check_step(page, client, match, 6, token)
            press(page, "End")
            check_step(page, client, match, head, token)
            press(page, "Home")
            check_step(page, client, match, 1, token)
            slide(page, head - 4)
            check_step(page, client, match, head - 4, token)
            turns = client.get(f"/view/{match.id}/log", headers=bearer(token)).json()["turns"]
            press(page, "PageDown")
            after = next((turn for turn in turns if turn > head - 4), head)
            check_step(page, client, match, after, token)
            press(page, "PageUp")
            check_step(page, client, match, max(turn for turn in turns if turn < after), token)
            page.reload()  # the URL kept the step: the same position opens again
            shown(page, max(turn for turn in turns if turn < after))
            assert tab.fetched and {header for _, header in tab.fetched} == {f"Bearer {token}" if token else None}
            assert not any("token" in url for url, _ in tab.fetched)
            if token:
                for width, height, name in ((1280, 800, "wide"), (390, 844, "phone")):
                    page.set_viewport_size({"width": width, "height": height})
                    page.goto(f"{server.url}/view/{match.id}?at={head - 4}")
                    shown(page, head - 4)
                    page.screenshot(path=str(artifacts() / f"viewer-{game}-{name}.png"), full_page=name == "phone")
        finally:
            tab.close()


def test_the_round_keys_jump_to_the_round_starts(browser: Browser, server: Server, client: httpx.Client,
                                                 matches: dict[str, Match]) -> None:
    """Shift+Page Down (or ]) moves the slider to the next round start the log lists (Circus Train's
    weeks, CT-0.2), Shift+Page Up (or [) back, the buttons the same; the URL's step follows and the
    step counter says the round."""
    match = matches["circus-train"]
    rounds = client.get(f"/view/{match.id}/log").json()["rounds"]
    assert len(rounds) >= 2 and rounds[0] > 1
    tab = Tab(browser)
    try:
        page = tab.page
        open_match(tab, server, match, at=1)
        expect(page.locator("#next-round")).to_be_visible()
        expect(page.locator("#next-round")).to_have_attribute("aria-label", re.compile("Next round"))
        expect(page.locator("#step")).not_to_contain_text("round")  # setup: no round yet
        for key, seq, number in (("Shift+PageDown", rounds[0], 1), ("]", rounds[1], 2), ("Shift+PageUp", rounds[0], 1)):
            press(page, key)
            shown(page, seq)
            expect(page.locator("#slider")).to_have_value(str(seq))
            expect(page).to_have_url(re.compile(rf"[?&]at={seq}(&|#|$)"))
            expect(page.locator("#step")).to_contain_text(f"round {number}")
        press(page, "[")  # before the first round: the first step
        shown(page, 1)
        page.locator("#next-round").click()
        shown(page, rounds[0])
        expect(page).to_have_url(re.compile(rf"[?&]at={rounds[0]}(&|#|$)"))
    finally:
        tab.close()


# ---- nothing hidden reaches a spectator ----------------------------------------------------------
def strings(value: Any) -> set[str]:
    """Every string in a JSON value (keys aside) that could name a card or token: two characters
    or more."""
    if isinstance(value, dict):
        return set().union(*(strings(item) for item in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(strings(item) for item in value)) if value else set()
    return {value} if isinstance(value, str) and len(value) >= 2 else set()


@pytest.mark.parametrize("game", ["drum-roll", "russian-railroads", "carcassonne"])
def test_no_response_a_spectator_receives_holds_a_hidden_value(browser: Browser, server: Server,
                                                                client: httpx.Client, game: str) -> None:
    """The spectator's page is scrubbed through the match, follows two moves live (the stream's
    entries), and runs the verification; then hidden values are those the arbiter's view holds
    at the steps shown and the spectator's never does (no state at any step, no log entry): a
    hand's cards, a deck's order, a face-down draw. None is in anything the page received."""
    match = create(client, game, GAMES[game])
    rng = random.Random(11)
    for _ in range(MOVES):
        play_one(client, match, rng)
    head = client.get(match.path()).json()["version"]
    visited = sorted({2, 5, 9, 14, 20, head // 2, head - 1, head})
    tab = Tab(browser)
    try:
        open_match(tab, server, match, at=visited[0])
        for seq in visited[1:]:
            slide(tab.page, seq)
            shown(tab.page, seq)
        expect(tab.page.locator("#live")).to_be_visible(timeout=WAIT)
        for _ in range(2):
            play_one(client, match, rng)
        visited.append(client.get(match.path()).json()["version"])
        shown(tab.page, visited[-1])
        tab.page.locator("#audit-box > summary").click()
        tab.page.locator("#verify").click()
        expect(tab.page.locator("#report [data-ok]")).to_be_visible(timeout=WAIT)
        received = tab.received()
    finally:
        tab.close()
    public: set[str] = strings(client.get(match.path("/events?limit=1000")).json())
    for seq in range(1, visited[-1] + 1):
        public |= strings(client.get(match.path(f"/state?at={seq}")).json())
    hidden: set[str] = set()
    for seq in visited:
        hidden |= strings(client.get(match.path(f"/state?at={seq}"), headers=bearer(match.arbiter)).json()["state"])
    hidden = {value for value in hidden - public if not re.fullmatch(r"[0-9a-f]{16,}|\d{4}-.*", value)}
    if game != "carcassonne":  # its one secret, a face-down animal token, depends on the draws
        assert hidden, "the match should hide something from spectators by now (a deck, a hand)"
    leaked = sorted(value for value in hidden if re.search(rf"(?<![\w-]){re.escape(value)}(?![\w-])", received))
    assert leaked == [], f"a spectator's page received hidden values: {leaked}"


# ---- live -----------------------------------------------------------------------------------------
def test_a_live_match_carries_the_page_along(browser: Browser, server: Server, client: httpx.Client) -> None:
    """The page at the head of a match in play follows the moves posted over HTTP, without a
    reload (a marker set in the page survives), the log and the board with it."""
    match = create(client, "drum-roll", ["ann", "bob"])
    rng = random.Random(7)
    for _ in range(10):
        play_one(client, match, rng)
    tab = Tab(browser)
    try:
        page = tab.page
        open_match(tab, server, match, token=match.seat(1))
        expect(page.locator("#live")).to_be_visible(timeout=WAIT)
        page.evaluate("window.__still = true")
        for _ in range(3):
            play_one(client, match, rng)
            head = client.get(match.path()).json()["version"]
            shown(page, head)
            expect(page.locator(f"#log li[data-seq='{head}']")).to_be_visible()
            expect(page.locator("#log > li")).to_have_count(head)  # the new entries added, none twice
        assert page.evaluate("window.__still") is True
        check_step(page, client, match, head, match.seat(1))
        press(page, "Home")  # a viewer looking back is not carried along, but the slider grows
        shown(page, 1)
        play_one(client, match, rng)
        head = client.get(match.path()).json()["version"]
        expect(page.locator("#slider")).to_have_attribute("max", str(head), timeout=WAIT)
        expect(page.locator("#step")).to_have_attribute("data-seq", "1")
    finally:
        tab.close()


def test_an_annotation_made_while_the_page_is_open_appears_for_those_who_may_read_it(
        browser: Browser, server: Server, client: httpx.Client) -> None:
    """A commentator's note reaches an open page through the stream (no new event of the match):
    inline in the log and at its step, for the seat that may read it; an arbiter-only note made at
    the same time never reaches that seat's page."""
    match = create(client, "circus-train", ["ann", "bob"])
    rng = random.Random(5)
    for _ in range(4):
        play_one(client, match, rng)
    head = client.get(match.path()).json()["version"]
    tab = Tab(browser)
    try:
        page = tab.page
        open_match(tab, server, match, token=match.seat(1))
        expect(page.locator("#live")).to_be_visible(timeout=WAIT)
        expect(page.locator("#notes .note")).to_have_count(0)
        for text, visibility in (("the panel's secret", "arbiter"), ("a daring route", "public")):
            answer = client.post(match.path("/annotations"), headers=bearer(match.arbiter),
                                 json={"seq": head, "text": text, "glyphs": ["!?"], "visibility": visibility})
            assert answer.status_code == 201, answer.text
        expect(page.locator("#notes .note")).to_have_count(1, timeout=WAIT)
        expect(page.locator("#notes .note")).to_contain_text("!? a daring route")
        expect(page.locator(f"#log li[data-seq='{head}']")).to_contain_text("a daring route", timeout=WAIT)
        assert client.get(match.path()).json()["version"] == head  # no event of the match carried it
        assert "the panel's secret" not in page.content()
    finally:
        tab.close()


# ---- audit, tokens from the form ----------------------------------------------------------------
def test_the_audit_panel_verifies_and_checks_receipts(browser: Browser, server: Server, client: httpx.Client,
                                                      matches: dict[str, Match]) -> None:
    match = create(client, "circus-train", ["ann", "bob"])
    rng = random.Random(3)
    answers = [answer for answer in (play_one(client, match, rng) for _ in range(6)) if answer]
    receipt = answers[-1]["receipt"]
    tab = Tab(browser)
    try:
        page = tab.page
        open_match(tab, server, match)
        page.locator("#token").fill(match.arbiter)  # a token typed in the form, not the URL
        page.locator("#token").press("Enter")
        expect(page.locator("#viewer")).to_have_attribute("data-viewer", "arbiter", timeout=WAIT)
        page.locator("#audit-box > summary").click()
        page.locator("#verify").click()
        expect(page.locator("#report [data-ok='true']")).to_be_visible(timeout=WAIT)
        expect(page.locator("#report [data-trusted='true']")).to_have_count(1)
        page.locator("#receipts").fill(json.dumps([receipt, {**receipt, "hash": "0" * 64}]))
        page.locator("#receipts-form button[type=submit]").click()
        expect(page.locator("#receipt-report [data-receipt='holds']")).to_have_count(1, timeout=WAIT)
        expect(page.locator("#receipt-report [data-receipt]")).to_have_count(2)  # the forged one proves nothing
        expect(page.locator("#receipt-report .bad[data-receipt]")).to_have_count(1)
        page.locator("#forget").click()
        expect(page.locator("#viewer")).to_have_attribute("data-viewer", "spectator", timeout=WAIT)
        page.locator("#token").fill("rs_not-a-token")
        page.locator("#token").press("Enter")
        expect(page.locator("#token-error")).to_contain_text("does not open this match", timeout=WAIT)
        expect(page.locator("#viewer")).to_have_attribute("data-viewer", "spectator")
    finally:
        tab.close()


def test_the_match_list_filters_and_opens_a_match(browser: Browser, server: Server,
                                                  matches: dict[str, Match]) -> None:
    tab = Tab(browser, 390, 844)
    try:
        page = tab.page
        page.goto(server.url + "/")
        page.locator("select[name=game]").select_option("russian-railroads")
        page.locator(".filters button[type=submit]").click()
        expect(page).to_have_url(re.compile("game=russian-railroads"), timeout=WAIT)
        rows = page.locator("table.matches tbody tr")
        assert rows.count() >= 1 and all("russian-railroads" in row.inner_text() for row in rows.all())
        page.locator(f"table.matches tbody a[href='view/{matches['russian-railroads'].id}']").click()
        expect(page).to_have_url(re.compile(f"/view/{matches['russian-railroads'].id}"))
        shown(page, version_of(page))
        page.screenshot(path=str(artifacts() / "viewer-list-then-match-phone.png"))
    finally:
        tab.close()


# ---- the log's marks and the annotations, as each viewer --------------------------------------------
def test_the_log_marks_undo_and_rulings_and_shows_each_viewer_its_annotations(
        browser: Browser, server: Server, client: httpx.Client) -> None:
    """Retracted moves are struck through, undo requests and rulings marked; annotations sit at
    their step with author, glyphs and visibility, each viewer seeing only those meant for it."""
    match = create(client, "test-dicevote", ["ann", "bob"], options={"rounds": 30}, undo_policy="consent")
    rng = random.Random(2)
    for _ in range(8):
        play_one(client, match, rng)
    events = client.get(match.path("/events")).json()["events"]
    mover = [event for event in events if event["kind"] == "move"][-1]["payload"]["seat"]
    asked = client.post(match.path("/undo-requests"), headers=bearer(match.seat(mover)), json={"reason": "misclick"})
    assert asked.status_code == 200, asked.text
    pending = client.get(match.path("/undo-requests")).json()["requests"][-1]
    if pending["status"] == "pending":
        answer = client.post(match.path(f"/undo-requests/{pending['id']}/answers"),
                             headers=bearer(match.seat(1 - mover)), json={"accept": True})
        assert answer.status_code == 200, answer.text
    ruled = client.post(match.path("/rulings"), headers=bearer(match.arbiter),
                        json={"ruling": "penalty", "seat": 1, "points": 2, "note": "slow play"})
    assert ruled.status_code == 200, ruled.text
    for token, seq, visibility, text in ((match.seat(0), 3, "public", "a bold opening"),
                                         (match.seat(1), 3, "seat:1", "bob's private note"),
                                         (match.arbiter, 4, "arbiter", "for the panel only")):
        note = client.post(match.path("/annotations"), headers=bearer(token),
                           json={"seq": seq, "text": text, "glyphs": ["!?"], "visibility": visibility})
        assert note.status_code == 201, note.text
    events = client.get(match.path("/events")).json()["events"]
    retracted = [event["seq"] for event in events if event["retracted_by"] is not None]
    assert retracted
    tab = Tab(browser)
    try:
        page = tab.page
        open_match(tab, server, match, at=3)
        for seq in retracted:
            expect(page.locator(f"#log li[data-seq='{seq}'].retracted del")).to_have_count(1)
        expect(page.locator("#log li.mark-ruling")).to_have_count(1)
        expect(page.locator("#log li.mark-ruling")).to_contain_text("slow play")
        expect(page.locator("#log li.kind-undo-requested.mark-undo")).to_have_count(1)
        expect(page.locator("#log li[data-seq='3'] .note")).to_have_count(1)
        expect(page.locator("#notes .note")).to_contain_text("!? a bold opening — seat 0 (ann), public")
        page.goto(f"{server.url}/view/{match.id}?at=3#token={match.seat(1)}")
        expect(page.locator("#notes .note")).to_have_count(2, timeout=WAIT)
        expect(page.locator("#notes .visibility-seat-1")).to_contain_text("for seat:1")
        expect(page.locator("#log .visibility-arbiter")).to_have_count(0)
        page.goto(f"{server.url}/view/{match.id}?at=4#token={match.arbiter}")
        expect(page.locator("#notes .visibility-arbiter")).to_contain_text("for the panel only", timeout=WAIT)
        expect(page.locator("#log .note")).to_have_count(3)
    finally:
        tab.close()


def test_an_untrusted_record_shows_its_divergence_at_its_step(browser: Browser, server: Server,
                                                               client: httpx.Client) -> None:
    """A record imported from another server (the bundle test vectors' finished match, signed by a
    key this server does not trust) is intact but NOT trusted: the report names the first
    divergence with a link to its step, and its signer as not trusted."""
    bundle = (ROOT / "tools" / "vectors" / "valid.ringside.jsonl").read_bytes()
    imported = client.post("/bundles", content=bundle, headers={**bearer(add_account(server, "archive")),
                                                                "Content-Type": "application/x-ndjson"})
    assert imported.status_code in (201, 409), imported.text
    match_id = json.loads(bundle.split(b"\n", 1)[0])["match_id"]
    tab = Tab(browser)
    try:
        page = tab.page
        page.goto(f"{server.url}/view/{match_id}?at=9")
        shown(page, 9)
        expect(page.locator(".facts .flag")).to_contain_text("imported")
        page.locator("#audit-box > summary").click()
        page.locator("#verify").click()
        expect(page.locator("#report [data-ok='false']")).to_contain_text("NOT TRUSTED")
        expect(page.locator("#report [data-trusted='false']")).to_have_count(1)
        page.locator("#report a.divergence").click()
        shown(page, 1)
    finally:
        tab.close()


def test_the_page_is_usable_from_the_keyboard(browser: Browser, server: Server, matches: dict[str, Match]) -> None:
    """Tab walks the header, the token form and the step controls in reading order, each with an
    accessible name and a visible focus ring; the keys then move through the match."""
    match = matches["circus-train"]
    tab = Tab(browser)
    try:
        page = tab.page
        open_match(tab, server, match, at=4)
        order = []
        for _ in range(15):
            page.keyboard.press("Tab")
            order.append(page.evaluate("""() => {
                const el = document.activeElement;
                const style = getComputedStyle(el);
                const label = el.getAttribute('aria-label')
                    || (el.labels && el.labels.length && el.labels[0].textContent) || el.textContent;
                return [el.id || el.textContent.trim(), label.trim(),
                        style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0];
            }"""))
        ids = [name for name, _, _ in order]
        assert ids[:2] == ["Skip to the board", "All matches"], ids
        expected = ["token", "first", "prev-round", "prev-turn", "prev", "slider", "next", "next-turn", "next-round",
                    "last"]
        assert [name for name in ids if name in expected] == expected, ids
        assert all(label for _, label, _ in order), order
        assert all(ring for _, _, ring in order), order
        page.locator("#slider").focus()
        page.keyboard.press("ArrowRight")
        shown(page, 5)
        page.keyboard.press("End")
        shown(page, version_of(page))
    finally:
        tab.close()
