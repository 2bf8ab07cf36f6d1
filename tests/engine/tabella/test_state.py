"""The race state's one copy and its one serialisation, both driven by the dataclass fields."""

from __future__ import annotations

import json

from engine.tabella.state import RaceState, Rider, StolenBottle


def _state() -> RaceState:
    thief = Rider(id="a", name="Anna", row=1, pair=2, used=["J"], stolen=StolenBottle(owner="b", reinforced=True))
    return RaceState(
        seed=7,
        options={"mode": "live"},
        table=[[1, 2], [3, 4]],
        table_source="explicit",
        first_row=1,
        riders=[thief, Rider(id="b", name="Bruno", own_bottle="stolen")],
        bots={"a": None, "b": "cautious"},
        rng=42,
    )


def test_a_copied_race_can_be_changed_without_touching_the_original() -> None:
    """Changing every nested part of a copy (riders, bottles, specials, table, options) leaves the race as it was."""
    state = _state()
    before = state.to_data()
    twin = state.copy()
    assert twin == state and type(twin) is RaceState
    twin.riders[0].used.append("G")
    twin.riders[0].stolen.status = "drunk"  # type: ignore[union-attr]
    twin.riders[1].r = 3
    twin.riders.append(Rider(id="c", name="Carla"))
    twin.table[0][0] = 9
    twin.options["mode"] = "plan"
    twin.bots["a"] = "aggressive"
    assert state.to_data() == before


def test_a_dumped_race_loads_back_equal_through_json() -> None:
    """A state written as JSON and read back is the same race, its stolen bottle a bottle again."""
    state = _state()
    again = RaceState.from_data(json.loads(json.dumps(state.to_data())))
    assert again == state
    assert isinstance(again.riders[0].stolen, StolenBottle) and again.riders[1].stolen is None
