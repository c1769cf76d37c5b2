"""The games catalogue: variants, option and move schemas, component sets, rule texts."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Path

from domain.kernel.contract import Ruleset
from domain.kernel.registry import all_games, get_game
from domain.kernel.rule_texts import find_rule, game_rules

from ..schemas import GameDetail, GameList, RuleTextList, RuleTextOut
from . import problems

router = APIRouter(prefix="/games", tags=["games"])
GameName = Path(max_length=64, description="the game's registry name, e.g. carcassonne")
RuleId = Path(max_length=32, description="a rule ID as refusals and score lines cite it, e.g. CB-3.2 (any case)")


def _game(ruleset: Ruleset[Any, Any]) -> dict[str, Any]:
    return {
        "name": ruleset.name, "title": ruleset.title, "engine_version": ruleset.engine_version,
        "default_variant": ruleset.default_variant,
        "variants": {name: {"description": info.description, "min_seats": info.min_seats,
                            "max_seats": info.max_seats} for name, info in ruleset.variants.items()},
    }


@router.get("", response_model=GameList, summary="Every registered game with its variants")
def list_games() -> dict[str, Any]:
    return {"games": [_game(ruleset) for ruleset in all_games().values()]}


@router.get("/{game}", response_model=GameDetail, responses=problems(404, 422),
            summary="One game: variants, option schema, move schema, default component set")
def game_detail(game: str = GameName) -> dict[str, Any]:
    ruleset = get_game(game)
    return {**_game(ruleset), "options_schema": ruleset.options_model.model_json_schema(),
            "move_schema": ruleset.move_schema(), "components": ruleset.default_components().content(),
            "bots": sorted(ruleset.bots()),
            "position_schema": None if ruleset.position_model is None else ruleset.position_model.model_json_schema()}


@router.get("/{game}/move-schema", response_model=dict[str, Any], responses=problems(404, 422),
            summary="The JSON schema of the game's moves")
def move_schema(game: str = GameName) -> dict[str, Any]:
    return get_game(game).move_schema()


@router.get("/{game}/options-schema", response_model=dict[str, Any], responses=problems(404, 422),
            summary="The JSON schema of the game's match options")
def options_schema(game: str = GameName) -> dict[str, Any]:
    schema: dict[str, Any] = get_game(game).options_model.model_json_schema()
    return schema


@router.get("/{game}/components", response_model=dict[str, Any], responses=problems(404, 422),
            summary="The game's default component set (its content hash in `content_hash`)")
def components(game: str = GameName) -> dict[str, Any]:
    chosen = get_game(game).default_components()
    return {"content_hash": chosen.content_hash(), "content": chosen.content(),
            "schema": get_game(game).components_model.model_json_schema()}


@router.get("/{game}/rules", response_model=RuleTextList, responses=problems(404, 422),
            summary="Every rule ID the game's matches can cite, with its title and text")
def rule_texts(game: str = GameName) -> dict[str, Any]:
    """The texts behind the rule IDs in illegal-move problems (`rule`, `rule_title`), score lines
    and prompts: the game's own, then the kernel's (`RULING`, an arbiter's penalty)."""
    name = get_game(game).name
    return {"game": name, "rules": [entry.to_json() for entry in game_rules(name)]}


@router.get("/{game}/rules/{rule_id}", response_model=RuleTextOut, responses=problems(404, 422),
            summary="One rule's title and text")
def rule_text(game: str = GameName, rule_id: str = RuleId) -> dict[str, Any]:
    """404 `unknown-rule` for an ID the game does not cite, with the closest IDs in `suggestions`
    (and the game it belongs to, in `detail`, when it is another game's rule)."""
    return find_rule(rule_id, get_game(game).name).to_json()
