"""One race round (§5): the energy phase's cards, the movement phase and the end phase.

Works on a copy of the state (``resolve`` makes it); the orders are already validated.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.flamme_rouge import cards as C
from engine.flamme_rouge.deck import HAND_SIZE, METEO_HAND, deal, drawn_all, pick
from engine.flamme_rouge.exhaustion import take_exhaustion
from engine.flamme_rouge.movement import move, movement_order, occupancy
from engine.flamme_rouge.orders import every_racing_team
from engine.flamme_rouge.slipstream import slipstream
from engine.flamme_rouge.state import BOT_TEAMS, DONE, MUSCLE, PELOTON, RaceState
from engine.flamme_rouge.strategies import card_chooser
from engine.flamme_rouge.texts import card_name
from engine.messages import Event, Message, event, event_of
from engine.ruleset import Order

PELOTON_FRONT_ATTACK, PELOTON_REAR_ATTACK = 2, 9
"""§7.2: Attack! moves the front Peloton rider 2 and the rear one 9."""

_PLAIN = frozenset(range(2, 10))
"""The energy cards, named by their value alone."""

_MOVED = "{rider} plays {card} and moves from {from} to {to}."
_BLOCKED = "{rider} is blocked short of square {target} and stops on {to}."
_CROSSED = "{rider} crosses the finish line, {past} past it."
_SLIPSTREAM = "{rider} slipstreams from {from} to {to}."
TEMPLATES = {"fr.move": _MOVED, "fr.blocked": _BLOCKED, "fr.cross": _CROSSED, "fr.slipstream": _SLIPSTREAM}
"""The English templates of the round's commonest events, which the round writes out as f-strings
(:func:`~engine.messages.event_of`); a test checks every such event's text against its template."""


def energy_cards(state: RaceState, orders: dict[str, Order], events: list[Event] | None) -> dict[int, int]:
    """The energy phase: each rider's chosen card is taken from its drawn hand, the rest recycled. A rider
    without cards (deck and recycled pile empty) plays an exhaustion card by itself (§9.1): an event says so
    (``events`` is ``None`` in a rollout, which builds none).

    Returns rider index -> the card played (code); the moves reveal them.
    """
    played: dict[int, int] = {}
    riders = state.riders
    no_order: Order = {}
    cache_get = state.cache.get  # drawn_all, spelt out: the hands the bots and validate have already read
    for entrant in every_racing_team(state):
        chosen = orders.get(entrant, no_order).get("cards", no_order)
        for i in state.team(entrant).values():
            rider = riders[i]
            if rider.crossed:
                continue
            if not rider.deck and not rider.recycled:
                played[i] = C.EXHAUSTION
                if events is not None:
                    events.append(
                        event(
                            "fr.auto_exhaustion",
                            "{rider} has no cards left and plays an exhaustion card ({card}) automatically.",
                            rider=rider.id,
                            card=2,
                            auto=True,
                        )
                    )
                continue
            wanted = chosen.get(rider.kind)
            got = cache_get(("hand", i))
            shown, deck, recycled = got if got is not None else drawn_all(state, i)
            # pick(), spelt out for the common case (a card of the value named)
            card = wanted if type(wanted) is int and wanted != 2 and wanted in shown else _card_of(shown, wanted)
            hand = shown[:]  # the cached hand is shared
            hand.remove(card)
            rider.deck = deck
            rider.recycled = (*recycled, *hand)  # 5.1: the unchosen cards go onto the recycled pile
            played[i] = card
    return played


def _card_of(shown: list[int], wanted: object) -> int:
    """The card of the hand ``shown`` that the value ``wanted`` plays (D26: a 2 is an exhaustion card whenever
    the hand holds one); without a value, or one the hand lacks, its lowest card. Validated orders always
    name a card of the hand: the fallback keeps the round total anyway."""
    card = pick(shown, wanted) if isinstance(wanted, int) else None
    return min(shown, key=C.value) if card is None else card


def bot_energy_cards(state: RaceState, strategies: Mapping[str, str]) -> dict[int, int]:
    """:func:`energy_cards` in a quiet rollout step of an all-bot race (``strategies``: every entrant's): each
    racing rider with cards draws its hand and plays at once the card its team's strategy names
    (:func:`~engine.flamme_rouge.strategies.card_chooser`: what ``card_value`` and so the bot's order would
    say), no order written, no hand cached. The same cards and piles as ``energy_cards`` on the bots'
    orders: a strategy reads the hand and where the riders are, never another rider's piles, so playing a
    card before the next rider chooses changes nothing (the rollout tests compare the states with the full driver's)."""
    played: dict[int, int] = {}
    # Each team's chooser once (card_chooser; bot teams and absent players play the lowest, as energy_cards
    # does when auto_order gives them no card).
    choosers = {who: card_chooser(s) for who, s in strategies.items() if s is not None and s not in BOT_TEAMS}
    get = choosers.get
    wind = state.track.wind
    for i, rider in enumerate(state.riders):
        if rider.crossed or rider.bot or not rider.owner:  # every_racing_team's riders
            continue
        deck = rider.deck
        if not deck and not rider.recycled:
            played[i] = C.EXHAUSTION  # §9.1: it has no cards left
            continue
        # deal(), spelt out for the common case (a deck that holds the whole hand: D10's size)
        square = rider.square
        weather = wind[square] if square > 0 else ""
        n = METEO_HAND.get(weather, HAND_SIZE) if weather else HAND_SIZE
        if len(deck) >= n:
            hand, rest, recycled = list(deck[:n]), deck[n:], rider.recycled
        else:
            hand, rest, recycled = deal(state, i)  # its own list
        choose = get(rider.owner)
        if choose is None:
            card = _card_of(hand, None)
        else:
            wanted = choose(state, i, hand)
            card = wanted if wanted != 2 and wanted in hand else _card_of(hand, wanted)
        hand.remove(card)
        rider.deck = rest
        rider.recycled = (*recycled, *hand)  # 5.1
        played[i] = card
    return played


def flip_bots(state: RaceState, order: list[int]) -> tuple[dict[int, int], int | None]:
    """§7.2, §7.3: the bot teams turn up their cards (flipped cards leave the game, D20, D21).

    Returns rider index -> movement value (before terrain), and the Peloton's card (-1: its deck was empty;
    ``None``: no Peloton rider races). Peloton: one card for both riders; Attack! gives the front rider (the
    first to move, D20) 2 and the rear rider 9; a lone racing Peloton rider is the rear rider. An empty deck
    moves 2.
    """
    values: dict[int, int] = {}
    riders = state.riders
    peloton = []
    for i in order:
        r = riders[i]
        bot = r.bot
        if bot == MUSCLE:
            deck = r.deck
            if deck:
                values[i] = C.VALUES[deck[0]]
                r.deck = deck[1:]
            else:
                values[i] = C.EMPTY_BOT_DECK_VALUE
        elif bot == PELOTON:
            peloton.append(i)
    if not peloton:
        return values, None
    holder = next(r for r in riders if r.bot == PELOTON and r.kind == "p" and r.id.endswith("-p1"))
    card = holder.deck[0] if holder.deck else -1
    holder.deck = holder.deck[1:]
    for pos, i in enumerate(peloton):
        if card == C.ATTACK:
            front = pos == 0 and len(peloton) > 1
            values[i] = PELOTON_FRONT_ATTACK if front else PELOTON_REAR_ATTACK
        elif card < 0:
            values[i] = C.EMPTY_BOT_DECK_VALUE
        else:
            values[i] = C.value(card)
    return values, card


def play_round(state: RaceState, orders: dict[str, Order], events: list[Event] | None) -> None:
    """Resolve one round on ``state`` (a copy), its events appended to ``events``; ``None`` in a rollout,
    where the same round is played and no event is built."""
    finish_round(state, energy_cards(state, orders, events), events)


def play_bot_round(state: RaceState, strategies: Mapping[str, str]) -> None:
    """A quiet rollout's round whose every order would be a bot's (:func:`bot_energy_cards`), no event."""
    finish_round(state, bot_energy_cards(state, strategies), None)


def finish_round(state: RaceState, played: dict[int, int], events: list[Event] | None) -> None:
    """The round after its energy phase: the bot teams' cards, the movement phase and the end phase, with the
    players' cards ``played`` (rider index -> card)."""
    track = state.track
    riders = state.riders
    rnd = state.round
    clip = state.options["finish_overflow"] == "clip"
    order = movement_order(riders)
    values, labels = C.VALUES, C.LABELS
    say = events is not None
    # The movement value of each rider's card; with events, the card's name too (a special card, a player's
    # exhaustion card, is named by a message, an energy card by its value).
    moves: dict[int, int] = {i: values[card] for i, card in played.items()}
    named: dict[int, Message | str] = (
        {i: labels[card] if card in _PLAIN else card_name(card) for i, card in played.items()} if say else {}
    )
    if len(played) < len(order):
        bot_values, peloton_card = flip_bots(state, order)
        moves.update(bot_values)
        if say:
            for i, v in bot_values.items():
                named[i] = labels[v]
        if events is None or peloton_card is None:
            pass
        elif peloton_card >= 0:
            events.append(event("fr.peloton_card", "The Peloton turns up {card}.", card=card_name(peloton_card)))
        else:  # D20: an empty deck moves both riders 2
            events.append(
                event(
                    "fr.peloton_empty",
                    "The Peloton's deck is empty: its riders move {value}.",
                    value=C.EMPTY_BOT_DECK_VALUE,
                )
            )
    # --- movement phase (5.2) --------------------------------------------------------------------
    occ = occupancy(state)
    finish = track.finish
    targets, last = track.targets, track.last
    crossed: list[int] = []
    for i in order:
        r = riders[i]
        base = moves[i]
        start = r.square
        target = targets[start][base]  # target_square, spelt out: once per rider and round
        if clip and target > last:
            target = last
        sq, lane = move(occ, track, riders, i, target)
        if sq >= finish:
            r.crossed = rnd
            r.past = sq - finish + 1
            crossed.append(i)
        if events is None:
            continue
        card_label = named[i]
        blocked = sq != target
        rid = r.id
        # The texts are _MOVED, _BLOCKED and _CROSSED written out (event_of: this loop runs for every rider of
        # every round; bench/identical.py checks the events byte for byte against a baseline).
        data = {
            "rider": rid,
            "card": card_label,
            "value": base,
            "from": start,
            "to": sq,
            "lane": lane,
            "target": target,
            "blocked": blocked,
        }
        events.append(event_of("fr.move", data, f"{rid} plays {card_label} and moves from {start} to {sq}."))
        if blocked:  # the move's own message says where it went; this one why it stopped short
            data = {"rider": rid, "target": target, "to": sq}
            events.append(event_of("fr.blocked", data, f"{rid} is blocked short of square {target} and stops on {sq}."))
        if sq >= finish:
            past = r.past
            data = {"rider": rid, "past": past, "round": rnd}
            events.append(event_of("fr.cross", data, f"{rid} crosses the finish line, {past} past it."))
    # --- end phase (5.3) -------------------------------------------------------------------------
    shifts = slipstream(occ, track, riders)
    if events is not None:
        for i, frm, to in shifts:
            r = riders[i]
            rid = r.id
            data = {"rider": rid, "from": frm, "to": to, "lane": r.lane}
            events.append(event_of("fr.slipstream", data, f"{rid} slipstreams from {frm} to {to}."))
    tired = take_exhaustion(occ, riders, finish)
    if tired and events is not None:
        ids = [riders[i].id for i in tired]
        # A counted sentence (plural forms by ``count`` in a catalogue); English picks its form here.
        text = "{names} takes an exhaustion card." if len(ids) == 1 else "{names} take an exhaustion card."
        events.append(event("fr.exhaustion", text, riders=ids, names=", ".join(ids), count=len(ids)))
    finish_mode = state.options["finish"]
    if finish_mode == "all":
        for i in crossed:  # D5: they leave the track once their round's end phase is over
            riders[i].off = True
        # every rider has crossed (then each rider that raced this round crossed in it: tested first, cheaply)
        done = len(crossed) == len(order) and all(r.crossed for r in riders)
    else:
        done = bool(crossed) or any(r.crossed for r in riders)
    if done:
        state.phase = DONE
        if events is not None:
            events.append(event("fr.finish", "The race is over after round {round}.", round=rnd))
    state.round = rnd + 1
