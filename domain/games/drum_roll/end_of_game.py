"""The end of the game (DR-14): after the 3rd performance's wages, every player adds its end-of-game
fame, and the match ends (the agenda runs out, DR-14.1).

Everything goes into the fame ledger with `gain_fame`, one entry per award, card or helper, so
`fame` is final when the match is over and the score sheet (scoring.py) explains every point:

- the four awards (DR-14.3 to DR-14.6), from the component data's `awards` matched by id, each
  to every player who meets it (DR-14.7: ties all get the full award); flipped performers are
  performers of the circus (DR-14.9, AMB-11);
- the bank clerk's deposit as fame, at the card's rate and ceiling (DR-19.6, AMB-16);
- the investment cards in hand (DR-14.2, DR-21.7, DR-21.8, AMB-21, AMB-25): the bonus cards by
  what they count, and the fame of a card never used, for the cards that have it.

The order of the parts changes no total (DR-14.2); each ledger gets them in a fixed order: the
awards in the data's order, the bank clerk, then the cards in hand in hand order.
"""

from __future__ import annotations

from domain.kernel.agenda import Step

from .components import Award, Investment
from .round_end import BANK_CLERK
from .state import Player, State

LARGEST_SHOW = "largest_show"
VARIETY = "variety"
PERFECT_SHOW = "perfect_show"
LARGE_TROUPE = "large_troupe"
LARGE_TROUPE_SIZE = 8
"""DR-14.6: the Big troupe (the data's Large Troupe) needs 8 performers or more."""
PERFECT_LEVEL = 3
"""DR-0.10, DR-11.14: the dazzling (outstanding) level; a flip counts as it."""

AWARD_RULES = {LARGEST_SHOW: "DR-14.3", VARIETY: "DR-14.4", PERFECT_SHOW: "DR-14.5", LARGE_TROUPE: "DR-14.6"}
"""The award ids of the component data and the rule of each."""

BONUS_RULES = {"trailer_bonus": "DR-21.13", "helper_bonus": "DR-21.15", "resource_bonus": "DR-21.16"}
"""The investment kinds scored for what the circus holds at the end (DR-21.8), and their rules."""
UNUSED_RULES = {"unlock_action": "DR-21.10", "trailer": "DR-21.11", "fire_performer": "DR-21.12"}
"""The rule of each kind whose card scores its `fame_if_unused` when never used (any other kind
with that value cites the general rule, DR-21.7)."""


# ---- the awards (DR-14.3 to DR-14.7, DR-14.9, AMB-11) -------------------------------------------


def perfect(state: State, player: Player) -> bool:
    """DR-14.5, AMB-11: at least one performer, and every one of them dazzling in the last
    performance (`level` 3 there, a flip in it included, DR-11.14) or flipped in an earlier one
    (it could only be flipped from a dazzling show, and it does not perform again, DR-11.10)."""
    last = state.components.constants.performances
    if not player.performers:
        return False
    return all(hired.flipped is not None or (hired.performed == last and hired.level == PERFECT_LEVEL)
               for hired in player.performers)


def award_winners(state: State, award: Award) -> tuple[int, ...]:
    """The seats that get this award (DR-14.7: every tied seat gets it in full). An award id the
    engine does not know scores for nobody."""
    counts = [len(player.performers) for player in state.players]
    seats = range(state.seats)
    if award.id == LARGEST_SHOW:  # DR-14.3: the most performers (at least one)
        most = max(counts)
        return tuple(seat for seat in seats if most > 0 and counts[seat] == most)
    if award.id == VARIETY:  # DR-14.4: one of each type of the data
        types = {kind.id for kind in state.components.performer_types}
        return tuple(seat for seat, player in enumerate(state.players)
                     if types <= {state.components.performer(h.card).type for h in player.performers})
    if award.id == PERFECT_SHOW:
        return tuple(seat for seat, player in enumerate(state.players) if perfect(state, player))
    if award.id == LARGE_TROUPE:  # DR-14.6
        return tuple(seat for seat in seats if counts[seat] >= LARGE_TROUPE_SIZE)
    return ()


def score_awards(state: State) -> State:
    for award in state.components.awards:
        rule = AWARD_RULES.get(award.id)
        if rule is None:
            continue
        for seat in award_winners(state, award):
            state = state.gain_fame(seat, award.fame, rule, "award", award.name, award=award.id)
    return state


# ---- the bank clerk (DR-19.6, AMB-16, EX-7) -------------------------------------------------------


def bank_clerk_fame(state: State, seat: int) -> int:
    """DR-19.6, AMB-16, EX-7: the deposit at the card's rate (coins per fame, rounded down), capped
    at its maximum: 7 → 3, 10 → 5, 14 → 5 with the default card. No bank clerk, no fame."""
    player = state.players[seat]
    for card in player.helpers:
        helper = state.components.helper(card)
        if helper.kind == BANK_CLERK and helper.coins_per_fame:
            fame = player.deposit // helper.coins_per_fame
            return fame if helper.max_fame is None else min(fame, helper.max_fame)
    return 0


def score_bank_clerk(state: State) -> State:
    for seat in range(state.seats):
        deposit = state.players[seat].deposit
        fame = bank_clerk_fame(state, seat)
        state = state.gain_fame(seat, fame, "DR-19.6", "bank clerk", f"{deposit} money deposited")
    return state


# ---- investment cards in hand (DR-14.2, DR-21.7, DR-21.8, DR-21.10 to DR-21.16) -------------------


def group_size(card: Investment) -> int:
    """How many of the counted things one `amount` needs: the leading number of `per` ("3_cubes_in_supply":
    3), or 1 ("trailer", "helper")."""
    head = (card.per or "").split("_", 1)[0]
    return int(head) if head.isdigit() and int(head) > 0 else 1


def counted(state: State, seat: int, card: Investment) -> int:
    """What a bonus card counts in the circus at the end: trailer tokens (a shared one once, it is
    one token on its bizarre performer: DR-20.8, DR-21.13), helpers (DR-21.15) or the cubes in the
    cube supply, not on performers (DR-21.16)."""
    player = state.players[seat]
    if card.kind == "trailer_bonus":
        return sum(1 for hired in player.performers if hired.trailer)
    if card.kind == "helper_bonus":
        return len(player.helpers)
    if card.kind == "resource_bonus":
        return sum(player.cubes.values())
    return 0


def score_hands(state: State) -> State:
    """Each card in hand at the end (DR-21.8, AMB-25): a bonus card scores `amount` per `per`; a
    card with `fame_if_unused` never used (`used == 0`, DR-21.7, AMB-21) scores that fame."""
    for seat in range(state.seats):
        for held in state.players[seat].hand:
            card = state.components.investment(held.card)
            bonus_rule = BONUS_RULES.get(card.kind)
            if bonus_rule is not None:
                things = counted(state, seat, card)
                size = group_size(card)
                fame = (things // size) * (card.amount if card.amount is not None else 1)
                detail = f"{card.name}: {things} counted" + (f", per {size}" if size > 1 else "")
                state = state.gain_fame(seat, fame, bonus_rule, "investment", detail, card=card.id)
            if card.fame_if_unused and held.used == 0:
                rule = UNUSED_RULES.get(card.kind, "DR-21.7")
                state = state.gain_fame(seat, card.fame_if_unused, rule, "investment", f"{card.name}: never used",
                                        card=card.id)
    return state


def end_of_game(state: State, step: Step) -> State:
    """DR-14.1, DR-14.2: the end-of-game fame, then the agenda runs out and the match is over."""
    return score_hands(score_bank_clerk(score_awards(state)))
