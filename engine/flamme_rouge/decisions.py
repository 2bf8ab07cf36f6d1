"""What is awaited (contract 3, 4): one Decision per entrant that must decide now, showing the next part.

Energy phase (§9.1): which rider draws first (two buttons), then that rider's hand, then the other's; the
second hand exists only once the first card is chosen (D27). Sequential phases (rider choice, grid
placement) await one entrant; Breakaway bids are simultaneous. This runs every round of every race: the
texts of prompts and labels are formatted once (``cached_msg``), but every object handed out is new.
"""

from __future__ import annotations

from typing import Any

from engine.flamme_rouge import cards as C
from engine.flamme_rouge.breakaway import bid_rider, bidders, rider_index
from engine.flamme_rouge.deck import HAND_SIZE, drawn, hand_of
from engine.flamme_rouge.grid import free_start_positions, square_of
from engine.flamme_rouge.orders import choosing_letters, every_choosing_team, free_riders
from engine.flamme_rouge.state import BID, CHOOSE, ENERGY, PLACE, TYPE_NAMES, RaceState
from engine.flamme_rouge.texts import (
    card_label,
    rider_label,
    rider_msg,
    start_square_label,
    terrain_name,
    type_label,
    type_name,
)
from engine.messages import Message, cached_msg, message_of, msg, phrases
from engine.ruleset import Choice, Decision, Order, choice, choice_field, decision

_choice = choice
"""A button (new each time: the caller may change what it is handed)."""
_field = choice_field


def card_choices(hand: list[int]) -> list[Choice]:
    """One button per distinct value; a 2 is the exhaustion card if the hand holds one (D26)."""
    seen: dict[int, int] = {}
    for c in sorted(hand, key=C.value):
        v = C.value(c)
        if v not in seen or c == C.EXHAUSTION:
            seen[v] = c
    return [_choice(v, card_label(c)) for v, c in seen.items()]


def hand_info(letter: str, hand: list[int]) -> Message:
    """The rider's whole hand, every card shown (``6, 7, 7, 7``; ``2 (exhaustion), 5, 9, X``): the
    buttons offer each distinct value once (D26), but the player must see all four cards."""
    cards = phrases([card_label(c) for c in sorted(hand, key=C.value)])  # as the buttons name them
    shown = str(cards)
    params: dict[str, Any] = {"rider": type_name(letter), "cards": cards}
    return message_of("fr.info.hand", params, f"{TYPE_NAMES[letter]}'s hand: {shown}")


def awaited_ids(state: RaceState) -> list[str]:
    """Who :func:`awaited` asks, in its order, without building the decisions."""
    if state.phase == ENERGY:
        choosing = every_choosing_team(state)
        return [e["id"] for e in state.entrants if e["id"] in choosing]
    if state.phase in (PLACE, CHOOSE):
        return [state.turn_order[state.cursor]]
    if state.phase == BID:
        return bidders(state)
    return []


def awaited(state: RaceState, partial: dict[str, Order] | None) -> list[Decision]:
    partial = partial or {}
    if state.phase == ENERGY:
        out = []
        for e in state.entrants:
            eid = e["id"]
            letters = choosing_letters(state, eid)  # a rider without cards plays by itself (§9.1)
            if letters:
                out.append(energy_decision(state, eid, letters, partial.get(eid) or {}))
        return out
    if state.phase == PLACE:
        eid = state.turn_order[state.cursor]
        return [place_decision(state, eid, partial.get(eid) or {})]
    if state.phase == BID:
        return [bid_decision(state, eid, partial.get(eid) or {}) for eid in bidders(state)]
    if state.phase == CHOOSE:
        eid = state.turn_order[state.cursor]
        mine = partial.get(eid) or {}
        free = free_riders(state)
        # A free rider named: the choice is whole (nothing more to ask; a panel shows its review to send).
        chosen = mine.get("rider") in free
        choices = [_choice(rid, rider_label(rid)) for rid in free]
        prompt = cached_msg("fr.prompt.choose_rider", "Choose your rider")
        fields = [] if chosen else [_field(["rider"], cached_msg("fr.field.rider", "Rider"), choices)]
        return [decision(eid, "choose_rider", prompt, fields, mine, complete=chosen, example="rider blue s")]
    return []


def _team_info(state: RaceState, indexes: list[int]) -> list[Message]:
    """A context line per rider: its square and terrain, deck and recycled counts."""
    terrain = state.track.terrain
    out = []
    for i in indexes:
        r = state.riders[i]
        out.append(
            msg(
                "fr.info.rider",
                "{rider}: square {square} ({terrain}), deck {deck}, recycled {recycled}",
                rider=type_name(r.kind),
                square=r.square,
                terrain=terrain_name(terrain[r.square]),
                deck=len(r.deck),
                recycled=len(r.recycled),
            )
        )
    return out


def energy_decision(state: RaceState, entrant: str, letters: list[str], partial: Order) -> Decision:
    cards: dict[str, Any] = partial.get("cards") or {}
    first = partial.get("first") or (next(iter(cards)) if cards else None)
    if len(letters) == 1:
        first = letters[0]
    index = state.team(entrant)
    example = "r5 s9" if len(letters) == 2 else f"{letters[0]}5"
    if first is None:
        prompt = cached_msg("fr.prompt.draw_first", "Round {round}: choose which rider draws first", round=state.round)
        choices = [_choice(x, type_label(x)) for x in ("r", "s")]
        fields = [_field(["first"], cached_msg("fr.field.first", "Draw first"), choices)]
        return decision(entrant, "energy", prompt, fields, partial, complete=False, example=example)
    info = _team_info(state, [index[x] for x in letters])
    todo = [x for x in sorted(letters, key=lambda x: x != first) if x not in cards]
    if not todo:
        prompt = cached_msg("fr.prompt.energy_done", "Round {round}: your cards are chosen", round=state.round)
        return decision(entrant, "energy", prompt, [], partial, complete=True, example=example, info=info)
    letter = todo[0]
    hand = drawn(state, index[letter])
    rejected = partial.get("rejected")
    if isinstance(rejected, dict) and rejected.get("rider") == letter:
        info.append(
            msg(  # not cached: the refused card is whatever the player sent
                "fr.info.rejected",
                "You can't play {card} for your {rider}; choose again.",
                card=rejected.get("card"),
                rider=type_name(letter),
            )
        )
    info.append(hand_info(letter, hand))
    prompt = rider_msg("fr.prompt.card", "Choose the {rider}'s card", letter)
    fields = [
        _field(
            ["cards", letter],
            rider_msg("fr.field.card", "{rider}", letter),
            card_choices(hand),
            rider_msg("fr.group.rider", "{rider}", letter),
        )
    ]
    return decision(entrant, "energy", prompt, fields, partial, complete=False, example=example, info=info)


def place_decision(state: RaceState, entrant: str, partial: Order) -> Decision:
    chosen = partial.get("place") or {}
    unplaced = sorted(r.kind for r in state.riders_of(entrant) if r.square == 0)
    rider = chosen.get("rider") or (unplaced[0] if len(unplaced) == 1 else None)
    fields = []
    if rider is None:
        fields.append(
            _field(
                ["place", "rider"],
                cached_msg("fr.field.rider", "Rider"),
                [_choice(x, type_label(x)) for x in unplaced],
            )
        )
        prompt = cached_msg("fr.prompt.place_rider", "Choose the rider to place on the grid")
    else:
        positions = free_start_positions(state)
        fields.append(
            _field(
                ["place", "square"],
                cached_msg("fr.field.square", "Start square"),
                [_choice(p, start_square_label(p, square_of(state, p))) for p in positions],
            )
        )
        prompt = rider_msg("fr.prompt.place_square", "Choose the {rider}'s start square", rider)
    complete = rider is not None and "square" in chosen
    # R-FR-12: the example names a free start square by the board's number, as the buttons do.
    free = free_start_positions(state)
    example = f"place {rider or 's'} square {square_of(state, free[0]) if free else 1}"
    return decision(entrant, "place", prompt, [] if complete else fields, partial, complete=complete, example=example)


def bid_decision(state: RaceState, entrant: str, partial: Order) -> Decision:
    chosen = partial.get("bid") or {}
    letter = bid_rider(state, entrant, partial)
    if letter is None:
        letters = sorted(r.kind for r in state.riders_of(entrant) if not r.bot)
        prompt = cached_msg("fr.prompt.bid_rider", "Breakaway: choose the rider that bids")
        fields = [
            _field(
                ["bid", "rider"],
                cached_msg("fr.field.rider", "Rider"),
                [_choice(x, type_label(x)) for x in letters],
            )
        ]
        return decision(entrant, "bid", prompt, fields, partial, complete=False, example="bid r6")
    if "card" in chosen:
        prompt = cached_msg("fr.prompt.bid_done", "Breakaway: your bid is chosen")
        return decision(entrant, "bid", prompt, [], partial, complete=True, example="bid r6")
    hand = hand_of(state, rider_index(state, entrant, letter), HAND_SIZE)[0]
    prompt = rider_msg("fr.prompt.bid_card", "Breakaway round {n}: choose the {rider}'s bid", letter, n=state.bid_round)
    fields = [_field(["bid", "card"], rider_msg("fr.field.card", "{rider}", letter), card_choices(hand))]
    return decision(entrant, "bid", prompt, fields, partial, complete=False, example="bid r6")
