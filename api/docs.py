"""The API's own pages: a start page at `/`, and the interactive docs (`/docs`, `/redoc`) with
every script, style sheet and icon served by this server.

Why: FastAPI's docs pages load Swagger UI and ReDoc from a CDN, so without internet (a tournament
hall often has none) `/docs` is a blank page. The assets come from the `fastapi-offline` package
(MIT), which keeps Swagger UI's (Apache-2.0) and ReDoc's (MIT) bundles as package data; the pages
are FastAPI's own, pointed at them. And `/` answered 404, although it is the URL `make run` prints.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html, get_swagger_ui_oauth2_redirect_html
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

ASSETS = "/docs-assets"
"""Where the docs' scripts, style sheets and icon are served from."""

SWAGGER_PARAMETERS: dict[str, Any] = {"validatorUrl": None}
"""Swagger UI would otherwise offer to send the schema to swagger.io's validator."""

START_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="docs-assets/favicon.png">
<title>{title}</title>
<style>body {{ font-family: system-ui, sans-serif; max-width: 40rem; margin: 2rem auto; padding: 0 1rem;
line-height: 1.5 }} code {{ background: #eee; padding: 0 .2em }}</style>
</head>
<body>
<h1>{title}</h1>
<p>Tabletop matches recorded as hash-chained, signed event logs. This is the HTTP API; the
<code>ringside</code> command works with it too (<code>ringside --url URL matches</code>).</p>
<ul>
<li><a href="docs">API docs</a> (interactive, Swagger UI) or the <a href="redoc">reference</a> (ReDoc);
the schema as <a href="openapi.json">OpenAPI JSON</a></li>
<li><a href="games">games</a>: the catalogue, with each game's variants, options and bots</li>
<li><a href="matches">matches</a>: the matches recorded here, newest first</li>
<li><a href="keys">keys</a>: the public keys this server signs with, to trust its records</li>
<li><a href="health">health</a>: whether the server is up, and its store</li>
</ul>
</body>
</html>
"""


def install(app: FastAPI) -> None:
    """The start page, /docs (with Swagger UI's OAuth2 redirect page) and /redoc on `app`, which
    must be made with docs_url=None and redoc_url=None (FastAPI's own would load from a CDN).
    Links are relative to where the request came in (`root_path`), so a proxy may serve the API
    under a prefix."""
    app.mount(ASSETS, StaticFiles(packages=[("fastapi_offline", "static")]), name="docs-assets")
    oauth2_redirect = "/docs/oauth2-redirect"

    def prefix(request: Request) -> str:
        return str(request.scope.get("root_path", "")).rstrip("/")

    @app.get("/", include_in_schema=False)
    async def start_page() -> HTMLResponse:
        return HTMLResponse(START_PAGE.format(title=app.title))

    @app.get("/docs", include_in_schema=False)
    async def swagger_ui(request: Request) -> HTMLResponse:
        root = prefix(request)
        return get_swagger_ui_html(openapi_url=f"{root}{app.openapi_url}", title=f"{app.title} - Swagger UI",
                                   swagger_js_url=f"{root}{ASSETS}/swagger-ui-bundle.js",
                                   swagger_css_url=f"{root}{ASSETS}/swagger-ui.css",
                                   swagger_favicon_url=f"{root}{ASSETS}/favicon.png",
                                   oauth2_redirect_url=f"{root}{oauth2_redirect}",
                                   swagger_ui_parameters=SWAGGER_PARAMETERS)

    @app.get(oauth2_redirect, include_in_schema=False)
    async def swagger_ui_redirect() -> HTMLResponse:
        return get_swagger_ui_oauth2_redirect_html()

    @app.get("/redoc", include_in_schema=False)
    async def redoc(request: Request) -> HTMLResponse:
        root = prefix(request)
        return get_redoc_html(openapi_url=f"{root}{app.openapi_url}", title=f"{app.title} - ReDoc",
                              redoc_js_url=f"{root}{ASSETS}/redoc.standalone.js",
                              redoc_favicon_url=f"{root}{ASSETS}/favicon.png", with_google_fonts=False)
