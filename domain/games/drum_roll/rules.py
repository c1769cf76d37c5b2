"""The Drum Roll ruleset: the kernel contract over the agenda-driven engine.

The setup (DR-2, DR-22), the preparation rounds and votes of each performance (DR-3 to DR-10),
each performance (DR-11, DR-15, DR-17, DR-18, DR-20, DR-21.14) with the show organiser's return
before it, the wages and the end of performance (DR-12, DR-13, DR-19.2), and the end of the game
with its score sheet (DR-14): a match runs its three performances to the end.
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
    Result,
    Ruleset,
    ScoreSheet,
    VariantInfo,
)
from domain.kernel.errors import InvalidOptionsError
from domain.kernel.viewers import Viewer

from . import bots, flow, scoring, views, vote
from . import cards as cards_module
from . import moves as mv
from .components import DrumRollComponents, default_components
from .moves import MOVE_ADAPTER
from .options import DrumRollOptions
from .position import DrumRollPosition, from_position, hide_position, position_of
from .state import State
from .tasks import AGENDA


class DrumRollRules(Ruleset[State, BaseModel]):
    name: ClassVar[str] = "drum-roll"
    title: ClassVar[str] = "Drum Roll"
    engine_version: ClassVar[str] = "1.0.0"
    rule_prefix: ClassVar[str] = "DR"
    variants: ClassVar[Mapping[str, VariantInfo]] = {
        "standard": VariantInfo("The base game for 2 to 4 players (DR-0.1, DR-22)", 2, 4),
    }
    default_variant: ClassVar[str] = "standard"
    options_model: ClassVar[type[OptionsModel]] = DrumRollOptions
    components_model: ClassVar[type[ComponentSet]] = DrumRollComponents
    move_adapter: ClassVar[TypeAdapter[Any]] = MOVE_ADAPTER

    def option_presets(self) -> dict[str, dict[str, Any]]:
        """The recommended readings, and each other reading alone (AMB-1, AMB-7, AMB-14, AMB-40; a
        named start player)."""
        return {
            "standard": {},
            "action-limits-in-total": {"action_limits": "in_total"},
            "given-start-player": {"start_player": 0},
            "region-count-performed-only": {"region_count": "performed_only"},
            "secondary-wage-delayed": {"secondary_wage_delay": 1},
            "postpone-fame-if-postponed": {"postpone_fame_loss": "if_postponed"},
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
        """Every fame change so far, one line each with its rule (scoring.py)."""
        return scoring.score_sheet(state)

    def result(self, state: State, sheet: ScoreSheet) -> Result:
        """Fame, then money without the deposit, else a shared win (DR-14.10, AMB-16)."""
        return scoring.match_result(state, sheet)

    def round_of(self, state: State) -> tuple[int, int] | None:
        """DR-0.12, DR-3.1, DR-3.4: a round is a preparation round, counted afresh within each
        performance cycle (DR-13.2 puts the round marker back on 1), so the round is the pair
        (performance, round): a new round is any change of it. A performance and its wages
        belong to the cycle's last round (DR-3.5). None during setup (DR-2)."""
        return (state.performance, state.round) if state.performance and state.round else None

    # ---- positions (docs/positions.md): the table between two turns of the action phase -------
    position_model: ClassVar[type[DrumRollPosition]] = DrumRollPosition

    def position_of(self, state: State) -> dict[str, Any]:
        return position_of(state)

    def from_position(self, config: MatchConfig[State], position: Any) -> State:
        return from_position(self.setup(config), position)

    def hide_position(self, position: dict[str, Any], viewer: Viewer) -> dict[str, Any]:
        return hide_position(position, viewer)

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
        whole performer deck) and choices, plus, for each of the performances, up to 7 rounds and
        the performance itself, counted generously: every performer of the deck could perform
        for one seat, each with its choice, a dazzling choice and a reward's decisions and draws;
        plus the investment cards: every card drawn (by the Investment action or a look reward) is
        played or discarded at most once per use, and a card with no usage mark at most once per
        decision (cards.py), so cards add a bounded number of moves."""
        components = config.components
        assert isinstance(components, DrumRollComponents)
        setup = len(components.helpers) + len(components.performers) + 2 * config.seats + 8
        rounds = components.constants.rounds_max
        decks = len(components.helpers) + len(components.performers)
        per_round = 46 * config.seats + 2 + 2 * decks  # markers, hires, sharing, deposit, organiser, refills
        rewards = max((sum(_decisions(effect) for effect in level.reward)
                       for card in components.performers for level in card.levels), default=0)
        per_performer = 3 + rewards
        per_seat = len(components.performers) * per_performer + len(components.investments) + 4
        per_performance = config.seats * per_seat + 4 * decks + 8 * config.seats  # wages, end, hand limits
        performances = components.constants.performances
        kept = max((effect.keep for card in components.performers for level in card.levels
                    for effect in level.reward), default=0)
        draws = performances * config.seats * (rounds * components.constants.investment_per_round
                                               + len(components.performers) * kept)
        uses = max((card.uses or 1) for card in components.investments)
        cards = draws * (uses + 1)
        if any(card.uses is None and card.kind not in cards_module.NOT_PLAYED for card in components.investments):
            cards += performances * rounds * per_round * len(components.investments)
        return setup + performances * (rounds * per_round + per_performance) + cards


def _decisions(effect: Any) -> int:
    """At most how many decisions and draws one reward effect takes (rewards.py)."""
    return 2 + effect.count + effect.look + effect.keep
