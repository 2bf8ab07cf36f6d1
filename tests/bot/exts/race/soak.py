"""The crash-safety soak: a real `gregario run` process, killed again and again, owes nothing at the end.

Races of the four rule systems run against the fake Discord with people ordering at random moments on
their DM panels (a random player: any enabled button or select option, Change now and then, sometimes
nothing until the deadline) and bots. Meanwhile the process gets SIGKILL, at random or at the moments
that matter, and is started again on the same database each time:

- ``post``: a channel message was created, the bot never read its id (fake hook on the create);
- ``panel``: a DM with components (a panel) was created, the bot never read its id;
- ``click``: a panel click was acknowledged (the panel updated), the bot never read the answer;
- ``finish``: a race's last step was committed (the ``races`` row says finished), killed at once;
- ``random``: whenever.

Optionally Discord misbehaves too (``faults``): 429 with retry-after, 5xx, a dropped gateway (RESUME),
an invalid session (IDENTIFY again). At the end :class:`Report` holds the figures and each check:
every race has its final post with its record attached; no logical delivery was created twice in any
channel or DM; every acknowledged order is in the record; each record replays to the posted standings;
no ERROR was logged; the fake saw no protocol problem.

The test (tests/bot/exts/race/test_soak.py) and the script (bench/soak.py) both run :func:`soak`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import re
import signal
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from bot.store.database import normalise_url
from engine.race import replay
from engine.record import RaceRecord, parse_record
from tests.bot.exts.race.process import logged_errors, start_gregario
from tests.fakediscord.faults import kill_process
from tests.fakediscord.server import FakeDiscord, RecordedRequest
from tests.fakediscord.users import DiscordUser
from tests.fakediscord.world import Channel, Guild, Message

CREATE = ("POST", "/channels/{channel_id}/messages")
CALLBACK = ("POST", "/interactions/{interaction_id}/{token}/callback")
MOMENTS = ("random", "post", "panel", "click", "finish")
SYSTEMS: tuple[tuple[str, dict[str, str], int, int], ...] = (
    ("flamme_rouge", {"stage": "Avenue Corso Paseo", "options": "riders_per_player=1 finish=first"}, 2, 1),
    ("tabella", {"options": "mode=live"}, 3, 1),
    ("wyscig", {"stage": '{"deck": "itemised_108", "stages": 1}'}, 1, 1),
    ("mind_cycling", {"stage": "short"}, 2, 1),
)
"""Short races of each system, with how many people and bots ride (Tabella live: one move a step, so it
has steps to crash in; Wyścig plays turn by turn, some 24 turns an entrant; Flamme Rouge on the flat, one
rider each, over at the first rider across the line)."""
PANEL_ITEM = re.compile(r"^gr:(?P<what>[bstcg]):(?P<race>\d+):(?P<step>\d+)")
"""A panel's component: pick button (b), select (s), Type my order (t), Change (c), page turn (g)."""
META = ("received_at", "by", "auto")
ACK_SECONDS = 4.0
START_SECONDS = 45.0
"""How long a start may take to connect before it counts as slow (a loaded machine's start takes 20 s)."""
HOOK_SECONDS = 20.0
"""How long a targeted kill waits for its moment before it gives up (counted in ``Report.missed``)."""
NAMES = ("Alice", "Bob", "Carla", "Dario")
ENDED = ("finished", "cancelled")


@dataclass
class Plan:
    """What a soak does: how many kills, at which moments, how many races, Discord's faults or not."""

    seed: int
    kills: int = 12
    races: int = 4
    more_races: bool = False
    """Open more races than ``races`` (the systems in turn) while the killer still owes kills."""
    together: int = 4
    """Races running at once; the next opens as one ends."""
    moments: tuple[str, ...] = MOMENTS
    faults: bool = False
    pace: str = "30s"
    kill_seconds: float = 150.0
    """Kills happen in this time from the first race's start (then the races play out in peace)."""
    finish_seconds: float = 240.0
    """How long after the kills the races may take to finish."""
    settle_seconds: float = 30.0
    """After the last race finished: how long the final posts may take before they count as lost."""
    skip_chance: float = 0.03
    """A player sends nothing for a step (the deadline plays for them)."""
    change_chance: float = 0.25
    humans: int = 3
    """At most this many people in a race (each system has its own count, :data:`SYSTEMS`)."""


@dataclass
class Kill:
    moment: str
    at: float
    detail: str


@dataclass
class Acked:
    """A panel click the fake acknowledged (the panel updated), and what the database held right after."""

    race: int
    step: int
    entrant: str
    body: dict[str, Any] | None
    complete: bool
    custom_id: str


@dataclass
class Report:
    plan: Plan
    kills: list[Kill] = field(default_factory=list)
    missed: Counter[str] = field(default_factory=Counter)
    starts: int = 0
    slow_starts: int = 0
    """Starts that did not connect within the wait (killed by the harness and started again)."""
    down: float = 0.0
    """Seconds the process was not running (from each death to the next start being connected)."""
    crashes: list[str] = field(default_factory=list)
    races: dict[int, str] = field(default_factory=dict)
    finished: dict[int, float] = field(default_factory=dict)
    """Race -> seconds into the soak when the database said it ended (its status)."""
    ended: dict[int, str] = field(default_factory=dict)
    steps: int = 0
    clicks: Counter[str] = field(default_factory=Counter)
    acked: dict[tuple[int, int, str], Acked] = field(default_factory=dict)
    messages: Counter[str] = field(default_factory=Counter)
    faults: Counter[str] = field(default_factory=Counter)
    checks: dict[str, tuple[int, list[str]]] = field(default_factory=dict)
    """Check name -> (how many things it looked at, what failed)."""
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return bool(self.checks) and not any(failed for _, failed in self.checks.values())

    def check(self, name: str, looked_at: int, failed: list[str]) -> None:
        self.checks[name] = (looked_at, failed)

    def kill_log(self) -> str:
        """Every kill, when and where: to line a failure up with the moment that caused it."""
        return "\n".join(f"{k.at:7.1f} s  {k.moment:<7} {k.detail}" for k in self.kills)

    def summary(self) -> str:
        """The figures and each check, for a person (printed by bench/soak.py and on a failed test)."""
        by_moment = Counter(k.moment for k in self.kills)
        lines = [
            f"soak seed {self.plan.seed}: {len(self.kills)} kills in {self.seconds:.0f} s "
            f"({', '.join(f'{m} {n}' for m, n in sorted(by_moment.items()))}), {self.starts} starts, "
            f"down {self.down:.0f} s"
            + (f", {self.slow_starts} starts that never connected in time" if self.slow_starts else "")
            + (f", targeted kills that never found their moment: {dict(self.missed)}" if self.missed else ""),
            f"races: {len(self.finished)}/{len(self.races)} finished ({', '.join(sorted(set(self.races.values())))}), "
            f"{self.steps} steps; ended at "
            + ", ".join(f"#{r} {self.races[r]} {self.finished[r]:.0f} s" for r in sorted(self.finished)),
            f"clicks: {dict(self.clicks)}; orders acknowledged: {sum(1 for a in self.acked.values() if a.complete)}"
            f" complete, {sum(1 for a in self.acked.values() if not a.complete)} partial",
            f"messages created by the bot: {dict(self.messages)}",
        ]
        if self.faults:
            lines.append(f"Discord faults: {dict(self.faults)}")
        if self.crashes:
            lines.append(f"the process exited by itself: {self.crashes}")
        for name, (looked_at, failed) in self.checks.items():
            verdict = "ok" if not failed else "FAILED"
            lines.append(f"check {name}: {verdict} ({looked_at} looked at, {len(failed)} failed)")
            lines.extend(f"    {f}" for f in failed[:12])
            if len(failed) > 12:
                lines.append(f"    ... and {len(failed) - 12} more")
        return "\n".join(lines)


class Store:
    """Reads the race database as an onlooker: plain reads, no write lock taken (SQLite in WAL mode)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine: AsyncEngine = create_async_engine(normalise_url(url))

    async def statuses(self) -> dict[int, tuple[str, int]]:
        async with self.engine.connect() as conn:
            rows = (await conn.execute(text("SELECT id, status, step FROM races"))).all()
        return {int(r[0]): (str(r[1]), int(r[2] or 0)) for r in rows}

    async def order(self, race: int, step: int, entrant: str) -> tuple[dict[str, Any] | None, bool]:
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(
                    text('SELECT body, complete, "by" FROM orders WHERE race_id = :r AND step = :s AND entrant = :e'),
                    {"r": race, "s": step, "e": entrant},
                )
            ).first()
        if row is None:
            return None, False
        body = json.loads(row[0]) if isinstance(row[0], str) else row[0]
        # An order the rules completed at the deadline (by "auto") is the player's part, completed.
        return dict(body), bool(row[1]) and row[2] != "auto"

    async def record(self, race: int) -> RaceRecord:
        """The race's record as the database holds it (for a race whose final post never came)."""
        from bot.services import records
        from bot.services.context import Context
        from bot.store.database import connect

        ctx = Context(db=connect(self.url))
        try:
            return await records.race_record(ctx, race)
        finally:
            await ctx.db.close()

    async def close(self) -> None:
        await self.engine.dispose()


class Soak:
    """One soak run: the process and its restarts, the killer, the players, Discord's weather, the checks."""

    def __init__(self, fake: FakeDiscord, guild: Guild, folder: Path, database_url: str, plan: Plan) -> None:
        self.fake, self.guild, self.folder, self.plan = fake, guild, folder, plan
        self.channel = guild.channel("races")
        self.store = Store(database_url)
        self.database_url = database_url
        self.rng = random.Random(plan.seed)
        self.report = Report(plan)
        self.people = [self._member(name) for name in NAMES]
        self.process: asyncio.subprocess.Process | None = None
        self.up = asyncio.Event()
        self.stopping = False
        self.killing = False
        self.kill_end = 0.0
        self.t0 = time.monotonic()
        self.tasks: list[asyncio.Task[Any]] = []
        self.expected_deaths = 0
        self.last_open = 0.0

    def _member(self, name: str) -> DiscordUser:
        user = self.fake.create_user(name)
        self.fake.add_member(self.guild, user)
        return DiscordUser(self.fake, user, self.channel)

    # --- the process --------------------------------------------------------------------------------
    async def _start(self) -> None:
        for attempt in range(1, 6):
            try:
                self.process = await start_gregario(
                    self.fake,
                    self.guild,
                    self.folder,
                    self.database_url,
                    env={"GREGARIO_DEFAULT_PACE": self.plan.pace},
                    ready_seconds=START_SECONDS,
                )
                break
            except AssertionError:
                # It never connected in time (start_gregario killed it): on a loaded machine a start can
                # take longer than the wait; counted and shown, and started again (five tries in a row).
                self.report.slow_starts += 1
                if attempt == 5 or self.stopping:
                    raise
        self.report.starts += 1
        self.up.set()

    async def _keep_running(self) -> None:
        """Start the process again whenever it dies (a crash the soak caused, or one of its own)."""
        while not self.stopping:
            assert self.process is not None
            code = await self.process.wait()
            self.up.clear()
            if self.stopping:
                return
            if self.expected_deaths:
                self.expected_deaths -= 1
            else:
                self.report.crashes.append(f"exit code {code} after {time.monotonic() - self.t0:.0f} s")
            died = time.monotonic()
            await asyncio.sleep(self.rng.uniform(0.0, 1.0))  # clicks meanwhile go unanswered, as on Discord
            await self._start()
            self.report.down += time.monotonic() - died

    def _count_kill(self, moment: str, detail: str) -> None:
        self.expected_deaths += 1
        self.report.kills.append(Kill(moment, time.monotonic() - self.t0, detail))

    async def _kill_now(self, moment: str, detail: str) -> None:
        if self.process is None or self.process.returncode is not None or not self.up.is_set():
            return
        self.up.clear()
        self._count_kill(moment, detail)
        await kill_process(self.process.pid)

    def _arm(self, moment: str, pid: int) -> Callable[[], None]:
        """A fake hook that kills ``pid`` at the targeted moment; returns how to disarm it."""

        def kill(detail: Callable[[RecordedRequest], str]) -> Callable[[RecordedRequest], Awaitable[None]]:
            async def action(record: RecordedRequest) -> None:
                if self.process is None or self.process.pid != pid or self.process.returncode is not None:
                    return
                self.up.clear()
                self._count_kill(moment, detail(record))
                await kill_process(pid)

            return action

        def first_line(record: RecordedRequest) -> str:
            body = record.body if isinstance(record.body, dict) else {}
            return str(body.get("content") or "").split("\n")[0][:80]

        if moment == "post":
            hook = self.fake.on_request(*CREATE, kill(first_line), dm=False, drop_answer=True)
        elif moment == "panel":
            hook = self.fake.on_request(
                *CREATE,
                kill(first_line),
                dm=True,
                when=lambda r: isinstance(r.body, dict) and bool(r.body.get("components")),
                drop_answer=True,
            )
        else:

            def pick_acknowledged(record: RecordedRequest) -> bool:
                i = record.interaction
                custom = str((i.data if i is not None else {}).get("custom_id", ""))
                return (
                    i is not None
                    and i.channel.is_dm
                    and isinstance(record.body, dict)
                    and record.body.get("type") == 7
                    and custom.startswith(("gr:b:", "gr:s:"))
                )

            def clicked(record: RecordedRequest) -> str:
                i = record.interaction
                return f"{i.user.name} {i.data.get('custom_id')}" if i is not None else ""

            hook = self.fake.on_request(*CALLBACK, kill(clicked), when=pick_acknowledged, drop_answer=True)
        return lambda: self.fake.hooks.cancel(hook)

    async def _killer(self) -> None:
        """Kill the process ``plan.kills`` times in ``plan.kill_seconds``, at random or targeted moments
        (``finish`` is the watcher's: it kills when a race's last step commits)."""
        kinds = [m for m in self.plan.moments if m != "finish"] or ["random"]
        order: list[str] = []
        while len(self.report.kills) < self.plan.kills and self.killing:
            if not order:  # every moment in turn, in a shuffled order: each comes up as often
                order = self.rng.sample(kinds, len(kinds))
            await self.up.wait()
            left = max(self.plan.kills - len(self.report.kills), 1)
            # Spread what is left over the time left, less the restarts it costs (as measured so far);
            # past that time, kill at a brisk pace until the count is reached or the races are over.
            restart = self.report.down / max(self.report.starts - 1, 1) if self.report.starts > 1 else 4.0
            gap = max((self.kill_end - time.monotonic()) / left - restart, 1.5)
            await asyncio.sleep(self.rng.uniform(0.3, 1.2) * gap)
            if not self.up.is_set() or self.stopping:
                continue
            moment = order.pop()
            if moment == "random":
                await self._kill_now("random", "a random moment")
                continue
            assert self.process is not None
            process = self.process
            disarm = self._arm(moment, process.pid)
            try:
                await asyncio.wait_for(asyncio.shield(process.wait()), HOOK_SECONDS)
            except TimeoutError:
                self.report.missed[moment] += 1
                if self.report.missed[moment] <= 2:
                    order.append(moment)  # its turn again next: each moment is hit, if it comes at all
            finally:
                disarm()

    async def _watch_finishes(self) -> None:
        """Poll the races table; when a race's last step is committed, kill at once (``finish``)."""
        while not self.stopping:
            try:
                statuses = await self.store.statuses()
            except Exception:  # the database is busy or being created: look again
                await asyncio.sleep(0.05)
                continue
            for race, (status, _step) in statuses.items():
                if race in self.report.races and status in ENDED and race not in self.report.finished:
                    self.report.finished[race] = time.monotonic() - self.t0
                    self.report.ended[race] = status
                    if self.killing and "finish" in self.plan.moments:
                        await self._kill_now("finish", f"race {race} {status}")
            await asyncio.sleep(0.01)

    async def _weather(self) -> None:
        """Discord's own faults, now and then while the process runs."""
        routes = [
            CREATE,
            ("PATCH", "/channels/{channel_id}/messages/{message_id}"),
            ("POST", "/users/@me/channels"),
        ]
        while not self.stopping:
            await asyncio.sleep(self.rng.uniform(2.0, 6.0))
            if not self.up.is_set() or self.stopping:
                continue
            kind = self.rng.choice(("429", "5xx", "resume", "invalid session"))
            if kind == "429":
                method, route = self.rng.choice(routes)
                self.fake.fail(method, route, 429, retry_after=round(self.rng.uniform(0.1, 1.0), 2))
            elif kind == "5xx":
                method, route = self.rng.choice(routes)
                self.fake.fail(method, route, self.rng.choice((500, 502, 504)))
            else:
                session = self.fake.current_session()
                if session.ws is None or session.ws.closed:
                    continue
                with contextlib.suppress(AssertionError, ConnectionError):
                    await self.fake.drop_gateway(forget_session=kind == "invalid session")
            self.report.faults[kind] += 1

    # --- the races ----------------------------------------------------------------------------------
    async def _open(self, index: int) -> int:
        """A lobby by the opener, the others join, bots added, started: the race's id. Kills may come
        meanwhile: an unanswered command or click is made again, as a person would."""
        ruleset, given, humans, bots = SYSTEMS[index % len(SYSTEMS)]
        options: dict[str, Any] = dict(given)
        riders = self.rng.sample(self.people, min(humans, self.plan.humans, len(self.people)))
        opener = riders[0]
        lobby: Message | None = None
        for _attempt in range(10):
            await self.up.wait()
            with contextlib.suppress(AssertionError):
                handle = await opener.slash("race new", ruleset=ruleset, bots=bots, **options)
                lobby = await handle.reply(timeout=10)
                break
        if lobby is None:
            raise AssertionError(f"no lobby for a {ruleset} race after 10 tries")
        race = int(lobby.items()[0]["custom_id"].split(":")[2])
        for person in riders[1:]:
            for _attempt in range(10):
                await self.up.wait()
                with contextlib.suppress(AssertionError):
                    await (await person.click(lobby, "Join")).acknowledged(timeout=10)
                    break  # joined, or told they already are
        for _attempt in range(10):
            await self.up.wait()
            with contextlib.suppress(AssertionError):
                await (await opener.click(lobby, "Start")).acknowledged(timeout=10)
            if (await self.store.statuses()).get(race, ("", 0))[0] != "lobby":
                break
            await asyncio.sleep(1.0)
        self.report.races[race] = ruleset
        self.last_open = time.monotonic()
        for person in riders:
            seed = self.rng.randrange(1 << 30)
            self.tasks.append(asyncio.create_task(self._player(person, race, random.Random(seed))))
        return race

    def _panel(self, person: DiscordUser, race: int) -> tuple[Message, int] | None:
        """The newest DM panel of ``race`` with something enabled on it, and its step."""
        for message in reversed(self.fake.dm_channel(person.user).messages):
            if message.deleted:
                continue
            for item in message.items():
                found = PANEL_ITEM.match(str(item.get("custom_id", "")))
                if found and int(found["race"]) == race:
                    if any(not c.get("disabled") for c in message.items()):
                        return message, int(found["step"])
                    return None
        return None

    async def _player(self, person: DiscordUser, race: int, rng: random.Random) -> None:
        """A person on their panels: waits a moment, uses any enabled pick (or Change, or a page turn),
        until the race is over; now and then lets a step go to its deadline."""
        entrant = f"u{person.id}"
        skipped: set[int] = set()
        changed: set[int] = set()
        seen: set[int] = set()
        while not self.stopping and race not in self.report.finished:
            found = self._panel(person, race)
            if found is None:
                await asyncio.sleep(0.2)
                continue
            panel, step = found
            if step not in seen:
                seen.add(step)
                if not skipped and rng.random() < self.plan.skip_chance:
                    skipped.add(step)  # once a race at most: each skip holds the race up for a whole pace
            if step in skipped:
                await asyncio.sleep(0.3)
                continue
            items = [c for c in panel.items() if not c.get("disabled")]
            picks = [c for c in items if str(c.get("custom_id", "")).startswith(("gr:b:", "gr:s:"))]
            turns = [c for c in items if str(c.get("custom_id", "")).startswith("gr:g:")]
            change = [c for c in items if str(c.get("custom_id", "")).startswith("gr:c:")]
            send = [c for c in items if str(c.get("custom_id", "")).startswith("gr:v:")]
            if send and rng.random() < 0.8:
                item = send[0]  # the review: nothing counts until Send (the panel is a form)
            elif picks:
                item = rng.choice(turns) if turns and rng.random() < 0.1 else rng.choice(picks)
            elif change and step not in changed and rng.random() < self.plan.change_chance:
                item = change[0]
                changed.add(step)
            else:
                await asyncio.sleep(0.3)  # ordered: the next panel will come
                continue
            await asyncio.sleep(rng.uniform(0.05, 1.0))
            if race in self.report.finished or self.stopping:
                return
            await self._use(person, panel, item, race, step, entrant, rng)

    async def _use(
        self,
        person: DiscordUser,
        panel: Message,
        item: dict[str, Any],
        race: int,
        step: int,
        entrant: str,
        rng: random.Random,
    ) -> None:
        custom = str(item["custom_id"])
        if item.get("disabled") or item not in panel.items():
            return  # the panel changed while the player was thinking
        values = [rng.choice(item.get("options") or [{"value": "0"}])["value"]] if item.get("type") == 3 else None
        if not custom.startswith("gr:v:"):
            # Anything but Send (Change, a pick, a page) starts editing the order again: what was sent may
            # be replaced by the draft from here on, whether or not this click's answer ever arrives (a
            # Change answered late, or the process killed after it committed, leaves the player editing).
            self.report.acked.pop((race, step, entrant), None)
        handle = await person.press(panel, custom, values)
        self.report.clicks["sent"] += 1
        try:
            kind = await handle.acknowledged(timeout=ACK_SECONDS)
        except AssertionError:
            self.report.clicks["unanswered"] += 1  # the bot was down or died: Discord says it failed
            await asyncio.sleep(0.5)
            return
        if kind != 7:
            self.report.clicks["refused"] += 1  # stale, resolving, not awaited: an ephemeral answer
            return
        self.report.clicks["acknowledged"] += 1
        if custom.startswith("gr:v:"):  # Send: the order counts from now on
            body, complete = await self.store.order(race, step, entrant)
            self.report.acked[(race, step, entrant)] = Acked(race, step, entrant, body, complete, custom)

    # --- the run ------------------------------------------------------------------------------------
    async def run(self) -> Report:
        plan = self.plan
        self.t0 = time.monotonic()
        watcher = asyncio.create_task(self._watch_finishes())
        keeper: asyncio.Task[None] | None = None
        extra: list[asyncio.Task[Any]] = []
        try:
            await self._start()
            keeper = asyncio.create_task(self._keep_running())
            opened = 0
            while opened < min(plan.races, plan.together):
                await self._open(opened)
                opened += 1
            self.killing = True
            self.kill_end = time.monotonic() + plan.kill_seconds
            killer = asyncio.create_task(self._killer())
            extra.append(killer)
            if plan.faults:
                extra.append(asyncio.create_task(self._weather()))
            while True:
                running = len(self.report.races) - len(self.report.finished)
                wanted = opened < plan.races or (plan.more_races and not killer.done())
                if wanted and running < plan.together and time.monotonic() < self.kill_end + plan.finish_seconds:
                    await self._open(opened)  # the next race, as one ends
                    opened += 1
                elif not running:
                    break
                elif time.monotonic() > max(self.kill_end, self.last_open) + plan.finish_seconds:
                    break  # the races left over count as unfinished
                await asyncio.sleep(0.2)
            self.killing = False
            for task in extra:
                task.cancel()
            self.fake.hooks.clear()
            self.fake.faults.pending.clear()
            await asyncio.wait_for(self.up.wait(), 60)
            await self._await_finals()
        finally:
            self.stopping = True
            for task in [*extra, *self.tasks, watcher]:
                task.cancel()
            await asyncio.gather(*extra, *self.tasks, watcher, return_exceptions=True)
            if keeper is not None:
                keeper.cancel()
                await asyncio.gather(keeper, return_exceptions=True)
            if self.process is not None and self.process.returncode is None:
                self.process.send_signal(signal.SIGKILL)
                await self.process.wait()
            self.report.seconds = time.monotonic() - self.t0
        await self._check()
        await self.store.close()
        return self.report

    def _finals(self, race: int) -> list[Message]:
        name = f"race-{race}.json"
        return [m for m in self.channel.messages if any(a.filename == name for a in m.attachments)]

    async def _await_finals(self) -> None:
        """Give the final posts their time (after a restart they may come late), then let the bot settle."""
        deadline = time.monotonic() + self.plan.settle_seconds
        while time.monotonic() < deadline and not all(self._finals(r) for r in self.report.races):
            await asyncio.sleep(0.2)
        await self.fake.settle(1.0, 10)

    # --- the checks ---------------------------------------------------------------------------------
    async def _check(self) -> None:
        report = self.report
        report.check(
            "every race finished",
            len(report.races),
            [
                f"race {r} ({report.races[r]}): {report.ended.get(r, 'not over')}"
                for r in report.races
                if report.ended.get(r) != "finished"
            ],
        )
        records: dict[int, RaceRecord] = {}
        missing: list[str] = []
        for race, ruleset in report.races.items():
            finals = self._finals(race)
            if not finals:
                missing.append(f"race {race} ({ruleset}) has no final post with its record")
                with contextlib.suppress(Exception):
                    records[race] = await self.store.record(race)  # to check its orders all the same
                continue
            attachment = next(a for a in finals[0].attachments if a.filename == f"race-{race}.json")
            records[race] = parse_record(attachment.content.decode())
        report.check("final post with its record", len(report.races), missing)
        report.steps = sum(len(r.steps) for r in records.values())

        counted, twice = self._deliveries()
        report.check("no message twice", sum(counted.values()), twice)

        lost: list[str] = []
        for (race, step, entrant), acked in sorted(report.acked.items()):
            record = records.get(race)
            played = record.steps[step - 1].get(entrant) if record is not None and step <= len(record.steps) else None
            where = f"race {race} step {step} {entrant} ({acked.custom_id})"
            if acked.body is None:
                lost.append(f"{where}: acknowledged, but no order in the database right after")
            elif record is None:
                lost.append(f"{where}: no record to look in")
            elif not isinstance(played, dict):
                lost.append(f"{where}: not in the record (it has {played!r})")
            else:
                sent = {k: v for k, v in played.items() if k not in META}
                if acked.complete and (sent != acked.body or played.get("auto")):
                    lost.append(f"{where}: acknowledged {acked.body}, the record has {played}")
                elif not acked.complete and not _within(acked.body, sent):
                    lost.append(f"{where}: acknowledged part {acked.body}, the record has {played}")
        report.check("acknowledged orders in the record", len(report.acked), lost)

        wrong: list[str] = []
        replayed = 0
        for race in report.races:
            finals = self._finals(race)
            record = records.get(race)
            if not finals or record is None:
                continue
            replayed += 1
            try:
                standings = replay(record).result().standings
            except Exception as exc:
                wrong.append(f"race {race}: the record does not replay ({exc!r})")
                continue
            names = {e.id: e.name for e in record.entrants}
            shown = finals[0].text
            lines = [f"{s.place}. {names[s.entrant]}" for s in standings]
            at = [shown.find(line) for line in lines]
            if any(i < 0 for i in at) or at != sorted(at):
                wrong.append(f"race {race}: the post shows {shown[:300]!r}, the replay {lines}")
        report.check("records replay to the posted standings", replayed, wrong)

        errors = logged_errors(self.folder)
        report.check("no ERROR logged", len(errors), errors[:40])
        problems = [*self.fake.problems, *(f"unknown route {r}" for r in self.fake.unknown_routes)]
        report.check("no protocol problem at the fake", len(problems), problems)
        report.check("no crash of its own", report.starts, report.crashes)

    def _deliveries(self) -> tuple[Counter[str], list[str]]:
        """Every message the bot created (not an interaction's answer), by channel; two creates for one
        logical delivery are a message twice. A create with an enforced nonce is one delivery (one outbox
        row, one nonce: Discord and the fake return the message already made for a nonce repeated); a
        create without one is compared by its first line when created (a panel's or a post's title names
        the race and its counter, a reminder its deadline), as before the outbox. The races' threads are
        channels of their own: a final post's copy in its thread (its own nonce) is another delivery than
        the post in the channel, each counted once where it was made."""
        threads = sorted((c for c in self.fake.channels.values() if c.parent is self.channel), key=lambda c: c.id)
        channels: list[Channel] = [self.channel, *threads, *(self.fake.dm_channel(p.user) for p in self.people)]
        nonces = {message.id: nonce for (_channel, nonce), (message, _when) in self.fake._nonces.items()}
        counted: Counter[str] = Counter()
        seen: Counter[tuple[str, str]] = Counter()
        for channel in channels:
            for message in channel.messages:
                if message.author is not self.fake.bot_user or message.interaction is not None:
                    continue
                original = message.history[0] if message.history else message.payload()
                first = str(original.get("content") or "").split("\n")[0]
                counted["DM" if channel.is_dm else "thread" if channel.is_thread else "channel"] += 1
                seen[(channel.name, f"{first} (nonce {nonces[message.id]})" if message.id in nonces else first)] += 1
        self.report.messages.update(counted)
        twice = [f"{n} times in {where}: {first[:100]!r}" for (where, first), n in seen.items() if n > 1]
        return counted, twice


def _within(part: dict[str, Any], whole: dict[str, Any]) -> bool:
    """Whether every value ``part`` sets is set the same in ``whole`` (a partial order kept, then completed)."""
    for key, value in part.items():
        if isinstance(value, dict):
            if not isinstance(whole.get(key), dict) or not _within(value, whole[key]):
                return False
        elif whole.get(key) != value:
            return False
    return True


async def soak(fake: FakeDiscord, guild: Guild, folder: Path, database_url: str, plan: Plan) -> Report:
    """Run one soak (see the module's docstring) and return its report."""
    folder.mkdir(parents=True, exist_ok=True)
    return await Soak(fake, guild, folder, database_url, plan).run()


def seed_from_environment(default: int | None = None) -> int:
    """``GREGARIO_SOAK_SEED`` if set (to replay a failed run's choices), else ``default`` or a new seed."""
    raw = os.environ.get("GREGARIO_SOAK_SEED", "").strip()
    if raw:
        return int(raw)
    return default if default is not None else random.SystemRandom().randrange(1 << 31)
