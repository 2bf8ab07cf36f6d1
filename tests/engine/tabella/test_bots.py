"""Bot strategies: legal, deterministic, and different in spirit."""

from __future__ import annotations

import pytest

from engine.ruleset import Entrant
from engine.tabella import RULESET
from engine.tabella.bots import best_route, victim_risk
from engine.tabella.table import Course, classic_table
from tests.logged import LoggedRace

from .scenario import CLASSIC_1


def _bots(mode: str, seed: int) -> LoggedRace:
    entrants = [
        Entrant(id="c1", name="Calmo", bot="cautious"),
        Entrant(id="a1", name="Audace", bot="aggressive"),
        Entrant(id="c2", name="Prudente", bot="cautious"),
        Entrant(id="a2", name="Feroce", bot="aggressive"),
    ]
    return LoggedRace.start("tabella", entrants, seed=seed, options={"mode": mode})


@pytest.mark.parametrize("mode", ["plan", "live"])
def test_bots_play_whole_races_to_a_result_in_both_modes(mode: str) -> None:
    """Every bot order validates (the driver checks it) and the race finishes with everyone listed."""
    for seed in range(3):
        race = _bots(mode, seed)
        race.play_bots_until_human()
        result = race.result()
        assert result.finished and len(result.standings) == 4
        assert all(r.r >= 0 and r.v >= 0 for r in race.state.riders)


def test_bots_are_deterministic_given_the_state() -> None:
    """The same state gives the same bot order."""
    race = _bots("plan", 4)
    assert race.bot_order("a1") == race.bot_order("a1")


def test_the_aggressive_bot_uses_specials_and_the_cautious_one_keeps_out_of_fights() -> None:
    """Aggressive: a Bibitone, V and B. Neither plans a blind Gomitata; the cautious one no Bibitone, no V2."""
    race = _bots("plan", 4)
    bold, calm = race.bot_order("a1"), race.bot_order("c1")
    assert bold["bibitone"] is True and {"V", "B"} <= {e["code"] for e in bold["specials"]}
    # A plan cannot know who will be faster: a blind Gomitata mostly makes the pusher fall (§6.3).
    assert "G" not in {e["code"] for e in bold["specials"] + calm["specials"]}
    assert not calm.get("bibitone") and "V2" not in {e["code"] for e in calm["specials"]}


def test_the_bottle_is_drunk_at_once_and_thrown_empty_in_s2() -> None:
    """A full bottle can be stolen (D23), so it is drunk at the start; the empty one flies in s2, before
    the targets pour their R into the last sprint (a bottle in s3 lands after the payments, §5.4)."""
    plan = _bots("plan", 4).bot_order("c1")
    rounds = {e["code"]: e["round"] for e in plan["specials"]}
    assert (rounds["V"], rounds["B"], rounds["P"]) == ("start", "s2", "s3")
    assert (plan["s1"], plan["s2"]) == (0, 0) and plan["s3"] >= 30 - 5 * 5


def test_the_victim_risk_of_a_cell_counts_only_crashes_we_would_lose() -> None:
    """C1 (6,1), a descent strettoia (room for 1), with a rider sure to enter at effort 1.

    Effort 1 ties (we lose the tie): a crash of 2 costs 2 R + 1 V = 3. Effort 2 beats it: no risk."""
    course = Course.of(classic_table(), 1)
    crowd = {(1, 2): [{1: 1.0}]}
    assert victim_risk(course, 2, 1, 1, crowd) == 3.0
    assert victim_risk(course, 2, 1, 2, crowd) == 0.0
    # B1 (3,9), a climb with room for 2: one sure rider is no crash at all
    assert victim_risk(course, 1, 1, 1, {(1, 1): [{1: 1.0}]}) == 0.0
    # ... two riders at effort 1 half the time each: a crash of 3 (3 R + 3 V) with chance 1/4
    assert victim_risk(course, 1, 1, 1, {(1, 1): [{1: 0.5}, {1: 0.5}]}) == 6.0 / 4


def _live_sprint(strategy: str) -> LoggedRace:
    riders = {
        "me": {"row": "B", "v": 10, "r": 12, "stolen": {"owner": "you", "reinforced": True}},
        "you": {"row": "B", "v": 20, "r": 10, "bottle": "stolen"},
    }
    entrants = [Entrant(id="me", name="Me", bot=strategy), Entrant(id="you", name="You")]
    return LoggedRace.start(
        "tabella", entrants, seed=1, stage=CLASSIC_1, options={"mode": "live"}, setup={"round": 7, "riders": riders}
    )


def test_only_the_aggressive_bot_drinks_a_stolen_bibitone() -> None:
    """In s2 with a stolen reinforced bottle: aggressive V2 (doping risk), cautious B2 at the leader."""
    bold = {e["code"]: e for e in _live_sprint("aggressive").bot_order("me")["specials"]}
    calm = {e["code"]: e for e in _live_sprint("cautious").bot_order("me")["specials"]}
    assert "V2" in bold and "B2" not in bold
    assert "V2" not in calm and calm["B2"]["target"] == "you" and calm["B"]["target"] == "you"


def test_the_aggressive_bot_elbows_in_the_last_sprint_only_a_leader_sure_to_stay_faster() -> None:
    """s3: the leader's V + R is 30; ours 22 (+2 for P): push; with R 16 (26 + 2): no push."""
    race = _live_sprint("aggressive")
    race.state.round = 8
    race.state.rider("me").used += ["V2", "B2", "B", "V"]
    assert "G" in {e["code"] for e in race.bot_order("me")["specials"]}
    race.state.rider("me").r = 16
    assert "G" not in {e["code"] for e in race.bot_order("me")["specials"]}


def test_the_route_planner_takes_the_descent_and_breaks_effort_ties_upwards() -> None:
    """From row C of rows 1-3: into the C1 descent (worth +1 with effort 1 or 2), effort 2 to win collisions."""
    legs = best_route(Course.of(classic_table(), 1), 2, 1, careful=False)
    assert (legs[0].effort, legs[0].dir, legs[0].worth) == (2, "R", 1) and len(legs) == 5


def test_the_absent_player_order_is_the_automatic_order_of_the_rules() -> None:
    """Live start: Cavaliera, no Bibitone, no specials."""
    race = LoggedRace.start(
        "tabella",
        [Entrant(id="a", name="A"), Entrant(id="b", name="B")],
        seed=1,
        stage=CLASSIC_1,
        options={"mode": "live"},
    )
    assert RULESET.auto_order(race.state, "a") == {"start": "C", "bibitone": False, "specials": []}


def test_the_last_sprint_asks_for_more_than_the_rider_can_hold() -> None:
    """D16 reduces the last sprint to the R left, so the plan asks for at least every R the rider may hold:
    its R (the next move is free after a Gancio), +4 from its own bottle, +4 from a stolen one."""
    riders = {
        "me": {"row": "B", "r": 10, "free_effort": True, "stolen": {"owner": "you"}},
        "you": {"row": "A", "bottle": "stolen"},
    }
    entrants = [Entrant(id="me", name="Me", bot="aggressive"), Entrant(id="you", name="You")]
    race = LoggedRace.start("tabella", entrants, seed=1, stage=CLASSIC_1, setup={"round": 5, "riders": riders})
    plan = race.bot_order("me")
    assert plan["s3"] >= 10 + 4 + 4


def _full_distribution_risk(course: Course, row: int, pair: int, effort: int, crowd: dict) -> float:  # type: ignore[type-arg]
    """The victim risk as first written: the whole distribution over (count, shielded), a dict per opponent."""
    cell = course.pair(row, pair)
    factor = 2 if cell.curvone else 1
    v_loss = {"climb": 3, "flat": 2, "descent": 1}[cell.terrain] * factor
    dist: dict[tuple[int, bool], float] = {(0, False): 1.0}
    for opponent in crowd.get((pair, row), []):
        shield = sum(p for e, p in opponent.items() if e < effort)
        threat = sum(p for e, p in opponent.items() if e >= effort)
        absent = max(0.0, 1.0 - shield - threat)
        nxt: dict[tuple[int, bool], float] = {}
        for (count, shielded), q in dist.items():
            for key, w in (((count, shielded), absent), ((count + 1, True), shield), ((count + 1, shielded), threat)):
                if w:
                    nxt[key] = nxt.get(key, 0.0) + q * w
        dist = nxt
    return sum(
        q * ((count + 1) * factor + v_loss)
        for (count, shielded), q in dist.items()
        if count >= cell.capacity and not shielded
    )


def test_the_victim_risk_follows_only_unshielded_chances_and_gives_the_same_floats_to_the_last_bit() -> None:
    """Random crowds of up to 19 opponents (sure ones, absent ones, thirds and sevenths): the risk is the
    full distribution's exactly (==, not approximately), on every cell and effort of a course."""
    from engine.rng import Rng

    rng = Rng.from_seed(7, "crowds")
    course = Course.of(classic_table(), 3)
    for _ in range(60):
        crowd: dict[tuple[int, int], list[dict[int, float]]] = {}
        for pair in range(1, 6):
            for row in range(3):
                opponents = []
                for _ in range(rng.randbelow(20)):
                    weight = rng.choice([1.0, 0.5, 1 / 3, 1 / 6, 1 / 7, 0.1])
                    efforts: dict[int, float] = {}
                    for _ in range(rng.randint(1, 3)):
                        e = rng.randint(1, 5)
                        efforts[e] = efforts.get(e, 0.0) + weight
                    opponents.append(efforts)
                crowd[(pair, row)] = opponents
        for pair in range(1, 6):
            for row in range(3):
                for effort in range(1, 6):
                    want = _full_distribution_risk(course, row, pair, effort, crowd)
                    assert victim_risk(course, row, pair, effort, crowd) == want


def test_a_prediction_shared_by_the_bots_of_a_step_follows_the_state_when_it_changes() -> None:
    """The field's predicted traffic is kept per step; once a rider's row or status changes, the answer is
    the one a fresh computation gives, never the kept one."""
    from engine.tabella import bots

    entrants = [Entrant(id=f"r{i}", name=f"R{i}", bot="cautious") for i in range(6)]
    race = LoggedRace.start("tabella", entrants, seed=3, stage=CLASSIC_1, options={"mode": "live"})
    race.play_step({})
    state = race.state
    before = bots.predicted_presence(state, "r0", state.round, smart=True)
    moved = next(r for r in state.riders if r.id == "r1")
    moved.row = 2 if moved.row == 0 else 0
    after = bots.predicted_presence(state, "r0", state.round, smart=True)
    bots._FIELD_CACHE.clear()
    assert after == bots.predicted_presence(state, "r0", state.round, smart=True)
    assert after != before
