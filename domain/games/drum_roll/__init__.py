"""Drum Roll (Artipia Games, 2011), stage 2: components, options, state, the setup and the
preparation rounds of the first performance (action phase, sharing phase, end of round, votes).

Not registered as a game yet (no entry point): the performances and the end of the game are still
to come, and a registered game is played to its end by the conformance suite.
"""

from .rules import DrumRollRules

RULESET = DrumRollRules()

__all__ = ["RULESET", "DrumRollRules"]
