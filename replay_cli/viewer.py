"""The replay viewer from the command line: `ringside show --svg FILE` writes the board picture the
page shows, and `ringside view MATCH` opens the match's page in a browser.

Why a module of its own: `show` is a measured fast path, so nothing here (nor the API's boards it
draws with) is imported until `--svg` or `view` asks for it.
"""

from __future__ import annotations

import socket
import sys
import threading
import time
import webbrowser
from pathlib import Path
from typing import Any
from urllib.parse import quote

import click

from .context import path_is, settings, source_options
from .output import EXIT_USAGE, CliError


def write_board(target: Path, summary: dict[str, Any], view: dict[str, Any], viewer: str) -> None:
    """The board as the page draws it (the API's `draw_board`) from `view`, written to `target`
    (`-`: standard output). The view is the one `show` printed, so the picture holds nothing the
    viewer may not see."""
    try:
        from api.viewer.boards import draw_board
    except ImportError as error:
        raise CliError(f"the board drawings are not available in this installation ({error})", EXIT_USAGE) from None
    svg = draw_board(summary, {**view, "viewer": viewer}, viewer)
    if str(target) == "-":
        sys.stdout.write(svg + "\n")
        return
    try:
        target.write_text(svg + "\n", encoding="utf-8")
    except OSError as error:
        raise CliError(f"cannot write {target}: {error.strerror or error}", EXIT_USAGE) from None
    click.echo(f"wrote {target}: the board at #{view.get('seq')} as {viewer}", err=True)


def page_url(base: str, match_id: str, at: int | None) -> str:
    """The match page under the server's root URL `base`."""
    return f"{base.rstrip('/')}/view/{quote(match_id)}" + (f"?at={at}" if at is not None else "")


def free_port() -> int:
    """A port on 127.0.0.1 nobody listens on now (the server binds it right after)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def open_when_up(url: str, health: str, timeout: float = 60.0) -> None:
    """Open `url` in the user's browser once the server answers `health`: a browser opened
    before the server listens shows an error page."""
    import httpx

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if httpx.get(health, timeout=1).status_code == 200:
                webbrowser.open(url)
                return
        except httpx.HTTPError:
            time.sleep(0.2)


@click.command()
@source_options()
@click.argument("match")
@click.option("--at", type=click.IntRange(min=1), metavar="N", help="Open at the position after event N "
                                                                     "[default: the last].")
@click.option("--port", default=0, type=click.IntRange(0, 65535),
              help="Port of the local server [default: a free one].")
@click.option("--no-browser", is_flag=True, help="Only print the page's URL.")
def view(match: str, at: int | None, port: int, no_browser: bool) -> None:
    """Open MATCH's replay page in a browser: the board at any step, the log, the scores.

    With --url, the page of that server (a --token opens it as that seat or the arbiter: the
    token goes in the URL's fragment, which the page keeps in the tab and takes out of the
    address at once). On a local store, the API is started on a free port of 127.0.0.1 and the
    page's URL printed; Ctrl-C stops it.

    \b
    Examples:
      ringside view 3f2a
      ringside view 3f2a --at 40 --no-browser
      ringside --url http://hall:8000 --token rs_... view 3f2a
    """
    obj = settings()
    if obj.url:
        match_id = obj.main_source().resolve(match)
        url = page_url(obj.url, match_id, at)
        click.echo(url)
        if not no_browser:
            webbrowser.open(url + (f"#token={quote(obj.token)}" if obj.token else ""))
        return
    if match and path_is(Path(match), "file"):
        raise CliError(f"{match} is a bundle file: import it first (ringside import {match}), then view its match",
                       EXIT_USAGE)
    source, match_id = obj.match(match)
    source.close()  # the server opens the store itself
    serve_page(match_id, at, port or free_port(), not no_browser, obj.store)


def serve_page(match_id: str, at: int | None, port: int, browse: bool, store: str | None) -> None:
    """Serve the local store's API on 127.0.0.1:`port` (as `ringside serve` does) until Ctrl-C,
    having printed the page's URL (and opened it once the server is up)."""
    try:
        from api.server import ListenError, run
    except ImportError as error:
        raise CliError(f"the HTTP API is not available in this installation ({error})", EXIT_USAGE) from None
    from domain.store.settings import StoreSetupError

    data_dir: Path | None = None
    if store and not store.startswith(("postgresql://", "postgres://")):
        data_dir, store = Path(store), None
    base = f"http://127.0.0.1:{port}"
    url = page_url(base, match_id, at)
    click.echo(f"Ringside viewer: {url}  (Ctrl-C stops the server)")
    if browse:
        threading.Thread(target=open_when_up, args=(url, base + "/health"), daemon=True).start()
    try:
        run(host="127.0.0.1", port=port, data_dir=data_dir, store=store)
    except (StoreSetupError, ListenError) as error:
        raise CliError(str(error), EXIT_USAGE) from None
