"""Drum Roll (Artipia Games, 2011), stage 1: components, options, state, the setup and the first
round's action phase.

Not registered as a game yet (no entry point): the performances, the sharing phase and the end of
the game are still to come, and a registered game is played to its end by the conformance suite.
"""

from .rules import DrumRollRules

RULESET = DrumRollRules()

__all__ = ["RULESET", "DrumRollRules"]
