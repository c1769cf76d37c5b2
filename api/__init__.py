"""Ringside's HTTP API: every kernel capability over FastAPI, authenticated and redacted per viewer.

`create_app()` builds the application; `api.server.run()` (or `python -m api`) serves it.
"""

from .app import create_app

__all__ = ["create_app"]
