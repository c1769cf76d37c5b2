"""The Drum Roll ruleset: the kernel contract over the agenda-driven engine.

Stage 2 of several: the setup (DR-2, DR-22) and the preparation rounds of the first performance
(DR-3 to DR-10), up to where the performance would begin. Not
registered as a game yet (no entry point in pyproject.toml), since a registered game is played to
its end by the conformance suite.
"""

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
    ScoreLine,
    ScoreSheet,
    VariantInfo,
)
from domain.kernel.errors import InvalidOptionsError
from domain.kernel.viewers import Viewer

from . import bots, flow, views, vote
from . import moves as mv
from .components import DrumRollComponents, default_components
from .moves import MOVE_ADAPTER
from .options import DrumRollOptions
from .state import State
from .tasks import AGENDA


class DrumRollRules(Ruleset[State, BaseModel]):
    name: ClassVar[str] = "drum-roll"
    title: ClassVar[str] = "Drum Roll"
    engine_version: ClassVar[str] = "0.3.0"
    rule_prefix: ClassVar[str] = "DR"
    variants: ClassVar[Mapping[str, VariantInfo]] = {
        "standard": VariantInfo("The base game for 2 to 4 players (DR-0.1, DR-22)", 2, 4),
    }
    default_variant: ClassVar[str] = "standard"
    options_model: ClassVar[type[OptionsModel]] = DrumRollOptions
    components_model: ClassVar[type[ComponentSet]] = DrumRollComponents
    move_adapter: ClassVar[TypeAdapter[Any]] = MOVE_ADAPTER

    def option_presets(self) -> dict[str, dict[str, Any]]:
        """The recommended readings, and each reading honoured so far alone (AMB-1; a named start
        player). The readings of phases not built yet (AMB-7, AMB-14, AMB-40) join when they are."""
        return {
            "standard": {},
            "action-limits-in-total": {"action_limits": "in_total"},
            "given-start-player": {"start_player": 0},
        }

    def default_components(self) -> ComponentSet:
        return default_components()

    def setup(self, config: MatchConfig[State]) -> State:
        if not isinstance(config.options, DrumRollOptions):
            raise InvalidOptionsError("options must be Drum Roll options")
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

    def bots(self) -> dict[str, Bot]:
        return bots.bots(self)

    def view(self, state: State, viewer: Viewer) -> dict[str, Any]:
        return views.view(state, viewer)

    def score(self, state: State) -> ScoreSheet:
        """Fame so far, one line per seat (DR-0.4). The scoring of performances and the end-game
        awards are not built yet, so every line is the fame track as it stands."""
        lines = tuple(ScoreLine(seat, player.fame, "fame", "DR-0.4", "fame on the scoring track")
                      for seat, player in enumerate(state.players))
        return ScoreSheet(state.seats, lines)

    def private_choice(self, state: State, seat: int, move: BaseModel) -> PrivateChoice | None:
        """DR-2.9: the performer kept in the opening draft stays secret until every seat has chosen;
        DR-10.2: a ballot stays secret until every seat has voted."""
        if isinstance(move, mv.KeepPerformer):
            return PrivateChoice(until=flow.DRAFT_REVEALED)
        if isinstance(move, mv.CastVote):
            return PrivateChoice(until=vote.reveal_point(state))  # DR-10.2: hands open together
        return None

    def reveals(self, state: State) -> Collection[str]:
        points = [flow.DRAFT_REVEALED] if flow.draft_done(state) else []
        if vote.all_voted(state):
            points.append(vote.reveal_point(state))
        return tuple(points)

    def encode_state(self, state: State) -> JSON:
        return state.to_json()

    def decode_state(self, data: JSON, config: MatchConfig[State]) -> State:
        assert isinstance(data, Mapping)
        return State.from_json(data, config)

    def max_events(self, config: MatchConfig[State]) -> int:
        """The setup's draws (rows, regions, the draft, redraws past the type limit: at most the
        whole performer deck) and choices, plus the rounds built so far."""
        components = config.components
        assert isinstance(components, DrumRollComponents)
        setup = len(components.helpers) + len(components.performers) + 2 * config.seats + 8
        rounds = 7  # rounds 1 to 7 of the first performance (two votes); the performance is not built
        decks = len(components.helpers) + len(components.performers)
        per_round = 46 * config.seats + 2 + 2 * decks
        return setup + rounds * per_round  # a round: markers, hires, sharing, deposit, organiser, refills
