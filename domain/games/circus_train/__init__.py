"""Circus Train (second edition, Tom Decker / Victory Point Games) as a Ringside rules engine."""

from .rules import CircusTrainRules

RULESET = CircusTrainRules()
"""The engine, as the `ringside.games` entry point names it."""

__all__ = ["RULESET", "CircusTrainRules"]
