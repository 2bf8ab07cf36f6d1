"""/league end to end against the fake Discord: standings worked by hand, pages, profile, admins, export, forget-me.

The races are written as finished into the database (places chosen by hand) and credited through
:func:`bot.services.league.credit_race`, the call the race services make when a race finishes; /race
itself is another branch's work.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import AsyncIterator
from types import SimpleNamespace
from typing import Any

import pytest
from openskill.models import PlackettLuce

from bot.services import league
from bot.services.clock import ManualClock
from bot.services.context import Context
from bot.store import migrate
from bot.store.database import connect
from tests.bot.services.league_fixtures import finished_race, set_result
from tests.fakediscord import DiscordUser


@pytest.fixture
async def services(database_url: str, gregario: Any) -> AsyncIterator[Context]:
    """The bot's league services over a fresh database (as the race runtime would give them)."""
    db = connect(database_url)
    await migrate.upgrade(db)
    ctx = Context(db=db, clock=ManualClock())
    running, gregario.runtime = gregario.runtime, SimpleNamespace(ctx=ctx)
    yield ctx
    gregario.runtime = running  # the bot closes its own runtime when the test ends
    await db.close()


def _ids(*people: DiscordUser) -> dict[str, int]:
    return {p.name: p.id for p in people}


def _lines(text: str) -> list[tuple[int, str, int]]:
    """(rank, name, points) of each standings line a person reads."""
    return [(int(r), n, int(p)) for r, n, p in re.findall(r"\*\*(\d+)\.\*\* (.+?) · (\d+) pts", text)]


def _rating(text: str, name: str) -> str:
    found = re.search(rf"{re.escape(name)} · .*? · rating (-?\d+)", text)
    assert found is not None, text
    return found.group(1)


async def _race(ctx: Context, guild_id: int, places: list[tuple[str, int]], ids: dict[str, int], **kw: Any) -> int:
    race_id = await finished_race(ctx, places, server_id=guild_id, ids=ids, **kw)
    await league.credit_race(ctx, race_id)
    return race_id


async def test_the_standings_show_points_and_ratings_worked_by_hand(
    services: Context, guild: Any, alice: DiscordUser, bob: DiscordUser, carla: DiscordUser
) -> None:
    """Two Flamme Rouge races: Bob 25+18=43, Alice 25... as worked by hand; ratings are openskill's, bots apart."""
    ids = _ids(alice, bob, carla)
    first = [("Alice", 1), ("Bob", 2), ("Carla", 3), ("bot:pack", 4)]
    second = [("Bob", 1), ("Carla", 2), ("Alice", 3)]
    await _race(services, guild.id, first, ids)
    await _race(services, guild.id, second, ids, minutes=1)
    reply = await (await alice.slash("league standings", ruleset="Flamme Rouge")).reply()
    # By hand: Alice 25 + 15 = 40, Bob 18 + 25 = 43, Carla 15 + 18 = 33; the pack 12, listed apart.
    assert _lines(reply.text) == [(1, "Bob", 43), (2, "Alice", 40), (3, "Carla", 33), (1, "Bot (pack)", 12)]
    assert "Bot strategies: **1.** Bot (pack)" in reply.text
    model = PlackettLuce()  # the same two races, rated here with openskill's own API
    a, b, c, pack = (model.rating() for _ in range(4))
    (a,), (b,), (c,), (pack,) = model.rate([[a], [b], [c], [pack]], ranks=[1.0, 2.0, 3.0, 4.0])
    (b,), (c,), (a,) = model.rate([[b], [c], [a]], ranks=[1.0, 2.0, 3.0])
    for name, rating in (("Alice", a), ("Bob", b), ("Carla", c), ("Bot (pack)", pack)):
        assert _rating(reply.text, name) == str(round(1000 + 40 * (rating.mu - 3 * rating.sigma))), (
            "1000 + 40 × ordinal"
        )
    assert reply.buttons == []  # one page


async def test_a_provisional_tabella_result_is_marked_then_corrected(
    services: Context, guild: Any, alice: DiscordUser, bob: DiscordUser, carla: DiscordUser
) -> None:
    """Tabella before its Gazzetta: points marked provisional; after it, Bob and Alice swap and the mark goes."""
    ids = _ids(alice, bob, carla)
    race_id = await _race(
        services, guild.id, [("Alice", 1), ("Bob", 2), ("Carla", 3)], ids, ruleset="tabella", provisional=True
    )
    before = await (await alice.slash("league standings", ruleset="Tabella del Destino")).reply()
    assert _lines(before.text) == [(1, "Alice", 10), (2, "Bob", 8), (3, "Carla", 5)]
    assert "10 pts*" in before.text and "provisional" in before.text and "rating unrated" in before.text
    await set_result(services, race_id, [("Bob", 1), ("Alice", 2), ("Carla", 3)], provisional=False, ids=ids)
    await league.credit_race(services, race_id)  # what publishing the Gazzetta calls
    after = await (await alice.slash("league standings", ruleset="Tabella del Destino")).reply()
    assert _lines(after.text) == [(1, "Bob", 10), (2, "Alice", 8), (3, "Carla", 5)]
    assert "pts*" not in after.text and "unrated" not in after.text


async def test_many_riders_page_with_buttons(services: Context, guild: Any, alice: DiscordUser) -> None:
    """Twelve riders: the first page shows ten, Next page shows the last two."""
    ids = {f"Rider {n:02}": 500 + n for n in range(1, 13)}
    await _race(services, guild.id, [(name, n) for n, name in enumerate(ids, start=1)], ids)
    reply = await (await alice.slash("league standings", ruleset="Flamme Rouge")).reply()
    assert [rank for rank, _, _ in _lines(reply.text)] == list(range(1, 11))
    assert reply.buttons == ["Previous page", "Next page"] and "Page 1 of 2" in reply.text
    await (await alice.click(reply, "Next page")).acknowledged()
    page = next(m for m in alice.read() if m.id == reply.id)
    assert _lines(page.text) == [(11, "Rider 11", 0), (12, "Rider 12", 0)] and "Page 2 of 2" in page.text


async def test_the_rider_profile(services: Context, guild: Any, alice: DiscordUser, bob: DiscordUser) -> None:
    """Bob looks at Alice: two races, one win, two podiums, 43 points, her rating and recent races."""
    ids = _ids(alice, bob)
    await _race(services, guild.id, [("Alice", 1), ("Bob", 2)], ids, stage="Col")
    await _race(services, guild.id, [("Bob", 1), ("Alice", 2)], ids, minutes=1)
    reply = await (await bob.slash("league rider", member=alice)).reply()
    text = reply.text
    assert "Alice in the league" in text
    assert "Races: 2" in text and "Wins: 1" in text and "Podiums: 2" in text and "Points: 43" in text
    assert "Flamme Rouge: " in text and "(2 rated races)" in text
    assert "Best stage: Col (Flamme Rouge): average place 1.0 over 1 race" in text and "1 races" not in text
    default = "Avenue Corso Paseo"  # the rule system's own stage, by its name (never "default")
    assert text.index(f"{default} · place 2") < text.index("Col · place 1")  # the latest first
    none = await (await bob.slash("league rider", member=bob, channel=None)).reply()
    assert "Bob in the league" in none.text


async def test_only_admins_run_seasons_and_points(
    services: Context, guild: Any, alice: DiscordUser, bob: DiscordUser
) -> None:
    """Bob lacks Manage Server and is refused; Alice ends season 1, sets Flamme Rouge points, and starts season 2."""
    guild.members[bob.id].permissions = "0"
    await _race(services, guild.id, [("Alice", 1), ("Bob", 2)], _ids(alice, bob))
    refused = await (await bob.slash("league season end")).reply()
    assert "Manage Server" in refused.text and refused.ephemeral_for
    assert "Season 1 of the league is over" in (await (await alice.slash("league season end")).reply()).text
    again = await (await alice.slash("league season end")).reply()
    assert "No season is open" in again.text
    bad = await (await alice.slash("league points", ruleset="Flamme Rouge", table="lots")).reply()
    assert "isn't a points table" in bad.text
    good = await (await alice.slash("league points", ruleset="Flamme Rouge", table="3, 2, 1")).reply()
    assert "3, 2, 1, then 0" in good.text
    assert "Season 2" in (await (await alice.slash("league season start")).reply()).text
    race_id = await _race(services, guild.id, [("Alice", 1), ("Bob", 2)], _ids(alice, bob), minutes=5)
    assert sorted((await league.points_for_race(services, race_id)).values()) == [2, 3]
    old = await (await alice.slash("league standings", ruleset="Flamme Rouge", season=1)).reply()
    assert "season 1 (over)" in old.text and _lines(old.text) == [(1, "Alice", 25), (2, "Bob", 18)]


async def _export(person: DiscordUser) -> list[dict[str, str]]:
    reply = await (await person.slash("league export")).reply()
    (attachment,) = reply.attachments
    assert attachment.filename == "league-season-1.csv"
    return list(csv.DictReader(io.StringIO((await person.download(attachment.url)).decode("utf-8"))))


async def test_the_export_matches_the_standings_and_forget_me_removes_the_name(
    services: Context, guild: Any, alice: DiscordUser, bob: DiscordUser, carla: DiscordUser
) -> None:
    """The CSV has the standings' ranks, names and points; after Alice's forget-me nothing names her."""
    ids = _ids(alice, bob, carla)
    await _race(services, guild.id, [("Alice", 1), ("Bob", 2), ("Carla", 3), ("bot:pack", 4)], ids)
    await _race(services, guild.id, [("Carla", 1), ("Alice", 2), ("Bob", 3)], ids, minutes=1)
    shown = await (await bob.slash("league standings", ruleset="Flamme Rouge")).reply()
    rows = await _export(bob)
    as_csv = [
        (int(r["rank"]), r["name"] if r["group"] == "members" else f"Bot ({r['name']})", int(r["points"])) for r in rows
    ]
    assert as_csv == _lines(shown.text) and len(as_csv) == 4
    assert {r["rule_system"] for r in rows} == {"flamme_rouge"}

    reply = await (await alice.slash("league forget-me")).reply()
    assert reply.ephemeral_for and "Past race posts and attached race records are not edited" in reply.text
    standings = await (await bob.slash("league standings", ruleset="Flamme Rouge")).reply()
    assert "Alice" not in standings.text and "A forgotten rider · 43 pts" in standings.text
    profile = await (await bob.slash("league rider", member=alice)).reply()
    assert "has no league races" in profile.text
    rows = await _export(bob)
    assert all("Alice" not in value for row in rows for value in row.values())
    assert [r["points"] for r in rows if r["group"] == "members"] == [
        "43",
        "40",
        "33",
    ]  # Alice 25+18, Carla 15+25, Bob 18+15
    assert "nothing under your name" in (await (await alice.slash("league forget-me")).reply()).text


async def test_standings_of_a_quiet_rule_system_say_how_to_start(services: Context, alice: DiscordUser) -> None:
    """No race yet: /league standings says how the standings start, and export says there is nothing."""
    reply = await (await alice.slash("league standings", ruleset="Mind Cycling")).reply()
    assert "No league races in Mind Cycling" in reply.text and reply.ephemeral_for
    assert "no league races yet" in (await (await alice.slash("league export")).reply()).text


async def test_the_solo_board_of_a_stage(services: Context, guild: Any, alice: DiscordUser, bob: DiscordUser) -> None:
    """Alice and Bob ride Col alone: the board lists Bob's 10 steps before Alice's 12; another stage has none."""
    ids = _ids(alice, bob)
    await _race(services, guild.id, [("Alice", 1)], ids, stage="Col", steps=12)
    await _race(services, guild.id, [("Bob", 1)], ids, stage="Col", steps=10, minutes=1)
    reply = await (await alice.slash("league solo", ruleset="Flamme Rouge", stage="Col")).reply()
    assert "Best solo rides · Col (Flamme Rouge)" in reply.text
    assert reply.text.index("**1.** Bob · 10 steps") < reply.text.index("**2.** Alice · 12 steps")
    other = await (await alice.slash("league solo", ruleset="Flamme Rouge")).reply()
    assert "Nobody has ridden default" in other.text and other.ephemeral_for
