"""The replay viewer's routes: the match list at `/`, a match's page at `/view/{match_id}`, the two
JSON reads only that page needs (its narrated log and one step's details), and the page's script
and style sheet under `/viewer-static/`.

Why the pages hold no viewer data: the HTML is the same for every caller (public facts only), and
the script fetches the rest with the viewer's token in the Authorization header, exactly as any
other client of the API. So the token never travels in a URL (nor into logs or a Referer), and
what a page can show is what the API would answer that token: never more.
"""

from __future__ import annotations

from datetime import date, datetime, time
from typing import Annotated, Any
from uuid import UUID

from fastapi import APIRouter, Depends, FastAPI, Query
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

from domain.kernel.errors import MatchNotFoundError
from domain.kernel.registry import all_games

from ..auth import Principal
from ..context import ApiContext, caller, context
from ..problems import ApiProblem
from ..routers import READ
from ..schemas import MAX_INT
from . import html, steps

STATIC_PATH = f"/{html.STATIC}"
PAGE_SIZE = 25

Ctx = Annotated[ApiContext, Depends(context)]
Caller = Annotated[Principal, Depends(caller)]
At = Annotated[int | None, Query(ge=1, le=MAX_INT, description="a sequence number (default: the head)")]

router = APIRouter(tags=["viewer"])
POLICY = "; ".join((
    "default-src 'self'", "script-src 'self'", "connect-src 'self'", "img-src 'self' data:",
    "style-src 'self' 'unsafe-inline'",  # the boards' SVG carries its own <style>
    "base-uri 'none'", "form-action 'self'", "frame-ancestors 'none'", "object-src 'none'"))
"""The pages' Content-Security-Policy: the browser itself refuses any script, style sheet,
image or connection from another host, and any inline script."""

HEADERS = {"Content-Security-Policy": POLICY, "Referrer-Policy": "no-referrer", "X-Content-Type-Options": "nosniff"}
PAGE_HEADERS = {**HEADERS, "Cache-Control": "private, no-cache"}


def _day(value: date | None, end: bool = False) -> str | None:
    """A date filter (a day, from a date input) as the read model's ISO-8601 UTC text: `until`
    is exclusive, so a day given as the last one counts in full."""
    if value is None:
        return None
    moment = datetime.combine(value, time.min)
    if end:
        moment = moment.replace(hour=23, minute=59, second=59, microsecond=999999)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def _parse_day(name: str, value: str | None) -> date | None:
    """A date field of the filter form: empty is no filter; anything but a day is a 422 problem."""
    if not value or not value.strip():
        return None
    try:
        return date.fromisoformat(value.strip()[:10])
    except ValueError:
        raise ApiProblem(422, "validation-error", f"{name} must be a day (YYYY-MM-DD)",
                         errors=[{"field": f"query.{name}", "message": "a day, YYYY-MM-DD"}]) from None


@router.get("/", include_in_schema=False)
def start_page(
    ctx: Ctx,
    game: Annotated[str | None, Query(max_length=64)] = None,
    status: Annotated[str | None, Query(pattern="^(active|ended)?$")] = None,
    player: Annotated[str | None, Query(max_length=80)] = None,
    since: Annotated[str | None, Query(max_length=32, description="created on or after this day (YYYY-MM-DD)")] = None,
    until: Annotated[str | None, Query(max_length=32, description="created on or before this day")] = None,
    offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
) -> HTMLResponse:
    """The matches recorded here, filtered and paged (newest first); an empty field is no filter."""
    day_since, day_until = _parse_day("since", since), _parse_day("until", until)
    rows = ctx.ringside.list_matches(game=game or None, status=status or None, player=player or None,
                                     since=_day(day_since), until=_day(day_until, end=True),
                                     limit=PAGE_SIZE + 1, offset=offset)
    games = sorted((name, ruleset.title) for name, ruleset in all_games().items())
    filters = {"game": game, "status": status, "player": player,
               "since": day_since.isoformat() if day_since else None,
               "until": day_until.isoformat() if day_until else None}
    page = html.match_list(rows[:PAGE_SIZE], filters, games, offset=offset, limit=PAGE_SIZE,
                           more=len(rows) > PAGE_SIZE, title="Ringside")
    return HTMLResponse(page, headers=HEADERS)


@router.get("/view/{match_id}", include_in_schema=False)
def match_page(match_id: UUID, ctx: Ctx, at: At = None) -> HTMLResponse:
    """A match's page at step `at` (default: the last). Public facts only: the script fetches the
    rest as the viewer its token makes it."""
    try:
        summary = ctx.ringside.summary(match_id)
    except MatchNotFoundError:
        return HTMLResponse(html.not_found(f"There is no match {match_id} here.", root="../"), status_code=404,
                            headers=HEADERS)
    return HTMLResponse(html.match_page(summary, at, title="Ringside"), headers=PAGE_HEADERS)


@router.get("/view/{match_id}/log", responses=READ,
            summary="The viewer page's log: every entry narrated as the caller may see it, with turn and round "
                    "starts")
def page_log(match_id: UUID, ctx: Ctx, principal: Caller,
             after: Annotated[int | None, Query(ge=0, le=MAX_INT, description="only the entries after this "
                                                "sequence number (the turn and round starts stay whole)")] = None,
             ) -> dict[str, Any]:
    viewer = principal.viewer(ctx.ringside.fold(match_id))
    return steps.log(ctx.ringside, match_id, viewer, after=after)


@router.get("/view/{match_id}/step", responses=READ,
            summary="The viewer page's step: who is to move, scores and score sheet with rule texts, the change "
                    "from the step before and what the caller sees beyond a spectator")
def page_step(match_id: UUID, ctx: Ctx, principal: Caller, at: At = None) -> dict[str, Any]:
    viewer = principal.viewer(ctx.ringside.fold(match_id))
    return steps.step(ctx.ringside, match_id, viewer, at)


def install(app: FastAPI) -> None:
    """The viewer's routes and static files on `app` (the start page at `/` is the match list)."""
    app.mount(STATIC_PATH, StaticFiles(packages=[("api.viewer", "static")]), name="viewer-static")
    app.include_router(router)
