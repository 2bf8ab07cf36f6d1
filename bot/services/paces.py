"""Paces: how long the players of a race have for each decision.

``live`` (2 minutes), ``fast`` (15 minutes), ``daily`` (24 hours), or a custom duration written
``90s``, ``30m``, ``6h``, ``2d`` (or a bare number of minutes). A step resolves as soon as every awaited
order is in, whatever the pace; the pace is only the deadline.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

NAMED = {"live": 120, "fast": 15 * 60, "daily": 24 * 3600}
REMINDER_AT = 0.75
"""The one reminder goes out at three quarters of the deadline, to those who have not ordered."""
MIN_SECONDS = 30
MAX_SECONDS = 7 * 24 * 3600
_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
_CUSTOM = re.compile(r"^\s*(\d+)\s*([smhd]?)\s*$", re.IGNORECASE)


class PaceError(ValueError):
    """A pace that is neither a name nor a duration in range."""


@dataclass(frozen=True)
class Pace:
    """A named or custom pace and its deadline in seconds."""

    name: str
    seconds: int

    @property
    def reminder_seconds(self) -> int:
        return int(self.seconds * REMINDER_AT)


def parse_pace(text: str) -> Pace:
    """``live``/``fast``/``daily``, or a duration (``90s``, ``30m``, ``6h``, ``2d``; a bare number is minutes)."""
    name = text.strip().lower()
    if name in NAMED:
        return Pace(name, NAMED[name])
    match = _CUSTOM.match(name)
    if not match:
        raise PaceError(f"unknown pace {text!r}: use live, fast, daily or a duration such as 30m, 6h or 2d")
    seconds = int(match.group(1)) * _UNITS[(match.group(2) or "m").lower()]
    if not MIN_SECONDS <= seconds <= MAX_SECONDS:
        raise PaceError(f"a pace must be between {MIN_SECONDS} seconds and {MAX_SECONDS // 86400} days, not {text!r}")
    return Pace("custom", seconds)
