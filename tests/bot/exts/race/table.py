"""A table of players driving a race through the fake Discord by buttons and selects only.

The players act as people do: DM panels for those with open DMs, **Open my orders** on the round post
for a player whose DMs are closed. The test reads the race's state from the services only to know whom
the race awaits (a person would read the round post).
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Any

from bot.exts.race._delivery import copy_nonce
from bot.i18n import t
from bot.services import boards, lobby, owed, posts, records
from bot.services.context import Context
from bot.store import outbox
from bot.store.outbox import OwedKind
from engine.race import Race, replay
from engine.ruleset import PROGRESS_KEY
from tests.fakediscord.server import FakeDiscord
from tests.fakediscord.users import DiscordUser
from tests.fakediscord.world import Channel, Message

TIMEOUT = 20.0
POLL = 0.02
"""How often the table looks at the race while waiting for the bot (the race's time is the test's clock)."""


def lap_of(race: Race) -> str:
    """The lap of turns a race is in, as its progress marker says: "<number>:<lap>"."""
    marker = race.ruleset.public_view(race.state)[PROGRESS_KEY]
    return f"{marker['number']}:{marker['lap']}"


async def laps_after(ctx: Context, race_id: int) -> dict[int, str]:
    """The lap after each resolved step (0: the start), the record replayed with the engine: a turn's
    lap is the one after the step before it."""
    laps: dict[int, str] = {}
    replay(await records.race_record(ctx, race_id), on_state=lambda n, race: laps.__setitem__(n, lap_of(race)))
    return laps


SEND = "Send my order"
"""The review's button that makes a panel's draft count (a draft built with buttons does not until then)."""


def picks_on(message: Message) -> list[dict[str, Any]]:
    """The panel's choice buttons and selects still enabled (the review's "change a part" select aside)."""
    return [
        c
        for c in message.items()
        if not c.get("disabled") and str(c.get("custom_id", "")).startswith(("gr:b:", "gr:s:"))
    ]


def sendable(message: Message, send: str = SEND) -> bool:
    """Whether the panel is a review of a draft, with **Send my order** (``send``: in its reader's language)
    to press."""
    return any(c.get("type") == 2 and c.get("label") == send and not c.get("disabled") for c in message.items())


def step_of(message: Message) -> int | None:
    """The step a panel belongs to, as its components say (``gr:<kind>:<race>:<step>...``); the text
    shows the race's counter (a round, a lap), not the step."""
    for item in message.items():
        parts = str(item.get("custom_id", "")).split(":")
        if len(parts) >= 4 and parts[0] == "gr" and parts[1] in ("b", "s", "c", "t", "g") and parts[3].isdigit():
            return int(parts[3])
    return None


async def turn_texts(ctx: Context, race_id: int, steps: list[int]) -> dict[int, list[str]]:
    """What each resolved step's events say (English, riders by id or name as the bot tells them), to
    find a turn in a lap's message by its events: the text shows the lap's counter, not the step."""
    return {
        step: [str(e["message"]["text"]) for e in events if e.get("message")]
        for step, events in ((turn.step, turn.events) for turn in await owed.turns(ctx, race_id, steps))
    }


def told_in(text: str, lines: list[str]) -> bool:
    """Whether a turn's events are all in ``text`` (a turn without events is not findable: True)."""
    return all(line in text for line in lines)


def threads_of(user: DiscordUser, channel: Channel | None = None) -> list[Channel]:
    """The races' threads opened in the person's channel (or ``channel``), oldest first."""
    where = channel or user.channel
    return sorted(
        (c for c in user.fake.channels.values() if c.parent is not None and c.parent is where), key=lambda c: c.id
    )


def race_reads(user: DiscordUser, channel: Channel | None = None) -> list[Message]:
    """What the person reads of the races in their channel (or ``channel``): the channel's messages and
    those of the races' threads opened from it, oldest first. A race's posts go to its thread (or to the
    channel without one); its final post is in both, two messages."""
    seen = [*user.read(channel), *(m for thread in threads_of(user, channel) for m in user.read(thread))]
    return sorted(seen, key=lambda m: m.id)


def is_final(message: Message) -> bool:
    """Whether a post carries a race record (the final post or its thread copy, the Gazzetta)."""
    return any(a.filename.startswith("race-") for a in message.attachments)


def is_final_copy(fake: FakeDiscord, thread: Channel, message: Message) -> bool:
    """Whether ``message`` is the copy of a final post in its race's thread: made with the copy's nonce,
    the one derived from the final post's own (the Gazzetta, posted in the thread only, is not one)."""
    for attachment in message.attachments:
        name = attachment.filename
        if name.startswith("race-") and name.endswith(".json") and name[5:-5].isdigit():
            expected = copy_nonce(outbox.nonce(int(name[5:-5]), OwedKind.FINAL_POST, 0))
            made = fake._nonces.get((thread.id, expected))
            return made is not None and made[0] is message
    return False


def finals(user: DiscordUser) -> list[Message]:
    """Posts carrying a race record that the person reads in their channel and its races' threads (the
    final post, the Gazzetta in the thread), oldest first: each delivery once, so a final post's copy in
    the thread is left out (the channel's is the one links point to)."""
    found = [m for m in user.read() if is_final(m)]
    for thread in threads_of(user):
        found += [m for m in user.read(thread) if is_final(m) and not is_final_copy(user.fake, thread, m)]
    return sorted(found, key=lambda m: m.id)


async def pick(user: DiscordUser, panel: Message, *, last: bool = False) -> None:
    """Pick the first (or last) choice of the panel's first field."""
    first = picks_on(panel)[0]
    if first.get("type") == 2:
        field = first["custom_id"].rsplit(":", 1)[0]
        buttons = [c for c in picks_on(panel) if c.get("type") == 2 and c["custom_id"].rsplit(":", 1)[0] == field]
        await (await user.click(panel, (buttons[-1] if last else buttons[0])["label"])).acknowledged()
    else:
        option = first["options"][-1 if last else 0]["label"]
        await (await user.choose(panel, option, placeholder=first.get("placeholder"))).acknowledged()


@dataclass
class Table:
    fake: FakeDiscord
    ctx: Context
    race_id: int
    players: dict[str, DiscordUser]
    """Entrant id -> the person."""
    closed: set[str] = field(default_factory=set)
    """Entrants whose DMs are closed: they order through Open my orders."""
    ephemerals: dict[str, Message] = field(default_factory=dict)
    """The last ephemeral panel each closed-DM player opened."""
    locales: dict[str, str] = field(default_factory=dict)
    """Entrants who read another language than English: the buttons they press are labelled in it."""
    channel_locale: str = "en"
    """The language of the race's posts (Open my orders on a round post is labelled in it)."""

    def label(self, entrant: str, key: str) -> str:
        """A button's label as ``entrant`` reads it (their panels speak their language)."""
        return t(key, self.locales.get(entrant, "en"))

    async def state(self) -> tuple[str, int, list[str]]:
        view = await lobby.view(self.ctx, self.race_id)
        humans = [e for e in view.awaiting if e in self.players]
        return view.status, view.step, humans

    def dm_panel(self, entrant: str, step: int) -> Message | None:
        user = self.players[entrant]
        for message in reversed(user.dms()):
            if step_of(message) == step:
                return message
        return None

    async def panel(self, entrant: str, step: int) -> Message:
        """The player's panel for ``step`` (waiting for its DM, or opening it from the round post, in the
        race's thread or its channel)."""
        user = self.players[entrant]
        if entrant not in self.closed:
            found: Message = await self.fake.wait_until(
                lambda: self.dm_panel(entrant, step), TIMEOUT, lambda: f"no DM panel for {user.name} at step {step}"
            )
            return found
        kept = self.ephemerals.get(entrant)
        if kept is not None and step_of(kept) == step:
            return kept
        wanted = f"gr:o:{self.race_id}:{step}"

        def post() -> Message | None:
            return next(
                (m for m in reversed(race_reads(user)) if any(c.get("custom_id") == wanted for c in m.items())), None
            )

        where: Message = await self.fake.wait_until(post, TIMEOUT, lambda: f"no Open my orders for step {step}")
        opened = await (await user.click(where, t("race.button.open_orders", self.channel_locale))).reply()
        assert opened.ephemeral_for is not None, "Open my orders answers privately"
        self.ephemerals[entrant] = opened
        return opened

    async def order(self, entrant: str, step: int) -> Message:
        """Pick first choices until the order is complete, send it from the review, and stop once it is sent
        (the panel offers Change without Send) or the step resolves."""
        panel = await self.panel(entrant, step)
        for _ in range(60):
            await self.fake.settle()
            status, now, _humans = await self.state()
            if now != step or status != "running":
                return panel
            send = self.label(entrant, "race.button.send")
            if sendable(panel, send):
                await (await self.players[entrant].click(panel, send)).acknowledged()
                continue
            if not picks_on(panel) or self.label(entrant, "race.button.change") in panel.buttons:
                return panel
            await pick(self.players[entrant], panel)
        raise AssertionError(f"{entrant} never completed an order at step {step}: {panel.text}")

    async def post_of(self, step: int) -> Message | None:
        """The post that tells ``step``, in the race's thread or its channel (as the bot stored it)."""
        stored = [p for p in await boards.posts_of(self.ctx, self.race_id, step) if p.kind == "step"]
        if not stored:
            return None
        channel = self.fake.channels.get(stored[0].channel_id)
        return next((m for m in (channel.messages if channel else []) if m.id == stored[0].message_id), None)

    async def started(self) -> None:
        """Wait until the race runs and awaits a person (the Start click is answered before the work)."""
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline:
            status, _step, humans = await self.state()
            if status == "running" and humans:
                return
            await asyncio.sleep(POLL)
        raise AssertionError("the race never started")

    async def all_told(self) -> None:
        """Wait until every step resolved so far is told in the race's thread (the Start click's work, and
        the bots' turns it chained, are done), so a test may stop the bot without cutting a post in half."""
        deadline = time.monotonic() + TIMEOUT
        while await posts.unposted_steps(self.ctx, self.race_id):
            if time.monotonic() > deadline:
                raise AssertionError("resolved steps were never told")
            await asyncio.sleep(POLL)
        await self.fake.settle(0.2, 5)

    async def delivered(self) -> None:
        """Wait until nothing the race owes Discord is left undelivered (a backlog told after a restart),
        then until the fake is quiet: a quiet moment alone may fall inside the backlog (a picture drawn)."""
        deadline = time.monotonic() + TIMEOUT
        while True:
            async with self.ctx.db.sessions() as session:
                left = await outbox.rows_of(session, self.race_id, pending=True)
            if not left:
                break
            if time.monotonic() > deadline:
                raise AssertionError(f"never delivered: {[(r.owed.kind.value, r.owed.step) for r in left]}")
            await asyncio.sleep(POLL)
        await self.fake.settle(0.2, 5)

    async def wait_step_after(self, step: int) -> None:
        async def moved() -> bool:
            status, now, _ = await self.state()
            return status != "running" or now > step

        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline:
            if await moved():
                return
            await asyncio.sleep(POLL)
        raise AssertionError(f"step {step} never resolved")
