"""Slipstream (§6.6, D1-D3): a pack with exactly one empty square before the next pack moves up one.

D2's algorithm: take the rearmost square s with riders, s+1 empty and riders on s+2, where neither s nor
s+2 forbids slipstream (ascent, cobbles, crosswind, finish area); move the riders of s to s+1 (right lane
first, each keeping its lane if it can); start again from the rear. D1: the gap square's terrain does not
matter.
"""

from __future__ import annotations

from engine.flamme_rouge.movement import Occupancy
from engine.flamme_rouge.state import Rider
from engine.flamme_rouge.track import Track


def slipstream(occ: Occupancy, track: Track, riders: list[Rider]) -> list[tuple[int, int, int]]:
    """Apply every slipstream shift; returns ``(rider index, from square, to square)`` per shift, in order."""
    shifts: list[tuple[int, int, int]] = []
    no_slip = track.no_slip
    lanes = track.lanes
    squares = sorted(occ)
    k = 0
    # D2 says "start again from the rear" after each shift. A shift from s to s+1 only changes whether s
    # and s+1 are empty, so every square behind s-1 that could not slipstream still cannot: the scan goes
    # on from s-1 instead of the very rear, which finds the same rearmost square each time.
    while k < len(squares):
        s = squares[k]
        if no_slip[s] or (s + 1) in occ or (s + 2) not in occ or no_slip[s + 2]:
            k += 1
            continue
        row = occ[s]
        ahead = [-1] * lanes[s + 1]
        occ[s + 1] = ahead
        for lane0, idx in enumerate(row):
            if idx < 0:
                continue
            if lane0 < len(ahead) and ahead[lane0] < 0:  # D2: keep its lane if it can
                new = lane0
            elif -1 in ahead:
                new = ahead.index(-1)
            else:
                continue  # no free lane: it stays on s
            ahead[new] = idx
            row[lane0] = -1
            rider = riders[idx]
            rider.square = s + 1
            rider.lane = new + 1
            shifts.append((idx, s, s + 1))
        if max(row) < 0:
            del occ[s]
            squares[k] = s + 1
        else:
            squares.insert(k + 1, s + 1)
        if k and squares[k - 1] == s - 1:
            k -= 1  # D2: start again from the rear (the first square that may slipstream now)
    return shifts
