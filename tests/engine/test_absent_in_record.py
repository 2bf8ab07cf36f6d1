"""A hand-written record may say only that a player was absent (``{"auto": true}``): replay completes the
order with the rules' automatic order, exactly as the bot writes it in full."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from engine.record import RecordError, parse_record
from tests.logged import logged_replay


def _replays_alike(short: dict[str, Any], full: dict[str, Any]) -> list[list[Any]]:
    """Replay both records; same events, same public state, same standings. Returns the events."""
    a = logged_replay(parse_record(short))
    b = logged_replay(parse_record(full))
    events_a = [[e.model_dump(mode="json") for e in step] for step in a.events]
    events_b = [[e.model_dump(mode="json") for e in step] for step in b.events]
    assert events_a == events_b
    assert a.ruleset.public_view(a.state) == b.ruleset.public_view(b.state)
    assert a.result() == b.result()
    return events_a


def _with_step(record: dict[str, Any], n: int, who: str, order: Any) -> dict[str, Any]:
    changed = copy.deepcopy(record)
    changed["steps"][n - 1][who] = order
    return changed


FLAMME = {
    "format": "gregario.race/1",
    "ruleset": "flamme_rouge",
    "seed": 2026,
    "stage": {"profile": "S5 _16 F5", "name": "Sprint lane"},
    "options": {"finish": "first"},
    "entrants": [{"id": "anna", "name": "Anna"}, {"id": "ben", "name": "Ben"}],
    "setup": {
        "riders": {
            "black-r": {"square": 10, "deck": [5, 3, 4, 6, 7, 3, 4, 5]},
            "black-s": {"square": 8, "deck": [3, 2, 2, 4, 5, 2, 3, 4]},
            "blue-r": {"square": 7, "deck": [4, 3, 3, 5, 6, 4, 3, 3]},
            "blue-s": {"square": 9, "deck": [5, 2, 3, 4, 9, 2, 3, 4]},
        }
    },
    "steps": [{"anna": "r5 s3", "ben": {"first": "s", "cards": {"s": 5, "r": 4}}}],
}


def test_flamme_rouge_absent_player_plays_the_lowest_card_of_each_hand() -> None:
    """Anna (black) is absent: her Rouleur draws 5 3 4 6 and plays 3, her Sprinteur draws 3 2 2 4 and plays 2."""
    short = _with_step(FLAMME, 1, "anna", {"auto": True})
    full = _with_step(FLAMME, 1, "anna", {"cards": {"r": 3, "s": 2}, "auto": True})
    events = _replays_alike(short, full)
    moves = {e["data"]["rider"]: e["data"]["value"] for e in events[0] if e["kind"] == "fr.move"}
    assert moves["black-r"] == 3 and moves["black-s"] == 2


def test_flamme_rouge_absent_player_keeps_the_card_already_chosen() -> None:
    """Anna chose 6 for her Rouleur, then missed the deadline: the Sprinteur gets its lowest card, 2."""
    short = _with_step(FLAMME, 1, "anna", {"cards": {"r": 6}, "auto": True})
    full = _with_step(FLAMME, 1, "anna", {"cards": {"r": 6, "s": 2}, "auto": True})
    events = _replays_alike(short, full)
    moves = {e["data"]["rider"]: e["data"]["value"] for e in events[0] if e["kind"] == "fr.move"}
    assert moves["black-r"] == 6 and moves["black-s"] == 2


TABELLA_LIVE = {
    "format": "gregario.race/1",
    "ruleset": "tabella",
    "seed": 7,
    "stage": {"table": "classic", "rows": 1},
    "options": {"mode": "live", "gazzetta_delay": "immediate"},
    "entrants": [{"id": "anna", "name": "Anna"}, {"id": "luca", "name": "Luca"}],
    "steps": [
        {"anna": {"start": "A"}, "luca": {"start": "B"}},
        {"anna": {"m1": "3R"}, "luca": {"m1": "2S"}},
    ],
}


def test_tabella_live_absent_player_gets_cavaliera_then_1R() -> None:
    """Luca is absent twice in live mode: his start is Cavaliera and his first move 1R (§4.1), at the deadline."""
    short = _with_step(_with_step(TABELLA_LIVE, 1, "luca", {"auto": True}), 2, "luca", {"auto": True})
    full = _with_step(
        _with_step(TABELLA_LIVE, 1, "luca", {"start": "C", "auto": True}),
        2,
        "luca",
        {"m1": {"effort": 1, "dir": "R"}, "auto": True},
    )
    _replays_alike(short, full)
    # Not the same as what he would have sent himself: the automatic start is really applied.
    other = _with_step(TABELLA_LIVE, 1, "luca", {"auto": True})
    race = logged_replay(parse_record(other))
    sent = logged_replay(parse_record(TABELLA_LIVE))
    assert race.ruleset.public_view(race.state) != sent.ruleset.public_view(sent.state)


def test_tabella_live_absent_player_keeps_a_received_time() -> None:
    """An automatic order written with its deadline time replays like the complete one with that time."""
    when = "2026-11-29T21:00:00Z"
    short = _with_step(TABELLA_LIVE, 1, "luca", {"auto": True, "received_at": when})
    full = _with_step(TABELLA_LIVE, 1, "luca", {"start": "C", "auto": True, "received_at": when})
    _replays_alike(short, full)


WYSCIG = {
    "format": "gregario.race/1",
    "ruleset": "wyscig",
    "seed": 2026,
    "stage": {"deck": "itemised_108", "stages": 1},
    "options": {},
    "entrants": [{"id": "anna", "name": "Anna"}, {"id": "bob", "name": "Bob"}, {"id": "carla", "name": "Carla"}],
    "setup": {
        "seats": ["anna", "bob", "carla"],
        "leader": "anna",
        "hands": {"anna": [45, 47, 44], "bob": [46, 42, "descent"], "carla": [48, 41, "climb"]},
        "pile": [43, 50, 40],
    },
    "steps": [{"anna": "play 47"}, {"bob": "play 46 +1"}, {"carla": {"card": 48, "descents": 0}}],
}


def test_wyscig_absent_player_plays_the_highest_card_when_none_avoids_a_penalty() -> None:
    """Bob is absent behind a 47 with Carla's climb in force (no tolerance): neither 46 nor 42 avoids a
    penalty, so he plays his highest, 46, without descent, and takes 1 minute."""
    short = _with_step(WYSCIG, 2, "bob", {"auto": True})
    full = _with_step(WYSCIG, 2, "bob", {"card": 46, "descents": 0, "auto": True})
    events = _replays_alike(short, full)
    bob = events[1][0]
    assert (bob["kind"], bob["data"]["card"], bob["data"]["descents"], bob["data"]["minutes"]) == (
        "wk.penalty",
        46,
        0,
        1,
    )


def test_wyscig_absent_player_keeps_the_descents_chosen() -> None:
    """Bob put one descent down before the deadline: 42+2 = 44 is still short of 47, 46+2 = 48 is not, so
    the automatic card is 46; on the climb he stays in the peloton without a minute."""
    short = _with_step(WYSCIG, 2, "bob", {"descents": 1, "auto": True})
    full = _with_step(WYSCIG, 2, "bob", {"card": 46, "descents": 1, "auto": True})
    events = _replays_alike(short, full)
    bob = events[1][0]
    assert (bob["data"]["card"], bob["data"]["descents"], bob["data"]["minutes"]) == (46, 1, 0)


MIND = {
    "format": "gregario.race/1",
    "ruleset": "mind_cycling",
    "seed": 20261129,
    "stage": {
        "course": ["plains", "sprint", "mountain"],
        "strip_length": 3,
        "rocks": [[8, 2]],
        "supply_spaces": [[5, 3]],
    },
    "options": {"team_size": 3, "placement_order": ["anna", "bot1"]},
    "entrants": [{"id": "anna", "name": "Anna"}, {"id": "bot1", "name": "Steady", "bot": "steady"}],
    "steps": [
        {"anna": "#3"},
        {"bot1": {"cyclist": 3, "by": "bot"}},
        {"anna": "#1"},
        {"bot1": {"cyclist": 1, "by": "bot"}},
        {"anna": "#2"},
        {"bot1": {"cyclist": 2, "by": "bot"}},
        {
            "anna": "#3 attack\n#1 wheel\n#2 move 4 lane=2",
            "bot1": {
                "intents": {"1": {"action": "move"}, "2": {"action": "wheel"}, "3": {"action": "move"}},
                "by": "bot",
            },
        },
    ],
}


def test_mind_cycling_absent_player_moves_every_cyclist_normally() -> None:
    """Anna is absent for the first intents: each of her cyclists makes a normal move (D24)."""
    short = _with_step(MIND, 7, "anna", {"auto": True})
    full = _with_step(
        MIND,
        7,
        "anna",
        {"intents": {"1": {"action": "move"}, "2": {"action": "move"}, "3": {"action": "move"}}, "auto": True},
    )
    _replays_alike(short, full)


def test_mind_cycling_absent_player_placement_is_automatic() -> None:
    """Anna is absent for her first placement: the automatic placement is played, and the race goes on."""
    short = _with_step(MIND, 1, "anna", {"auto": True})
    race = logged_replay(parse_record({**short, "steps": short["steps"][:1]}))
    assert len(race.events) == 1


@pytest.mark.parametrize("record", [FLAMME, TABELLA_LIVE, WYSCIG], ids=["flamme_rouge", "tabella", "wyscig"])
def test_a_missing_order_is_still_an_error(record: dict[str, Any]) -> None:
    """Leaving a player out of a step is not the same as marking them absent: the replay refuses it."""
    changed = copy.deepcopy(record)
    first = changed["steps"][0]
    first.pop(next(iter(first)))
    with pytest.raises(RecordError, match="no order from"):
        logged_replay(parse_record(changed))
