"""The match options: the readings the Drum Roll digest asks engines to keep configurable, and the
start player (DR-2.12). Each default is the digest's recommended reading; the alternatives are the
other readings it names, so an arbiter whose table reads the rulebook another way can record a
match under that reading. `DrumRollOptions` is the ruleset's `options_model`.

Every option is honoured; `option_presets` in rules.py names each alternative reading alone, so
the conformance suite plays every one (docs/games/drum-roll.md).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from domain.kernel.contract import OptionsModel


class DrumRollOptions(OptionsModel):
    start_player: int | None = Field(None, ge=0, le=3)
    """DR-2.12: the start player is chosen at random (None, a chance event at setup), or is the
    seat given (the player who most recently visited a circus, as the table agrees)."""

    action_limits: Literal["per_player", "in_total"] = "per_player"
    """AMB-1: Ticket sale and Investment take at most 2 markers of each player per round (a,
    recommended), or 2 markers in all per round, whoever places them (b)."""

    secondary_wage_delay: Literal[0, 1] = 0
    """AMB-40: the secondary wage is paid from the performance after the flip performance (0, reading
    (a), recommended), or one performance later still (1, reading (b)). Read by the wage payment
    (wages.py)."""

    region_count: Literal["after_performing", "performed_only"] = "after_performing"
    """AMB-14: a region bonus counts the performers in the circus after the player's performers have
    performed, flipped ones included and fired ones not (recommended), or only the performers that
    performed this time. Read by the region bonus (performance.py)."""

    postpone_fame_loss: Literal["every_voter", "if_postponed"] = "every_voter"
    """AMB-7: after round 6 every player who voted to postpone loses 1 fame (a, recommended), or
    only when the postponement happens (b). Read by the vote (vote.py)."""
