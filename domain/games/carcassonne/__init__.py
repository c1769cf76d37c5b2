"""Carcassonne with the Under the Big Top expansion (circus, acrobats, ringmasters)."""

from .rules import CarcassonneRules

RULESET = CarcassonneRules()
"""The engine, as the `ringside.games` entry point names it."""

__all__ = ["RULESET", "CarcassonneRules"]
