"""Carcassonne with the Under the Big Top expansion (circus, acrobats, ringmasters)."""

from domain.kernel.registry import register

from .rules import CarcassonneRules

register(CarcassonneRules())

__all__ = ["CarcassonneRules"]
