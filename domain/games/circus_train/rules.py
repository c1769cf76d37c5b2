"""The Circus Train ruleset: the kernel contract over the agenda-driven engine."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from pydantic import BaseModel, TypeAdapter

from domain.kernel.canonical import JSON
from domain.kernel.components import ComponentSet
from domain.kernel.contract import (
    Bot,
    Decision,
    MatchConfig,
    OptionsModel,
    Result,
    Ruleset,
    ScoreSheet,
    VariantInfo,
)
from domain.kernel.errors import InvalidOptionsError
from domain.kernel.viewers import Viewer

from . import bots, flow, views
from .components import CircusTrainComponents, default_components
from .moves import MOVE_ADAPTER
from .options import CircusTrainOptions
from .position import CircusTrainPosition, from_position, hide_position, position_of
from .scoring import match_result, score_sheet
from .state import State
from .tasks import AGENDA


class CircusTrainRules(Ruleset[State, BaseModel]):
    name: ClassVar[str] = "circus-train"
    title: ClassVar[str] = "Circus Train (second edition)"
    engine_version: ClassVar[str] = "1.1.0"
    rule_prefix: ClassVar[str] = "CT"
    variants: ClassVar[Mapping[str, VariantInfo]] = {
        "basic": VariantInfo("The basic game, sections 5-18 (CT-3.3)", 2, 5),
        "advanced": VariantInfo("The advanced game with reputation, section 19", 2, 5),
        "solitaire": VariantInfo("Solitaire on the basic rules, section 20: money is the score", 1, 1),
        "solitaire-advanced": VariantInfo("Solitaire on the advanced rules, sections 19-20", 1, 1),
    }
    default_variant: ClassVar[str] = "basic"
    options_model: ClassVar[type[OptionsModel]] = CircusTrainOptions
    components_model: ClassVar[type[ComponentSet]] = CircusTrainComponents
    move_adapter: ClassVar[TypeAdapter[Any]] = MOVE_ADAPTER

    def option_presets(self) -> dict[str, dict[str, Any]]:
        """The plain game, each optional rule of section 21 alone, the combinable ones together, and
        the earlier reading of solitaire scoring (A-29 (a), which leaves smaller sums for the success
        table, CT-20.9)."""
        return {
            "standard": {},
            "special-characters": {"special_characters": True},
            "event-cards": {"event_cards": True},
            "simpler": {"simpler": True},
            "all-optional": {"special_characters": True, "event_cards": True},
            "solitaire-unscored": {"solitaire_scoring": "none"},
        }

    def default_components(self) -> ComponentSet:
        return default_components()

    def setup(self, config: MatchConfig[State]) -> State:
        if not isinstance(config.options, CircusTrainOptions):
            raise InvalidOptionsError("options must be Circus Train options")
        return flow.setup(config)

    # The fold is the agenda machine's (domain/kernel/agenda.py, the table in tasks.py): it says
    # who decides now, what they may do, and what each step leads to.
    def decision(self, state: State) -> Decision:
        return AGENDA.decision(state)

    def legal_moves(self, state: State, seat: int) -> Sequence[BaseModel]:
        return AGENDA.legal_moves(state, seat)  # type: ignore[return-value]

    def validate(self, state: State, seat: int, move: BaseModel) -> None:
        AGENDA.validate(state, seat, move)

    def apply(self, state: State, seat: int, move: BaseModel) -> State:
        return AGENDA.apply(state, seat, move)

    def resolve(self, state: State, outcome: JSON) -> State:
        return AGENDA.resolve(state, outcome)

    def view(self, state: State, viewer: Viewer) -> dict[str, Any]:
        return views.view(state, viewer)

    def score(self, state: State) -> ScoreSheet:
        return score_sheet(state)

    def result(self, state: State, sheet: ScoreSheet) -> Result:
        return match_result(state, sheet)

    def round_of(self, state: State) -> int | None:
        """CT-0.2, CT-0.3: a round is one week of the calendar, numbered from 1 as the Calendar
        marker shows it (CT-5.8: on the first week of April; CT-12.4: one week on at the end of
        each round, the month's end following, CT-12.5). None during setup, until the first week's
        Ringmaster Phase begins (CT-6.1, the setup's `round` step); after the last week, when the
        season is over (CT-6.2), it stays the last."""
        week = state.week
        if week == 0 and any(step.kind == "round" for step in state.agenda):
            return None
        return min(week + 1, state.catalog.total_weeks)

    def encode_state(self, state: State) -> JSON:
        return state.to_json()

    def decode_state(self, data: JSON, config: MatchConfig[State]) -> State:
        return State.from_json(data, config)

    def max_events(self, config: MatchConfig[State]) -> int:
        """Per turn: the card, a claim and its roll, and up to three events per talent counter in a
        city (pick, roll, purchase) or steal; per game: every Local News counter, destination card and
        event drawn, plus setup and month ends."""
        components = config.components
        assert isinstance(components, CircusTrainComponents)
        seats = config.seats
        talents = sum(t.counters for t in components.talent_types) + len(components.special_characters)
        weeks = sum(m.weeks for m in components.months)
        per_turn = 12 + 3 * talents
        news = 4 * len(components.local_news) + 2 * len(components.destination_cards)
        setup = 2 + seats * 4 + 4 * len(components.local_news)
        month_ends = len(components.months) * (4 + seats * (talents + 4))
        return weeks * seats * per_turn + news + setup + month_ends

    position_model: ClassVar[type[CircusTrainPosition]] = CircusTrainPosition

    def position_of(self, state: State) -> dict[str, Any]:
        return position_of(state)

    def from_position(self, config: MatchConfig[State], position: Any) -> State:
        return from_position(self.setup(config), position)

    def hide_position(self, position: dict[str, Any], viewer: Viewer) -> dict[str, Any]:
        return hide_position(position, viewer)

    def bots(self) -> dict[str, Bot]:
        return bots.bots(self)
