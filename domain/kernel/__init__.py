"""The game-agnostic kernel: the record, the ruleset contract, chance, views, undo, integrity.

Nothing here knows any particular game; games import only from this package.
"""
