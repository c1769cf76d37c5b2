"""Circus Train (second edition, Tom Decker / Victory Point Games) as a Ringside rules engine."""

from domain.kernel.registry import register

from .rules import CircusTrainRules

register(CircusTrainRules())

__all__ = ["CircusTrainRules"]
