"""The load benchmark: N races in progress on a real `gregario run` process, against the fake Discord
enforcing Discord's rate limits, measured at the fake.

The fake Discord and the people run in this process; the bot is a `gregario run` process of its own (its
CPU, memory and loop stalls are its own, read from /proc and its log). The offered load, written down:

- ``--races`` races in progress (default 1,000), the four rule systems in turn, each in a channel of its
  own (50 channels a server), kept at that number: a race that ends is replaced by a new one there;
- a share (``--ordering``, default 0.5) with two people who order on their DM panels, each after a random
  delay of 0.5-5 s when a step's panel arrives (a pick or two, then Send), the rest with one person who
  never orders (the deadline plays for them: the scheduler's load) and, in every race, one bot;
- the shortest pace (30 s a decision), for ``--minutes`` of measurement after the races are open;
- Discord's global limit (50 requests a second for the token, interactions exempt) and per-channel limit
  (5 posts per 5 s) enforced with real 429 answers (``--no-limits`` lifts both; ``--global-limit`` lowers the
  first, to put a load this machine carries above it); the bot paces itself at ``--bot-pace``
  (``GREGARIO_REQUESTS_PER_SECOND``, by default 90% of the limit).

It prints, for the measured window: the latency from a step's last order (the press of the last Send) to
its round post (the first post or edit after it in the race's channel or its thread, as the fake saw it)
and to the next panel (the next step's first DM panel), p50/p95/p99/max per system; requests a step and a
second; 429s; memory a race in progress; the bot's CPU a step (its engine worker included); the bot's
longest event-loop stall (its own log: it warns at ``GREGARIO_LOOP_STALL_SECONDS``, set to 0.05 here); this
process's own longest stall (above a second or so the figures measure the fake, not the bot).

    nice -n 10 python bench/load.py --races 50 --minutes 1 --database sqlite
    eval "$(bash .ci/postgres.sh)"; nice -n 10 python bench/load.py --races 50 --minutes 1 --database postgresql
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import re
import shutil
import signal
import sys
import tempfile
import time
import uuid
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from aiohttp import web
from sqlalchemy import text
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import create_async_engine

from bot.services.lag import LagProbe
from bot.store.database import normalise_url
from tests.bot.exts.race.process import children_of, run_env, start_run
from tests.fakediscord.network import make_certificate
from tests.fakediscord.server import FakeDiscord
from tests.fakediscord.users import DiscordUser
from tests.fakediscord.world import Channel, Guild, Message

SYSTEMS: tuple[tuple[str, str, dict[str, str]], ...] = (
    ("flamme_rouge", "Flamme Rouge", {"stage": "Avenue Corso Paseo", "options": "riders_per_player=1 finish=first"}),
    ("tabella", "Tabella del Destino", {"options": "mode=live"}),
    ("wyscig", "Wyścig kolarski", {"stage": '{"deck": "itemised_108", "stages": 1}'}),
    ("mind_cycling", "Mind Cycling", {"stage": "short"}),
)
"""Short races of each system (those of the crash soak, tests/bot/exts/race/soak.py)."""
CHANNELS_PER_GUILD = 50
PANEL_ITEM = re.compile(r"^gr:(?P<what>[a-z]):(?P<race>\d+):(?P<step>\d+)")
STALL = re.compile(r"the event loop stalled for (\d+) ms")
ACK_SECONDS = 10.0
IDLE_SECONDS = 10.0
POLL = 0.25


def _race_channel(channel: Channel) -> int:
    """The race's channel of a write: a race posts its rounds in its own thread, started from its lobby."""
    return channel.parent.id if channel.parent is not None else channel.id


class LoadFake(FakeDiscord):
    """The fake, noting when the bot posts or edits in a guild channel; people act without waiting for a
    quiet moment (under load there is none, and the panels' components need no registration)."""

    def __init__(self, cert: Path, key: Path) -> None:
        super().__init__(cert, key)
        self.channel_writes: dict[int, list[tuple[float, int]]] = defaultdict(list)
        """Guild channel -> (when, message id) of each bot post or edit there or in its threads (not interaction
        answers)."""
        self.panels: dict[int, list[tuple[float, int, int]]] = defaultdict(list)
        """User -> (when, race, step) of each DM panel created for them."""

    async def settle(self, quiet: float = 0.0, timeout: float = 0.0) -> None:
        await asyncio.sleep(0)

    async def _post_message(self, request: web.Request) -> web.StreamResponse:
        response = await super()._post_message(request)
        if response.status == 200:
            channel = self.channels.get(int(request.match_info["channel_id"]))
            if channel is not None and channel.messages:
                message = channel.messages[-1]
                if channel.recipient is not None:
                    found = next(
                        (m for m in (PANEL_ITEM.match(str(i.get("custom_id", ""))) for i in message.items()) if m), None
                    )
                    if found:
                        self.panels[channel.recipient.id].append(
                            (time.monotonic(), int(found["race"]), int(found["step"]))
                        )
                else:
                    self.channel_writes[_race_channel(channel)].append((time.monotonic(), message.id))
        return response

    async def _edit_message(self, request: web.Request) -> web.StreamResponse:
        response = await super()._edit_message(request)
        if response.status == 200:
            channel = self.channels.get(int(request.match_info["channel_id"]))
            if channel is not None and channel.recipient is None:
                self.channel_writes[_race_channel(channel)].append(
                    (time.monotonic(), int(request.match_info["message_id"]))
                )
        return response


@dataclass
class Race:
    id: int
    system: str
    channel: Channel
    lobby_id: int
    people: list[DiscordUser]
    ordering: bool
    lobby: Message | None = None
    sent: dict[int, dict[int, float]] = field(default_factory=lambda: defaultdict(dict))
    """Step -> person -> when their Send was pressed (acknowledged as an update)."""
    done: bool = False


@dataclass
class Snapshot:
    at: float
    requests: int
    cpu: float
    steps: int
    rss: int
    global_429: int
    channel_429: int


def _cpu_seconds(pid: int) -> float:
    """User + system CPU of ``pid`` and its children (the engine workers), in seconds."""
    total = 0.0
    for one in [pid, *children_of(pid)]:
        with contextlib.suppress(OSError):
            stat = Path(f"/proc/{one}/stat").read_text()
            fields = stat[stat.rindex(")") + 2 :].split()
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def _rss(pid: int) -> int:
    """Resident memory of ``pid`` and its children, in bytes."""
    total = 0
    for one in [pid, *children_of(pid)]:
        with contextlib.suppress(OSError, StopIteration):
            line = next(x for x in Path(f"/proc/{one}/status").read_text().splitlines() if x.startswith("VmRSS:"))
            total += int(line.split()[1]) * 1024
    return total


def _percentiles(values: list[float]) -> str:
    if not values:
        return "     -      -      -      -  (none)"
    ordered = sorted(values)

    def at(q: float) -> float:
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]

    return (
        f"{at(0.5) * 1000:6.0f} {at(0.95) * 1000:6.0f} {at(0.99) * 1000:6.0f} {ordered[-1] * 1000:6.0f}"
        f"  ({len(values)} steps)"
    )


class Load:
    """One run: the world, the process, the races and their people, the figures."""

    def __init__(self, args: argparse.Namespace, fake: LoadFake, folder: Path, url: str) -> None:
        self.args, self.fake, self.folder, self.url = args, fake, folder, url
        self.rng = random.Random(args.seed)
        self.guilds: list[Guild] = []
        self.free: list[Channel] = []
        self.races: dict[int, Race] = {}
        self.opened = 0
        self.stopping = False
        self.tasks: list[asyncio.Task[Any]] = []
        self.engine = create_async_engine(normalise_url(url))
        self.process: asyncio.subprocess.Process | None = None
        self.open_failures: Counter[str] = Counter()
        self.lobbies_ready = 0.0
        self.waiting: list[float] = []
        self.clicks: Counter[str] = Counter()
        """'<system> send|pick <response type>' -> clicks (7: the panel updated; None: unanswered)."""
        self.acks: list[float] = []
        """Seconds from a click to its answer (polled every 50 ms)."""

    def build_world(self) -> None:
        owner = self.fake.create_user("Olga")
        count = self.args.races
        for g in range((count + CHANNELS_PER_GUILD - 1) // CHANNELS_PER_GUILD):
            names = tuple(
                f"race-{g:02d}-{c:02d}" for c in range(min(CHANNELS_PER_GUILD, count - g * CHANNELS_PER_GUILD))
            )
            guild = self.fake.create_guild(f"Load {g}", owner, names)
            self.guilds.append(guild)
            self.free.extend(guild.channels)

    async def start_bot(self) -> None:
        env = run_env(
            self.fake,
            self.guilds[0],
            self.url,
            GREGARIO_DEFAULT_PACE=self.args.pace,
            GREGARIO_ENGINE_WORKERS=str(self.args.workers),
            GREGARIO_LOOP_STALL_SECONDS="0.05",
            GREGARIO_REQUESTS_PER_SECOND=str(self.args.bot_pace or max(1, self.args.global_limit * 9 // 10)),
            GREGARIO_LOG_LEVEL=os.environ.get("LOAD_LOG_LEVEL", "INFO"),
        )
        env.pop("GREGARIO_TEST_GUILD_ID")  # many servers: the commands are synced globally
        if self.args.profile:
            with open(self.folder / "gregario-run.log", "ab") as log:
                self.process = await asyncio.create_subprocess_exec(
                    sys.executable,
                    "-m",
                    "cProfile",
                    "-o",
                    str(self.folder / "bot.prof"),
                    "-m",
                    "bot.cli",
                    "run",
                    cwd=self.folder,
                    env=env,
                    stdout=log,
                    stderr=log,
                    start_new_session=True,
                )
        else:
            self.process = await start_run(self.folder, env)
        await self.fake.wait_until(
            lambda: (self.fake.sessions and self.fake.commands) or self.process.returncode is not None,  # type: ignore[union-attr]
            60,
            lambda: "gregario run never connected",
        )
        assert self.process.returncode is None, f"gregario run stopped at start-up: see {self.folder}"

    async def spy(self, seconds: float) -> asyncio.subprocess.Process:
        """py-spy sampling the bot and its engine workers for the measured window (collapsed stacks in
        bot.stacks: where the CPU of a step goes, greenlet switches and all, which cProfile misreads)."""
        assert self.process is not None
        return await asyncio.create_subprocess_exec(
            "py-spy",
            "record",
            "--format",
            "raw",
            "--rate",
            "100",
            "--subprocesses",
            "--nonblocking",
            "--duration",
            str(int(seconds)),
            "--pid",
            str(self.process.pid),
            "--output",
            str(self.folder / "bot.stacks"),
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.DEVNULL,
        )

    async def _answered(self, record: Any, timeout: float = ACK_SECONDS) -> int | None:
        """The interaction's response type once answered (None: not in ``timeout`` s); polled, so a thousand
        people waiting do not all wake on every request."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if record.response_type:
                return int(record.response_type)
            await asyncio.sleep(0.05)
        return None

    def _person(self, guild: Guild, channel: Channel) -> DiscordUser:
        user = self.fake.create_user(f"P{len(self.fake.users)}")
        self.fake.add_member(guild, user)
        return DiscordUser(self.fake, user, channel)

    async def open_race(self, channel: Channel, *, start: bool = True) -> Race | None:
        """A lobby in ``channel`` by its opener, the second person joins (ordering races), a bot; Start
        unless ``start`` is off (the ramp opens every lobby first, then starts them all)."""
        system, ruleset, options = SYSTEMS[self.opened % len(SYSTEMS)]
        ordering = self.rng.random() < self.args.ordering
        self.opened += 1
        assert channel.guild is not None
        people = [self._person(channel.guild, channel) for _ in range(2 if ordering else 1)]
        opener = people[0]
        handle = await opener.slash("race new", channel=channel, ruleset=ruleset, bots=1, **options)
        try:
            lobby = await handle.reply(timeout=30)
        except AssertionError:
            self.open_failures["no lobby"] += 1
            return None
        if not lobby.items():
            self.open_failures[f"refused: {lobby.text[:60]}"] += 1
            return None
        race_id = int(str(lobby.items()[0]["custom_id"]).split(":")[2])
        for person in people[1:]:
            if await self._answered((await person.click(lobby, "Join")).record, 30) is None:
                self.open_failures["join unanswered"] += 1
        race = Race(race_id, system, channel, lobby.id, people, ordering, lobby=lobby)
        if start:
            await self.start_race(race)
        return race

    async def start_race(self, race: Race) -> None:
        """The opener presses Start; the race's people begin watching their panels."""
        assert race.lobby is not None
        if await self._answered((await race.people[0].click(race.lobby, "Start")).record, 30) is None:
            self.open_failures["start unanswered"] += 1  # it may have started all the same: the database says
        self.races[race.id] = race
        if race.ordering:
            for person in race.people:
                self.tasks.append(asyncio.create_task(self._player(race, person, random.Random(self.rng.random()))))

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

    async def _player(self, race: Race, person: DiscordUser, rng: random.Random) -> None:
        """A person on their panels: when a step's panel arrives, thinks 0.5-5 s, picks (one click or a few)
        and sends; then waits for the next panel. A refused click (the deadline played the step before the
        panel was closed) ends their try at that step, as a person reading "this step is over" would."""
        thought: set[int] = set()
        given_up: set[int] = set()
        while not self.stopping and not race.done:
            found = self._panel(person, race.id)
            if found is None:
                await asyncio.sleep(POLL)
                continue
            panel, step = found
            if step in given_up:
                await asyncio.sleep(POLL)
                continue
            if step not in thought:
                thought.add(step)
                await asyncio.sleep(rng.uniform(0.5, 5.0))
                continue
            items = [c for c in panel.items() if not c.get("disabled")]
            send = [c for c in items if str(c.get("custom_id", "")).startswith("gr:v:")]
            picks = [c for c in items if str(c.get("custom_id", "")).startswith(("gr:b:", "gr:s:"))]
            if send:
                item = send[0]
            elif picks:
                item = rng.choice(picks)
            else:
                await asyncio.sleep(POLL)  # sent: the next panel will come
                continue
            custom = str(item["custom_id"])
            values = [rng.choice(item.get("options") or [{"value": "0"}])["value"]] if item.get("type") == 3 else None
            try:
                handle = await person.press(panel, custom, values)
            except AssertionError:
                await asyncio.sleep(POLL)  # the panel changed under the click
                continue
            pressed = time.monotonic()
            kind = await self._answered(handle.record)
            self.clicks[f"{race.system} {'send' if custom.startswith('gr:v:') else 'pick'} {kind}"] += 1
            if kind is not None:
                self.acks.append(time.monotonic() - pressed)
            if kind == 7 and custom.startswith("gr:v:"):
                race.sent[step][person.id] = pressed
            elif kind == 4:  # refused (the step is over, the panel not closed yet): a person waits for the next
                given_up.add(step)
            elif kind is None:
                await asyncio.sleep(POLL)
            await asyncio.sleep(rng.uniform(0.05, 0.3))

    async def _statuses(self) -> dict[int, str]:
        async with self.engine.connect() as conn:
            rows = (await conn.execute(text("SELECT id, status FROM races"))).all()
        return {int(r[0]): str(r[1]) for r in rows}

    async def steps(self) -> int:
        async with self.engine.connect() as conn:
            return int((await conn.execute(text("SELECT COALESCE(SUM(step), 0) FROM races"))).scalar_one())

    async def keep_full(self, until: float) -> None:
        """Open ``--races`` lobbies, then start them all (a lobby does not step: the first races do not
        run while the last are opened), then open a new race wherever one ended."""
        gate = asyncio.Semaphore(self.args.opening)

        async def lobby(channel: Channel) -> Race | None:
            async with gate:
                try:
                    race = await self.open_race(channel, start=False)
                except Exception as exc:  # a refusal the run should show, not hide
                    self.open_failures[type(exc).__name__] += 1
                    race = None
                if race is None:
                    self.free.append(channel)
                return race

        async def start(race: Race) -> None:
            async with gate:
                try:
                    await self.start_race(race)
                except Exception as exc:
                    self.open_failures[f"start: {type(exc).__name__}"] += 1

        while self.free and not self.stopping and time.monotonic() < until and len(self.races) < self.args.races:
            channels = self.free[: self.args.races - len(self.races)]
            del self.free[: len(channels)]
            lobbies = [r for r in await asyncio.gather(*(lobby(c) for c in channels)) if r is not None]
            self.lobbies_ready = time.monotonic()
            await asyncio.gather(*(start(r) for r in lobbies))
        opening: set[asyncio.Task[Any]] = set()

        async def one(channel: Channel) -> None:
            async with gate:
                try:
                    race = await self.open_race(channel)
                except Exception as exc:
                    self.open_failures[type(exc).__name__] += 1
                    race = None
                if race is None:
                    self.free.append(channel)

        while not self.stopping and time.monotonic() < until:
            while self.free and len(opening) < self.args.opening * 2:
                task = asyncio.create_task(one(self.free.pop(0)))
                opening.add(task)
                task.add_done_callback(opening.discard)
            await asyncio.sleep(3.0)
            with contextlib.suppress(Exception):
                for race_id, status in (await self._statuses()).items():
                    race = self.races.get(race_id)
                    if race is not None and not race.done and status in ("finished", "cancelled"):
                        race.done = True
                        self.free.append(race.channel)
        for task in list(opening):
            task.cancel()

    async def snapshot(self) -> Snapshot:
        assert self.process is not None
        return Snapshot(
            time.monotonic(),
            len(self.fake.requests),
            _cpu_seconds(self.process.pid),
            await self.steps(),
            _rss(self.process.pid),
            self.fake.globally_limited,
            len(self.fake.rate_limited),
        )

    def latencies(self, start: float, end: float) -> tuple[dict[str, list[float]], dict[str, list[float]]]:
        """Per system: last order -> round post, and last order -> next panel, of the steps whose last
        order was pressed in the window and that both people sent. A step with no round post by the window's
        end is in ``self.waiting`` with how long it had waited then (a latency at least that long)."""
        to_post: dict[str, list[float]] = defaultdict(list)
        to_panel: dict[str, list[float]] = defaultdict(list)
        self.waiting = []
        for race in self.races.values():
            if not race.ordering:
                continue
            writes = [
                at for at, message in self.fake.channel_writes.get(race.channel.id, []) if message != race.lobby_id
            ]
            for step, by in race.sent.items():
                awaited = {
                    p.id
                    for p in race.people
                    if any(r == race.id and s == step for _, r, s in self.fake.panels.get(p.id, []))
                }
                if not awaited or not awaited <= set(by):
                    continue  # someone awaited did not send (the deadline played): not a last order
                last = max(by.values())
                if not start <= last <= end:
                    continue
                post = next((at for at in writes if at > last), None)
                if post is not None and post <= end:
                    to_post[race.system].append(post - last)
                else:
                    self.waiting.append(end - last)
                panels = [
                    at
                    for person in race.people
                    for at, r, s in self.fake.panels.get(person.id, [])
                    if r == race.id and s > step and at > last
                ]
                if panels:
                    to_panel[race.system].append(min(panels) - last)
        return to_post, to_panel

    def stalls(self) -> list[int]:
        log = self.folder / "gregario-run.log"
        if not log.exists():
            return []
        return [int(m.group(1)) for m in STALL.finditer(log.read_text(encoding="utf-8", errors="replace"))]

    async def run(self) -> str:
        args = self.args
        self.build_world()
        if not args.no_limits:
            self.fake.global_rate_limit = (args.global_limit, 1.0)
            self.fake.channel_rate_limit = (5, 5.0)
        t0 = time.monotonic()
        await self.start_bot()
        assert self.process is not None
        await asyncio.sleep(2.0)
        idle_cpu = _cpu_seconds(self.process.pid)
        await asyncio.sleep(IDLE_SECONDS)  # the bot's own polls, with no race: subtracted from a step's CPU
        idle_rate = (_cpu_seconds(self.process.pid) - idle_cpu) / IDLE_SECONDS
        idle_rss = _rss(self.process.pid)
        stalls_before = len(self.stalls())
        measure = args.minutes * 60
        filler = asyncio.create_task(self.keep_full(time.monotonic() + args.ramp + measure + 5))
        ramp_end = time.monotonic() + args.ramp
        while time.monotonic() < ramp_end:
            running = sum(1 for r in self.races.values() if not r.done)
            if running >= args.races:
                break
            await asyncio.sleep(1.0)
        opened_in = time.monotonic() - t0
        async with LagProbe(0.01) as probe:
            spy = await self.spy(measure) if args.py_spy else None
            first = await self.snapshot()
            first_stalls = len(self.stalls())
            running_at_start = sum(1 for r in self.races.values() if not r.done)
            await asyncio.sleep(measure)
            last = await self.snapshot()
            running_at_end = sum(1 for r in self.races.values() if not r.done)
        if spy is not None:
            await spy.wait()
        stalls = self.stalls()[first_stalls:]
        self.stopping = True
        filler.cancel()
        for task in self.tasks:
            task.cancel()
        for outcome in await asyncio.gather(filler, *self.tasks, return_exceptions=True):
            if isinstance(outcome, Exception):
                self.open_failures[f"a player stopped: {outcome!r}"[:120]] += 1
        if self.process.returncode is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(self.process.wait(), 30)
            except TimeoutError:
                self.process.send_signal(signal.SIGKILL)
                await self.process.wait()
        await self.engine.dispose()

        seconds = last.at - first.at
        steps = last.steps - first.steps
        window = self.fake.requests[first.requests : last.requests]
        kinds: Counter[str] = Counter()
        for record in window:
            if record.route.startswith("/interactions"):
                kinds["interaction answers"] += 1
            elif record.route.startswith("/webhooks"):
                kinds["followups/webhook edits"] += 1
            elif record.dm:
                kinds["DM " + record.method] += 1
            elif record.dm is False:
                kinds["channel " + record.method] += 1
            else:
                kinds[f"{record.method} {record.route}"] += 1
        limited = sum(1 for r in window if r.status == 429)
        counted = sum(n for k, n in kinds.items() if not k.startswith(("interaction", "followups")))
        to_post, to_panel = self.latencies(first.at, last.at)
        updated = sum(n for k, n in self.clicks.items() if k.endswith(" 7"))
        refused = sum(n for k, n in self.clicks.items() if k.endswith(" 4"))
        unanswered = sum(n for k, n in self.clicks.items() if k.endswith(" None"))
        running = max((running_at_start + running_at_end) / 2, 1)
        limits = "off" if args.no_limits else f"global {args.global_limit}/s, channel 5/5 s"
        lines = [
            f"load: {args.races} races wanted ({args.ordering:.0%} with two people ordering after 0.5-5 s, the rest "
            f"one idle person; one bot each; the four systems in turn), pace {args.pace}, {args.database}, "
            f"{args.workers} engine worker(s), limits {limits}, the bot's pace "
            f"{args.bot_pace or max(1, args.global_limit * 9 // 10)}/s",
            f"opened {self.opened} races ({dict(self.open_failures) or 'no failures'}); in progress at the window's "
            f"start {running_at_start}, end {running_at_end}; lobbies open after "
            f"{max(self.lobbies_ready - t0, 0):.0f} s, started after {opened_in:.0f} s",
            f"in progress at the end: {sum(1 for r in self.races.values() if not r.done and r.ordering)} with people "
            f"ordering, {sum(1 for r in self.races.values() if not r.done and not r.ordering)} idle; clicks "
            f"{sum(self.clicks.values())} ({updated} updated a panel, {refused} refused, {unanswered} unanswered in "
            f"{ACK_SECONDS:.0f} s)",
            "clicks by system, button and answer (7 panel updated, 4 refused, None unanswered): "
            + ", ".join(f"{k} {n}" for k, n in sorted(self.clicks.items())),
            f"window {seconds:.0f} s: {steps} steps resolved ({steps / max(seconds, 1):.1f} a second)",
            "latency last order -> round post, ms   p50    p95    p99    max",
            *(f"  {system:<14}{'':22}{_percentiles(to_post.get(system, []))}" for system, _, _ in SYSTEMS),
            f"  {'all':<14}{'':22}{_percentiles([v for vs in to_post.values() for v in vs])}",
            f"  still without a round post at the window's end: {len(self.waiting)} steps, waiting so far (a "
            f"lower bound of their latency) {_percentiles(self.waiting)}",
            "latency last order -> next panel, ms   p50    p95    p99    max",
            *(f"  {system:<14}{'':22}{_percentiles(to_panel.get(system, []))}" for system, _, _ in SYSTEMS),
            f"  {'all':<14}{'':22}{_percentiles([v for vs in to_panel.values() for v in vs])}",
            f"requests: {len(window)} ({len(window) / max(seconds, 1):.1f}/s; counted by the global limit "
            f"{counted / max(seconds, 1):.1f}/s), {len(window) / max(steps, 1):.1f} a step: "
            + ", ".join(f"{k} {n}" for k, n in kinds.most_common()),
            f"429s: {limited} ({last.global_429 - first.global_429} global, {last.channel_429 - first.channel_429} "
            f"channel); interactions answered late (> 3 s) or problems at the fake: {len(self.fake.problems)}",
            f"bot memory: {idle_rss / 2**20:.0f} MiB idle, {last.rss / 2**20:.0f} MiB with {running_at_end} races: "
            f"{(last.rss - idle_rss) / running / 1024:.0f} KiB a race in progress",
            f"bot CPU: {last.cpu - first.cpu:.1f} s in {seconds:.0f} s ({(last.cpu - first.cpu) / max(seconds, 1):.0%} "
            f"of a core; {idle_rate:.0%} idle), {(last.cpu - first.cpu) / max(steps, 1) * 1000:.1f} ms a step "
            f"({(last.cpu - first.cpu - idle_rate * seconds) / max(steps, 1) * 1000:.1f} ms less the idle polls; "
            "the clicks, openings and deliveries of the window included)",
            f"click -> its answer (polled every 50 ms), ms: {_percentiles(self.acks).replace('steps', 'clicks')}",
            f"bot loop stalls >= 50 ms in the window: {len(stalls)}, longest {max(stalls, default=0)} ms "
            f"({stalls_before} during start-up); this process's own longest stall {probe.longest * 1000:.0f} ms",
        ]
        return "\n".join(lines)


async def _admin(server: str, sql: str) -> None:
    import asyncpg

    url = make_url(server)
    conn = await asyncpg.connect(
        host=url.host, port=url.port, user=url.username, password=url.password, database=url.database
    )
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


async def main(args: argparse.Namespace) -> int:
    if args.py_spy and shutil.which("py-spy") is None:
        print("--py-spy needs py-spy on the PATH (pip install py-spy)", file=sys.stderr)
        return 2
    current = asyncio.current_task()
    assert current is not None
    for signum in (signal.SIGTERM, signal.SIGINT):  # stopped early: the bot is killed, the database dropped
        asyncio.get_running_loop().add_signal_handler(signum, current.cancel)
    with tempfile.TemporaryDirectory(prefix="gregario-load-") as scratch:
        folder = Path(args.keep) if args.keep else Path(scratch)
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "tls").mkdir(exist_ok=True)
        cert, key = make_certificate(folder / "tls")
        server = os.environ.get("GREGARIO_TEST_DATABASE_URL", "").strip()
        name = ""
        if args.database == "postgresql":
            if not server:
                print("--database postgresql needs GREGARIO_TEST_DATABASE_URL", file=sys.stderr)
                return 2
            name = f"gregario_load_{uuid.uuid4().hex[:10]}"
            await _admin(server, f'CREATE DATABASE "{name}"')
            url = make_url(server).set(database=name).render_as_string(hide_password=False)
        else:
            url = f"sqlite+aiosqlite:///{folder / 'races.sqlite3'}"
        fake = LoadFake(cert, key)
        await fake.start()
        load = Load(args, fake, folder, url)
        try:
            print(await load.run(), flush=True)
        finally:
            if load.process is not None and load.process.returncode is None:
                load.process.send_signal(signal.SIGKILL)
                await load.process.wait()
            await fake.stop()
            if name:
                await _admin(server, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    return 0


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--races", type=int, default=1000, help="races in progress (default 1000)")
    parser.add_argument("--minutes", type=float, default=5.0, help="minutes measured once they are open (default 5)")
    parser.add_argument("--ordering", type=float, default=0.5, help="share of races with two people ordering")
    parser.add_argument("--database", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--pace", default="30s", help="the races' pace (default 30s, the shortest)")
    parser.add_argument("--workers", type=int, default=1, help="the bot's engine workers (default 1)")
    parser.add_argument("--opening", type=int, default=10, help="races opened at once (default 10)")
    parser.add_argument("--ramp", type=float, default=600.0, help="longest wait for the races to open (s)")
    parser.add_argument(
        "--global-limit", type=int, default=50, help="the fake's global limit, requests a second (Discord: 50)"
    )
    parser.add_argument(
        "--bot-pace", type=int, default=0, help="GREGARIO_REQUESTS_PER_SECOND (default: 90%% of --global-limit)"
    )
    parser.add_argument("--no-limits", action="store_true", help="lift Discord's rate limits at the fake")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", action="store_true", help="run the bot under cProfile (bot.prof in --keep)")
    parser.add_argument(
        "--py-spy",
        action="store_true",
        help="sample the bot with py-spy in the window (collapsed stacks: bot.stacks in --keep)",
    )
    parser.add_argument("--keep", default="", help="a folder to keep the database and the bot's log in")
    return parser.parse_args()


if __name__ == "__main__":
    sys.exit(asyncio.run(main(_arguments())))
