"""Ringside's domain: the game-agnostic kernel, the games, and the eventsourcing application."""
