"""The match options: the readings the rules digest asks engines to keep configurable. Each default
is the digest's recommended reading; the alternatives are the other readings it names, so an
arbiter whose table reads the rulebook another way can record a match under that reading.
`RussianRailroadsOptions` is the ruleset's `options_model`.
"""

from __future__ import annotations

from typing import Literal

from domain.kernel.contract import OptionsModel


class RussianRailroadsOptions(OptionsModel):
    industry_first_gap: Literal["after_four_spaces", "after_start_and_three"] = "after_four_spaces"
    """AMB-13: the first factory gap follows the four spaces after the start (b, recommended), or
    the start and three spaces (a): the gap then comes one place earlier."""

    face_up_cards_in_full: bool = True
    """AMB-14: a face-up card may be chosen only if its whole effect can be performed (RR-20.7);
    False: face-up cards are performed as far as possible, like bonus tokens."""

    benefits: Literal["immediate", "any_time"] = "immediate"
    """AMB-35: a benefit triggered part-way through an action is resolved at once, before the rest
    (a, EX-13); "any_time": it joins the parts of the action still to do, and the player picks
    when to resolve it (b, the licensed online version's clarification)."""

    unplaceable_locomotive: Literal["unavailable", "to_pool"] = "unavailable"
    """AMB-11: a new locomotive that fits on no railway cannot be taken (b); "to_pool": it may be
    taken and goes straight to the face-up factory pool (a)."""

    multiplier_limit: bool = True
    """AMB-34: the 20 multiplier tokens are a hard limit; False: multipliers never run out."""

    own_engineers: Literal["once_per_round", "unlimited"] = "once_per_round"
    """AMB-16: a hired engineer's action is used once a round like a board space (a), or as often
    as its owner pays for it (b)."""
