"""The bot's own pace under Discord's global limit: never more than its rate in any window, the most urgent
waiting request first, interactions' answers never held back."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from bot import pacing
from bot.pacing import Pacer


async def test_no_window_holds_more_grants_than_the_rate() -> None:
    """Twenty requests at once on a pace of 4 in 0.1 s: every grant's time (the pacer's own clock) is at least
    the window after the grant four before it, and the ones past the first four waited."""
    stamps: list[float] = []

    def clock() -> float:
        return time.monotonic()

    pacer = Pacer(4, 0.1, clock)

    async def one() -> None:
        await pacer.take(0)
        stamps.append(clock())

    await asyncio.gather(*(one() for _ in range(20)))
    assert len(stamps) == 20
    assert all(later - earlier >= 0.1 for earlier, later in zip(stamps, stamps[4:], strict=False))
    assert pacer.waited == 16 and pacer.queued == 0


async def test_waiting_requests_go_most_urgent_first_then_in_arrival_order() -> None:
    """The window is full; requests of ranks 2, 0, 1, 0 and 2 arrive in that order: they go out 0, 0, 1, 2,
    2, the two of rank 0 and the two of rank 2 in the order they came."""
    pacer = Pacer(1, 0.05)
    await pacer.take(0)  # the window's one grant
    served: list[str] = []

    async def one(name: str, level: int) -> None:
        with pacing.urgency(level):
            await pacer.take()
        served.append(name)

    tasks = []
    for name, level in (("a", 2), ("b", 0), ("c", 1), ("d", 0), ("e", 2)):
        tasks.append(asyncio.create_task(one(name, level)))
        await asyncio.sleep(0)  # queued in this order
    await asyncio.gather(*tasks)
    assert served == ["b", "d", "c", "a", "e"]


async def test_a_waiter_that_gave_up_takes_no_grant() -> None:
    """A request cancelled while it waits (its delivery was abandoned) is skipped: the next one is served in
    its place, and nothing is left queued."""
    pacer = Pacer(1, 0.05)
    await pacer.take(0)
    gone = asyncio.create_task(pacer.take(0))
    await asyncio.sleep(0)
    kept = asyncio.create_task(pacer.take(1))
    await asyncio.sleep(0)
    gone.cancel()
    await asyncio.wait_for(kept, 2)
    assert pacer.queued == 0
    with pytest.raises(asyncio.CancelledError):
        await gone


def test_a_pace_needs_a_rate_and_a_window() -> None:
    with pytest.raises(ValueError):
        Pacer(0)
    with pytest.raises(ValueError):
        Pacer(5, 0)


class Route:
    def __init__(self, path: str) -> None:
        self.path = path


class Http:
    """discord.py's HTTP client as the pacer sees it: a ``request`` every REST call goes through."""

    def __init__(self) -> None:
        self.made: list[str] = []

    async def request(self, route: Any, **kwargs: Any) -> Any:
        self.made.append(route.path)
        return kwargs


async def test_counted_routes_wait_for_the_pace_and_interactions_do_not() -> None:
    """Installed on the client: a channel post takes a grant; an interaction's answer or follow-up takes
    none (Discord does not count them), so a full window never holds back a click's answer."""
    http = Http()
    pacer = Pacer(1, 60)
    pacing.install(http, pacer)
    assert await http.request(Route("/channels/{channel_id}/messages"), json={"a": 1}) == {"json": {"a": 1}}
    answers = [
        http.request(Route("/interactions/{interaction_id}/{interaction_token}/callback")),
        http.request(Route("/webhooks/{webhook_id}/{webhook_token}")),
    ]
    await asyncio.wait_for(asyncio.gather(*answers), 1)  # the window is full: only exempt routes pass
    held = asyncio.create_task(http.request(Route("/channels/{channel_id}/messages")))
    await asyncio.sleep(0.05)
    assert not held.done() and pacer.queued == 1
    held.cancel()
    assert http.made == [
        "/channels/{channel_id}/messages",
        "/interactions/{interaction_id}/{interaction_token}/callback",
        "/webhooks/{webhook_id}/{webhook_token}",
    ]
    assert pacing.counted("/users/@me/channels") and not pacing.counted("/interactions/1/x/callback")
