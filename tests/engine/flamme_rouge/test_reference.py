"""An independent reference for one round (§5.2, §6.1-6.8): the engine must agree on random boards.

The reference below is written straight from the rules text, knowing nothing of the engine but the
terrain and lane count of each square (data). It moves the riders (5.2, D14-D17, 6.2 "Precisely", D4),
slipstreams them (6.6, D1-D3) and hands out exhaustion (6.7, D18, D3); the test compares final squares,
lanes and exhaustion with the engine on a few hundred seeded random boards.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.flamme_rouge.track import from_profile
from engine.rng import Rng

from .helpers import exhausted, placed, play, record

PROFILES = (
    "S5 _3 u3 _1 d2 P3 C1 C2 C1 _2 u1 _1 u2 d3 _2 C2 _1 _[3L]×3 u7 _2 F5",
    "S5 _2 d3 _1 u1 _1 P4 _[1L]×2 C2 u2 _2 d1 _[3L]×2 u3 F3",
    "S5 _4 C1 C1 _1 d5 u9 d2 _1 P2 _[3L]×4 C2 _1 u2 F4",
)
PLAYERS = ("anna", "ben", "carl", "dana")
COLOURS = ("black", "blue", "green", "red")
R_CARDS = [3, 4, 5, 6, 7, "E"]
S_CARDS = [2, 3, 4, 5, 9, "E"]


def _value(card: Any) -> int:
    return 2 if card == "E" else int(card)


def reference_round(
    terrain: str,
    lanes: list[int],
    last: int,
    positions: dict[str, tuple[int, int]],
    values: dict[str, int],
    clip: bool,
    bots: frozenset[str] = frozenset(),
    crosswind: frozenset[int] = frozenset(),
) -> tuple[dict[str, tuple[int, int]], set[str]]:
    """Final (square, lane) per rider and who takes exhaustion, from the rules text alone.

    ``terrain[n]`` / ``lanes[n]``: square n (index 0 unused); past ``last`` the finish area goes on virtually
    with the last square's lane count (D4 "extend").
    """

    def ter(n: int) -> str:
        return terrain[n] if n <= last else "F"

    def nlanes(n: int) -> int:
        return lanes[n] if n <= last else lanes[last]

    finish = terrain.index("F")
    board: dict[tuple[int, int], str] = {(sq, ln): rid for rid, (sq, ln) in positions.items()}
    pos = dict(positions)
    # 5.2: front to back, by the positions at the start of the movement phase; right lane first
    for rid in sorted(pos, key=lambda r: (-pos[r][0], pos[r][1])):
        start, lane = pos[rid]
        v = values[rid]
        v = max(v, {"d": 5, "P": 4}.get(ter(start), 0))  # 6.1 step 2, D16
        for i in range(v + 1):  # 6.2 "Precisely"
            if ter(start + i) == "u":
                v = i - 1 if i > 5 else min(v, 5)
                break
        target = start + v
        if clip and target > last:
            target = last
        for sq in range(target, start, -1):
            free = [ln for ln in range(1, nlanes(sq) + 1) if (sq, ln) not in board]
            if free:
                del board[(start, lane)]
                board[(sq, free[0])] = rid
                pos[rid] = (sq, free[0])
                break
        # else: blocked back onto its own square, it keeps its lane (D17)

    def occupied(n: int) -> bool:
        return any(p[0] == n for p in pos.values())

    def no_slip(n: int) -> bool:
        return ter(n) in "uCF" or n in crosswind  # D10: crosswind squares too

    while True:  # 6.6, D2
        squares = sorted({p[0] for p in pos.values()})
        s = next(
            (s for s in squares if not occupied(s + 1) and occupied(s + 2) and not no_slip(s) and not no_slip(s + 2)),
            None,
        )
        if s is None:
            break
        for rid in sorted((r for r in pos if pos[r][0] == s), key=lambda r: pos[r][1]):
            lane = pos[rid][1]
            taken = {p[1] for p in pos.values() if p[0] == s + 1}
            if lane <= nlanes(s + 1) and lane not in taken:
                pos[rid] = (s + 1, lane)
            else:
                free = [ln for ln in range(1, nlanes(s + 1) + 1) if ln not in taken]
                if free:
                    pos[rid] = (s + 1, free[0])
    tired = {
        rid for rid, (sq, _) in pos.items() if sq < finish and not occupied(sq + 1) and rid not in bots
    }  # 6.7, D18, D3; bot riders never take exhaustion
    return pos, tired


def _rng_below(rng: Rng, n: int) -> int:
    return rng.next64() % n


class _R:
    """A tiny adaptor: ``below(n)`` from the engine's seeded generator (no ``random`` in the suite)."""

    def __init__(self, seed: int) -> None:
        self.rng = Rng(seed)

    def below(self, n: int) -> int:
        return _rng_below(self.rng, n)


@pytest.mark.rules("5.2", "6.1", "6.2", "6.5", "6.6", "6.7", "D1", "D2", "D3", "D4", "D14", "D16", "D17", "D18")
@pytest.mark.parametrize("clip", [False, True])
def test_the_engine_moves_slipstreams_and_tires_riders_as_the_reference_does(clip: bool) -> None:
    """On seeded random boards one round ends exactly as a from-the-rules reference computes it."""
    gen = _R(20261129 + clip)
    mismatches: list[str] = []
    for n in range(120):
        profile = PROFILES[n % len(PROFILES)]
        track = from_profile(profile)
        cells = [(sq, ln) for sq in range(6, track.finish) for ln in range(1, track.lanes[sq] + 1)]
        lo = gen.below(max(1, len(cells) - 14))
        window = cells[lo : lo + 14]
        positions: dict[str, tuple[int, int]] = {}
        hands: dict[str, list[Any]] = {}
        chosen: dict[str, Any] = {}
        for colour in COLOURS:
            for kind, pool in (("r", R_CARDS), ("s", S_CARDS)):
                rid = f"{colour}-{kind}"
                positions[rid] = window.pop(gen.below(len(window)))
                hand = [pool[gen.below(len(pool))] for _ in range(4)]
                hands[rid] = hand
                chosen[rid] = hand[gen.below(4)]
        orders = {
            p: f"r{_value(chosen[c + '-r'])} s{_value(chosen[c + '-s'])}" for p, c in zip(PLAYERS, COLOURS, strict=True)
        }
        rec = record(
            players=4,
            stage=profile,
            options={"finish_overflow": "clip" if clip else "extend"},
            setup=placed(dict(positions), hands),
            steps=[orders],
        )
        race = play(rec)
        values = {rid: _value(c) for rid, c in chosen.items()}
        want_pos, want_tired = reference_round(track.terrain, list(track.lanes), track.last, positions, values, clip)
        got_pos = {rid: (race.state.rider(rid).square, race.state.rider(rid).lane) for rid in positions}
        got_tired = set(exhausted(race.events[0]))
        if got_pos != want_pos or got_tired != want_tired:
            mismatches.append(f"{profile} {positions} {values}: {got_pos} vs {want_pos}; {got_tired} vs {want_tired}")
    assert not mismatches, mismatches[:3]


def reference_bot_values(
    positions: dict[str, tuple[int, int]], peloton_card: Any, muscle: dict[str, Any]
) -> dict[str, int]:
    """§7.2, §7.3, D20, D21: the values the bot riders move by (before terrain).

    ``None`` = an empty deck (2). Attack!: the front Peloton rider (the first of the two to move) 2, the rear
    one 9. The Muscle card is a 5.
    """
    pel = sorted(("green-p1", "green-p2"), key=lambda r: (-positions[r][0], positions[r][1]))
    values: dict[str, int] = {}
    for n, rid in enumerate(pel):
        if peloton_card is None:
            values[rid] = 2
        elif peloton_card == "A":
            values[rid] = 2 if n == 0 else 9
        else:
            values[rid] = int(peloton_card)
    for rid, card in muscle.items():
        values[rid] = 2 if card is None else 5 if card == "M" else int(card)
    return values


@pytest.mark.rules("7.2", "7.3", "D16", "D20", "D21", "6.7")
def test_bot_teams_move_slipstream_and_stay_fresh_as_the_reference_says() -> None:
    """With a Peloton and a Muscle team on random boards, one round ends as the reference computes it."""
    gen = _R(7_2_3)
    mismatches: list[str] = []
    for n in range(90):
        profile = PROFILES[n % len(PROFILES)]
        track = from_profile(profile)
        cells = [(sq, ln) for sq in range(6, track.finish) for ln in range(1, track.lanes[sq] + 1)]
        lo = gen.below(max(1, len(cells) - 14))
        window = cells[lo : lo + 14]
        ids = ["black-r", "black-s", "blue-r", "blue-s", "green-p1", "green-p2", "red-r", "red-s"]
        positions = {rid: window.pop(gen.below(len(window))) for rid in ids}
        hands: dict[str, list[Any]] = {}
        chosen: dict[str, Any] = {}
        for rid in ids[:4]:
            pool = R_CARDS if rid.endswith("r") else S_CARDS
            hands[rid] = [pool[gen.below(len(pool))] for _ in range(4)]
            chosen[rid] = hands[rid][gen.below(4)]
        setup = placed(dict(positions), hands)
        pel_pool: list[Any] = [3, 4, 5, 6, 7, "A", "A", None]
        pel_card = pel_pool[gen.below(len(pel_pool))]
        setup["riders"]["green-p1"]["deck"] = [] if pel_card is None else [pel_card, 5]
        setup["riders"]["green-p2"]["deck"] = []
        muscle: dict[str, Any] = {}
        for rid, pool in (("red-r", [3, 4, 5, 6, 7, None]), ("red-s", [2, 3, 4, 5, 9, "M", None])):
            muscle[rid] = pool[gen.below(len(pool))]
            setup["riders"][rid]["deck"] = [] if muscle[rid] is None else [muscle[rid], 4]
        orders = {
            "anna": f"r{_value(chosen['black-r'])} s{_value(chosen['black-s'])}",
            "ben": f"r{_value(chosen['blue-r'])} s{_value(chosen['blue-s'])}",
        }
        rec = record(players=2, bots=["peloton", "muscle"], stage=profile, setup=setup, steps=[orders])
        race = play(rec)
        values = {rid: _value(c) for rid, c in chosen.items()} | reference_bot_values(positions, pel_card, muscle)
        want_pos, want_tired = reference_round(
            track.terrain, list(track.lanes), track.last, positions, values, False, frozenset(ids[4:])
        )
        got_pos = {rid: (race.state.rider(rid).square, race.state.rider(rid).lane) for rid in positions}
        got_tired = set(exhausted(race.events[0]))
        if got_pos != want_pos or got_tired != want_tired:
            mismatches.append(f"{profile} {positions} {values}: {got_pos} vs {want_pos}; {got_tired} vs {want_tired}")
    assert not mismatches, mismatches[:3]


@pytest.mark.rules("D5", "8", "5.2", "6.7")
def test_three_rounds_near_the_line_end_as_the_reference_says_crossed_riders_leaving_after_their_round() -> None:
    """Three rounds near the finish (``finish="all"``): each round matches the reference, crossed riders block
    and fill squares during their round and are gone the next (D5)."""
    gen = _R(5_8)
    mismatches: list[str] = []
    for n in range(40):
        profile = PROFILES[n % len(PROFILES)]
        track = from_profile(profile)
        cells = [(sq, ln) for sq in range(6, track.finish) for ln in range(1, track.lanes[sq] + 1)]
        window = cells[-26:]
        positions: dict[str, tuple[int, int]] = {}
        plan: dict[str, list[int]] = {}
        setup_riders: dict[str, Any] = {}
        for colour in COLOURS:
            for kind, pool in (("r", [3, 4, 5, 6, 7]), ("s", [2, 3, 4, 5, 9])):
                rid = f"{colour}-{kind}"
                positions[rid] = window.pop(gen.below(len(window)))
                plan[rid] = [pool[gen.below(len(pool))] for _ in range(3)]
                setup_riders[rid] = {
                    "square": positions[rid][0],
                    "lane": positions[rid][1],
                    "deck": [v for v in plan[rid] for _ in range(4)],
                }
        steps: list[dict[str, str]] = []
        want: list[tuple[dict[str, tuple[int, int]], set[str]]] = []
        racing = dict(positions)
        for rnd in range(3):
            if not racing:
                break
            step = {}
            for p, c in zip(PLAYERS, COLOURS, strict=True):
                mine = [k for k in ("r", "s") if f"{c}-{k}" in racing]
                if mine:
                    step[p] = " ".join(f"{k}{plan[f'{c}-{k}'][rnd]}" for k in mine)
            steps.append(step)
            values = {rid: plan[rid][rnd] for rid in racing}
            pos, tired = reference_round(track.terrain, list(track.lanes), track.last, racing, values, False)
            want.append((pos, tired))
            racing = {rid: p for rid, p in pos.items() if p[0] < track.finish}  # D5: crossed riders leave
        race = play(record(players=4, stage=profile, setup={"riders": setup_riders}, steps=steps))
        for k, (pos, tired) in enumerate(want):
            got_tired = set(exhausted(race.events[k]))
            ends = {e.data["rider"]: (e.data["to"], e.data["lane"]) for e in race.events[k] if e.kind == "fr.move"}
            for e in race.events[k]:
                if e.kind == "fr.slipstream":
                    ends[e.data["rider"]] = (e.data["to"], e.data["lane"])
            if ends != pos:  # every racing rider moved once; its last event gives its square and lane
                mismatches.append(f"round {k + 1} {profile} {positions} {plan}: {ends} vs {pos}")
            if got_tired != tired:
                mismatches.append(f"round {k + 1} {profile} {positions} {plan}: {got_tired} vs {tired}")
        if race.finished != (not racing):
            mismatches.append(f"{profile} {positions} {plan}: finished {race.finished}, riders left {racing}")
    assert not mismatches, mismatches[:3]


ACP_CROSSWIND = frozenset([*range(7, 13), *range(19, 25), *range(49, 61)])
"""Avenue Corso Paseo (a b c d e f g h i j k l m n o p q r s t u; straights 6 squares, curves 2): the straight
tiles b c d f l m n are squares 7-12, 13-18, 19-24, 27-32, 43-48, 49-54, 55-60; the tokens below put
crosswind on b, d, m and n."""


@pytest.mark.rules("D10", "7.6", "6.6")
def test_crosswind_tiles_stop_slipstream_exactly_where_the_reference_says() -> None:
    """On Avenue Corso Paseo with crosswind on b, d, m, n, random rounds end as the reference computes."""
    gen = _R(10_7_6)
    tokens = ["crosswind", "clear", "crosswind", "clear", "clear", "crosswind", "crosswind"]
    track = from_profile("S5 _68 F5")  # the same terrain and lanes as Avenue Corso Paseo
    mismatches: list[str] = []
    slips = 0
    for _ in range(60):
        cells = [(sq, ln) for sq in range(6, 74) for ln in (1, 2)]
        lo = gen.below(len(cells) - 14)
        window = cells[lo : lo + 14]
        positions: dict[str, tuple[int, int]] = {}
        hands: dict[str, list[Any]] = {}
        chosen: dict[str, Any] = {}
        for colour in COLOURS:
            for kind, pool in (("r", R_CARDS), ("s", S_CARDS)):
                rid = f"{colour}-{kind}"
                positions[rid] = window.pop(gen.below(len(window)))
                hands[rid] = [pool[gen.below(len(pool))] for _ in range(4)]
                chosen[rid] = hands[rid][gen.below(4)]
        orders = {
            p: f"r{_value(chosen[c + '-r'])} s{_value(chosen[c + '-s'])}" for p, c in zip(PLAYERS, COLOURS, strict=True)
        }
        rec = record(
            players=4,
            stage="Avenue Corso Paseo",
            options={"meteo": tokens},
            setup=placed(dict(positions), hands),
            steps=[orders],
        )
        race = play(rec)
        values = {rid: _value(c) for rid, c in chosen.items()}
        want_pos, want_tired = reference_round(
            track.terrain, list(track.lanes), track.last, positions, values, False, crosswind=ACP_CROSSWIND
        )
        got_pos = {rid: (race.state.rider(rid).square, race.state.rider(rid).lane) for rid in positions}
        got_tired = set(exhausted(race.events[0]))
        slips += sum(1 for e in race.events[0] if e.kind == "fr.slipstream")
        if got_pos != want_pos or got_tired != want_tired:
            mismatches.append(f"{positions} {values}: {got_pos} vs {want_pos}; {got_tired} vs {want_tired}")
    assert not mismatches, mismatches[:3]
    assert slips > 0  # the boards do exercise slipstream
