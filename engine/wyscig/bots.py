"""Automatic play: the absent player's card (D21) and the bot strategies ``steady`` and ``attacker``.

Every choice is a deterministic function of the state (no randomness is needed): a bot looks at every
(card, descents) it could play and ranks them by what they would cost it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from engine.ruleset import Order
from engine.wyscig.deck import DESCENT_BONUS
from engine.wyscig.orders import check_turn, partial_of
from engine.wyscig.pace import TOLERANCE, Verdict, judge
from engine.wyscig.state import Player, RaceState

STRATEGIES: tuple[str, ...] = ("steady", "attacker")
DEFAULT_STRATEGY = "steady"
FINAL_CARDS = 3
"""The attacker attacks once the pile is out and he holds no more than this many speed cards."""

Option = tuple[int, int, Verdict]
"""A playable (card, descents) and its verdict against L now."""


def options(state: RaceState, player: Player, descents: int | None = None) -> Iterator[Option]:
    """Every distinct (card, descents) the player may play now, with its verdict."""
    counts = range(player.descents + 1) if descents is None else [descents]
    reference, minutes, is_leader, on_climb = state.reference, player.minutes, player.id == state.leader, state.on_climb
    for card in sorted(set(player.speeds)):
        for k in counts:
            yield card, k, judge(card + DESCENT_BONUS * k, reference, minutes, is_leader, on_climb)


def automatic_card(state: RaceState, player: Player, descents: int) -> int:
    """D21: the lowest card that avoids a penalty (the leader: his lowest), else the highest card."""
    if player.id == state.leader or state.reference is None:
        return player.speeds[0]
    reference = state.reference
    # on a climb, or holding minutes, there is no tolerance
    floor = reference - TOLERANCE if player.minutes == 0 and not state.on_climb else reference
    for card in player.speeds:
        if card + DESCENT_BONUS * descents >= floor:
            return card
    return player.speeds[-1]


def absent_order(state: RaceState, player: Player, partial: Order) -> Order:
    """D21: keep what the player chose; no descents unless chosen; the automatic card otherwise."""
    descents = int(partial.get("descents", 0))
    card = partial.get("card")
    if card is None:
        card = automatic_card(state, player, descents)
    return {"card": int(card), "descents": descents}


def _steady_cost(option: Option) -> tuple[int, int]:
    """Fewest minutes first (gaining some back is best), then the cheapest cards spent."""
    card, k, verdict = option
    return (verdict.minutes, card + 3 * k)


def _attacker_cost(option: Option) -> tuple[int, int, int]:
    """Taking the yellow token first, then as the steady rider, cheapest cards."""
    card, k, verdict = option
    return (0 if verdict.outcome == "lead" else 1, verdict.minutes, card + 3 * k)


def steady(state: RaceState, player: Player, partial: Order) -> Order:
    """Avoid penalties: the cheapest play that takes (or keeps) the fewest minutes.

    The leader plays his lowest card; a chip-free rider the lowest card within the tolerance; a
    penalised rider what gives back the most minutes, with descents only where they help.
    """
    return _best(state, player, partial, _steady_cost)


def attacker(state: RaceState, player: Player, partial: Order) -> Order:
    """Attack for the yellow token when it counts: with the last cards of the stage.

    Only the holder of the yellow token at the end wins the stage (57 instead of 60), so a lead taken
    earlier is worth nothing and spends high cards. Until the pile is out and he is down to his last
    :data:`FINAL_CARDS` speed cards the attacker rides like ``steady`` (which keeps his high cards in
    hand); then, as leader, he defends with his highest card, and free of minutes he takes the lead as
    cheaply as he can (with descents if needed). (Attacking from two laps before the pile ran out, as
    a first version did, burned the high cards early and lost to ``steady``.)
    """
    if state.pile or len(player.speeds) > FINAL_CARDS:
        return steady(state, player, partial)
    if player.id == state.leader and "card" not in partial:
        return {"card": player.speeds[-1], "descents": int(partial.get("descents", 0))}
    return _best(state, player, partial, _attacker_cost)


def _best(state: RaceState, player: Player, partial: Order, cost: Callable[[Option], tuple[int, ...]]) -> Order:
    """The first option of :func:`options` (the one ``partial`` allows) with the lowest ``cost``."""
    chosen = partial.get("descents")
    limited = "card" in partial
    wanted = partial.get("card")
    best: Option | None = None
    lowest: tuple[int, ...] | None = None
    # :func:`options`, spelled out: a bot weighs every card of the hand at every turn
    counts = range(player.descents + 1) if chosen is None else [int(chosen)]
    reference, minutes, is_leader, on_climb = state.reference, player.minutes, player.id == state.leader, state.on_climb
    for card in sorted(set(player.speeds)):
        if limited and card != wanted:
            continue
        for k in counts:
            option = (card, k, judge(card + DESCENT_BONUS * k, reference, minutes, is_leader, on_climb))
            price = cost(option)
            if lowest is None or price < lowest:
                best, lowest = option, price
    if best is None:
        raise ValueError("no card to play")  # as min() of nothing: the turn's checks rule it out
    return {"card": best[0], "descents": best[1]}


PLAYERS: dict[str, Callable[[RaceState, Player, Order], Order]] = {"steady": steady, "attacker": attacker}


def auto_order(state: RaceState, entrant: str, partial: Order | None, strategy: str | None) -> Order:
    """The order of the player whose turn it is: ``strategy``'s (a bot), or D21's (an absent player,
    ``None``), keeping what ``partial`` already chose."""
    check_turn(state, entrant)
    chosen = partial_of(state, entrant, {entrant: partial} if partial else None)
    player = state.player(entrant)
    if strategy is None:
        return absent_order(state, player, chosen)
    if strategy not in PLAYERS:
        raise ValueError(f"unknown Wyścig strategy {strategy!r}; choose one of: {', '.join(STRATEGIES)}")
    return PLAYERS[strategy](state, player, chosen)
