"""Resolving a card against the leader's speed L: the tables of §5.1 (flat) and §5.2 (on a climb).

A pure function of the numbers, so the hint on every card button and the resolution of the card
played come from the same place.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from engine.messages import Message, msg

TOLERANCE = 2
"""A chip-free rider may ride up to 2 km/h below the leader and stay in the peloton (§5.1)."""

Outcome = Literal["pace", "lead", "peloton", "penalty", "give_back"]


@dataclass(frozen=True)
class Verdict:
    """What a speed means against L: the outcome and the change in penalty minutes."""

    outcome: Outcome
    minutes: int = 0
    """Minutes taken (positive) or given back (negative)."""
    lost: int = 0
    """Speed above L that could not be turned into minutes given back (D12: the excess is lost)."""
    blocked: bool = False
    """A chip-free rider above L on a climb: he would have led on the flat (D9)."""


@lru_cache(maxsize=1024)
def judge(speed: int, reference: int | None, minutes: int, is_leader: bool, on_climb: bool) -> Verdict:
    """The verdict of §5.1/§5.2 for a rider playing ``speed`` (s) against ``reference`` (L).

    Kept per arguments: the bots weigh every card of a hand at every turn, and a verdict is frozen, so
    the same answer may be handed out again (a thousand kept, about 200 KB: the hands in play repeat)."""
    if is_leader or reference is None:
        # D11: the leader is never penalised; whatever he plays becomes L.
        return Verdict("pace")
    d = reference - speed
    if minutes == 0:
        if speed > reference:
            if on_climb:
                return Verdict("peloton", blocked=True)  # D9: no overtaking on a climb
            return Verdict("lead")
        if d == 0 or (not on_climb and d <= TOLERANCE):
            return Verdict("peloton")
        return Verdict("penalty", minutes=d)  # D9: no tolerance on a climb
    if speed > reference:
        back = min(speed - reference, minutes)  # D12: at most all he holds, never the lead
        return Verdict("give_back", minutes=-back, lost=speed - reference - back)
    if d == 0:
        return Verdict("peloton")
    return Verdict("penalty", minutes=d)  # D13: a penalised rider has no tolerance


def hint(card: int, descents: int, verdict: Verdict, on_climb: bool) -> Message:
    """What playing ``card`` would mean, for its button: "48: take the lead", "43: +4 min".

    The ``label`` parameter holds only numbers and signs (``50 +1 = 52``); on a climb the speed it counts as
    (D8: shown, never computed) is in the template of a key of its own, so every word is a translator's."""
    speed = card + 2 * descents
    label = str(card) if descents == 0 else f"{card} +{descents} = {speed}"
    params = {"card": card, "speed": speed, "label": label, "minutes": abs(verdict.minutes)}
    if on_climb:
        params["climb_speed"] = speed - 2
        if verdict.outcome == "pace":
            return msg("wk.hint.climb_pace", "{label} ({climb_speed} on the climb): set the pace", **params)
        if verdict.outcome == "lead":
            return msg("wk.hint.climb_lead", "{label} ({climb_speed} on the climb): take the lead", **params)
        if verdict.outcome == "give_back":
            return msg("wk.hint.climb_give_back", "{label} ({climb_speed} on the climb): −{minutes} min", **params)
        if verdict.outcome == "penalty":
            return msg("wk.hint.climb_penalty", "{label} ({climb_speed} on the climb): +{minutes} min", **params)
        if verdict.blocked:
            return msg(
                "wk.hint.climb_blocked",
                "{label} ({climb_speed} on the climb): peloton (no overtaking on the climb)",
                **params,
            )
        return msg("wk.hint.climb_peloton", "{label} ({climb_speed} on the climb): peloton", **params)
    if verdict.outcome == "pace":
        return msg("wk.hint.pace", "{label}: set the pace", **params)
    if verdict.outcome == "lead":
        return msg("wk.hint.lead", "{label}: take the lead", **params)
    if verdict.outcome == "give_back":
        return msg("wk.hint.give_back", "{label}: −{minutes} min", **params)
    if verdict.outcome == "penalty":
        return msg("wk.hint.penalty", "{label}: +{minutes} min", **params)
    if verdict.blocked:
        return msg("wk.hint.blocked", "{label}: peloton (no overtaking on the climb)", **params)
    return msg("wk.hint.peloton", "{label}: peloton", **params)
