"""The Ringside application: every command and query on matches, over one eventsourcing store.

Commands load a match, check the request against its fold (the same checks verification runs:
the record's rules live in the kernel, `kernel/undo.py`, `rulings.py`, `header.py`,
`payloads.py`), append hash-chained, signed entries, settle automatic steps (server-mode chance,
the end of the match, the seed reveal) and save everything in one atomic write with the expected
version. A version conflict reloads and retries; a caller-supplied stale version is refused.
Nothing is appended unless every check passed, so bad input never changes the record.

One instance per process; the library is synchronous, so callers (FastAPI, the CLI) use it from
plain threads.

The package's parts, each in its own module:
- `app.py`: `Ringside`, composed of the parts below;
- `core.py`: the store, keys, cache and reading primitives (folds, entries, snapshots, signing);
- `writing.py`: how every command is run, saved and retried (`Accepted`, `RequestKey`);
- `commands.py`: the commands on a match; `annotating.py`: the commands on its annotations;
- `queries.py`: every read, export and verification;
- `read_models.py`: what a fold looks like to a reader (`state_view`, `summary`, `decision_json`);
- `aggregates.py`: the secret seed, component sets and imported keys, with their stable topics;
- `cache.py`: the per-process match cache.
"""

from __future__ import annotations

from .aggregates import (
    ComponentSetRecord,
    KnownKey,
    MatchSecret,
    annotations_id,
    components_id,
    key_record_id,
    secret_id,
)
from .app import Ringside
from .cache import MatchCache, project_match
from .core import MAX_POSITION
from .read_models import decision_json, state_view, summary
from .writing import RETRIES, Accepted, CommandSteps, RequestKey

__all__ = [
    "MAX_POSITION",
    "RETRIES",
    "Accepted",
    "CommandSteps",
    "ComponentSetRecord",
    "KnownKey",
    "MatchCache",
    "MatchSecret",
    "RequestKey",
    "Ringside",
    "annotations_id",
    "components_id",
    "decision_json",
    "key_record_id",
    "project_match",
    "secret_id",
    "state_view",
    "summary",
]
