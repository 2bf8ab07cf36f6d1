"""Who acts first when it matters (rules §5.1, D6, D7).

Higher Velocità first, then higher Resistenza, then the earlier order; riders equal on all three are
ordered by a draw from the race seed. The list is computed once at the start of a round.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from datetime import UTC, datetime

from engine.rng import Rng
from engine.tabella.state import Rider


def time_key(received_at: str | None) -> float:
    """Seconds since the epoch for an ISO 8601 time; an order without a time counts as the latest (R-TDD-2)."""
    if received_at is None:
        return math.inf
    when = datetime.fromisoformat(received_at.replace("Z", "+00:00"))
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return when.timestamp()


def priority_order(riders: Iterable[Rider], rng: Rng) -> list[str]:
    """The round's priority list of rider ids, first to act first."""
    ids = [r for r in riders]
    # D7: shuffle first (always, so the random stream is the same whatever the values), then a stable
    # sort on the three keys leaves full ties in the seeded order.
    rng.shuffle(ids)
    ids.sort(key=lambda r: (-r.v, -r.r, time_key(r.order_time)))
    return [r.id for r in ids]
