"""Drum Roll (Artipia Games, 2011): components, options, state, the setup, the preparation rounds
(action phase, sharing phase, end of round, votes), and around each of the three performances the
show organiser's return, the wages, the end of performance, then the end of the game and its score
sheet.

Not registered as a game yet (no entry point): the performing itself (levels, rewards, flips,
firing, regions) is still to come, and a registered game is played to its end by the conformance
suite.
"""

from .rules import DrumRollRules

RULESET = DrumRollRules()

__all__ = ["RULESET", "DrumRollRules"]
