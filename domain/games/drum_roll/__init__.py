"""Drum Roll (Artipia Games, 2011), the whole game for 2 to 4 players: components, options, state,
the setup, the preparation rounds (action phase, investment cards, sharing phase, end of round,
votes), the three performances (the show organiser's return, every seat's performers, rewards and
region bonus, the wages, the end of performance), the end of the game and its score sheet, the
position format and the bots. Registered as the `drum-roll` entry point (pyproject.toml).
"""

from .rules import DrumRollRules

RULESET = DrumRollRules()

__all__ = ["RULESET", "DrumRollRules"]
