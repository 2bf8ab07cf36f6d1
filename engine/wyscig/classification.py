"""Stage times (§6), the stage ranking (D20) and the general classification (D19).

A stage time is fixed: the winner records 57 (60 minus the 3-minute bonus), the peloton 60, a rider
with penalty minutes 60 plus his minutes. Because only the winner records 57, stage wins are read
straight off the times.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from engine.wyscig.state import Player

STAGE_TIME = 60
WINNER_BONUS = 3
WINNER_TIME = STAGE_TIME - WINNER_BONUS

T = TypeVar("T")


def stage_time(is_winner: bool, minutes: int) -> int:
    """§6: 57 for the winner, 60 in the peloton, 60 + minutes with penalty minutes (D18)."""
    if is_winner:
        return WINNER_TIME
    return STAGE_TIME + minutes


def competition_places(items: Sequence[T], key: Callable[[T], object]) -> list[tuple[int, T]]:
    """Standard competition ranking (1, 2, 2, 4) of ``items`` already sorted by ``key``."""
    placed: list[tuple[int, T]] = []
    for i, item in enumerate(items):
        if i and key(items[i - 1]) == key(item):
            placed.append((placed[-1][0], item))
        else:
            placed.append((i + 1, item))
    return placed


def stage_ranking(times: dict[str, int], seats: list[str]) -> list[dict[str, int | str]]:
    """D20: the winner, then the peloton (60), then the penalised riders by minutes; equals share."""
    order = sorted(seats, key=lambda e: times[e])
    return [{"entrant": e, "place": place, "time": times[e]} for place, e in competition_places(order, times.get)]


@dataclass(frozen=True)
class GcLine:
    """One line of the general classification."""

    entrant: str
    place: int
    total: int
    stage_wins: int
    last_time: int | None
    times: list[int]
    penalty_minutes: int


def stage_wins(player: Player) -> int:
    return player.times.count(WINNER_TIME)


def gc_key(p: Player) -> tuple[int, int, int]:
    """D19: total time up; ties by more stage wins, then the lower time in the latest stage."""
    return (p.total, -stage_wins(p), p.times[-1] if p.times else 0)


def gc_leader(players: Sequence[Player]) -> Player:
    """The first line of :func:`general_classification` (the first of the best, in the order given):
    :func:`gc_key`'s minimum, spelled out (the stage analysis asks it after every turn)."""
    best: Player | None = None
    lowest: tuple[int, int, int] | None = None
    for p in players:
        times = p.times
        key = (sum(times), -times.count(WINNER_TIME), times[-1] if times else 0)
        if lowest is None or key < lowest:
            best, lowest = p, key
    if best is None:
        raise ValueError("no players")
    return best


def general_classification(players: Sequence[Player]) -> list[GcLine]:
    """D19: total time up; ties by more stage wins, then the lower time in the latest stage; else shared."""
    key = gc_key
    order = sorted(players, key=key)
    return [
        GcLine(
            entrant=p.id,
            place=place,
            total=p.total,
            stage_wins=stage_wins(p),
            last_time=p.times[-1] if p.times else None,
            times=list(p.times),
            penalty_minutes=sum(p.penalties),
        )
        for place, p in competition_places(order, key)
    ]
