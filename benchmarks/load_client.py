"""A lean HTTP/1.1 load client for the API benchmarks: one keep-alive connection per simulated
client, all on one asyncio loop, responses parsed by httptools (the parser uvicorn uses).

Why not httpx from threads: eight httpx clients in one process spend ~2.7 ms of CPU per request
on their own, fighting over the GIL, so on a two-core machine the client, not the server, set the
measured rate. This client costs a few tens of microseconds per request, the way `wrk` would
(orjson for its bodies: on two cores, whatever the client spends the server cannot).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import httptools
import orjson


@dataclass
class _Response:
    body: bytearray = field(default_factory=bytearray)
    done: bool = False


class _Parser:
    """httptools callbacks collecting one response at a time."""

    def __init__(self) -> None:
        self.response = _Response()
        self.parser = httptools.HttpResponseParser(self)

    def on_body(self, body: bytes) -> None:
        self.response.body += body

    def on_message_complete(self) -> None:
        self.response.done = True


class Connection:
    """One persistent connection that sends requests one after another."""

    def __init__(self, url: str) -> None:
        parts = urlsplit(url)
        self.host = parts.hostname or "127.0.0.1"
        self.port = parts.port or 80
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None

    async def __aenter__(self) -> Connection:
        self._reader, self._writer = await asyncio.open_connection(self.host, self.port)
        return self

    async def __aexit__(self, *_: Any) -> None:
        if self._writer is not None:
            self._writer.close()
            await self._writer.wait_closed()

    async def request(self, method: str, path: str, body: Any = None,
                      headers: dict[str, str] | None = None) -> tuple[int, Any]:
        """Send one request and return (status, decoded JSON body)."""
        assert self._reader is not None and self._writer is not None
        payload = b"" if body is None else orjson.dumps(body)
        lines = [f"{method} {path} HTTP/1.1", f"Host: {self.host}:{self.port}",
                 f"Content-Length: {len(payload)}"]
        if body is not None:
            lines.append("Content-Type: application/json")
        lines += [f"{name}: {value}" for name, value in (headers or {}).items()]
        self._writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + payload)
        parser = _Parser()
        while not parser.response.done:
            chunk = await self._reader.read(65536)
            if not chunk:
                raise ConnectionError("the server closed the connection")
            parser.parser.feed_data(chunk)
        status = parser.parser.get_status_code()
        return status, orjson.loads(parser.response.body) if parser.response.body else None
