"""The Breakaway variant (§7.1, D8): two secret bids from one rider, the best break away beyond the line."""

from __future__ import annotations

from engine.flamme_rouge import cards as C
from engine.flamme_rouge.deck import HAND_SIZE, hand_of, pick
from engine.flamme_rouge.grid import free_lane
from engine.flamme_rouge.state import RaceState
from engine.messages import event
from engine.rng import Rng
from engine.ruleset import Event, Order

BREAKAWAY_EXHAUSTION = 2


def bidders(state: RaceState) -> list[str]:
    """The players who bid (bots do not), in turn order."""
    return [e for e in state.turn_order if any(not r.bot for r in state.riders_of(e))]


def breakaway_count(n_bidders: int) -> int:
    """D8: the top 2 break away with 5 or more bidding players, the top 1 with fewer."""
    return 2 if n_bidders >= 5 else 1


def rider_index(state: RaceState, entrant: str, letter: str) -> int:
    for i, r in enumerate(state.riders):
        if r.owner == entrant and r.kind == letter:
            return i
    raise KeyError(letter)


def bid_rider(state: RaceState, entrant: str, order: Order | None) -> str | None:
    """The letter of the bidding rider: fixed after round 1, else from the order (or the only rider)."""
    if entrant in state.bids:
        rid = state.bids[entrant][0]
        return str(state.rider(rid).kind)
    letters = [r.kind for r in state.riders_of(entrant)]
    if len(letters) == 1:
        return letters[0]
    got = (order or {}).get("bid", {}).get("rider")
    return got if isinstance(got, str) else None


def resolve_bids(state: RaceState, orders: dict[str, Order], rng: Rng) -> list[Event]:
    """One bidding round on ``state`` (a copy): set each bid card aside, shuffle the other 3 back (D8)."""
    events: list[Event] = []
    for entrant in bidders(state):
        order = orders.get(entrant, {})
        letter = bid_rider(state, entrant, order)
        assert letter is not None
        i = rider_index(state, entrant, letter)
        rider = state.riders[i]
        hand, deck, recycled = hand_of(state, i, HAND_SIZE)  # D10: bids always draw 4
        card = pick(hand, int(order["bid"]["card"]))
        assert card is not None
        hand.remove(card)
        cards = [*deck, *hand]
        C.shuffle(cards, rng)
        rider.deck = tuple(cards)
        rider.recycled = recycled
        if state.bid_round == 1:
            state.bids[entrant] = [rider.id, card]
        else:
            state.bids[entrant].append(card)
        events.append(
            event(
                "fr.bid",
                "{rider} bids {card} (round {round}).",
                entrant=entrant,
                rider=rider.id,
                round=state.bid_round,
                card=C.value(card),
            )
        )
    if state.bid_round == 1:
        state.bid_round = 2
        return events
    events.extend(settle(state, rng))
    return events


def ranking(state: RaceState) -> list[str]:
    """D8: bidders by bid total, higher first; equal totals: later in the turn order first."""
    order = {e: n for n, e in enumerate(state.turn_order)}
    entrants = list(state.bids)
    return sorted(entrants, key=lambda e: (-sum(C.value(c) for c in state.bids[e][1:]), -order[e]))


def settle(state: RaceState, rng: Rng) -> list[Event]:
    """After round 2: the winners lose their bid cards and shuffle 2 exhaustion cards in; the losers shuffle
    their bid cards back; the winners start just beyond the start line, the best furthest forward."""
    events: list[Event] = []
    ranked = ranking(state)
    winners = ranked[: breakaway_count(len(ranked))]
    for entrant in ranked:
        rid, *bid_cards = state.bids[entrant]
        rider = state.rider(rid)
        cards = list(rider.deck)
        if entrant in winners:
            cards += [C.EXHAUSTION] * BREAKAWAY_EXHAUSTION
            rider.exhaustion += BREAKAWAY_EXHAUSTION
            rider.breakaway = True
        else:
            cards += bid_cards
        C.shuffle(cards, rng)
        rider.deck = tuple(cards)
    line = state.track.start_squares
    for place, entrant in enumerate(winners):
        rider = state.rider(state.bids[entrant][0])
        square = line + len(winners) - place
        rider.square = square
        rider.lane = free_lane(state, square) or 1
        events.append(
            event(
                "fr.breakaway",
                "{rider} breaks away with a bid of {total} and starts on square {square}.",
                entrant=entrant,
                rider=rider.id,
                total=sum(C.value(c) for c in state.bids[entrant][1:]),
                square=square,
            )
        )
    return events
