"""The match options: the optional rules of section 21, each selectable, the simpler variant, and the
reading of solitaire scoring (A-29); `CircusTrainOptions` is the ruleset's `options_model`.

Every game's options model is imported from its `options.py` (domain/games/README.md). Circus
Train's is still defined in state.py, which reads it for `State.options`, while that module is
being rewritten onto the kernel's agenda; the class moves here when the rewrite lands, and state.py
then imports it from here, as Carcassonne's state-side code does.
"""

from __future__ import annotations

from .state import ENGINE_1_0_OPTIONS, CircusTrainOptions

__all__ = ["ENGINE_1_0_OPTIONS", "CircusTrainOptions"]
