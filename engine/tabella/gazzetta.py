"""The Gazzetta dello Sport's front page: the doping draw and its publication (rules §6.10, D21)."""

from __future__ import annotations

from engine.messages import Event, event
from engine.rng import Rng
from engine.tabella.state import LAST_ROUND, RaceState


def finish_race(state: RaceState, events: list[Event]) -> None:
    """After the last round: one Gazzetta draw (D21), published now or later."""
    state.round = LAST_ROUND + 1
    if state.void:
        return
    rng = Rng(state.rng)
    hit = rng.random() < float(state.options["gazzetta_probability"])  # always drawn (D5)
    state.rng = rng.state
    state.gazzetta_hit = hit if state.gazzetta_forced is None else state.gazzetta_forced
    events.append(event("td.finish", "The race is over."))
    if state.options["gazzetta_delay"] == "immediate":
        events.append(publish(state))
    else:
        events.append(
            event(
                "td.gazzetta_due",
                "Tomorrow at 09:00 the Gazzetta dello Sport will tell whether anyone was doped. "
                "Results are provisional.",
                delay=state.options["gazzetta_delay"],
                hour=9,
            )
        )


def publish(state: RaceState) -> Event:
    state.gazzetta_published = True
    caught = [r for r in state.riders if r.doped and r.status in ("racing", "exhausted")] if state.gazzetta_hit else []
    if caught:
        key = "td.gazzetta.caught"
        text = (
            "GAZZETTA DELLO SPORT — Doping inquiry! {names} drank the Bibitone and is ranked last."
            if len(caught) == 1
            else "GAZZETTA DELLO SPORT — Doping inquiry! {names} drank the Bibitone and are ranked last."
        )  # a counted sentence: the data carry ``count`` for a catalogue's plural forms
    elif state.gazzetta_hit:
        key = "td.gazzetta.nobody"
        text = "GAZZETTA DELLO SPORT — A doping inquiry makes the front page, but nobody in this race drank a Bibitone."
    else:
        key = "td.gazzetta.clean"
        text = "GAZZETTA DELLO SPORT — No doping story on the front page today: the results stand."
    data = {
        "hit": bool(state.gazzetta_hit),
        "caught": [r.id for r in caught],
        "names": ", ".join(r.name for r in caught),
        "count": len(caught),
    }
    # One kind, the front page; each of its three stories a message key of its own.
    return event("td.gazzetta", text, key, **data)
