"""How long the answers to idempotency keys are kept: durations as operators write them.

A retried request is answered from its stored answer while that answer is kept; afterwards it runs
again as a new request. Clients retry within seconds or minutes, so any retention of hours or days
keeps the promise. Pruning keeps the store from growing by one answer per keyed write forever.
"""

from __future__ import annotations

import re
from datetime import timedelta

_UNITS = {"s": "seconds", "m": "minutes", "h": "hours", "d": "days", "w": "weeks"}
_DURATION = re.compile(r"(\d+)\s*([smhdw])")


def parse_duration(text: str) -> timedelta:
    """`90s`, `30m`, `24h`, `7d`, `2w`, or a sum such as `1d12h`; ValueError otherwise."""
    compact = text.strip().lower()
    parts = _DURATION.findall(compact)
    if not parts or "".join(f"{n}{u}" for n, u in parts) != compact.replace(" ", ""):
        raise ValueError(f"not a duration: {text!r} (use e.g. 90s, 30m, 24h, 7d, 2w)")
    return sum((timedelta(**{_UNITS[unit]: int(number)}) for number, unit in parts), timedelta())


def format_duration(span: timedelta) -> str:
    """The shortest text `parse_duration` reads back as `span` (whole seconds): 1d12h, 90s -> 1m30s."""
    seconds = int(span.total_seconds())
    parts = []
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60), ("s", 1)):
        count, seconds = divmod(seconds, size)
        if count:
            parts.append(f"{count}{unit}")
    return "".join(parts) or "0s"
