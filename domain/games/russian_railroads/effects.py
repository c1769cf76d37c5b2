"""The effect interpreter: a list of component `Effect`s (an action space, an engineer, a factory, a
token, a card) becomes the agenda steps that carry it out.

Why one interpreter: the rulebook's actions, engineers, factories, tokens and cards are all made of
the same few effects, so the engine reads them from the component data instead of coding each one,
and a real set with other actions loads with no code change.

The steps it makes, in the order a table plays them (RR-5.7):
- effects with nothing to decide (VP, rubles, temporary workers, hiring, ...) first, as `gain` steps;
- then the parts the player orders: each advancement, industry advancement, multiplier, locomotive
  or factory, repeat, token or face-up card; several different parts become one `action` composite
  whose next part the player picks, so each part and what it triggers is finished before the next;
- then what must come after all of them (a final bonus card after a face-up card, RR-19.8; C1's
  fourth action, RR-20.2).

`partial` marks the steps of effects that may be performed only in part (own engineers, factories,
tokens, starting cards, AMB-14): a part that cannot be done is skipped. Otherwise the steps are
pushed inside the kernel's all-or-nothing region by the caller, and a part that cannot be done
makes the whole action unavailable (RR-5.5).
"""

from __future__ import annotations

from collections.abc import Sequence

from domain.kernel.agenda import Step, composite

from .components import Effect

GAINS = frozenset({
    "rubles", "vp", "temporary_workers", "hire", "turn_order", "vp_engineer_values", "vp_two_best_locomotives",
    "black_worker", "engineer_and_ruble", "second_industry_marker", "revaluation", "kiev_medal",
})
"""Effects with nothing to decide: they run by themselves, before the parts."""


def part_label(step: Step) -> str:
    """How a `NextPart` move names a part: "advance:black", "industry", "take:locomotive", ..."""
    if step.kind == "advance":
        return f"advance:{step['colour']}"
    if step.kind == "take":
        items = step["items"]
        assert isinstance(items, tuple)
        return "take:" + "_or_".join(str(item) for item in items)
    return step.kind


def steps_for(seat: int, effects: Sequence[Effect], *, rule: str, partial: bool, black_bonus: bool = False,
              source: str = "") -> list[Step]:
    """The steps that carry out `effects` for `seat`. `rule` is cited by the VP they give and by any
    refusal; `black_bonus` adds the black worker's extra black advancement (RR-20.3, AMB-22)."""
    gains: list[Step] = []
    parts: list[Step] = []
    after: list[Step] = []
    base = {"seat": seat, "p": partial}
    for effect in effects:
        kind = effect.kind
        if kind in GAINS:
            gains.append(Step("gain", what=kind, count=effect.count, rule=rule, source=source, **base))
        elif kind == "advance":
            bonus = black_bonus and effect.colour == "black_or_grey"
            parts.extend(Step("advance", colour=effect.colour, bonus=bonus, **base) for _ in range(effect.count))
        elif kind == "industry":
            parts.extend(Step("industry", **base) for _ in range(effect.count))
        elif kind == "multiplier":
            parts.extend(Step("multiplier", **base) for _ in range(effect.count))
        elif kind == "locomotive_or_factory":
            parts.append(Step("take", items=("locomotive", "factory"), **base))
        elif kind == "locomotive_and_factory":
            parts.append(Step("take", items=("locomotive",), **base))
            parts.append(Step("take", items=("factory",), **base))
        elif kind == "factory":
            parts.append(Step("take", items=("factory",), **base))
        elif kind == "locomotive_card":
            parts.append(Step("take", items=("card",), **base))
        elif kind == "repeat":
            parts.append(Step("repeat", **base))
        elif kind == "token":
            parts.append(Step("token", **base))
        elif kind == "face_up_card":
            parts.append(Step("face_up", **base))
        elif kind == "final_bonus":
            after.append(Step("final_bonus", **base))
        elif kind == "again":
            options = tuple(part_label(part) for part in parts)
            after.append(Step("again", options=options, rule=rule, **base))
        else:  # "engineer": the caller expands the engineer lying on the space
            raise ValueError(f"effect {kind!r} is not carried out by steps_for")
    if black_bonus and any(part.kind == "advance" and part["colour"] == "black" for part in parts):
        parts.append(Step("advance", colour="black", bonus=False, seat=seat, p=True))
    return [*gains, *ordered_parts(seat, parts), *after]


def ordered_parts(seat: int, parts: Sequence[Step]) -> list[Step]:
    """The parts as the player may order them (RR-5.7): one `action` composite when they differ,
    else the parts themselves (alike parts have no order to choose)."""
    if len({part_label(part) for part in parts}) > 1:
        return [composite("action", seat, parts)]
    return list(parts)


def again_steps(seat: int, label: str, *, partial: bool) -> list[Step]:
    """The step that does the part named `label` once more (C1's fourth action, RR-20.2)."""
    base = {"seat": seat, "p": partial}
    if label.startswith("advance:"):
        return [Step("advance", colour=label.removeprefix("advance:"), bonus=False, **base)]
    if label == "industry":
        return [Step("industry", **base)]
    if label == "multiplier":
        return [Step("multiplier", **base)]
    raise ValueError(f"no part {label!r} to do again")
