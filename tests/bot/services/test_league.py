"""The league: crediting races, points by hand, tie-breaks, ratings, provisional results, forget-me."""

from __future__ import annotations

import asyncio
import csv
import io
import math
from typing import Any

import pytest
from openskill.models import PlackettLuce
from sqlalchemy import select
from sqlmodel import col

from bot.services import league, league_standings
from bot.services.league_points import DEFAULTS, PointsTable, parse_table
from bot.services.outcomes import Refusal
from bot.store.league_tables import LeagueResult, LeagueSeason, LeagueTally
from tests.bot.services.conftest import Harness
from tests.bot.services.league_fixtures import SERVER, finished_race, set_result, user_id

# Three Flamme Rouge races, places chosen so the tie-breaks matter (points 25 18 15 12 10 8 6 4 2 1):
RACE_A = [("Anna", 1), ("Ben", 2), ("Dan", 3), ("Cleo", 4), ("Eve", 5), ("bot:pack", 6)]
RACE_B = [("Eve", 1), ("Cleo", 2), ("Ben", 3), ("bot:pack", 4), ("Fay", 5), ("Anna", 6)]
RACE_C = [("bot:pack", 1), ("Gus", 2), ("Dan", 3)]
# By hand: Eve 10+25=35; Anna 25+8=33 (one win); Ben 18+15=33 (no win); Cleo 12+18=30 (one second);
# Dan 15+15=30 (no second); Gus 18; Fay 10. The pack (a bot strategy, listed apart): 8+12+25=45.
EXPECTED = [
    ("Eve", 35, 1),
    ("Anna", 33, 2),
    ("Ben", 33, 3),
    ("Cleo", 30, 4),
    ("Dan", 30, 5),
    ("Gus", 18, 6),
    ("Fay", 10, 7),
]


async def _three_races(harness: Harness) -> list[int]:
    assert harness.ctx is not None
    ids = []
    for n, places in enumerate((RACE_A, RACE_B, RACE_C)):
        race_id = await finished_race(harness.ctx, places, minutes=n)
        credit = await league.credit_race(harness.ctx, race_id)
        assert credit.status == "credited" and credit.season == 1
        ids.append(race_id)
    return ids


@pytest.mark.rules("R-LG-1")
async def test_the_standings_add_up_by_hand_with_the_tie_breaks(harness: Harness) -> None:
    """Three races: points add up as worked by hand; Anna beats Ben on wins, Cleo beats Dan on second places."""
    assert harness.ctx is not None
    await _three_races(harness)
    table = await league_standings.standings(harness.ctx, SERVER, "flamme_rouge")
    assert table.season == 1 and table.season_open
    assert [(line.name, line.points, line.rank) for line in table.members] == EXPECTED
    assert [(line.name, line.points, line.races, line.wins) for line in table.bots] == [("pack", 45, 3, 1)]
    anna = table.members[1]
    assert anna.places == (1, 0, 0, 0, 0, 1) and anna.races == 2


async def test_ratings_follow_openskill_on_the_same_race(harness: Harness) -> None:
    """Six newcomers race once: the ratings are openskill's own, fall with the place, and the trend shows it."""
    assert harness.ctx is not None
    race_id = await finished_race(harness.ctx, RACE_A)
    await league.credit_race(harness.ctx, race_id)
    table = await league_standings.standings(harness.ctx, SERVER, "flamme_rouge")
    by_name = {line.name: line for line in [*table.members, *table.bots]}
    model = PlackettLuce()  # computed here, independently of the league's code
    rated = model.rate([[model.rating()] for _ in RACE_A], ranks=[float(p) for _, p in RACE_A])
    for (who, _), (after,) in zip(RACE_A, rated, strict=True):
        line = by_name["pack" if who == "bot:pack" else who]
        assert line.rating == pytest.approx(after.mu - 3 * after.sigma)
        assert line.trend == pytest.approx(after.mu - 3 * after.sigma)  # from 0, a newcomer's shown rating
    shown = [by_name[n].rating for n in ("Anna", "Ben", "Dan", "Cleo", "Eve", "pack")]
    assert shown == sorted(shown, reverse=True) and len(set(shown)) == 6  # type: ignore[type-var]
    assert by_name["Anna"].trend > 0 > by_name["pack"].trend  # type: ignore[operator]


async def test_a_two_member_race_moves_mu_as_plackett_luce_says(harness: Harness) -> None:
    """Anna beats Ben once: each mu moves by sigma'^2 / (2c), worked from openskill's documented model."""
    assert harness.ctx is not None
    race_id = await finished_race(harness.ctx, [("Anna", 1), ("Ben", 2)])
    await league.credit_race(harness.ctx, race_id)
    sigma2 = (25 / 3) ** 2 + (25 / 300) ** 2  # the prior widened by tau
    c = math.sqrt(2 * (sigma2 + (25 / 6) ** 2))  # beta = 25/6
    step = sigma2 / c * 0.5  # the winner's chance was one half
    profile = await league_standings.profile(harness.ctx, SERVER, user_id("Anna"))
    assert profile is not None and profile.ratings
    anna = profile.ratings[0]
    async with harness.ctx.db.sessions() as session:
        from bot.store.league_tables import LeagueRating

        rows = {r.player: r for r in (await session.execute(select(LeagueRating))).scalars()}
    assert rows[f"u{user_id('Anna')}"].mu == pytest.approx(25 + step)
    assert rows[f"u{user_id('Ben')}"].mu == pytest.approx(25 - step)
    assert anna.races == 1 and anna.trend == pytest.approx(anna.rating)


async def test_crediting_twice_changes_nothing(harness: Harness) -> None:
    """The finish path and a retry both credit the race: the points and the rating move once."""
    assert harness.ctx is not None
    race_id = await finished_race(harness.ctx, RACE_C)
    first = await league.credit_race(harness.ctx, race_id)
    again = await league.credit_race(harness.ctx, race_id)
    assert again.status == "unchanged" and again.lines == first.lines
    assert await league.points_for_race(harness.ctx, race_id) == {
        "bot0": 25,
        f"u{user_id('Gus')}": 18,
        f"u{user_id('Dan')}": 15,
    }
    table = await league_standings.standings(harness.ctx, SERVER, "flamme_rouge")
    assert all(line.races == 1 for line in table.members)


@pytest.mark.rules("R-LG-2")
async def test_a_provisional_tabella_result_is_corrected_when_the_gazzetta_is_out(harness: Harness) -> None:
    """Tabella's provisional result counts as provisional; the Gazzetta swaps Anna and Ben; the change is returned."""
    assert harness.ctx is not None
    race_id = await finished_race(
        harness.ctx, [("Anna", 1), ("Ben", 2), ("Cleo", 3)], ruleset="tabella", provisional=True
    )
    credit = await league.credit_race(harness.ctx, race_id)
    assert credit.provisional and [(line.name, line.points) for line in credit.lines] == [
        ("Anna", 10),
        ("Ben", 8),
        ("Cleo", 5),
    ]
    table = await league_standings.standings(harness.ctx, SERVER, "tabella")
    assert all(line.provisional and line.rating is None for line in table.members)  # not rated yet
    await set_result(harness.ctx, race_id, [("Ben", 1), ("Anna", 2), ("Cleo", 3)], provisional=False)
    corrected = await league.credit_race(harness.ctx, race_id)
    assert corrected.status == "corrected" and not corrected.provisional
    assert sorted((c.name, c.points_before, c.points_after) for c in corrected.changes) == [
        ("Anna", 10, 8),
        ("Ben", 8, 10),
    ]
    assert sorted((c.name, c.place_after) for c in await league.corrections(harness.ctx, race_id)) == [
        ("Anna", 2),
        ("Ben", 1),
    ]
    table = await league_standings.standings(harness.ctx, SERVER, "tabella")
    assert [(line.name, line.points, line.provisional) for line in table.members] == [
        ("Ben", 10, False),
        ("Anna", 8, False),
        ("Cleo", 5, False),
    ]
    assert table.members[0].rating is not None and table.members[0].rating > table.members[1].rating  # type: ignore[operator]
    assert (await league.credit_race(harness.ctx, race_id)).status == "unchanged"


async def test_tabella_gives_one_point_from_sixth_down(harness: Harness) -> None:
    """Seven riders in a Tabella race: 10 8 5 3 2 1, and the seventh still scores 1."""
    assert harness.ctx is not None
    names = ["Anna", "Ben", "Cleo", "Dan", "Eve", "Fay", "Gus"]
    race_id = await finished_race(harness.ctx, [(n, i + 1) for i, n in enumerate(names)], ruleset="tabella")
    await league.credit_race(harness.ctx, race_id)
    points = await league.points_for_race(harness.ctx, race_id)
    assert [points[f"u{user_id(n)}"] for n in names] == [10, 8, 5, 3, 2, 1, 1]


def test_mind_cycling_scores_its_own_standings_twelve_down_to_one() -> None:
    """Mind Cycling's standings already put medals first: its places score 12, 11, ... 1, then nothing."""
    table = DEFAULTS["mind_cycling"]
    assert [table.for_place(p) for p in (1, 2, 12, 13)] == [12, 11, 1, 0]
    assert [DEFAULTS["wyscig"].for_place(p) for p in (1, 10, 11)] == [25, 1, 0]


@pytest.mark.rules("R-LG-5")
async def test_a_server_points_table_counts_from_the_next_race(harness: Harness) -> None:
    """The admins set 3, 2, 1 for Flamme Rouge: the next race scores by it; a bad table is read as nothing."""
    assert harness.ctx is not None
    await finished_race(harness.ctx, [("Anna", 1), ("Ben", 2)])
    await league.set_points(harness.ctx, SERVER, "flamme_rouge", parse_table("3, 2, 1"))
    race_id = await finished_race(harness.ctx, [("Anna", 1), ("Ben", 2)], minutes=1)
    await league.credit_race(harness.ctx, race_id)
    assert sorted((await league.points_for_race(harness.ctx, race_id)).values()) == [2, 3]
    assert parse_table("10 8 5; 1") == PointsTable((10, 8, 5), 1)
    assert parse_table("ten") is None and parse_table("") is None and parse_table("-1") is None
    reset = await league.set_points(harness.ctx, SERVER, "flamme_rouge", None)
    assert reset == DEFAULTS["flamme_rouge"]


async def test_seasons_open_and_end(harness: Harness) -> None:
    """The first race opens season 1; after the admins end it, the next race opens season 2."""
    assert harness.ctx is not None
    first = await finished_race(harness.ctx, RACE_C)
    assert (await league.credit_race(harness.ctx, first)).season == 1
    with pytest.raises(Refusal) as refused:
        await league.start_season(harness.ctx, SERVER)
    assert refused.value.key == "league.season_already_open"
    assert await league.end_season(harness.ctx, SERVER) == 1
    with pytest.raises(Refusal):
        await league.end_season(harness.ctx, SERVER)
    second = await finished_race(harness.ctx, RACE_C, minutes=1)
    assert (await league.credit_race(harness.ctx, second)).season == 2
    old = await league_standings.standings(harness.ctx, SERVER, "flamme_rouge", season=1)
    assert not old.season_open and [line.points for line in old.members] == [18, 15]
    with pytest.raises(Refusal):
        await league_standings.standings(harness.ctx, SERVER, "flamme_rouge", season=9)


@pytest.mark.rules("R-LG-4")
async def test_a_solo_ride_earns_nothing_but_a_place_on_the_stage_board(harness: Harness) -> None:
    """Anna rides alone twice: no points, no rating, and her faster ride is the stage's best."""
    assert harness.ctx is not None
    slow = await finished_race(harness.ctx, [("Anna", 1)], stage="Col", steps=14)
    fast = await finished_race(harness.ctx, [("Anna", 1)], stage="Col", steps=11, minutes=1)
    assert (await league.credit_race(harness.ctx, slow)).status == "solo"
    await league.credit_race(harness.ctx, fast)
    assert await league.points_for_race(harness.ctx, fast) == {}
    (best,) = await league.solo_bests(harness.ctx, SERVER, "flamme_rouge", "Col")
    assert (best.name, best.steps, best.race_id) == ("Anna", 11, fast)
    assert await league_standings.profile(harness.ctx, SERVER, user_id("Anna")) is None


@pytest.mark.rules("R-LG-6")
async def test_forget_me_removes_the_name_everywhere(harness: Harness) -> None:
    """Ben forgets himself: standings, profile, solo board and export no longer name him; his points stay."""
    assert harness.ctx is not None
    await _three_races(harness)
    solo = await finished_race(harness.ctx, [("Ben", 1)], stage="Col", minutes=9)
    await league.credit_race(harness.ctx, solo)
    assert await league.forget_member(harness.ctx, SERVER, user_id("Ben")) > 0
    table = await league_standings.standings(harness.ctx, SERVER, "flamme_rouge")
    names = [line.name for line in table.members]
    assert "Ben" not in names and names.count(None) == 1
    forgotten = table.members[2]
    assert forgotten.kind == "forgotten" and forgotten.points == 33 and forgotten.rating is not None
    assert await league_standings.profile(harness.ctx, SERVER, user_id("Ben")) is None
    assert [b.name for b in await league.solo_bests(harness.ctx, SERVER, "flamme_rouge", "Col")] == [None]
    async with harness.ctx.db.sessions() as session:
        players = set((await session.execute(select(col(LeagueResult.player)))).scalars())
    assert f"u{user_id('Ben')}" not in players
    assert await league.forget_member(harness.ctx, SERVER, user_id("Ben")) == 0


async def test_members_of_another_server_are_not_in_the_standings(harness: Harness) -> None:
    """A race on another server opens that server's own season 1 and stays out of ours."""
    assert harness.ctx is not None
    await _three_races(harness)
    other = await finished_race(harness.ctx, [("Anna", 1), ("Hal", 2)], server_id=SERVER + 1)
    assert (await league.credit_race(harness.ctx, other)).season == 1
    table = await league_standings.standings(harness.ctx, SERVER, "flamme_rouge")
    assert "Hal" not in [line.name for line in table.members]
    async with harness.ctx.db.sessions() as session:
        seasons = (await session.execute(select(LeagueSeason))).scalars().all()
    assert sorted((s.server_id, s.number) for s in seasons) == [(SERVER, 1), (SERVER + 1, 1)]


async def test_the_profile_sums_a_riders_league(harness: Harness) -> None:
    """Anna's profile: two races, one win, one podium, 33 points, her best stage and latest race first."""
    assert harness.ctx is not None
    await _three_races(harness)
    profile = await league_standings.profile(harness.ctx, SERVER, user_id("Anna"))
    assert profile is not None
    assert (profile.name, profile.races, profile.wins, profile.podiums, profile.points) == ("Anna", 2, 1, 1, 33)
    assert [r.place for r in profile.recent] == [6, 1]
    assert profile.best_stage == ("flamme_rouge", "default", 3.5, 2)
    assert [r.ruleset for r in profile.ratings] == ["flamme_rouge"] and profile.ratings[0].races == 2


@pytest.mark.rules("R-LG-1")
def test_equal_riders_share_their_rank() -> None:
    """Two riders equal on points and on every place share the rank; the next one is third."""
    lines = [
        {
            "player": p,
            "name": n,
            "races": 1,
            "points": pts,
            "places": pl,
            "provisional": False,
            "rating": None,
            "trend": None,
        }
        for p, n, pts, pl in (("u1", "Zoe", 10, (0, 1)), ("u2", "Abe", 10, (0, 1)), ("u3", "Max", 5, (0, 0, 1)))
    ]
    ranked = league_standings.rank(lines)
    assert [(line.name, line.rank) for line in ranked] == [("Abe", 1), ("Zoe", 1), ("Max", 3)]


async def test_a_race_finished_through_the_services_is_credited(harness: Harness) -> None:
    """Two members and a bot finish a Flamme Rouge race: each is credited the points of their place."""
    assert harness.ctx is not None
    race_id, _ = await harness.open_and_start("flamme_rouge", humans=2, bots=1)
    await harness.play_out(race_id)
    async with harness.ctx.db.sessions() as session:
        from bot.store.tables import ResultRow

        result = await session.get(ResultRow, race_id)
    assert result is not None
    expected = {s["entrant"]: (25, 18, 15)[s["place"] - 1] for s in result.standings}
    assert await league.points_for_race(harness.ctx, race_id) == expected


async def test_a_tabella_race_is_provisional_until_its_gazzetta(harness: Harness) -> None:
    """A real Tabella race with a Gazzetta: provisional and unrated at the finish, final and rated once published."""
    assert harness.ctx is not None and harness.scheduler is not None
    from datetime import UTC, datetime

    race_id, _ = await harness.open_and_start("tabella", humans=3, options={"gazzetta_probability": 1.0})
    await harness.play_out(race_id)
    async with harness.ctx.db.sessions() as session:
        rows = (await session.execute(select(LeagueResult).where(col(LeagueResult.race_id) == race_id))).scalars().all()
    assert len(rows) == 3 and all(r.provisional and not r.rated for r in rows)
    harness.clock.set(datetime(2026, 5, 2, 9, 0, tzinfo=UTC))
    await harness.scheduler.run_due()
    async with harness.ctx.db.sessions() as session:
        rows = (await session.execute(select(LeagueResult).where(col(LeagueResult.race_id) == race_id))).scalars().all()
    assert all(not r.provisional and r.rated for r in rows)
    assert {r.points for r in rows} <= {10, 8, 5, 3, 2, 1}


async def test_the_export_matches_the_standings(harness: Harness) -> None:
    """The season's CSV has one line per rider, with the same ranks, names and points as the standings."""
    assert harness.ctx is not None
    await _three_races(harness)
    rows = await league_standings.export_rows(harness.ctx, SERVER, None)
    text = league.export_csv(rows)
    read = list(csv.DictReader(io.StringIO(text)))
    members = [(r["rank"], r["name"], r["points"]) for r in read if r["group"] == "members"]
    assert members == [(str(rank), name, str(points)) for name, points, rank in EXPECTED]
    assert [(r["name"], r["points"]) for r in read if r["group"] == "bots"] == [("pack", "45")]


async def test_the_tallies_always_equal_a_recount_of_the_results(harness: Harness) -> None:
    """After credits, a Gazzetta correction and a forget-me, every tally equals its results counted afresh."""
    assert harness.ctx is not None
    await _three_races(harness)
    race_id = await finished_race(
        harness.ctx, [("Anna", 1), ("Ben", 2), ("Cleo", 3)], ruleset="tabella", provisional=True
    )
    await league.credit_race(harness.ctx, race_id)
    await set_result(harness.ctx, race_id, [("Cleo", 1), ("Anna", 2), ("Ben", 3)], provisional=False)
    await league.credit_race(harness.ctx, race_id)
    await league.forget_member(harness.ctx, SERVER, user_id("Anna"))
    async with harness.ctx.db.sessions() as session:
        results = (await session.execute(select(LeagueResult))).scalars().all()
        tallies = (await session.execute(select(LeagueTally))).scalars().all()
    recount: dict[tuple[int, str, str], dict[str, Any]] = {}
    for r in results:
        t = recount.setdefault(
            (r.season_id, r.ruleset, r.player), {"races": 0, "points": 0, "places": {}, "name": None}
        )
        t["races"] += 1
        t["points"] += r.points
        t["places"][r.place] = t["places"].get(r.place, 0) + 1
        t["name"] = r.name
    kept = {
        (t.season_id, t.ruleset, t.player): {
            "races": t.races,
            "points": t.points,
            "places": {p: n for p, n in enumerate(t.places, start=1) if n},
            "name": t.name,
        }
        for t in tallies
    }
    assert kept == recount and all(t.provisional == 0 for t in tallies)


@pytest.mark.rules("R-LG-3")
async def test_a_strategy_seated_twice_is_rated_once(harness: Harness) -> None:
    """Two pack bots and Anna: the pack earns both seats' points and is rated once, as the winner it was."""
    assert harness.ctx is not None
    race_id = await finished_race(harness.ctx, [("bot:pack", 1), ("Anna", 2), ("bot:pack", 3)])
    await league.credit_race(harness.ctx, race_id)
    table = await league_standings.standings(harness.ctx, SERVER, "flamme_rouge")
    (pack,) = table.bots
    assert (pack.points, pack.races, pack.places) == (25 + 15, 2, (1, 0, 1))
    model = PlackettLuce()
    (winner,), (_,) = model.rate([[model.rating()], [model.rating()]], ranks=[1.0, 2.0])
    assert pack.rating == pytest.approx(winner.mu - 3 * winner.sigma)


async def test_a_race_a_crash_left_uncredited_is_credited_at_start_up(harness: Harness) -> None:
    """The process dies between the finish and the credit: the next start credits the race, once."""
    assert harness.ctx is not None and harness.scheduler is not None
    race_id = await finished_race(harness.ctx, RACE_C)  # finished, never credited
    solo = await finished_race(harness.ctx, [("Anna", 1)], stage="Col", minutes=1)
    await harness.scheduler.start_up()
    assert await league.points_for_race(harness.ctx, race_id) == {
        "bot0": 25,
        f"u{user_id('Gus')}": 18,
        f"u{user_id('Dan')}": 15,
    }
    assert await league.points_for_race(harness.ctx, solo) == {}
    assert await league.credit_missed(harness.ctx) == []  # nothing left to credit


async def test_a_publication_a_crash_left_provisional_is_corrected_at_start_up(harness: Harness) -> None:
    """The Gazzetta's result was stored but the process died before the league heard: the next start corrects it."""
    assert harness.ctx is not None and harness.scheduler is not None
    race_id = await finished_race(harness.ctx, [("Anna", 1), ("Ben", 2)], ruleset="tabella", provisional=True)
    await league.credit_race(harness.ctx, race_id)
    await set_result(harness.ctx, race_id, [("Ben", 1), ("Anna", 2)], provisional=False)
    (credit,) = await league.credit_missed(harness.ctx)
    assert credit.status == "corrected" and len(credit.changes) == 2


async def test_two_processes_crediting_the_same_race_at_once_credit_it_once(harness: Harness) -> None:
    """The finish path and a start-up recovery credit one race at the same moment: points and ratings move once."""
    assert harness.ctx is not None
    first = await finished_race(harness.ctx, RACE_A)
    second = await finished_race(harness.ctx, RACE_B, minutes=1)
    credits = await asyncio.gather(
        league.credit_race(harness.ctx, first),
        league.credit_race(harness.ctx, first),
        league.credit_race(harness.ctx, second),
        league.credit_race(harness.ctx, second),
    )
    assert sorted(c.status for c in credits) == ["credited", "credited", "unchanged", "unchanged"]
    table = await league_standings.standings(harness.ctx, SERVER, "flamme_rouge")
    anna = next(line for line in table.members if line.name == "Anna")
    assert (anna.races, anna.points) == (2, 33)
    async with harness.ctx.db.sessions() as session:
        from bot.store.league_tables import LeagueRating

        ratings = {r.player: r.races for r in (await session.execute(select(LeagueRating))).scalars()}
        seasons = (await session.execute(select(LeagueSeason))).scalars().all()
    assert ratings[f"u{user_id('Anna')}"] == 2 and ratings[f"u{user_id('Dan')}"] == 1
    assert len(seasons) == 1
