"""The pages a person opens first, over real HTTP: `/` (the replay viewer's match list,
tests/viewer/) leads to the docs and the main routes, and
`/docs` and `/redoc` load every script, style sheet and icon from this server (a tournament hall
often has no internet, and FastAPI's own docs pages load theirs from a CDN)."""

from __future__ import annotations

import os
import re
import shutil
from html.parser import HTMLParser
from urllib.parse import urljoin, urlsplit

import httpx
import pytest

from .support import Server


class References(HTMLParser):
    """Every URL a page loads or links to: src and href attributes, and redoc's spec-url."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[tuple[str, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name in ("src", "href", "spec-url") and value:
                self.urls.append((tag, value))


def references(html: str) -> list[tuple[str, str]]:
    parser = References()
    parser.feed(html)
    return parser.urls


def test_the_start_page_links_the_docs_and_the_main_routes(client: httpx.Client) -> None:
    page = client.get("/")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    links = {url for tag, url in references(page.text) if tag == "a"}
    assert {"docs", "redoc", "games", "matches", "keys", "health"} <= links, links
    assert 'aria-label="Filter matches"' in page.text  # the viewer's match list
    for _, url in references(page.text):
        assert not urlsplit(url).netloc, url
        assert client.get(urljoin(str(page.url), url)).status_code == 200, url


@pytest.mark.parametrize("path", ["/docs", "/redoc"])
def test_the_docs_load_everything_from_this_server(client: httpx.Client, path: str) -> None:
    page = client.get(path)
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert not re.search(r"(https?:)?//[\w.-]+\.\w", page.text), "the page names another host"
    loaded = references(page.text)
    assert {tag for tag, _ in loaded} >= {"script", "link"}, loaded
    for tag, url in loaded:
        assert not urlsplit(url).scheme and not urlsplit(url).netloc, url
        asset = client.get(urljoin(str(page.url), url))
        assert asset.status_code == 200, url
        assert len(asset.content) > 1000, url  # a real bundle, style sheet, icon or schema
        if tag == "script":
            assert "javascript" in asset.headers["content-type"], (url, asset.headers["content-type"])
    assert client.get("/docs/oauth2-redirect").status_code == 200  # Swagger UI's OAuth2 return page


def test_docs_assets_that_do_not_exist_are_problems(client: httpx.Client) -> None:
    missing = client.get("/docs-assets/nothing.js")
    assert missing.status_code == 404 and missing.headers["content-type"] == "application/problem+json"


def _chromium() -> str | None:
    return os.environ.get("RINGSIDE_TEST_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")


def test_swagger_ui_renders_in_a_browser_cut_off_from_the_internet(server: Server) -> None:
    """Headless Chromium opens /docs with every request to another host refused: Swagger UI
    draws the operations, and the page asked for nothing outside this machine."""
    chromium = _chromium()
    try:
        from playwright.sync_api import Route, sync_playwright
    except ImportError:
        chromium = None
    if chromium is None:
        if os.environ.get("CI"):
            pytest.fail("no Chromium and Playwright for the browser test (.ci/run installs Chromium)")
        pytest.skip("needs Chromium (apt-get install chromium) and Playwright (make installs it)")
    outside: list[str] = []

    def local_only(route: Route) -> None:
        if urlsplit(route.request.url).hostname in ("127.0.0.1", "localhost", "::1"):
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort("internetdisconnected")

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        try:
            page = browser.new_page()
            page.route("**/*", local_only)
            page.goto(f"{server.url}/docs")
            page.wait_for_selector(".swagger-ui .opblock", timeout=60_000)
            operations = page.locator(".swagger-ui .opblock").count()
            title = page.locator(".swagger-ui .info .title").inner_text()
        finally:
            browser.close()
    assert operations >= 20, operations
    assert title.startswith("Ringside")
    assert outside == []
