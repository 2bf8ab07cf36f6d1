"""One race round (§5): the energy phase's cards, the movement phase and the end phase.

Works on a copy of the state (``resolve`` makes it); the orders are already validated.
"""

from __future__ import annotations

from engine.flamme_rouge import cards as C
from engine.flamme_rouge.deck import hand_of, pick
from engine.flamme_rouge.events import event, fast_event
from engine.flamme_rouge.exhaustion import take_exhaustion
from engine.flamme_rouge.movement import move, movement_order, occupancy, target_square
from engine.flamme_rouge.slipstream import slipstream
from engine.flamme_rouge.state import DONE, MUSCLE, PELOTON, RaceState
from engine.ruleset import Event, Order

PELOTON_FRONT_ATTACK, PELOTON_REAR_ATTACK = 2, 9
"""§7.2: Attack! moves the front Peloton rider 2 and the rear one 9."""


def energy_cards(state: RaceState, orders: dict[str, Order]) -> dict[int, int]:
    """The energy phase: each rider's chosen card is taken from its drawn hand, the rest recycled.

    Returns rider index -> the card played (code); the moves reveal them.
    """
    played: dict[int, int] = {}
    for entrant, order in orders.items():
        chosen = order.get("cards", {})
        riders = state.riders
        for i in state.team(entrant).values():
            rider = riders[i]
            if rider.crossed:
                continue
            wanted = chosen.get(rider.kind)
            hand, deck, recycled = hand_of(state, i)
            card = pick(hand, wanted) if isinstance(wanted, int) else None
            if card is None:  # validated orders always name a card of the hand; keep resolve total anyway
                card = min(hand, key=C.value)
            rest = hand[:]
            rest.remove(card)
            rider.deck = deck
            rider.recycled = recycled + rest  # 5.1: the unchosen cards go onto the recycled pile
            played[i] = card
    return played


def flip_bots(state: RaceState, order: list[int]) -> dict[int, int]:
    """§7.2, §7.3: the bot teams turn up their cards (flipped cards leave the game, D20, D21).

    Returns rider index -> movement value (before terrain). Peloton: one card for both riders; Attack!
    gives the front rider (the first to move, D20) 2 and the rear rider 9; a lone racing Peloton rider is
    the rear rider. An empty deck moves 2.
    """
    values: dict[int, int] = {}
    riders = state.riders
    peloton = [i for i in order if riders[i].bot == PELOTON]
    if peloton:
        holder = next(r for r in riders if r.bot == PELOTON and r.kind == "p" and r.id.endswith("-p1"))
        card = holder.deck.pop(0) if holder.deck else -1
        for pos, i in enumerate(peloton):
            if card == C.ATTACK:
                front = pos == 0 and len(peloton) > 1
                values[i] = PELOTON_FRONT_ATTACK if front else PELOTON_REAR_ATTACK
            elif card < 0:
                values[i] = C.EMPTY_BOT_DECK_VALUE
            else:
                values[i] = C.value(card)
    for i in order:
        r = riders[i]
        if r.bot == MUSCLE:
            values[i] = C.value(r.deck.pop(0)) if r.deck else C.EMPTY_BOT_DECK_VALUE
    return values


def play_round(state: RaceState, orders: dict[str, Order]) -> list[Event]:
    """Resolve one round on ``state`` (a copy) and return its events."""
    track = state.track
    riders = state.riders
    rnd = state.round
    clip = state.options["finish_overflow"] == "clip"
    played = energy_cards(state, orders)
    events: list[Event] = []
    order = movement_order(riders)
    has_bots = len(played) < len(order)
    peloton_racing = has_bots and any(riders[i].bot == PELOTON for i in order)
    peloton_before = -1
    if peloton_racing:
        peloton_before = next((r.deck[0] for r in riders if r.bot == PELOTON and r.id.endswith("-p1") and r.deck), -1)
    bot_values = flip_bots(state, order) if has_bots else {}
    if peloton_racing:
        events.append(
            event(
                "fr.peloton_card",
                {"card": C.label(peloton_before) if peloton_before >= 0 else None},
                "The Peloton turns up {card}.",
                card=C.label(peloton_before) if peloton_before >= 0 else "nothing (empty deck: 2)",
            )
        )
    # --- movement phase (5.2) --------------------------------------------------------------------
    occ = occupancy(state)
    finish = track.finish
    crossed: list[int] = []
    values, labels = C.VALUES, C.LABELS
    for i in order:
        r = riders[i]
        card = played.get(i)
        if card is not None:
            base = values[card]
            card_label = labels[card]
        else:
            base = bot_values[i]
            card_label = labels[base]
        start = r.square
        target = target_square(track, start, base, clip)
        sq, lane = move(occ, track, riders, i, target)
        blocked = sq != target
        rid = r.id
        events.append(
            fast_event(
                "fr.move",
                {
                    "rider": rid,
                    "card": card_label,
                    "value": base,
                    "from": start,
                    "to": sq,
                    "lane": lane,
                    "target": target,
                    "blocked": blocked,
                },
                f"{rid} plays {card_label} and moves from {start} to {sq}{' (blocked)' if blocked else ''}.",
            )
        )
        if sq >= finish:
            r.crossed = rnd
            r.past = sq - finish + 1
            crossed.append(i)
            events.append(
                fast_event(
                    "fr.cross",
                    {"rider": rid, "past": r.past, "round": rnd},
                    f"{rid} crosses the finish line, {r.past} past it.",
                )
            )
    # --- end phase (5.3) -------------------------------------------------------------------------
    for i, frm, to in slipstream(occ, track, riders):
        rid = riders[i].id
        events.append(
            fast_event(
                "fr.slipstream",
                {"rider": rid, "from": frm, "to": to, "lane": riders[i].lane},
                f"{rid} slipstreams from {frm} to {to}.",
            )
        )
    tired = take_exhaustion(occ, riders, finish)
    if tired:
        ids = [riders[i].id for i in tired]
        events.append(
            fast_event(
                "fr.exhaustion",
                {"riders": ids},
                f"{', '.join(ids)} {'takes' if len(ids) == 1 else 'take'} an exhaustion card.",
            )
        )
    finish_mode = state.options["finish"]
    if finish_mode == "all":
        for i in crossed:  # D5: they leave the track once their round's end phase is over
            riders[i].off = True
    done = bool(crossed) if finish_mode == "first" else all(r.crossed for r in riders)
    if done or (finish_mode == "first" and any(r.crossed for r in riders)):
        state.phase = DONE
        events.append(event("fr.finish", {"round": rnd}, "The race is over after round {round}.", round=rnd))
    state.round = rnd + 1
    return events
