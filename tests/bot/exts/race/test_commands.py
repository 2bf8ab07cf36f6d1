"""The /race commands, typed orders, and the fake's nonce, one behaviour at a time."""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot.app import Gregario
from bot.i18n import t
from bot.store.ledger import PostKind
from tests.bot.exts.race.table import Table, laps_after, race_reads, told_in, turn_texts
from tests.fakediscord.server import FakeDiscord
from tests.fakediscord.users import DiscordUser
from tests.fakediscord.world import Message


def first_field_labels(panel: Message) -> list[str]:
    """The choices of the panel's first field (the speed card), as buttons or as a select's options.

    The card is field 0 of the pick's custom id (``gr:b:…:field:choice``, ``gr:s:…:field:page``); a
    hand with more than five cards is a select, and a descent card in hand adds a second field whose
    buttons are the counts 0 and 1, which are not cards."""
    labels: list[str] = []
    for component in panel.items():
        parts = str(component.get("custom_id", "")).split(":")
        if parts[:2] not in (["gr", "b"], ["gr", "s"]) or len(parts) < 7 or parts[5] != "0":
            continue
        if component.get("type") == 2:
            labels.append(component["label"])
        else:
            labels += [option["label"] for option in component.get("options", [])]
    return labels


async def _recorded(table: Table, answer: Message) -> bool:
    """Whether the answer to a typed order says it was recorded: the panel showing the order, or, when the
    order completed the step and the step resolved before the answer (the resolution runs beside it), the
    receipt saying the race moves on, in its thread."""
    return "Your order" in answer.text or answer.text == t("race.panel.resolving", "en")


async def _started(gregario: Gregario, fake: FakeDiscord, alice: DiscordUser) -> Table:
    lobby = await (await alice.slash("race new", ruleset="wyscig", stage='{"stages": 1}', bots=1)).reply()
    await (await alice.click(lobby, "Start")).acknowledged()
    assert gregario.runtime is not None
    race_id = int(lobby.items()[0]["custom_id"].split(":")[2])
    table = Table(fake, gregario.runtime.ctx, race_id, {f"u{alice.id}": alice})
    await table.started()
    await table.all_told()
    return table


async def test_a_typed_order_is_recorded_and_a_bad_one_refused(
    gregario: Gregario, fake_discord: FakeDiscord, alice: DiscordUser
) -> None:
    """Type my order takes the text syntax; a card not in hand is refused with the rules' words."""
    table = await _started(gregario, fake_discord, alice)
    _status, step, _humans = await table.state()
    panel = await table.panel(f"u{alice.id}", step)
    modal = await (await alice.click(panel, "Type my order")).modal()
    refused = await (await alice.submit(modal, {"Your order": "play 99"}, channel=panel.channel)).reply()
    assert refused.ephemeral_for is not None and "99" in refused.text
    _status, still, _ = await table.state()
    assert still == step, "a refused order changes nothing"
    card = first_field_labels(panel)[0].split()[0]
    modal = await (await alice.click(panel, "Type my order")).modal()
    recorded = await (await alice.submit(modal, {"Your order": f"play {card}"}, channel=panel.channel)).reply()
    assert await _recorded(table, recorded), f"play {card} was refused: {recorded.text}"
    await table.wait_step_after(step)


DESCENT_SEED = 2
"""A seed whose first turn for Alice (beside one bot) offers six speed cards and a descent card."""


async def test_a_typed_card_is_found_beside_the_descent_buttons(
    gregario: Gregario, fake_discord: FakeDiscord, alice: DiscordUser, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With six cards and a descent in hand, the cards are a select and the descents are buttons saying what
    they add; the card typed from the select is recorded and the step resolves."""
    monkeypatch.setattr("bot.services.lobby.secrets.randbelow", lambda _bound: DESCENT_SEED)
    table = await _started(gregario, fake_discord, alice)
    _status, step, _humans = await table.state()
    panel = await table.panel(f"u{alice.id}", step)
    assert any(c.get("type") == 3 for c in panel.items()), "six cards are offered as a select"
    descents = [c["label"] for c in panel.items() if str(c.get("custom_id", "")).startswith("gr:b:")]
    assert descents == ["No descent", "1 descent: +2 km/h"], "the descent count is the only field of buttons"
    card = first_field_labels(panel)[0].split()[0]
    assert card not in descents
    modal = await (await alice.click(panel, "Type my order")).modal()
    recorded = await (await alice.submit(modal, {"Your order": f"play {card}"}, channel=panel.channel)).reply()
    assert await _recorded(table, recorded), f"play {card} was refused: {recorded.text}"
    await table.wait_step_after(step)


async def test_status_picks_the_only_race_and_asks_when_there_are_two(
    gregario: Gregario, fake_discord: FakeDiscord, alice: DiscordUser
) -> None:
    """With one race /race status needs no number; with two it asks which, and autocomplete lists both."""
    await (await alice.slash("race new", ruleset="mind_cycling")).reply()
    answer = await (await alice.slash("race status")).reply()
    assert "race #1" in answer.text and "lobby" in answer.text
    await (await alice.slash("race new", ruleset="tabella")).reply()
    answer = await (await alice.slash("race status")).reply()
    assert "several races" in answer.text and "#1" in answer.text and "#2" in answer.text
    suggested = await alice.autocomplete("race status", "race", "")
    assert {value for _name, value in suggested} == {1, 2}
    answer = await (await alice.slash("race status", race=2)).reply()
    assert "race #2" in answer.text


async def test_the_opener_cancels_and_the_lobby_says_so(
    gregario: Gregario, fake_discord: FakeDiscord, alice: DiscordUser, bob: DiscordUser
) -> None:
    """Bob may not cancel Alice's lobby (he lacks Manage Server); Alice may, and the lobby message says so."""
    fake_discord.guilds[0].members[bob.id].permissions = str(1 << 10 | 1 << 11)
    lobby = await (await alice.slash("race new", ruleset="mind_cycling")).reply()
    refused = await (await bob.click(lobby, "Cancel")).reply()
    assert "Only the person who opened this race" in refused.text
    await (await alice.click(lobby, "Cancel")).acknowledged()
    await fake_discord.settle()
    assert "cancelled" in lobby.text and not lobby.buttons


async def test_the_same_nonce_posts_once(gregario: Gregario, fake_discord: FakeDiscord, alice: DiscordUser) -> None:
    """Posting twice with one enforced nonce returns the first message, as Discord does."""
    from bot.exts.race import _posts

    channel = alice.channel
    assert channel is not None
    first = await _posts.send(gregario, channel.id, "Round 1", nonce="g1-step-1")
    again = await _posts.send(gregario, channel.id, "Round 1", nonce="g1-step-1")
    other = await _posts.send(gregario, channel.id, "Round 2", nonce="g1-step-2")
    assert first == again != other
    assert [m.text for m in alice.read()].count("Round 1") == 1


async def test_the_board_command_shows_the_current_board_privately(
    gregario: Gregario, fake_discord: FakeDiscord, alice: DiscordUser
) -> None:
    """/race board answers only Alice, with the board picture of her race."""
    await _started(gregario, fake_discord, alice)
    handle = await alice.slash("race board")
    board = await handle.reply()
    assert board.ephemeral_for is not None and board.attachments
    assert board.attachments[0].filename.endswith(".png")


async def test_a_step_resolved_but_never_posted_is_posted_once_after_a_restart(
    fake_discord: FakeDiscord, bot_settings: Any, alice: DiscordUser
) -> None:
    """The post's id was lost (a stop between posting and storing it: its outbox row is still owed, no
    ledger entry): the next start delivers it again with the same nonce, and Discord answers with the
    message already there: one post, its id stored."""
    from sqlalchemy import delete, select, update

    from bot.store.tables import OutboxRow, PostedMessage
    from tests.fakediscord.plugin import running_bot

    def step_posts() -> Any:
        return select(PostedMessage).where(PostedMessage.kind == "step")  # type: ignore[arg-type]

    async with running_bot(fake_discord, bot_settings) as bot:
        table = await _started(bot, fake_discord, alice)
        await fake_discord.wait_until(
            lambda: [m for m in race_reads(alice) if "race #1 · the start" in m.text], 3, lambda: "no start post"
        )
        await fake_discord.settle(0.2, 3)
        seen_before = [m.id for m in race_reads(alice)]
        async with table.ctx.db.sessions() as session, session.begin():
            # the start post, and the bot's turns if the bot rode first
            posted = sorted(p.message_id for p in (await session.execute(step_posts())).scalars())
            assert posted, "the start was posted"
            await session.execute(delete(PostedMessage).where(PostedMessage.kind == "step"))  # type: ignore[arg-type]
            await session.execute(
                update(OutboxRow)
                .where(OutboxRow.kind.in_(("step_post", "lap_turn")))  # type: ignore[attr-defined]
                .values(done_at=None, delivered=False, message_id=None, claimed_until=None)
            )
    async with running_bot(fake_discord, bot_settings) as bot:
        assert bot.runtime is not None
        await fake_discord.settle(0.3, 5)
        assert [m.id for m in race_reads(alice)] == seen_before, "posted again with the same nonces: no new message"
        async with bot.runtime.ctx.db.sessions() as session:
            stored = sorted(p.message_id for p in (await session.execute(step_posts())).scalars())
            assert stored == posted, "each post's id is stored again"


async def test_a_lap_of_turns_is_one_message_edited_and_the_next_lap_a_new_one(
    gregario: Gregario, fake_discord: FakeDiscord, alice: DiscordUser
) -> None:
    """Wyścig turn by turn: each lap's turns fill one message in the race's thread (posted once, edited per later turn);
    when the lap number moves on, the next turn starts a new message."""
    from bot.services import boards

    table = await _started(gregario, fake_discord, alice)

    async def laps() -> list[Any]:
        return [p for p in await boards.posts_of(table.ctx, table.race_id) if p.kind is PostKind.LAP]

    for _ in range(20):
        status, step, humans = await table.state()
        if status != "running" or len(await laps()) >= 3:
            break
        if humans:
            await table.order(humans[0], step)
        await table.wait_step_after(step)
    await fake_discord.settle(0.2, 3)
    stored = await boards.posts_of(table.ctx, table.race_id)
    lap_posts = [p for p in stored if p.kind is PostKind.LAP]
    assert len(lap_posts) >= 3, "three laps begun"
    assert len({p.message_id for p in lap_posts}) == len(lap_posts), "each lap is a message of its own"
    assert [p.lap for p in lap_posts[:2]] == ["1:1", "1:2"]
    seen = {m.id: m for m in race_reads(alice)}
    turns = 0
    for lap in lap_posts[:2]:  # complete laps
        told = sorted(p.step for p in stored if p.kind == "step" and p.message_id == lap.message_id)
        assert told and told[0] == lap.step, "the lap's message starts with its first turn"
        message = seen[lap.message_id]
        assert len(message.history) == len(told) - 1, "posted at the first turn, edited once per later turn"
        said = await turn_texts(table.ctx, table.race_id, told)
        for s in told:
            assert told_in(message.text, said[s]), "every turn of the lap is in its message"
        turns += len(told)
        # The lap's picture (posted with its first turn, refreshed as it closes) is titled by the headline's counter.
        headline = re.search(r"· (Stage \d+, lap \d+)\*\*", message.text)
        assert headline is not None, message.text
        titles = {a.description.splitlines()[0] for a in message.attachments if a.description}
        assert titles == {f"Wyścig kolarski · {headline.group(1)}"}, (titles, headline.group(1))
    assert turns >= 3, "a lap holds more than one turn"
    laps = await laps_after(table.ctx, table.race_id)
    for lap in lap_posts:
        told = [p.step for p in stored if p.kind == "step" and p.message_id == lap.message_id]
        assert {laps[s - 1] for s in told} == {lap.lap}, (
            f"only its own lap's turns: {told} {laps} {[(p.step, p.kind, p.message_id) for p in stored]}"
        )
    later = max(p.step for p in stored if p.kind == "step" and p.message_id == lap_posts[0].message_id)
    following = (await turn_texts(table.ctx, table.race_id, [later + 1])).get(later + 1) or []
    earlier = [
        line
        for lines in (await turn_texts(table.ctx, table.race_id, list(range(1, later + 1)))).values()
        for line in lines
    ]
    fresh = [line for line in following if line not in earlier]
    assert not any(line in seen[lap_posts[0].message_id].text for line in fresh), "the next lap's turns go elsewhere"
