"""The match options: which parts of Under the Big Top are played, beyond what the variant brings.

A variant names a usual combination of parts (`big-top` is all three); the options switch single
parts on or off on top of it (BT-2.1), so any combination can be played. `parts_of` is the one
place that turns the two into the parts in play, read by setup and by the bound on events.
"""

from __future__ import annotations

from domain.kernel.contract import OptionsModel

from .state import Parts


class CarcassonneOptions(OptionsModel):
    """Switch single parts of Under the Big Top on or off (BT-2.1). `None` keeps what the
    variant includes; True/False overrides it, so any combination of parts can be played."""

    circus: bool | None = None
    acrobats: bool | None = None
    ringmasters: bool | None = None


VARIANT_PARTS: dict[str, Parts] = {
    "base": Parts(),
    "big-top": Parts(circus=True, acrobats=True, ringmasters=True),
    "big-top-circus": Parts(circus=True),
    "big-top-acrobats": Parts(acrobats=True),
    "big-top-ringmasters": Parts(ringmasters=True),
}


def parts_of(variant: str, options: object) -> Parts:
    """The parts in play: the variant's, with each part the options name switched on or off."""
    base = VARIANT_PARTS[variant]
    pick = {name: getattr(options, name, None) for name in ("circus", "acrobats", "ringmasters")}
    return Parts(**{
        name: getattr(base, name) if value is None else bool(value) for name, value in pick.items()
    })
