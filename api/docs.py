"""The API's interactive docs (`/docs`, `/redoc`) with every script, style sheet and icon served
by this server. The start page at `/` is the replay viewer's match list (`api/viewer/pages.py`),
which links here.

Why: FastAPI's docs pages load Swagger UI and ReDoc from a CDN, so without internet (a tournament
hall often has none) `/docs` is a blank page. The assets come from the `fastapi-offline` package
(MIT), which keeps Swagger UI's (Apache-2.0) and ReDoc's (MIT) bundles as package data; the pages
are FastAPI's own, pointed at them.
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

def install(app: FastAPI) -> None:
    """/docs (with Swagger UI's OAuth2 redirect page) and /redoc on `app`, which
    must be made with docs_url=None and redoc_url=None (FastAPI's own would load from a CDN).
    Links are relative to where the request came in (`root_path`), so a proxy may serve the API
    under a prefix."""
    app.mount(ASSETS, StaticFiles(packages=[("fastapi_offline", "static")]), name="docs-assets")
    oauth2_redirect = "/docs/oauth2-redirect"

    def prefix(request: Request) -> str:
        return str(request.scope.get("root_path", "")).rstrip("/")

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
