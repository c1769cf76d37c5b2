"""`Ringside`: the application service, composed of its commands, annotations and queries.

Why mixins on one core rather than separate services: every command and query works on the same
store, cache, keys and fold, and callers (the API, the CLI, the tests) hold one object per process.
Each part is a class of its own module, so a reader finds a command with the commands and a query
with the queries, and each part names only what it uses of the core.
"""

from __future__ import annotations

from .annotating import Annotating
from .commands import Commands
from .queries import Queries


class Ringside(Commands, Annotating, Queries):
    """The application service. Construct with `Ringside.open(...)`."""

    name = "ringside"
    """eventsourcing names an application after its class unless told: the environment's prefix."""
