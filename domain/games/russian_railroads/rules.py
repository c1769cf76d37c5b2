"""The Russian Railroads ruleset: the kernel contract over the agenda-driven engine."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any, ClassVar

from pydantic import BaseModel, TypeAdapter

from domain.kernel.canonical import JSON
from domain.kernel.components import ComponentSet
from domain.kernel.contract import (
    Bot,
    Decision,
    MatchConfig,
    OptionsModel,
    PrivateChoice,
    Ruleset,
    ScoreSheet,
    VariantInfo,
)
from domain.kernel.errors import InvalidOptionsError
from domain.kernel.viewers import Viewer

from . import bots, flow, views
from . import moves as mv
from .components import RussianRailroadsComponents, default_components
from .moves import MOVE_ADAPTER
from .options import RussianRailroadsOptions
from .position import RussianRailroadsPosition, from_position, hide_position, position_of
from .scoring import score_sheet
from .state import State
from .tasks import AGENDA

FINAL_SCORING = "final_scoring"
"""The reveal point of the face-down final bonus cards (RR-17.2)."""


class RussianRailroadsRules(Ruleset[State, BaseModel]):
    name: ClassVar[str] = "russian-railroads"
    title: ClassVar[str] = "Russian Railroads"
    engine_version: ClassVar[str] = "1.0.0"
    rule_prefix: ClassVar[str] = "RR"
    variants: ClassVar[Mapping[str, VariantInfo]] = {
        "standard": VariantInfo("The base game for 2 to 4 players (RR-2, RR-3)", 2, 4),
    }
    default_variant: ClassVar[str] = "standard"
    options_model: ClassVar[type[OptionsModel]] = RussianRailroadsOptions
    components_model: ClassVar[type[ComponentSet]] = RussianRailroadsComponents
    move_adapter: ClassVar[TypeAdapter[Any]] = MOVE_ADAPTER

    def option_presets(self) -> dict[str, dict[str, Any]]:
        """The recommended readings, and each reading the digest asks to keep configurable (AMB-11,
        AMB-13, AMB-14, AMB-16, AMB-34, AMB-35) alone, so the conformance suite plays every one."""
        return {
            "standard": {},
            "industry-gap-a": {"industry_first_gap": "after_start_and_three"},
            "face-up-cards-partial": {"face_up_cards_in_full": False},
            "benefits-any-time": {"benefits": "any_time"},
            "locomotive-to-pool": {"unplaceable_locomotive": "to_pool"},
            "unlimited-multipliers": {"multiplier_limit": False},
            "engineers-unlimited": {"own_engineers": "unlimited"},
        }

    def default_components(self) -> ComponentSet:
        return default_components()

    def setup(self, config: MatchConfig[State]) -> State:
        if not isinstance(config.options, RussianRailroadsOptions):
            raise InvalidOptionsError("options must be Russian Railroads options")
        return flow.setup(config)

    # The fold is the agenda machine's (domain/kernel/agenda.py, the table in tasks.py).
    def decision(self, state: State) -> Decision:
        return AGENDA.decision(state)

    def legal_moves(self, state: State, seat: int) -> Sequence[BaseModel]:
        return AGENDA.legal_moves(state, seat)

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

    def round_of(self, state: State) -> int | None:
        """RR-3.1, RR-4.2: the round being played, counted from 1 (it is set as the round starts,
        after the cleanup of the one before, RR-15); None during setup (RR-2)."""
        return state.round or None

    def private_choice(self, state: State, seat: int, move: BaseModel) -> PrivateChoice | None:
        """A final bonus card is kept face down (RR-19.8, RR-21.2): the table sees that a card was
        taken, not which, until final scoring."""
        if isinstance(move, mv.TakeBonusCard):
            return PrivateChoice(until=FINAL_SCORING, fields=("card",))
        return None

    def reveals(self, state: State) -> Collection[str]:
        return (FINAL_SCORING,) if state.over else ()

    def looking(self, state: State) -> Collection[int]:
        """The seat taking a final bonus card looks through the deck (RR-21.2)."""
        head = state.agenda[0] if state.agenda and not state.over else None
        return (head.seat,) if head is not None and head.kind == "final_bonus" and head.seat is not None else ()

    def undo_barrier(self, before: State, after: State, seat: int, move: BaseModel) -> bool:
        """Looking through the final bonus deck shows its cards (RR-21.2): taking one back would let
        a player choose again knowing the deck."""
        return isinstance(move, (mv.TakeBonusCard, mv.TakeBonusVP))

    def encode_state(self, state: State) -> JSON:
        return state.to_json()

    def decode_state(self, data: JSON, config: MatchConfig[State]) -> State:
        assert isinstance(data, Mapping)
        return State.from_json(data, config)

    def max_events(self, config: MatchConfig[State]) -> int:
        """Per turn at most one placement and, for the largest action with every benefit it can
        chain (a token's 4 advancements, each reaching a special space), about 40 decisions; turns
        a round are bounded by the workers, temporary and black workers and the rubles a seat can
        hold (generously 60); plus the setup's draws and draft. Under AMB-16 (b) (own engineers
        unlimited) the rules themselves set no bound: E7 bought for 1 ruble can repeat the 2-ruble
        space for ever, so this is the bound bot play keeps to (the greedy bot uses an own
        engineer once a round; the random bot passes soon enough) and a human table may exceed it."""
        components = config.components
        assert isinstance(components, RussianRailroadsComponents)
        rounds = components.for_players(config.seats).rounds
        setup = components.constants.final_bonus_removed + len(components.engineers) + config.seats * 4
        return setup + rounds * config.seats * 60 * 40

    position_model: ClassVar[type[RussianRailroadsPosition]] = RussianRailroadsPosition

    def position_of(self, state: State) -> dict[str, Any]:
        return position_of(state)

    def from_position(self, config: MatchConfig[State], position: Any) -> State:
        return from_position(self.setup(config), position)

    def hide_position(self, position: dict[str, Any], viewer: Viewer) -> dict[str, Any]:
        return hide_position(position, viewer)

    def bots(self) -> dict[str, Bot]:
        return bots.bots(self)
