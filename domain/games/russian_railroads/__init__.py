"""Russian Railroads (Hans im Glück 2013; Italian edition Asterion Press) as a Ringside rules engine."""

from .rules import RussianRailroadsRules

RULESET = RussianRailroadsRules()
"""The engine, as the `ringside.games` entry point names it."""

__all__ = ["RULESET", "RussianRailroadsRules"]
