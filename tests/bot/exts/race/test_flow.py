"""Races on Discord, end to end against the fake: lobby, DM panels, round posts, the final post."""

from __future__ import annotations

import json

import pytest

from bot.app import Gregario
from tests.bot.exts.race.table import SEND, picks_on, sendable
from tests.fakediscord.server import FakeDiscord
from tests.fakediscord.users import DiscordUser
from tests.fakediscord.world import Message

SHORT = {
    "flamme_rouge": "Sprint de Montagne",
    "tabella": None,
    "wyscig": '{"deck": "itemised_108", "stages": 1}',
    "mind_cycling": "short",
}


def _panel(user: DiscordUser) -> Message | None:
    """The player's newest DM that is an open panel: choices to pick, or a draft to send."""
    live = [m for m in user.dms() if (picks_on(m) and "Change" not in m.buttons) or sendable(m)]
    return live[-1] if live else None


def _finals_in(messages: list[Message]) -> list[Message]:
    return [m for m in messages if any(a.filename.startswith("race-") for a in m.attachments)]


def _finals(user: DiscordUser) -> list[Message]:
    """The final post in the channel."""
    return _finals_in(user.read())


async def _play_first(user: DiscordUser, panel: Message, attempt: int = 0) -> None:
    """Pick the first choice of one part of the order: the ``attempt``-th part offered (buttons first, then
    selects), so a part that leaves the panel as it was (a Wyścig descent count of 0 beside a hand shown as
    a select) is followed by the next part rather than picked forever."""
    if sendable(panel):
        await (await user.click(panel, SEND)).acknowledged()
        return
    items = picks_on(panel)
    parts: list[tuple[str, dict[str, object]]] = []
    seen_fields: set[str] = set()
    for c in items:
        if c.get("type") == 2 and c["custom_id"].startswith("gr:b:"):
            field = ":".join(c["custom_id"].split(":")[:6])
            if field not in seen_fields:
                seen_fields.add(field)
                parts.append(("button", c))
    parts += [("select", c) for c in items if c.get("type") == 3]
    assert parts, f"a panel with nothing to pick: {panel!r}"
    kind, item = parts[attempt % len(parts)]
    if kind == "button":
        await (await user.click(panel, item["label"])).acknowledged()
        return
    options = item["options"]
    assert isinstance(options, list)
    await (await user.choose(panel, options[0]["label"], placeholder=item.get("placeholder"))).acknowledged()


@pytest.mark.parametrize("ruleset", list(SHORT))
async def test_a_race_from_lobby_to_result(
    gregario: Gregario, fake_discord: FakeDiscord, alice: DiscordUser, ruleset: str
) -> None:
    """Alice opens a lobby with a bot, starts it, orders by DM buttons and selects until the final post."""
    stage = {"stage": SHORT[ruleset]} if SHORT[ruleset] else {}
    handle = await alice.slash("race new", ruleset=ruleset, bots=1, **stage)
    lobby = await handle.reply()
    assert "Alice" in lobby.text and "Join" in lobby.buttons
    await (await alice.click(lobby, "Start")).acknowledged()
    last: tuple[int, str] | None = None
    attempt = 0
    for _ in range(400):
        await fake_discord.settle()
        if _finals(alice):
            break
        panel = _panel(alice)
        if panel is None:
            await fake_discord.wait_until(
                lambda: _panel(alice) or _finals(alice),
                5,
                lambda: f"no panel, no result: {[(m.text, m.items()) for m in alice.dms()[-1:]]}",
            )
            continue
        seen = (panel.id, panel.text)
        attempt = attempt + 1 if seen == last else 0
        last = seen
        await _play_first(alice, panel, attempt)
    finals = _finals(alice)
    assert finals, f"no final post: {[(m.text, m.items()) for m in alice.dms()[-1:]]}"
    record = json.loads(
        await alice.download(next(a for a in finals[0].attachments if a.filename.startswith("race-")).url)
    )
    assert record["ruleset"] == ruleset
    assert "League points:" in finals[0].text and "Alice +" in finals[0].text, "the post shows what the league gave"
    assert not any(mark in finals[0].text for mark in ("{", "[", "None")), "figures labelled, not raw Python"
    assert any(a.filename.endswith(".png") for a in finals[0].attachments), "the final post has its result card"
    channel = [m.id for m in alice.read() if not m.ephemeral]
    assert channel == [lobby.id, finals[0].id], "the channel keeps the lobby and the final post only"
    thread = fake_discord.channels[lobby.id]
    assert thread.is_thread and thread.parent is fake_discord.guilds[0].channel("races")
    await fake_discord.wait_until(lambda: thread.archived, 5, lambda: "the race's thread is archived once it ended")
    in_thread = [m for m in alice.read(thread) if not m.ephemeral]
    assert _finals_in(in_thread), "the final post is also posted in the thread"
    rounds = [m for m in in_thread if not _finals_in([m])]
    assert rounds, "round posts in the race's thread"
    header = next(m for m in alice.read() if m.id == lobby.id)
    assert f"<#{thread.id}>" in header.text, "the lobby links to the race's thread"
    unpictured = [m.text[:60] for m in rounds if not any(a.filename.endswith(".png") for a in m.attachments)]
    assert unpictured == [], "every round post carries the board's picture"
    rematch = await (await alice.click(finals[0], "Rematch")).reply()
    assert "race #2" in rematch.text and "Alice (opener)" in rematch.text
    assert rematch.text.count("(bot, ") == sum(1 for e in record["entrants"] if e.get("bot")), "the same seats"
