"""Property-based tests of the whole API against its own OpenAPI schema (schemathesis): bounded
examples per operation; no answer is a 5xx and every answer matches the documented schema, status
code and content type. Half the generated calls target a real match with a real token, so the
fuzzing reaches the rules engine, not only the 404 path."""

from __future__ import annotations

import os
import random
import tempfile
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from api.app import create_app
from domain.application import Ringside

from .support import Server, create

MAX_EXAMPLES = int(os.environ.get("RINGSIDE_SCHEMATHESIS_EXAMPLES", "12"))


@pytest.fixture(scope="module")
def real_matches(server: Server) -> Iterator[list[Any]]:
    with httpx.Client(base_url=server.url) as client:
        yield [
            create(client, players=["ann", "bob"]),
            create(client, players=["cy", "di"], randomness="recorded"),
            create(client, "carcassonne", ["eve", "fay"]),
        ]


def _openapi() -> dict[str, Any]:
    """The served schema, built in-process at collection time (the server's URL comes later)."""
    with tempfile.TemporaryDirectory() as directory:
        ringside = Ringside.open(data_dir=directory)
        try:
            document: dict[str, Any] = create_app(ringside).openapi()
        finally:
            ringside.close()
    return document


schema = schemathesis.openapi.from_dict(_openapi())


@schema.parametrize()
@settings(
    max_examples=MAX_EXAMPLES, deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck)
)
def test_openapi_conformance(case: Any, server: Server, real_matches: list[Any]) -> None:
    rng = random.Random(repr((case.path_parameters, case.query, case.body)))
    if "match_id" in (case.path_parameters or {}) and not case.path.endswith("/stream") and rng.random() < 0.6:
        match = rng.choice(real_matches)
        case.path_parameters["match_id"] = match.id
        role = rng.choice(["arbiter", "recorder", "seat", "none"])
        token = {
            "arbiter": match.arbiter,
            "recorder": match.recorder,
            "seat": match.seat(rng.randrange(2)),
            "none": None,
        }[role]
        if token:
            case.headers = {**(case.headers or {}), "Authorization": f"Bearer {token}"}
    case.call_and_validate(
        base_url=server.url,
        timeout=30,
        checks=[not_a_server_error, response_schema_conformance, status_code_conformance, content_type_conformance],
    )
