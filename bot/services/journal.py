"""The race journal: one INFO line per race event, for the operator reading the bot's log.

Every line names the race, its server and, where there is one, the step, so ``grep "race 12 "`` follows
one race and ``grep "server 34"`` one server. The services call one function per event, after the
change committed; the wording lives here only. Orders, hands and plans are never written: the journal
says who was given an automatic order, never what it was.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence

from bot.services.outcomes import Happening, RaceFinished, StepResolved

_log = logging.getLogger(__name__)


def opened(race: int, server: int, ruleset: str, opener: int) -> None:
    _log.info("race %s (server %s): lobby opened for %s by user %s", race, server, ruleset, opener)


def started(race: int, server: int, riders: int, bots: int) -> None:
    _log.info("race %s (server %s): started with %d entrants (%d bots)", race, server, riders, bots)


def step_resolved(
    race: int, server: int, step: int, seconds: float, *, deadline: bool, automatic: Iterable[str]
) -> None:
    """A step resolved: the deadline and automatic orders first (when there were), then the step itself."""
    if deadline:
        _log.info("race %s (server %s) step %s: deadline reached", race, server, step)
    absent = sorted(automatic)
    if absent:
        _log.info("race %s (server %s) step %s: automatic orders for %s", race, server, step, ", ".join(absent))
    _log.info("race %s (server %s) step %s: resolved in %.2f s", race, server, step, seconds)


def resolved(server: int, happened: Sequence[Happening], seconds: float, *, deadline: bool) -> None:
    """What one resolution committed: its step (and the deadline, the automatic orders), and the finish."""
    last = 0
    for h in happened:
        if isinstance(h, StepResolved):
            auto = [e for e, order in h.orders.items() if isinstance(order, dict) and order.get("auto")]
            step_resolved(h.race_id, server, h.step, seconds, deadline=deadline, automatic=auto)
            last = h.step
        elif isinstance(h, RaceFinished):
            finished(h.race_id, server, last, h.result.provisional)


def finished(race: int, server: int, steps: int, provisional: bool) -> None:
    result = "provisional result, news held back" if provisional else "final result"
    _log.info("race %s (server %s): finished at step %d (%s)", race, server, steps, result)


def cancelled(race: int, server: int, reason: str) -> None:
    _log.info("race %s (server %s): cancelled (%s)", race, server, reason.replace("_", " "))


def announcement(race: int, server: int, kind: str) -> None:
    what = "the Gazzetta" if kind.endswith("gazzetta") else f"the {kind} announcement"
    _log.info("race %s (server %s): %s published", race, server, what)
