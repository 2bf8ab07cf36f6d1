"""A stage from deal to finish: the deal (§3, D5), one step (a player's card, :func:`play_turn`), moving
the turn on (§4, D15) and the stage end (§6).

Between two orders everything automatic happens here: the next player's draw, skipped players, the
end of the stage with its times, the next stage's deal and its leader's first draw.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.messages import OrderError, event
from engine.rng import Rng
from engine.ruleset import Event, Order
from engine.wyscig import texts
from engine.wyscig.classification import general_classification, stage_ranking, stage_time
from engine.wyscig.deck import CLIMB, Card, deck_presets, shuffled_deck, stacked_deal
from engine.wyscig.orders import check_order, check_turn
from engine.wyscig.state import RaceState
from engine.wyscig.turn import HAND_SIZE, begin_turn, draw, lay_climb, play, take


def deal(state: RaceState, pile: list[Card], events: list[Event], hands: dict[str, list[Card]] | None = None) -> None:
    """D5: deal 6 cards each, one at a time in seat order from the leader; then the opening climbs.

    ``hands`` (a record's setup) fixes some players' opening hands; the others are dealt from ``pile``.
    """
    state.pile = list(pile)
    state.climbs = []
    state.played = []
    state.discards = 0
    state.reference = None
    hands = hands or {}
    opening: dict[str, list[Card]] = {e: list(hands.get(e, [])) for e in state.seats}
    for p in state.players.values():
        p.speeds, p.descents, p.minutes, p.turns, p.last = [], 0, 0, 0, None
    dealt = [e for e in state.from_leader() if e not in hands]
    for _ in range(HAND_SIZE):
        for e in dealt:
            if state.pile:
                opening[e].append(state.pile.pop(0))
    climbs: dict[str, int] = {}
    for e, cards in opening.items():
        player = state.player(e)
        for card in cards:
            take(state, player, card)
        climbs[e] = cards.count(CLIMB)
    events.append(
        event(
            "wk.stage_start",
            "Stage {stage} of {stages}: {name} leads with the yellow token; 1 card in the pile."
            if len(state.pile) == 1
            else "Stage {stage} of {stages}: {name} leads with the yellow token; {count} cards in the pile.",
            stage=state.stage_number,
            stages=state.stages,
            leader=state.leader,
            name=state.player(state.leader).name,
            pile=len(state.pile),
            count=len(state.pile),
        )
    )
    # D5: opening-hand climbs are laid in seat order from the leader, each replaced before the next.
    for e in state.from_leader():
        player = state.player(e)
        for _ in range(climbs[e]):
            lay_climb(state, player, True, events)
            draw(state, player, True, events)


def start_stage(state: RaceState, events: list[Event], pile: list[Card] | None = None) -> None:
    """A fresh shuffle and deal (D5), then the leader's first turn begins."""
    stacked = state.stacked.get(str(state.stage_number))
    hands: dict[str, list[Card]] | None = None
    if stacked is not None and pile is None:
        # A record's setup stacked this stage (its cards were checked against the deck at the start).
        rng = Rng(state.rng)
        hands = {e: list(h) for e, h in stacked["hands"].items()}
        pile = stacked_deal(deck_presets()[state.deck].cards(), hands, stacked["pile"], rng)
        state.rng = rng.state
    elif pile is None:
        rng = Rng(state.rng)
        pile = shuffled_deck(state.deck, rng)
        state.rng = rng.state
    deal(state, pile, events, hands)
    advance(state, state.leader, events)


def play_turn(
    state: RaceState, orders: Mapping[str, Order], in_place: bool = False, events: list[Event] | None = None
) -> tuple[RaceState, list[Event]]:
    """One step: the card of the player whose turn it is (§4.1 steps 3-5), then everything automatic up to
    the next player's decision (his draw, skipped players, the stage's end and the next deal). ``state``
    is left untouched: the step plays on a copy, unless ``in_place`` (a rollout's own state). The events go
    to ``events`` when given (else a new list), returned beside the state."""
    check_turn(state, state.turn or "")
    entrant = state.turn
    assert entrant is not None
    if entrant not in orders:
        raise OrderError.of("wk.missing_order", "No card from {entrant}, whose turn it is.", entrant=entrant)
    order = orders[entrant]
    player = state.player(entrant)
    card, descents = (order.get("card"), order.get("descents")) if type(order) is dict else (None, None)
    if (
        type(card) is int
        and type(descents) is int
        and len(order) == 2
        and card in player.speeds
        and 0 <= descents <= player.descents
    ):
        normal: Order = {"card": card, "descents": descents}  # as check_order reads a validated order
    else:
        normal, complete = check_order(state, entrant, order)
        if not complete:
            raise OrderError.of("wk.no_card", "Choose a speed card to play.")
    new = state if in_place else state.copy()
    if events is None:
        events = []
    play(new, entrant, int(normal["card"]), int(normal["descents"]), events)
    advance(new, new.next_seat(entrant), events)
    return new, events


def nobody_can_play(state: RaceState) -> bool:
    """D15: the stage ends when the pile is empty and no player holds a speed card."""
    return not state.pile and not any(p.speeds for p in state.players.values())


def advance(state: RaceState, entrant: str, events: list[Event]) -> None:
    """Begin ``entrant``'s turn, skipping players without speed cards, or end the stage (§4.2)."""
    state.turn = None
    while not nobody_can_play(state):
        if begin_turn(state, entrant, events):
            return
        entrant = state.next_seat(entrant)
    end_stage(state, events)


def end_stage(state: RaceState, events: list[Event]) -> None:
    """§6 and D18: the yellow token wins (57), the peloton records 60, the others 60 + minutes."""
    times = {e: stage_time(e == state.leader, p.minutes) for e, p in state.players.items()}
    for e, p in state.players.items():
        p.times.append(times[e])
        p.penalties.append(p.minutes)
    ranking = stage_ranking(times, state.seats)
    gc = general_classification([state.player(e) for e in state.seats])
    state.stage_results.append(
        {"stage": state.stage_number, "winner": state.leader, "times": times, "ranking": ranking}
    )
    events.append(
        event(
            "wk.stage_end",
            "{name} wins stage {stage} in the yellow jersey.",
            stage=state.stage_number,
            winner=state.leader,
            name=state.player(state.leader).name,
            times=times,
            ranking=ranking,
            gc=[{"entrant": g.entrant, "place": g.place, "total": g.total, "stage_wins": g.stage_wins} for g in gc],
        )
    )
    state.climbs = []
    if state.stage_number >= state.stages:
        state.finished = True
        state.turn = None
        events.append(race_end_event(state, [g.entrant for g in gc if g.place == 1], gc[0].total))
        return
    state.stage_number += 1
    # §6: the next stage starts with the stage winner leading (he keeps the yellow token).
    start_stage(state, events)


def race_end_event(state: RaceState, winners: list[str], total: int) -> Event:
    """The race winner, or (D19 (3)) the riders equal on every tie-break, who share first place."""
    names = [state.player(e).name for e in winners]
    if len(names) == 1:
        return event(
            "wk.race_end",
            "The race is over: {name} wins in {time}.",
            winner=winners[0],
            winners=winners,
            name=names[0],
            total=total,
            time=texts.clock(total),
            count=1,
        )
    return event(
        "wk.race_end",
        "The race is over: {name} share first place in {time}.",
        winner=winners[0],
        winners=winners,
        name=texts.names(names),
        total=total,
        time=texts.clock(total),
        count=len(names),
    )
