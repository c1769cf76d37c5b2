"""What a seat may know: the states it cannot tell from the real one.

Everything on the table is public (views.py). The one thing hidden from every seat is the face-down
animal token under the Big Top (BT-3.7), and with it which tokens are still in the stack (BT-2.3).
Public facts pin both down only together, as a multiset: the printed tokens (BT-1.2) less those
revealed so far are the face-down token plus the stack. So a bot that plans on `completions`, never
on the state's own token fields, cannot play with information its seat lacks, nor let a spectator
read the token from its moves.
"""

from __future__ import annotations

from dataclasses import replace

from .state import CarcassonneState


def unrevealed_tokens(state: CarcassonneState) -> dict[str, int]:
    """Animal tokens not seen face up yet, by animal: printed (BT-1.2) less revealed (BT-4.3)."""
    if not state.parts.circus:
        return {}
    counts = {token.animal: token.count for token in state.catalog.components.animal_tokens}
    for animal in state.revealed:
        counts[animal] -= 1
    return {animal: count for animal, count in sorted(counts.items()) if count > 0}


def token_face_down(state: CarcassonneState) -> bool:
    """Whether a token lies face down under the Big Top: every view shows that, not which one."""
    return state.big_top is not None and state.big_top_token is not None


def completions(state: CarcassonneState) -> list[tuple[CarcassonneState, int]]:
    """Every state the players cannot tell from `state`, each with its weight (the copies of the
    token that make it): the face-down token is any unrevealed token, in proportion to its copies
    (the stack was shuffled, BT-2.3), and the stack holds the others. Built from public facts only,
    so the real token never leaks into them; a state without a face-down token has one completion."""
    pool = unrevealed_tokens(state)
    if not token_face_down(state):
        return [(replace(state, tokens=pool), 1)]
    assert pool, "a face-down token is one of the tokens not revealed yet"
    return [(replace(state, big_top_token=animal, tokens=_less(pool, animal)), count)
            for animal, count in pool.items()]


def _less(pool: dict[str, int], animal: str) -> dict[str, int]:
    rest = dict(pool)
    rest[animal] -= 1
    return {name: count for name, count in rest.items() if count}
