"""The start of a race: the checks every system shares, player limits, opening events, a lean driver."""

from __future__ import annotations

from typing import Any

import pytest

from engine import registry
from engine.messages import OrderError
from engine.race import Race, replay
from engine.record import RecordError, parse_record
from engine.registry import RULESET_IDS, UnknownRuleset, get_ruleset
from engine.ruleset import Entrant, PlayerLimits


def seats(n: int, bot: str | None = None) -> list[Entrant]:
    return [Entrant(id=f"p{i}", name=f"P{i}", bot=bot) for i in range(n)]


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_a_repeated_id_an_unknown_bot_and_too_many_players_are_refused_up_front(ruleset_id: str) -> None:
    """Each refusal names the field, the same way for all four systems, before anything is played."""
    ruleset = get_ruleset(ruleset_id)
    low, high = ruleset.player_limits(None, {})
    two = seats(max(low, 2))
    with pytest.raises(RecordError, match=r"^entrants\.1\.id: 'p0' is already the id of entrants\.0$"):
        Race.start(ruleset_id, [two[0], two[0].model_copy(update={"name": "Again"}), *two[2:]], 1)
    with pytest.raises(RecordError, match=r"^entrants\.1\.bot: unknown bot 'nosuch' for "):
        Race.start(ruleset_id, [two[0], two[1].model_copy(update={"bot": "nosuch"}), *two[2:]], 1)
    with pytest.raises(RecordError, match=rf"^entrants: {ruleset.name} takes .* not {high + 1}$"):
        Race.start(ruleset_id, seats(high + 1), 1)


def test_a_wyscig_record_with_an_unknown_bot_never_starts() -> None:
    """The seat that says "nosuch" is refused when the replay starts, not when that bot must play."""
    record = parse_record(
        {
            "ruleset": "wyscig",
            "seed": 1,
            "entrants": [{"id": "a", "name": "A"}, {"id": "b", "name": "B", "bot": "nosuch"}],
        }
    )
    with pytest.raises(RecordError, match=r"entrants\.1\.bot: unknown bot 'nosuch'"):
        replay(record)


def test_player_limits_follow_the_stage_and_the_options() -> None:
    """Wyścig: 2-6, 2-8 with max_players 8; Flamme Rouge: 6 teams, 12 one-rider players, fewer on a small start."""
    wyscig, flamme = get_ruleset("wyscig"), get_ruleset("flamme_rouge")
    assert wyscig.player_limits(None, {}) == PlayerLimits(2, 6)
    assert wyscig.player_limits(None, {"max_players": 8}) == (2, 8)
    with pytest.raises(ValueError, match="needs the itemised_108 deck"):
        wyscig.player_limits({"deck": "classic_96"}, {"max_players": 7})
    assert flamme.player_limits(None, {}) == (1, 6)
    assert flamme.player_limits(None, {"riders_per_player": 1}) == (1, 12)
    # "S5 _60 F5": five start squares of two lanes hold 10 riders, even on the large (3-lane) start
    assert flamme.player_limits("S5 _60 F5", {}) == (1, 5)
    assert get_ruleset("tabella").player_limits(None, {}) == (2, 20)
    assert get_ruleset("mind_cycling").player_limits(None, {"mode": "live"}) == (1, 6)


def test_wyscig_opens_with_its_first_deal_and_first_turn() -> None:
    """The stage start (the leader, the cards) is an opening event, before any step."""
    race = Race.start("wyscig", seats(3, "steady"), 4)
    assert [e.kind for e in race.opening][:1] == ["wk.stage_start"]
    assert "leads with the yellow token" in race.opening[0].message.text


def test_mind_cycling_set_up_on_the_grid_opens_with_its_first_start_line() -> None:
    """Every cyclist placed by the set-up: round 1 starts at once, and its start line is the opening."""
    cyclists: list[dict[str, Any]] = [
        {"entrant": e, "number": n, "row": row, "lane": lane}
        for e, row in (("p0", 0), ("p1", -1))
        for n, lane in zip(range(1, 6), range(1, 6), strict=True)
    ]
    race = Race.start("mind_cycling", seats(2), 1, "short", {"mode": "live"}, {"cyclists": cyclists})
    assert [e.kind for e in race.opening] == ["mc.round_start"]
    assert race.opening[0].data["round"] == 1


def test_the_driver_keeps_only_what_the_next_step_needs() -> None:
    """After a whole race the driver holds its state, its header and its opening: no steps, no events."""
    race = Race.start("flamme_rouge", seats(3, "heuristic"), 2)
    played = []
    assert race.play_bots_until_human(played.append) == len(played) > 0
    assert race.finished and race.header.steps == []
    # A step counter and what it published (an announcement per race at most) do not grow with the steps.
    assert set(vars(race)) <= {"ruleset", "header", "state", "opening", "entrants", "played", "announced"}
    assert race.played == len(played) and len(race.announced) <= 1
    assert race.record([p.orders for p in played]).steps[0] == played[0].orders
    assert all(order.get("by") == "bot" for p in played for order in p.orders.values())


def test_a_rule_system_that_fails_to_import_is_an_error_not_an_unknown_system(monkeypatch: Any) -> None:
    """A broken package raises its own error; only an id outside the four is "unknown"."""
    monkeypatch.setattr(registry, "_cache", {})
    monkeypatch.setitem(registry._MODULES, "tabella", "engine.no_such_package")
    with pytest.raises(ModuleNotFoundError):
        get_ruleset("tabella")
    with pytest.raises(ModuleNotFoundError):
        registry.available_rulesets()
    with pytest.raises(UnknownRuleset):
        get_ruleset("chess")


def test_an_order_nobody_can_be_blamed_for_is_not_blamed_on_the_first_entrant(monkeypatch: Any) -> None:
    """A refusal from the resolution itself names the step only."""
    ruleset = get_ruleset("wyscig")
    record = parse_record(
        {"ruleset": "wyscig", "seed": 1, "entrants": [e.model_dump() for e in seats(2, "steady")], "steps": [{}]}
    )
    race = Race.from_record_start(record)
    who = race.awaited()[0].entrant
    record.steps[0] = {who: race.bot_order(who)}

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise OrderError.of("test.refused", "Refused by the resolution.")

    monkeypatch.setattr(type(ruleset), "resolve", refuse)
    with pytest.raises(RecordError) as info:
        replay(record)
    assert str(info.value) == "step 1: Refused by the resolution." and info.value.entrant is None


def test_a_received_at_that_is_not_a_time_is_refused_naming_the_entrant() -> None:
    """Bookkeeping is checked where it is split off: the driver."""
    race = Race.start("tabella", seats(2), 1)
    with pytest.raises(OrderError, match="received_at must be an ISO 8601 time") as info:
        race.play_step({"p0": {"text": "A", "received_at": "yesterday"}, "p1": {"text": "B"}})
    assert info.value.entrant == "p0"
