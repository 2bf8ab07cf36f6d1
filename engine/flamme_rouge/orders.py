"""Orders: the text syntax of §9.4, and the checks of §9.3 with friendly refusals.

Normalised orders per phase (the record's JSON):

- rider choice: ``{"rider": "blue-s"}``
- Breakaway bid: ``{"bid": {"rider": "r", "card": 6}}`` (``{"bid": {"rider": "r"}}`` is a partial order)
- grid placement: ``{"place": {"rider": "s", "square": 3}}`` (``square`` = P3); an order may name the board's
  square instead, ``{"place": {"rider": "s", "on": 4}}`` (R-FR-12: the numbering players read on the
  buttons, the posts and the picture), normalised to its P number
- energy: ``{"first": "r", "cards": {"r": 5, "s": 9}}``; ``first`` is the rider whose hand was drawn first
  (D27). A combined order whose second card is refused keeps the first card and notes the refusal in
  ``"rejected": {"rider": "s", "card": 9}`` (the next decision shows it).
"""

from __future__ import annotations

import re
from typing import Any

from engine.flamme_rouge import cards as C
from engine.flamme_rouge.breakaway import bid_rider, bidders, rider_index
from engine.flamme_rouge.cards import EXHAUSTION
from engine.flamme_rouge.deck import HAND_SIZE, drawn, hand_of, hand_values
from engine.flamme_rouge.grid import free_lane, p_of, square_of
from engine.flamme_rouge.state import BID, CHOOSE, COLOURS, DONE, ENERGY, PLACE, RaceState
from engine.flamme_rouge.texts import listed, type_name
from engine.messages import Message, OrderError, message_of, phrases
from engine.ruleset import Order, Validated, validated

LETTERS = {"r": "r", "rouleur": "r", "s": "s", "sprinteur": "s", "sprinter": "s"}
_CARD = re.compile(r"^([rs])(\d+)$")
_BOARD_SQUARE = re.compile(r"(?:square|sq)\s*(\d+)")
"""A start square by the board's number (``square 4``), R-FR-12."""


def hand_text(hand: list[int]) -> str | Message:
    """A hand as a refusal lists it: its values (``3, 4, 7``), the exhaustion card as 2."""
    return listed(sorted(C.value(c) for c in hand))


_validated = validated


def _err(key: str, text: str, **params: Any) -> OrderError:
    """A refusal; its parameters may be nested messages (rider types): English reads their text."""
    return OrderError.of(key, text, **params)


# --- text syntax ---------------------------------------------------------------------------------
def parse_text(text: str) -> Order:
    """§9.4 text to a JSON order (not yet checked against the state)."""
    words = text.strip().lower().replace(",", " ").split()
    if not words:
        raise _err("fr.empty_order", "The order is empty. Example: r5 s9")
    head = words[0]
    if head == "rider":
        if len(words) != 3 or words[1] not in COLOURS or words[2] not in LETTERS:
            raise _err("fr.bad_rider_text", "Write the rider as 'rider <colour> <r|s>', for example: rider blue s")
        return {"rider": f"{words[1]}-{LETTERS[words[2]]}"}
    if head == "place":
        rest = words[1:]
        out: dict[str, Any] = {}
        if rest and rest[0] in LETTERS:
            out["rider"] = LETTERS[rest.pop(0)]
        board = _BOARD_SQUARE.fullmatch(" ".join(rest))
        if board is not None:  # R-FR-12: the board's square, as the buttons and the picture number it
            out["on"] = int(board.group(1))
        elif len(rest) == 1 and re.fullmatch(r"p?\d+", rest[0]):  # §9.4: the grid position, P1 at the line
            out["square"] = int(rest[0].lstrip("p"))
        elif rest or "rider" not in out:
            raise _err(
                "fr.bad_place_text",
                "Write a placement as `place <r|s> square <number>`, for example: `place s square 4`",
            )
        return {"place": out}
    if head == "bid":
        rest = words[1:]
        bid: dict[str, Any] = {}
        if len(rest) == 2 and rest[0] in LETTERS and rest[1].isdigit():
            rest = [rest[0] + rest[1]]
        if len(rest) == 1:
            m = _CARD.match(rest[0])
            if m:
                bid = {"rider": m.group(1), "card": int(m.group(2))}
            elif rest[0] in LETTERS:
                bid = {"rider": LETTERS[rest[0]]}
            elif rest[0].isdigit():
                bid = {"card": int(rest[0])}
        if not bid:
            raise _err("fr.bad_bid_text", "Write a bid as 'bid r' then 'bid r6' (rider letter, then card)")
        return {"bid": bid}
    order: dict[str, Any] = {}
    cards: dict[str, int] = {}
    i = 0
    while i < len(words):
        w = words[i]
        if w == "draw":
            if i + 1 >= len(words) or words[i + 1] not in LETTERS:
                raise _err("fr.bad_draw_text", "Write 'draw r' or 'draw s' to see that rider's hand first")
            order["first"] = LETTERS[words[i + 1]]
            i += 2
            continue
        m = _CARD.match(w)
        if m is None and w in LETTERS and i + 1 < len(words) and words[i + 1].isdigit():
            m = _CARD.match(LETTERS[w] + words[i + 1])
            i += 1
        if m is None:
            raise _err(
                "fr.bad_text",
                "I can't read {word!r}. Write the cards like 'r5 s9' (r = Rouleur, s = Sprinteur), or 'draw s'.",
                word=w,
            )
        letter = m.group(1)
        if letter in cards:
            raise _err("fr.two_cards", "You gave two cards for your {rider}.", rider=type_name(letter))
        cards[letter] = int(m.group(2))
        i += 1
    if cards:
        order["cards"] = cards
    return order


def as_order(order: Order | str) -> Order:
    """A JSON order from any accepted form (text, ``{"text": ...}`` or JSON); the driver has taken the
    bookkeeping keys out."""
    if isinstance(order, str):
        return parse_text(order)
    if not isinstance(order, dict):
        raise _err("fr.bad_order", "An order is a JSON object or a line of text like 'r5 s9'.")
    body = dict(order)
    if "text" in body:
        text = body.pop("text")
        if not isinstance(text, str):
            raise _err("fr.bad_order_text", "An order's text must be a string like 'r5 s9'.")
        if body:
            raise _err("fr.bad_order_mixed", "Send either a text order or a JSON order, not both.")
        return parse_text(text)
    return body


# --- per phase -----------------------------------------------------------------------------------
_PHASE_KEYS = {CHOOSE: {"rider"}, BID: {"bid"}, PLACE: {"place"}, ENERGY: {"first", "cards", "rejected"}}
_PHASE_HELP = {
    CHOOSE: ("fr.wrong_phase.choose", "It's time to choose your rider, for example: rider blue s"),
    BID: ("fr.wrong_phase.bid", "It's the Breakaway bidding, for example: bid r6"),
    PLACE: ("fr.wrong_phase.place", "It's your turn on the starting grid, for example: `place s square 4`"),
    ENERGY: ("fr.wrong_phase.energy", "It's the energy phase: choose your riders' cards, for example: r5 s9"),
}
"""What a phase's orders look like: the refusal of an order made for another phase (its key and text)."""


def validate(state: RaceState, entrant: str, order: Order | str, previous: Order | None) -> Validated:
    """Check an order for ``entrant`` in the current phase; merge it with ``previous`` (§9.3)."""
    if not previous and type(order) is dict and state.phase == ENERGY:
        done = complete_energy(state, entrant, order)
        if done is not None:
            return done
    if state.phase == DONE:
        raise _err("fr.race_over", "The race is over: there is nothing left to order.")
    try:
        body = as_order(order)
    except OrderError:
        if state.phase == ENERGY:
            raise
        raise _err(*_PHASE_HELP[state.phase]) from None
    prev = as_order(previous) if previous else {}
    wrong = set(body) - _PHASE_KEYS[state.phase]
    if wrong:
        raise _err(*_PHASE_HELP[state.phase])
    if state.phase == ENERGY:
        return validate_energy(state, entrant, body, prev)
    if state.phase == PLACE:
        return validate_place(state, entrant, body, prev)
    if state.phase == BID:
        return validate_bid(state, entrant, body, prev)
    return validate_choice(state, entrant, body)


_NONE: list[str] = []


def racing_letters(state: RaceState, entrant: str) -> list[str]:
    """The type letters of the entrant's racing riders, Rouleur first (cached per state, for every entrant
    at once: ``awaited`` asks for each of them). Shared: callers must not change it."""
    racing: dict[str, list[str]] | None = state.cache.get("racing")
    if racing is None:
        racing = _sort_out(state)[0]
    return racing.get(entrant, _NONE)


def _sort_out(state: RaceState) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """Each entrant's racing riders and those of them that have a card to choose, in one pass (cached)."""
    racing: dict[str, list[str]] = {}
    choosing: dict[str, list[str]] = {}
    for r in state.riders:  # the riders of state.team(entrant) that have not crossed
        if r.crossed == 0 and r.owner and not r.bot:
            owner = r.owner
            kind = r.kind
            got = racing.get(owner)
            if got is None:
                racing[owner] = [kind]
            else:
                got.append(kind)
                if got[-2] > kind:  # a team's riders come Rouleur first: sorted already, as a rule
                    got.sort()
            if r.deck or r.recycled:
                got = choosing.get(owner)
                if got is None:
                    choosing[owner] = [kind]
                else:
                    got.append(kind)
                    if got[-2] > kind:
                        got.sort()
    state.cache["racing"] = racing
    state.cache["choosing"] = choosing
    return racing, choosing


def every_racing_team(state: RaceState) -> dict[str, list[str]]:
    """Entrant -> its racing riders' type letters, for every entrant with a rider racing (in rider order)."""
    racing: dict[str, list[str]] | None = state.cache.get("racing")
    if racing is None:
        racing = _sort_out(state)[0]
    return racing


def every_choosing_team(state: RaceState) -> dict[str, list[str]]:
    """Entrant -> the riders it chooses a card for (:func:`choosing_letters`), for every entrant that chooses
    one (cached per state)."""
    choosing: dict[str, list[str]] | None = state.cache.get("choosing")
    if choosing is None:
        choosing = _sort_out(state)[1]
    return choosing


def choosing_letters(state: RaceState, entrant: str) -> list[str]:
    """The racing riders the entrant chooses a card for: those with a card left in their deck or recycled
    pile. A rider with none plays its exhaustion card by itself (§9.1), so nobody is asked for it (cached
    per state, for every entrant at once, like :func:`racing_letters`)."""
    choosing: dict[str, list[str]] | None = state.cache.get("choosing")
    if choosing is None:
        choosing = _sort_out(state)[1]
    return choosing.get(entrant, _NONE)


def _index(state: RaceState, entrant: str, letter: str) -> int:
    return state.team(entrant)[letter]


def _letter(state: RaceState, entrant: str, value: Any) -> str:
    letters = racing_letters(state, entrant)
    if value in letters:  # the normalised form: the common case
        return str(value)
    letter = LETTERS.get(value.lower()) if isinstance(value, str) else None
    if letter is None:
        raise _err("fr.bad_rider", "Name the rider with r (Rouleur) or s (Sprinteur), not {value!r}.", value=value)
    if letter not in letters:
        owned = [r for r in state.riders if r.owner == entrant and r.kind == letter and not r.bot]
        if owned:
            raise _err("fr.rider_crossed", "Your {rider} has already crossed the line.", rider=type_name(letter))
        mine = phrases([type_name(x) for x in letters]) if letters else listed([])
        raise _err(
            "fr.not_your_rider",
            "You have no {rider} in this race (yours: {mine}).",
            rider=type_name(letter),
            mine=mine,
        )
    return letter


def check_card(state: RaceState, entrant: str, letter: str, value: Any) -> int:
    """The value, if the rider's drawn hand holds it; else the friendly refusal of §9.3."""
    hand = drawn(state, _index(state, entrant, letter))
    if isinstance(value, bool) or not isinstance(value, int):
        raise _err(
            "fr.bad_card",
            "A card is a number, like 5 (your {rider}'s hand is {hand}).",
            rider=type_name(letter),
            hand=hand_text(hand),
        )
    if value < 2 or (value not in hand and (value != 2 or EXHAUSTION not in hand)):
        raise _err(
            "fr.card_not_in_hand",
            "You can't play {card} for your {rider}: your hand is {hand}",
            card=value,
            rider=type_name(letter),
            hand=hand_text(hand),
        )
    return value


def complete_energy(state: RaceState, entrant: str, order: Order) -> Validated | None:
    """The common case of an energy order, checked quickly: a complete order already in normalised form
    (``{"first": "r", "cards": {"r": 5, "s": 9}}``, as the bots and the buttons send it) whose every card is
    in its rider's hand. It gives exactly what :func:`validate_energy` gives for it; ``None`` for anything
    else (bookkeeping keys, text, a partial, a wrong card...), which then takes the full path and its
    friendly refusals."""
    cards = order.get("cards")
    if type(cards) is not dict or len(order) != (2 if "first" in order else 1):
        return None
    letters = choosing_letters(state, entrant)
    if len(cards) != len(letters) or not letters:
        return None
    team = state.team(entrant)
    for letter in letters:
        value = cards.get(letter)
        if type(value) is not int or value < 2:
            return None
        hand = drawn(state, team[letter])
        if value not in hand and (value != 2 or EXHAUSTION not in hand):  # as check_card
            return None
    first = order.get("first")
    if first is None or len(letters) == 1:
        if first is not None and first != letters[0]:
            return None
        first = "r" if len(letters) > 1 else letters[0]  # every card is given: the Rouleur's hand is first
    elif first not in letters:
        return None
    # The cards in the riders' order (a copy: the caller's order stays its own).
    chosen = dict(cards) if list(cards) == letters else {k: cards[k] for k in letters}
    return _validated({"first": first, "cards": chosen}, True)


def validate_energy(state: RaceState, entrant: str, body: Order, prev: Order) -> Validated:
    racing = racing_letters(state, entrant)
    if not racing:
        raise _err("fr.nothing_to_play", "All your riders have crossed the line: you have nothing to play.")
    letters = choosing_letters(state, entrant)
    prev_cards: dict[str, int] = dict(prev.get("cards") or {})
    first: str | None = prev.get("first") or (next(iter(prev_cards)) if prev_cards else None)
    if "first" in body:
        f = _letter(state, entrant, body["first"])
        if first is not None and f != first:
            raise _err(
                "fr.first_locked",
                "Your {rider}'s hand was drawn first; the order of the draws can't change now.",
                rider=type_name(first),
            )
        first = f
    raw = body.get("cards") or {}
    if not isinstance(raw, dict):
        raise _err("fr.bad_cards", "Give the cards as rider -> card, for example r5 s9.")
    new_cards: dict[str, Any] = {}
    for key, value in raw.items():
        letter = _letter(state, entrant, key)
        if letter in letters:
            new_cards[letter] = value
        else:  # a rider without cards: its exhaustion card is played by itself (an older record names it)
            check_card(state, entrant, letter, value)
    if not letters:
        return _validated({}, True)
    if len(letters) == 1:
        first = letters[0]
    elif first is None and new_cards:
        first = "r" if "r" in new_cards else next(iter(new_cards))
    second = next((x for x in letters if x != first), None)
    # D27: a rider's card is locked once its team-mate's hand has been drawn.
    if first in prev_cards and first in new_cards and new_cards[first] != prev_cards[first] and second:
        raise _err(
            "fr.card_locked",
            "Your {rider} already plays {card}: it is locked once your {other}'s hand has been shown.",
            rider=type_name(first),
            card=prev_cards[first],
            other=type_name(second),
        )
    cards = dict(prev_cards)
    combined = first in new_cards and first not in prev_cards
    if first in new_cards:
        cards[first] = check_card(state, entrant, first, new_cards[first])
    rejected: dict[str, Any] | None = prev.get("rejected") if isinstance(prev.get("rejected"), dict) else None
    if second is not None and second in new_cards:
        if first not in cards:
            raise _err(
                "fr.first_card_first",
                "Choose your {rider}'s card first: its hand is drawn first.",
                rider=type_name(first) if first else message_of("fr.rider.first", {}, "first rider"),
            )
        try:
            cards[second] = check_card(state, entrant, second, new_cards[second])
            rejected = None
        except OrderError:
            if not combined:
                raise
            # D27: in a combined order whose second card is invalid, the first card stands.
            rejected = {"rider": second, "card": new_cards[second]}
    out: dict[str, Any] = {}
    if first is not None:
        out["first"] = first
    if cards:
        out["cards"] = {k: cards[k] for k in letters if k in cards}
    if rejected and second not in cards:
        out["rejected"] = rejected
    return _validated(out, all(x in cards for x in letters))


def validate_place(state: RaceState, entrant: str, body: Order, prev: Order) -> Validated:
    if state.turn_order[state.cursor] != entrant:
        raise _err(
            "fr.not_your_turn_to_place",
            "It's {who}'s turn to place a rider; wait for yours.",
            who=state.turn_order[state.cursor],
        )
    unplaced = sorted(r.kind for r in state.riders_of(entrant) if r.square == 0)
    if not isinstance(body.get("place", {}), dict):  # checked first: a "place" that is not an object refused
        raise _err("fr.bad_place", "Give a placement as `place <r|s> square <number>`.")
    merged = {**(prev.get("place") or {}), **(body.get("place") or {})}
    on = merged.pop("on", None)
    if on is not None:  # R-FR-12: the board's square, checked and told in that numbering
        n = state.track.start_squares
        if isinstance(on, bool) or not isinstance(on, int) or not 1 <= on <= n:
            raise _err(
                "fr.not_a_start_square_on_board",
                "Square {square} is not a start square: the start squares are 1 to {n}.",
                square=on,
                n=n,
            )
        merged["square"] = p_of(state, on)
    rider = merged.get("rider")
    if rider is None and len(unplaced) == 1:
        rider = unplaced[0]
    if rider is not None:
        letter = LETTERS.get(str(rider).lower())
        if letter is None:
            raise _err("fr.bad_rider", "Name the rider with r (Rouleur) or s (Sprinteur), not {value!r}.", value=rider)
        if letter not in unplaced:
            owned = any(r.kind == letter for r in state.riders_of(entrant))
            if owned:
                raise _err("fr.already_placed", "Your {rider} is already on the grid.", rider=type_name(letter))
            raise _err("fr.no_rider_to_place", "You have no {rider} in this race.", rider=type_name(letter))
        rider = letter
    out: dict[str, Any] = {}
    if rider is not None:
        out["rider"] = rider
    square = merged.get("square")
    if square is not None:
        n = state.track.start_squares
        if isinstance(square, bool) or not isinstance(square, int) or not 1 <= square <= n:
            raise _err(
                "fr.not_a_start_square",
                "P{square} is not a start square: the start area is P1-P{n} (P1 is just behind the line).",
                square=square,
                n=n,
            )
        if not free_lane(state, square_of(state, square)):
            raise _err(
                "fr.start_square_full",
                "Square {square} is full; choose another start square.",
                square=square_of(state, square),
            )
        out["square"] = square
    return _validated({"place": out}, rider is not None and square is not None)


def validate_bid(state: RaceState, entrant: str, body: Order, prev: Order) -> Validated:
    if entrant not in bidders(state):
        raise _err("fr.not_bidding", "You have no rider in the Breakaway bidding.")
    merged = {**(prev.get("bid") or {}), **(body.get("bid") or {})}
    fixed = bid_rider(state, entrant, None)
    rider = merged.get("rider")
    if rider is not None:
        letter = LETTERS.get(str(rider).lower())
        if letter is None or not any(r.kind == letter and not r.bot for r in state.riders_of(entrant)):
            raise _err(
                "fr.bad_bid_rider",
                "Name the bidding rider with r (Rouleur) or s (Sprinteur), not {value!r}.",
                value=rider,
            )
        if fixed is not None and letter != fixed:
            raise _err(
                "fr.bid_rider_fixed",
                "Your {rider} is your bidding rider: both bids come from the same rider.",
                rider=type_name(fixed),
            )
        rider = letter
    rider = rider or fixed
    out: dict[str, Any] = {}
    if rider is not None:
        out["rider"] = rider
    card = merged.get("card")
    if card is not None:
        if rider is None:
            raise _err("fr.bid_rider_first", "Choose your bidding rider first: bid r or bid s.")
        hand = hand_of(state, rider_index(state, entrant, rider), HAND_SIZE)[0]
        if isinstance(card, bool) or not isinstance(card, int) or card not in hand_values(hand):
            raise _err(
                "fr.card_not_in_hand",
                "You can't play {card} for your {rider}: your hand is {hand}",
                card=card,
                rider=type_name(rider),
                hand=hand_text(hand),
            )
        out["card"] = card
    return _validated({"bid": out}, rider is not None and card is not None)


def free_riders(state: RaceState) -> list[str]:
    """One-rider mode: the riders nobody has taken yet, in the order black ... white, Rouleur first."""
    return [r.id for r in state.riders if not r.owner and not r.bot]


def validate_choice(state: RaceState, entrant: str, body: Order) -> Validated:
    if state.turn_order[state.cursor] != entrant:
        raise _err(
            "fr.not_your_turn_to_choose",
            "It's {who}'s turn to choose a rider; wait for yours.",
            who=state.turn_order[state.cursor],
        )
    rid = body.get("rider")
    if not isinstance(rid, str):
        raise _err("fr.bad_rider_text", "Write the rider as 'rider <colour> <r|s>', for example: rider blue s")
    rid = rid.strip().lower().replace(" ", "-")
    free = free_riders(state)
    if rid not in free:
        taken = any(r.id == rid for r in state.riders)
        if taken:
            raise _err(
                "fr.rider_taken", "The {rider} is already taken. Free riders: {free}", rider=rid, free=listed(free)
            )
        raise _err(
            "fr.no_such_rider",
            "There is no rider {rider} to choose. Free riders: {free}",
            rider=rid,
            free=listed(free),
        )
    return _validated({"rider": rid}, True)
