"""One turn (§4.1): climbs running out, the draw, the redeal of a hand without speed cards, the card.

The automatic parts of a turn (steps 0-2) run as soon as the turn comes round, so the player sees the
seventh card before deciding; step 3-5 run when his order resolves.
"""

from __future__ import annotations

from engine.messages import event
from engine.ruleset import Event
from engine.wyscig import texts
from engine.wyscig.deck import CLIMB, DESCENT, DESCENT_BONUS, Card
from engine.wyscig.pace import Verdict, judge
from engine.wyscig.state import Climb, Player, RaceState

HAND_SIZE = 6


def take(state: RaceState, player: Player, card: Card) -> None:
    """Put a drawn or dealt speed/descent card into a hand (climbs never stay in a hand)."""
    if card == DESCENT:
        player.descents += 1
    elif isinstance(card, int):
        player.speeds.append(card)
        player.speeds.sort()


def lay_climb(state: RaceState, player: Player, opening: bool, events: list[Event]) -> None:
    """§5.2: a climb is laid at once in front of its owner (D6: this does not use his turn).

    D7: a climb laid during his turn ends when the turn order next reaches him (the start of his next
    turn); one from the opening hand ends at the start of his second turn.
    """
    ends = 2 if opening else player.turns + 1
    state.climbs.append(Climb(owner=player.id, ends_at_turn=ends, opening=opening))
    events.append(
        event(
            "wk.climb_laid",
            "{name} lays a climb: −2 km/h for everybody, no overtaking, no tolerance.",
            entrant=player.id,
            name=player.name,
            opening=opening,
        )
    )


def draw(state: RaceState, player: Player, opening: bool, events: list[Event]) -> None:
    """Draw one card; a climb is laid at once and replaced (D6), repeatedly, while the pile lasts."""
    while state.pile:
        card = state.pile.pop(0)
        if card == CLIMB:
            lay_climb(state, player, opening, events)
            continue
        take(state, player, card)
        return


def end_climbs(state: RaceState, player: Player, events: list[Event]) -> None:
    """Step 0 (D7): the climbs of this player that have run their course end before he draws."""
    ending = [c for c in state.climbs if c.owner == player.id and c.ends_at_turn <= player.turns]
    for climb in ending:
        state.climbs.remove(climb)
        state.discards += 1
        events.append(
            event(
                "wk.climb_ended",
                "{name}'s climb is over.",
                entrant=player.id,
                name=player.name,
                on_climb=len(state.climbs) > 0,
            )
        )


def redeal(state: RaceState, player: Player, events: list[Event]) -> None:
    """D16: a hand without a speed card is shown, discarded and replaced by 6 new cards plus the 7th."""
    events.append(
        event(
            "wk.redeal",
            "{name} holds no speed card (1 descent): the hand is discarded and redrawn."
            if player.descents == 1
            else "{name} holds no speed card ({count} descents): the hand is discarded and redrawn.",
            entrant=player.id,
            name=player.name,
            descents=player.descents,
            count=player.descents,
        )
    )
    state.discards += player.descents
    player.descents = 0
    for _ in range(HAND_SIZE + 1):
        draw(state, player, False, events)


def begin_turn(state: RaceState, entrant: str, events: list[Event]) -> bool:
    """Steps 0-2 of §4.1 for ``entrant``; False if he is skipped (D15: no speed card, empty pile)."""
    player = state.player(entrant)
    player.turns += 1  # a skipped turn still counts as his turn (D7)
    end_climbs(state, player, events)
    if state.pile:
        draw(state, player, False, events)
    while not player.speeds and state.pile:
        redeal(state, player, events)
    if not player.speeds:
        # D15: descents alone cannot be played; they are discarded and the player is skipped.
        events.append(
            event(
                "wk.skip",
                "{name} has no speed card left and is skipped.",
                entrant=entrant,
                name=player.name,
                discarded=player.descents,
            )
        )
        state.discards += player.descents
        player.descents = 0
        return False
    state.turn = entrant
    return True


def play(state: RaceState, entrant: str, card: int, descents: int, events: list[Event]) -> Verdict:
    """Steps 3-5 of §4.1: play the card (and descents), resolve it against L, draw replacements."""
    player = state.player(entrant)
    player.speeds.remove(card)
    player.descents -= descents
    state.discards += 1 + descents
    speed = card + DESCENT_BONUS * descents
    on_climb = state.on_climb
    is_leader = entrant == state.leader
    before = state.reference
    verdict = judge(speed, state.reference, player.minutes, is_leader, on_climb)
    player.minutes += verdict.minutes
    if verdict.outcome in ("pace", "lead"):
        state.leader = entrant
        state.reference = speed  # D14: later players compare with the new speed at once
    player.last = {"card": card, "descents": descents, "speed": speed}
    state.played.append(
        {
            "entrant": entrant,
            "card": card,
            "descents": descents,
            "speed": speed,
            "reference": before,
            "on_climb": on_climb,
            "outcome": verdict.outcome,
            "blocked": verdict.blocked,
            "minutes": verdict.minutes,
        }
    )
    events.append(_played_event(player, card, descents, speed, before, on_climb, verdict))
    for _ in range(descents):
        draw(state, player, False, events)  # step 5: one replacement per descent, climbs start after the card
    return verdict


def _played_event(
    player: Player, card: int, descents: int, speed: int, before: int | None, on_climb: bool, verdict: Verdict
) -> Event:
    shown = texts.shown(card, descents, speed, on_climb)  # D8: the climb's speed shown, never computed
    data = {
        "entrant": player.id,
        "name": player.name,
        "card": card,
        "descents": descents,
        "speed": speed,
        "shown": shown,
        "reference": before,
        "on_climb": on_climb,
        "minutes": abs(verdict.minutes),
        "held": player.minutes,
    }
    if verdict.outcome == "pace":
        return event("wk.pace", "{name} (leader) plays {shown} and sets the pace.", **data)
    if verdict.outcome == "lead":
        return event("wk.lead", "{name} plays {shown} above {reference} and takes the yellow token!", **data)
    if verdict.outcome == "penalty":
        return event("wk.penalty", "{name} plays {shown} against {reference}: +{minutes} min (now {held}).", **data)
    if verdict.outcome == "give_back":
        return event(
            "wk.give_back",
            "{name} plays {shown} against {reference} and gives back {minutes} min (now {held}).",
            lost=verdict.lost,
            **data,
        )
    if verdict.blocked:
        return event("wk.blocked", "{name} plays {shown} but cannot overtake on the climb: peloton.", **data)
    return event("wk.peloton", "{name} plays {shown} and rides in the peloton.", **data)
