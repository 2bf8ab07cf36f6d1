"""The starting grid (§4.2-4.4, §7.1-7.3, D6, D20, D21).

Start squares are numbered from the front for the players: P1 = the start square just behind the line.
A rider placed on a square takes its rightmost free lane (D6).
"""

from __future__ import annotations

from engine.flamme_rouge.state import MUSCLE, PELOTON, RaceState, Rider
from engine.rng import Rng


def square_of(state: RaceState, p: int) -> int:
    """The square number of start position P``p``."""
    return state.track.start_squares - p + 1


def p_of(state: RaceState, square: int) -> int:
    return state.track.start_squares - square + 1


def free_lane(state: RaceState, square: int) -> int:
    """The rightmost free lane of ``square`` (0 if it is full)."""
    taken = {r.lane for r in state.riders if r.square == square and not r.off}
    for lane in range(1, state.track.lanes[square] + 1):
        if lane not in taken:
            return lane
    return 0


def free_start_positions(state: RaceState) -> list[int]:
    """The P numbers of the start squares that still have a free lane, front first."""
    n = state.track.start_squares
    lanes = state.track.lanes
    taken: dict[int, set[int]] = {}
    for r in state.riders:  # one pass instead of free_lane per square
        if 0 < r.square <= n and not r.off:
            taken.setdefault(r.square, set()).add(r.lane)
    out = []
    for p in range(1, n + 1):
        square = n - p + 1
        lanes_taken = taken.get(square)
        # A free lane among 1..L: fewer than L of the taken lanes lie there (a count only when it could be full).
        if (
            lanes_taken is None
            or len(lanes_taken) < lanes[square]
            or sum(1 for lane in lanes_taken if 1 <= lane <= lanes[square]) < lanes[square]
        ):
            out.append(p)
    return out


def place(state: RaceState, rider: Rider, square: int) -> None:
    lane = free_lane(state, square)
    if not lane:
        raise ValueError(f"square {square} is full")
    rider.square = square
    rider.lane = lane


def place_bot_teams(state: RaceState) -> list[Rider]:
    """§4.4 step 1: the Peloton first (D20: front rider on P1, rear rider on P2), then each Muscle team in
    the order of the entrants (D21: Sprinteur on the frontmost start square with a free lane, Rouleur on the
    frontmost one behind it). Riders the setup already placed stay where they are."""
    placed: list[Rider] = []
    pel = [r for r in state.riders if r.bot == PELOTON and r.square == 0]
    for r in sorted(pel, key=lambda r: r.id):
        p = 1 if r.id.endswith("-p1") else 2
        sq = square_of(state, p)
        if free_lane(state, sq):
            place(state, r, sq)
        else:
            place(state, r, square_of(state, free_start_positions(state)[-1]))
        placed.append(r)
    for e in state.entrants:
        team = [r for r in state.riders if r.owner == e["id"] and r.bot == MUSCLE]
        sprinteur = next((r for r in team if r.kind == "s" and r.square == 0), None)
        rouleur = next((r for r in team if r.kind == "r" and r.square == 0), None)
        if sprinteur is not None:
            place(state, sprinteur, square_of(state, free_start_positions(state)[0]))
            placed.append(sprinteur)
        if rouleur is not None:
            ahead = next((r.square for r in team if r.kind == "s"), state.track.start_squares + 1)
            behind = [p for p in free_start_positions(state) if square_of(state, p) < ahead]
            ps = behind or free_start_positions(state)
            place(state, rouleur, square_of(state, ps[0]))
            placed.append(rouleur)
    return placed


def place_randomly(state: RaceState, rng: Rng) -> list[Rider]:
    """D6 ``grid="random"``: the unplaced riders in a random order, each on a random start square that still
    has a free lane."""
    todo = [r for r in state.riders if r.square == 0]
    rng.shuffle(todo)
    positions = free_start_positions(state)
    lanes = state.track.lanes
    n = state.track.start_squares
    # The lanes taken on each start square, kept as the riders are placed (free_lane's scan of every rider,
    # once per square instead of twice per rider): the same rightmost free lane each time.
    taken: dict[int, set[int]] = {}
    for r in state.riders:
        if 0 < r.square <= n and not r.off:
            taken.setdefault(r.square, set()).add(r.lane)
    for r in todo:
        if not positions:
            raise ValueError("the start area is full")
        p = rng.choice(positions)
        square = n - p + 1  # square_of
        used = taken.setdefault(square, set())
        width = lanes[square]
        lane = next((lane for lane in range(1, width + 1) if lane not in used), 0)
        if not lane:
            raise ValueError(f"square {square} is full")
        r.square = square
        r.lane = lane
        used.add(lane)
        if all(k in used for k in range(1, width + 1)):  # only the square just taken can have filled up
            positions.remove(p)
    return todo


def capacity(state: RaceState) -> int:
    """How many riders the start area holds."""
    return sum(state.track.lanes[n] for n in range(1, state.track.start_squares + 1))
