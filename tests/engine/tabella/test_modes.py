"""Plan mode and live mode, missing orders, void races, player limits (rules §4.1; D1, D2, D8)."""

from __future__ import annotations

import pytest

from engine.messages import OrderError
from engine.record import RecordError
from engine.ruleset import Entrant
from engine.tabella import RULESET
from tests.logged import LoggedRace

from .scenario import CLASSIC_1, kinds, minute

PLAN = "A · 3R 2S 1D 5R 4R · 4 1 2 · V@m3 bibitone, G@m2 @Luca down"


def _entrants(*names: str) -> list[Entrant]:
    return [Entrant(id=n.lower(), name=n) for n in names]


@pytest.mark.rules("D1", "4.1")
def test_in_plan_mode_one_step_plays_the_whole_race_round_by_round() -> None:
    """Two plans in, nine rounds out: the events name every round from the start to s3."""
    race = LoggedRace.start("tabella", _entrants("Anna", "Luca"), seed=3, stage=CLASSIC_1)
    (one, _) = race.awaited()
    assert one.kind == "plan" and not one.required
    events = race.play_step(
        {"anna": {"text": PLAN, "received_at": minute(1)}, "luca": "C · 1R 1R 1R 1R 1R · 0 0 9"}
    ).events
    labels = [e.data["label"] for e in kinds(events, "round")]
    assert labels == ["start", "m1", "m2", "m3", "m4", "m5", "s1", "s2", "s3"]
    assert race.awaited() == [] and race.result().finished
    assert [e.data["rider"] for e in kinds(events, "plan")] == ["anna", "luca"]


@pytest.mark.rules("D8", "R-TDD-1", "4.1")
def test_in_plan_mode_a_player_without_a_plan_does_not_start_and_scores_nothing() -> None:
    """Carla sends nothing: Anna and Luca race; Carla is listed after them with no points."""
    race = LoggedRace.start("tabella", _entrants("Anna", "Luca", "Carla"), seed=3, stage=CLASSIC_1)
    events = race.play_step({"anna": PLAN, "luca": "C · 1R 1R 1R 1R 1R · 0 0 9"}).events
    assert kinds(events, "did_not_start")[0].data["rider"] == "carla"
    last = race.result().standings[-1]
    assert (last.entrant, last.place, last.figures) == ("carla", 3, {"status": "did_not_start", "points": 0})


@pytest.mark.rules("D8", "R-TDD-1", "4.1")
def test_a_plan_race_with_fewer_than_two_starters_is_void() -> None:
    """Only Anna sent a plan: the race is not run and awards no points."""
    race = LoggedRace.start("tabella", _entrants("Anna", "Luca"), seed=3, stage=CLASSIC_1)
    events = race.play_step({"anna": PLAN}).events
    assert kinds(events, "void") and not kinds(events, "round")
    result = race.result()
    assert result.finished and {s.figures["points"] for s in result.standings} == {0}
    assert race.awaited() == []
    # nobody raced: the lone starter is not shown racing on a board that never started
    assert [r["status"] for r in RULESET.public_view(race.state)["riders"]] == ["waiting", "dns"]


@pytest.mark.rules("D1", "D8", "4.1")
def test_live_mode_asks_one_round_at_a_time_and_plays_the_automatic_order_for_a_missing_one() -> None:
    """Nine steps; Luca never orders: Cavaliera, then 1R, then 0 in the sprint."""
    race = LoggedRace.start("tabella", _entrants("Anna", "Luca"), seed=3, stage=CLASSIC_1, options={"mode": "live"})
    steps = 0
    while race.awaited():
        decisions = race.awaited()
        assert all(d.kind == "round" and d.required for d in decisions)
        label = ["start", "m1", "m2", "m3", "m4", "m5", "s1", "s2", "s3"][steps]
        anna = "start: B" if label == "start" else (f"{label}: 2R" if label.startswith("m") else f"{label}: 1")
        race.state, events = RULESET.resolve(race.state, {"anna": race.validate("anna", anna)})
        shown = {"td.start", "td.move"}
        luca_moves = [e for e in events if e.data.get("rider") == "luca" and e.kind in shown]
        if label == "start":
            assert luca_moves[0].data["start"] == "C"
        elif label.startswith("m"):
            assert (luca_moves[0].data["effort"], luca_moves[0].data["dir"]) == (1, "R")
        steps += 1
    assert steps == 9
    # Luca alone in row C: 5 x 1R costs 5 R; V 5 +2 (C1) -1 (C2) +3 (C3) +2 (C4) -2 (C5) = 9; sprints of 0
    luca = race.state.rider("luca")
    assert (luca.r, luca.v) == (25, 9)
    # Anna in row B with 2R: R 29 - 10 - 1 - 2 (clamps on B4, B5) = 16, V 0, then sprints 1, 1, 1
    anna = race.state.rider("anna")
    assert (anna.r, anna.v) == (13, 3)


@pytest.mark.rules("D8", "4.1")
def test_the_automatic_order_keeps_what_the_player_already_chose() -> None:
    """Half a move chosen (effort 3): the automatic order completes it with R."""
    race = LoggedRace.start("tabella", _entrants("Anna", "Luca"), seed=3, stage=CLASSIC_1, options={"mode": "live"})
    race.play_step({"anna": "start: C", "luca": "start: C"})
    order = race.absent_order("anna", {"m1": {"effort": 3}})
    assert order["m1"] == {"effort": 3, "dir": "R"} and order["auto"] is True
    assert race.validate("anna", order)["m1"] == {"effort": 3, "dir": "R"}


@pytest.mark.rules("D2", "3")
def test_a_race_needs_two_to_twenty_riders() -> None:
    """One rider or twenty-one are refused; two and twenty are fine."""
    with pytest.raises(RecordError, match="2 to 20"):
        LoggedRace.start("tabella", _entrants("Solo"), seed=1)
    with pytest.raises(RecordError, match="2 to 20"):
        LoggedRace.start("tabella", _entrants(*[f"R{i}" for i in range(21)]), seed=1)
    assert LoggedRace.start("tabella", _entrants(*[f"R{i}" for i in range(20)]), seed=1).awaited()
    assert len(RULESET.default_entrants(_entrants("Solo"), {})) == 2


@pytest.mark.rules("D5")
def test_the_same_seed_options_and_orders_give_the_same_race() -> None:
    """Two runs of a random-table, random-rows race are identical, events included."""

    def run() -> tuple[dict, list]:  # type: ignore[type-arg]
        race = LoggedRace.start(
            "tabella", _entrants("Anna", "Luca"), seed=99, stage={"table": "random", "rows": "random"}
        )
        events = race.play_step({"anna": PLAN, "luca": "B · 2R 2R 2R 2R 2R · 1 1 1"}).events
        return RULESET.dump(race.state), [e.model_dump() for e in events]

    assert run() == run()


@pytest.mark.rules("R-TDD-3", "4.1")
def test_a_half_built_plan_is_completed_with_the_automatic_order() -> None:
    """Start A and m1 3S chosen: the rest becomes 1R moves, sprints of 0, no specials."""
    race = LoggedRace.start("tabella", _entrants("Anna", "Luca"), seed=3, stage=CLASSIC_1)
    order = race.absent_order("anna", {"start": "A", "m1": {"effort": 3, "dir": "S"}})
    assert order["start"] == "A" and order["m1"] == {"effort": 3, "dir": "S"} and order["bibitone"] is False
    assert [order[f"m{i}"] for i in range(2, 6)] == [{"effort": 1, "dir": "R"}] * 4
    assert [order["s1"], order["s2"], order["s3"], order["specials"]] == [0, 0, 0, []]


def test_a_plan_race_can_start_from_a_set_up_sprint_with_a_plan_for_the_rounds_left() -> None:
    """Setup at s1: the plan holds only s1-s3 and the race is played out from there."""
    riders = {"anna": {"row": "C", "r": 10, "v": 8}, "luca": {"row": "C", "r": 12, "v": 7}}
    race = LoggedRace.start(
        "tabella", _entrants("Anna", "Luca"), seed=3, stage=CLASSIC_1, setup={"round": 6, "riders": riders}
    )
    assert {d.entrant for d in race.awaited()} == {"anna", "luca"}
    with pytest.raises(OrderError, match="V@m2: that round is already over; this plan covers s1, s2, s3"):
        race.validate("anna", "s1: 3 s2: 3 s3: 3 specials: V@m2")
    race.play_step({"anna": "s1: 3 s2: 3 s3: 3", "luca": "s1: 0 s2: 0 s3: 12"})
    # anna: V 8 + 9 = 17, R 1; luca: V 7 + 12 = 19, R 0 (reaching 0 in s3 is no exhaustion)
    assert [(s.entrant, s.figures["V"], s.figures["R"]) for s in race.result().standings] == [
        ("luca", 19, 0),
        ("anna", 17, 1),
    ]


def test_resolve_checks_the_orders_it_is_given() -> None:
    """A caller that skips validation still gets the rules: an incomplete plan is refused."""
    race = LoggedRace.start("tabella", _entrants("Anna", "Luca"), seed=3, stage=CLASSIC_1)
    with pytest.raises(Exception, match="incomplete"):
        RULESET.resolve(race.state, {"anna": {"start": "A"}, "luca": {"text": PLAN.replace("@Luca", "@Anna")}})
