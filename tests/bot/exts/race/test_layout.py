"""The largest races of each system laid out within Discord's limits (issue 24, R-DC-9): a 12-player Flamme
Rouge race, a 20-rider Tabella race, an 8-player Wyścig stage and a 6-team Mind Cycling race, one person
and the rest bots, played to the final post with the real bot delivering every round post, lap message
and panel to the fake Discord, which checks each one as Discord does (components per message, text
across the text displays, rows, alt text) and refuses what Discord would refuse.

The person's orders are the rules' automatic ones (the deadline's path, forced here), so the race goes as
fast as its bots and nothing but the layout is exercised; their panels still come and are closed."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.app import Gregario
from bot.services import lobby, resolution
from bot.services.outcomes import MemberRef
from bot.store import outbox
from tests.bot.exts.race.table import Table, finals
from tests.fakediscord.limits import MOST_COMPONENTS_V2, MOST_TEXT_V2, message_problem
from tests.fakediscord.server import FakeDiscord
from tests.fakediscord.users import DiscordUser
from tests.fakediscord.world import COMPONENTS_V2, Guild, Message, walk_components

LARGEST: dict[str, tuple[int, Any, dict[str, Any] | None]] = {
    "flamme_rouge": (12, None, {"riders_per_player": 1}),
    "tabella": (20, None, None),
    "wyscig": (8, {"deck": "itemised_108", "stages": 1}, {"max_players": 8}),
    "mind_cycling": (6, None, None),
}
"""Each system's largest field: seats, stage, options."""


def _size(message: Message) -> tuple[int, int]:
    """A layout message's components (nested included) and characters across its text displays."""
    found = list(walk_components(message.components))
    return len(found), sum(len(c.get("content") or "") for c in found if c.get("type") == 10)


@pytest.mark.parametrize("ruleset", list(LARGEST))
async def test_the_largest_race_of_each_system_fits_discords_limits(
    gregario: Gregario, fake_discord: FakeDiscord, guild: Guild, alice: DiscordUser, ruleset: str
) -> None:
    fake = fake_discord
    assert gregario.runtime is not None
    ctx = gregario.runtime.ctx
    seats, stage, options = LARGEST[ruleset]
    opener = MemberRef(guild.id, alice.id, alice.name)
    start = len(fake.requests)
    race = await lobby.open_lobby(ctx, opener, alice.channel.id, ruleset, stage=stage, options=options, bots=seats - 1)
    assert len(race.seats) == seats
    await lobby.start(ctx, race.race_id, alice.id, manager=True)
    table = Table(fake, ctx, race.race_id, {f"u{alice.id}": alice})
    panels_seen = 0
    for _ in range(3000):
        status, step, humans = await table.state()
        if status != "running":
            break
        if humans:
            await table.panel(humans[0], step)  # the panel came (checked by the fake), then the deadline
            panels_seen += 1
            await resolution.resolve(ctx, race.race_id, step, force=True)
        await table.wait_step_after(step)
    else:
        raise AssertionError("the race did not finish")
    await fake.wait_until(lambda: finals(alice), 20, lambda: "no final post")
    for _wait in range(400):
        async with ctx.db.sessions() as session:
            pending = await outbox.rows_of(session, race.race_id, pending=True)
        if not pending:
            break
        await asyncio.sleep(0.05)
    else:
        raise AssertionError(f"still owed: {pending}")

    refused = [(r.method, r.route, r.status) for r in fake.requests[start:] if r.status >= 400]
    assert refused == [], "nothing the bot sent was refused"
    assert panels_seen, "the person was asked at least once"
    posts = [m for m in alice.read() if m.author is fake.bot_user and m.ephemeral_for is None]
    laid_out = [m for m in [*posts, *fake.dm_channel(alice.user).messages] if m.flags & COMPONENTS_V2]
    assert len(laid_out) >= 2, "the round posts and the panels are layouts"
    for message in laid_out:
        # The fake checked every version as it came (a lap's message is edited turn by turn: a refusal
        # would be a 4xx above); the versions kept are checked again here, and measured.
        assert message_problem(message, allow_empty=False) is None, message.text[:200]
        components, text = _size(message)
        assert components <= MOST_COMPONENTS_V2 and text <= MOST_TEXT_V2
    pictured = [m for m in posts if any(c.get("type") == 12 for c in walk_components(m.components))]
    assert pictured, "the board comes as a media gallery item"
    largest = max(laid_out, key=lambda m: _size(m)[1])
    print(f"\n{ruleset} ({seats} seats): {len(laid_out)} layouts, largest {_size(largest)} (components, characters)")
