"""A rule of the record that refuses, in both of its voices.

Why two voices: the application and verification apply the same rules at the same point of a
record, but they speak to different people. A command refuses a request before anything is
appended, with the typed error its caller answers (the API's problem+json, the CLI's exit status).
Verification finds an event that a rule would have refused in a record someone hands it, and names
what is wrong with that event in the report. Both words come from the rule itself, so that a rule
changed in one place is changed for both, and neither can drift from the other (a record the
application writes must pass its own verification).
"""

from __future__ import annotations

from dataclasses import dataclass

from .canonical import JSON
from .errors import RingsideError


@dataclass(frozen=True)
class Refusal:
    """Why a step may not be taken here: the command's error, verification's finding, and what the
    rule wanted against what it got (for the report's `expected` and `actual`)."""

    error: RingsideError
    finding: str
    expected: JSON = None
    actual: JSON = None
