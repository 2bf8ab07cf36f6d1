"""Automatic orders: the absent-player rules (D9) and the bot strategies of an ordinary team.

- ``None`` (absent player, D9): the lowest card of each drawn hand; rearmost start square; the Rouleur
  bids its lowest cards; the first free rider.
- ``first``: always the first card drawn.
- ``simple``: always the highest card.
- ``heuristic``: keeps the Sprinteur's 9s for the finish, plays cheap cards where terrain makes them
  worth as much (descent and supply minimums, the ascent cap), keeps its exhaustion cards out of play
  when it can (an unplayed exhaustion card costs nothing), and prefers a move that should end on another
  team's wheel (slipstream, no exhaustion).

Official bot teams (``peloton``, ``muscle``) submit nothing: they never appear in ``awaited``. Every choice
is a deterministic function of the state.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.flamme_rouge import cards as C
from engine.flamme_rouge.breakaway import bid_rider, rider_index
from engine.flamme_rouge.deck import HAND_SIZE, drawn, hand_of, hand_values
from engine.flamme_rouge.grid import free_start_positions
from engine.flamme_rouge.movement import target_square
from engine.flamme_rouge.orders import free_riders, racing_letters
from engine.flamme_rouge.state import BID, CHOOSE, ENERGY, PLACE, RaceState
from engine.flamme_rouge.track import Track
from engine.ruleset import Order

SPRINT_WINDOW = 18
"""Squares to the line within which the heuristic Sprinteur spends its 9s."""


def auto_order(state: RaceState, entrant: str, partial: Order | None, strategy: str | None) -> Order:
    """A complete order for ``entrant`` that keeps what ``partial`` already chose."""
    partial = dict(partial or {})
    if state.phase == ENERGY:
        return energy_order(state, entrant, partial, strategy)
    if state.phase == PLACE:
        return place_order(state, entrant, partial, strategy)
    if state.phase == BID:
        return bid_order(state, entrant, partial)
    if state.phase == CHOOSE:
        return {"rider": free_riders(state)[0]}
    return {}


def energy_order(state: RaceState, entrant: str, partial: Order, strategy: str | None) -> Order:
    letters = racing_letters(state, entrant)
    if not partial:  # a bot's every round: nothing chosen yet, every rider in the riders' order (D27)
        team = state.team(entrant)
        choose = card_chooser(strategy)  # card_value, its strategy looked up once
        chosen: dict[str, int] = {}
        for letter in letters:
            i = team[letter]
            chosen[letter] = choose(state, i, drawn(state, i))
        return {"first": letters[0], "cards": chosen}
    given = partial.get("cards")
    cards: dict[str, int] = dict(given) if given else {}
    first = partial.get("first") or (next(iter(cards)) if cards else letters[0])
    team = state.team(entrant)
    # the first-drawn rider first (D27), then the others in order
    for letter in letters if first == letters[0] else sorted(letters, key=lambda x: x != first):
        if letter in cards:
            continue  # D9, D27: a card already chosen stands
        i = team[letter]
        cards[letter] = card_value(state, i, drawn(state, i), strategy)
    if not given and first == letters[0]:
        return {"first": first, "cards": cards}  # chosen in the riders' order already
    return {"first": first, "cards": {k: cards[k] for k in letters}}


def card_value(state: RaceState, index: int, hand: list[int], strategy: str | None) -> int:
    """The value ``strategy`` names for rider ``index`` from its drawn ``hand`` (``None``: D9's absent
    player, the lowest). Both the bots' orders (:func:`energy_order`) and a rollout's bot rounds
    (``round.bot_energy_cards``, which plays the card at once, through :func:`card_chooser`) ask it, so a
    strategy lives here alone."""
    return card_chooser(strategy)(state, index, hand)


Chooser = Callable[[RaceState, int, list[int]], int]
"""A strategy's energy card: ``(state, rider index, drawn hand) -> the value played``."""


def card_chooser(strategy: str | None) -> Chooser:
    """The function :func:`card_value` asks for ``strategy``'s card: a round asks it once per team rather
    than once per rider."""
    return _CHOOSERS.get(strategy, heuristic_card)


def _first_card(state: RaceState, index: int, hand: list[int]) -> int:
    """``first``: always the first card drawn."""
    return C.VALUES[hand[0]]


def _lowest_card(state: RaceState, index: int, hand: list[int]) -> int:
    """D9, an absent player: the lowest (D26: a 2 plays the exhaustion card)."""
    values = C.VALUES
    return min([values[c] for c in hand])


def _highest_card(state: RaceState, index: int, hand: list[int]) -> int:
    """``simple``: always the highest card."""
    values = C.VALUES
    return max([values[c] for c in hand])


WHEEL_BONUS = 3.5
"""How many squares the heuristic gives up to end right behind a rider (slipstream, no exhaustion)."""
GAP_BONUS = 1.5
"""... or one empty square behind a rider (it will slipstream into the gap)."""
EXPECTED_MOVE = 6
"""Where the heuristic expects the other teams' riders to be: this many squares further on."""


def heuristic_card(state: RaceState, index: int, hand: list[int]) -> int:
    """The heuristic's card for rider ``index`` from ``hand`` (a value the hand holds).

    It crosses as far as it can when it can; far from the line the Sprinteur keeps its 9s; otherwise it
    scores each card by the distance it really gives on this terrain (minimum speeds, the ascent cap), plus
    a bonus when the move should end on another team's wheel (they are expected to ride
    :data:`EXPECTED_MOVE` squares on), and on equal scores keeps the bigger card.

    All but the wheel bonus depends on the square, the rider's kind and the hand's cards alone: that part is
    worked out once per track (:func:`_plan`, kept in ``Track.plans``), so a round reads where the others
    are expected and compares a few precomputed scores per rider.
    """
    rider = state.riders[index]
    track = state.track
    clip = state.options["finish_overflow"] == "clip"
    start = rider.square
    cards = frozenset(hand)  # a hand's order never matters
    plans = track.plans
    plan = plans.get((start, rider.kind, clip, cards))
    if plan is None:
        plan = _plan(track, start, rider.kind, clip, hand)
        # Kept with the sets of cards and the plans shared (few are distinct: a plan says how far, not where).
        plan = _SHARED.setdefault(plan, plan)
        plans[(start, rider.kind, clip, _SHARED.setdefault(cards, cards))] = plan
    if isinstance(plan, int):
        return plan
    owner = rider.owner
    where: dict[int, str | None] | None = state.cache.get("expected")
    if where is None:
        where = state.cache["expected"] = expected_owners(state)
    no_slip = track.no_slip  # the weather's (a crosswind): read here, never in a plan
    best, best_score = 0, -1e9
    for v, reach, plain, wheel, gap in plan:  # the first best score, as max() would give
        land = start + reach
        if where.get(land + 1, owner) != owner:  # another team's rider is expected there
            s = wheel
        elif where.get(land + 2, owner) != owner and not no_slip[land]:
            s = gap
        else:
            s = plain
        if s > best_score:
            best, best_score = v, s
    return best


def expected_owners(state: RaceState) -> dict[int, str | None]:
    """Where the heuristic expects the riders on the track (:data:`EXPECTED_MOVE` squares on, a rider that
    has crossed where it is): square -> the owner of every rider expected there, ``None`` when they belong to
    two teams or more. Worked out once per state, for every team: a square holds another team's rider
    exactly when its entry is not the asking team."""
    where: dict[int, str | None] = {}
    for r in state.riders:
        if r.square > 0 and not r.off:
            square = r.square + (EXPECTED_MOVE if r.crossed == 0 else 0)
            if where.setdefault(square, r.owner) != r.owner:
                where[square] = None
    return where


Plan = int | tuple[tuple[int, int, float, float, float], ...]
"""A heuristic plan: the card itself when where the others are cannot change it, else each candidate value in
the hand's ascending order with how far it goes and its score without a bonus, on a wheel, before a gap."""

_SHARED: dict[Any, Any] = {}
"""The distinct plans and sets of cards of every track's ``plans``, each kept once: a few hundred in all, where a
track holds thousands of entries (a plan of each square, kind and hand)."""


def _plan(track: Track, start: int, kind: str, clip: bool, hand: list[int]) -> Plan:
    """What :func:`heuristic_card` decides from ``start``, the rider's ``kind`` and its ``hand`` alone. The
    scores are the same float operations in the same order as scoring each card on the spot would make
    (the distance, plus the bonus, minus a hundredth of the value), so equal scores stay equal."""
    to_line = track.finish - start
    values = hand_values(hand)
    # How far each value takes it from here (target_square: the track's table, D4's clip when it is on).
    reach = {v: target_square(track, start, v, clip) - start for v in values}
    if max(reach.values()) >= to_line:  # it can cross now: as far as possible (on equal reach, the smaller card)
        return max(values, key=lambda v: (reach[v], -v))
    pool = values
    if kind == "s" and to_line > SPRINT_WINDOW and values[0] != 9:  # (ascending: a value under 9)
        pool = [v for v in values if v != 9]  # keep the 9s for the sprint
    if len(pool) == 1:
        return pool[0]
    plan = []
    for v in pool:
        d = float(reach[v])
        plan.append((v, reach[v], d - 0.01 * v, (d + WHEEL_BONUS) - 0.01 * v, (d + GAP_BONUS) - 0.01 * v))
    return tuple(plan)


def place_order(state: RaceState, entrant: str, partial: Order, strategy: str | None) -> Order:
    """D9: the next unplaced rider (Rouleur first) on the rearmost start square with a free lane; the
    strategies take the frontmost one instead (``first`` behaves like an absent player)."""
    chosen = dict(partial.get("place") or {})
    unplaced = sorted(r.kind for r in state.riders_of(entrant) if r.square == 0)
    rider = chosen.get("rider") or unplaced[0]
    positions = free_start_positions(state)
    if "square" in chosen:
        square = chosen["square"]
    elif strategy in ("simple", "heuristic"):
        square = positions[0]
    else:
        square = positions[-1]
    return {"place": {"rider": rider, "square": square}}


def bid_order(state: RaceState, entrant: str, partial: Order) -> Order:
    """D9: the Rouleur (one-rider mode: the rider) bids the lowest card drawn each round."""
    chosen: dict[str, Any] = dict(partial.get("bid") or {})
    letter = bid_rider(state, entrant, partial) or chosen.get("rider") or "r"
    if "card" in chosen:
        return {"bid": {"rider": letter, "card": chosen["card"]}}
    hand = hand_of(state, rider_index(state, entrant, letter), HAND_SIZE)[0]
    return {"bid": {"rider": letter, "card": min(C.value(c) for c in hand)}}


_CHOOSERS: dict[str | None, Chooser] = {"first": _first_card, None: _lowest_card, "simple": _highest_card}
"""Every strategy's card but the heuristic's (any other name plays it, as ``auto_order`` always did)."""
