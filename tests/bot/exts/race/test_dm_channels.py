"""A player's DM channel is opened once a process: past discord.py's 128 remembered private channels, a
panel does not cost a request to open it again."""

from __future__ import annotations

from bot.app import Gregario
from bot.exts.race import _posts
from tests.fakediscord.server import FakeDiscord


async def test_a_dm_channel_is_opened_once_even_past_discord_py_s_128(
    gregario: Gregario, fake_discord: FakeDiscord
) -> None:
    """140 people, each DM channel asked twice (a panel, then the next one): 140 opened, no more; each id is
    the channel the fake has with that person."""
    people = [fake_discord.create_user(f"P{n}") for n in range(140)]

    def opened() -> int:
        return sum(1 for r in fake_discord.requests if r.method == "POST" and r.path.endswith("/users/@me/channels"))

    before = opened()
    first = [await _posts.dm_channel(gregario, p.id) for p in people]
    again = [await _posts.dm_channel(gregario, p.id) for p in people]
    assert first == again == [fake_discord.dm_channel(p).id for p in people]
    assert opened() - before == 140
