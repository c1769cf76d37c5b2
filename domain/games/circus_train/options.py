"""The match options: the optional rules of section 21, each selectable, the simpler variant, and the
reading of solitaire scoring (A-29); `CircusTrainOptions` is the ruleset's `options_model`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import model_validator

from domain.kernel.contract import OptionsModel

ENGINE_1_0_OPTIONS = frozenset({"special_characters", "event_cards", "simpler"})
"""The options every created event of engine 1.0.0 records: all of them, and nothing else."""


class CircusTrainOptions(OptionsModel):
    """The optional rules (section 21), each selectable, plus the simpler variant, and the reading
    of solitaire scoring (A-29)."""

    special_characters: bool = False
    """CT-21.2 to CT-21.16: the six Special Characters in the bags."""
    event_cards: bool = False
    """CT-21.17 to CT-21.19: five event cards, one revealed at each month end April-August."""
    simpler: bool = False
    """CT-21.20, CT-21.21: no Wage & Transit, no VP; the best Best Performance marker wins."""
    solitaire_scoring: Literal["month_end_and_final", "none"] = "month_end_and_final"
    """Solitaire only (A-29). "month_end_and_final", the digest's reading since 2026-12-01 (b): Most
    Talent pays $5 a VP at every month end (CT-16.11); the end of the game pays the doubled wages,
    then runs final scoring's award steps as money (CT-20.8, CT-20.10). "none", the earlier reading
    (a): no month-end or final scoring, only the end-of-game wages.

    Options recorded by engine 1.0.0 (exactly the three above, without this one) mean "none", the
    only reading that engine had: a match created since names this option in its created event."""

    @model_validator(mode="before")
    @classmethod
    def _recorded_by_engine_1_0(cls, data: Any) -> Any:
        if isinstance(data, Mapping) and set(data) == ENGINE_1_0_OPTIONS:
            return {**data, "solitaire_scoring": "none"}
        return data
