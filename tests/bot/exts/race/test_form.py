"""Panels as forms (issue 23), end to end against the fake Discord: every part of a decision reachable
with buttons and selects, Back, a review where any part changes, Send, and stale clicks refused."""

from __future__ import annotations

from typing import Any

import pytest

from bot.app import Gregario
from bot.exts.race import _form
from bot.i18n import t
from bot.services import lobby, orders, records
from bot.services.queries import step_orders
from tests.bot.exts.race.table import SEND, Table, picks_on, sendable
from tests.fakediscord.server import FakeDiscord
from tests.fakediscord.users import DiscordUser
from tests.fakediscord.world import Message
from tests.scan import counters, discord_texts, scan

STALE = t("interaction.stale_panel", "en-US")
SEED = 2
"""The race seed of the walk: Wyścig deals Alice a descent card in her first hand (an optional part)."""
SHORT = {
    "flamme_rouge": "Sprint de Montagne",
    "tabella": None,
    "wyscig": '{"deck": "itemised_108", "stages": 1}',
    "mind_cycling": "short",
}


async def _start(gregario: Gregario, fake: FakeDiscord, alice: DiscordUser, ruleset: str, **extra: Any) -> Table:
    stage = {"stage": SHORT[ruleset]} if SHORT[ruleset] else {}
    lobby_message = await (await alice.slash("race new", ruleset=ruleset, bots=1, **stage, **extra)).reply()
    await (await alice.click(lobby_message, "Start")).acknowledged()
    assert gregario.runtime is not None
    race_id = int(lobby_message.items()[0]["custom_id"].split(":")[2])
    table = Table(fake, gregario.runtime.ctx, race_id, {f"u{alice.id}": alice})
    await table.started()
    await table.all_told()
    return table


async def _open_panel(table: Table, alice: DiscordUser) -> tuple[int, Message]:
    _status, step, _humans = await table.state()
    return step, await table.panel(f"u{alice.id}", step)


def _select(panel: Message, placeholder: str) -> dict[str, Any]:
    [found] = [c for c in panel.items() if c.get("type") == 3 and c.get("placeholder") == placeholder]
    return found


def _shown(panel: Message) -> set[str]:
    """The digests the panel's choice buttons and selects carry (``gr:b|s:race:step:mode:field:digest:n``)."""
    return {str(c["custom_id"]).split(":")[6] for c in picks_on(panel)}


async def test_a_tabella_plan_with_a_special_and_the_bibitone_is_built_from_buttons_only(
    gregario: Gregario, fake_discord: FakeDiscord, alice: DiscordUser
) -> None:
    """Alice builds her plan with buttons and selects: a start, five moves (going Back once), a sprint of 30
    from the select's second page, then on the review the Bibitone and a Vigorilla with m3; she changes
    her start from the review and sends. The record holds exactly that plan."""
    table = await _start(gregario, fake_discord, alice, "tabella")
    step, panel = await _open_panel(table, alice)
    me = f"u{alice.id}"
    await (await alice.click(panel, "A Aggressiva")).acknowledged()
    for n in range(1, 6):
        await (await alice.click(panel, "3" if n == 2 else "2")).acknowledged()
        if n == 2:
            assert "Back" in panel.buttons
            await (await alice.click(panel, "Back")).acknowledged()
            stored = (await orders.panel(table.ctx, table.race_id, alice.id)).order or {}
            assert "m2" not in stored, f"Back took the effort of move 2 out: {stored}"
            await (await alice.click(panel, "2")).acknowledged()
        await (await alice.click(panel, "R →")).acknowledged()
    sprint = _select(panel, "Sprint 1: intensity")
    assert [o["label"] for o in sprint["options"]][-1] == "24"
    await (await alice.click(panel, "Next")).acknowledged()
    await (await alice.choose(panel, "30", placeholder="Sprint 1: intensity")).acknowledged()
    await (await alice.choose(panel, "1", placeholder="Sprint 2: intensity")).acknowledged()
    await (await alice.choose(panel, "0", placeholder="Sprint 3: intensity")).acknowledged()
    assert sendable(panel), f"a complete plan is reviewed before it is sent: {panel.text}"
    assert "Start: A Aggressiva" in panel.text and "Sprint 1: intensity 30" in panel.text, panel.text
    await (await alice.click(panel, "Yes")).acknowledged()
    await (await alice.choose(panel, "V Vigorilla", placeholder="Add a special")).acknowledged()
    await (await alice.choose(panel, "m3", placeholder="Vigorilla: with which move")).acknowledged()
    assert "Vigorilla with m3" in panel.text, f"the special reads in words on the review: {panel.text}"
    await (await alice.choose(panel, "Start: A Aggressiva", placeholder="Change a part")).acknowledged()
    await (await alice.click(panel, "B Bersagliera")).acknowledged()
    assert sendable(panel) and "Start: B Bersagliera" in panel.text, panel.text
    _status, still, _ = await table.state()
    assert still == step, "nothing counts before Send"
    await (await alice.click(panel, SEND)).acknowledged()
    await table.wait_step_after(step)
    record = await records.race_record(table.ctx, table.race_id)
    played = {k: v for k, v in record.steps[step - 1][me].items() if k != "received_at"}  # type: ignore[union-attr]
    assert played == {
        "start": "B",
        **{f"m{n}": {"effort": 2, "dir": "R"} for n in range(1, 6)},
        "s1": 30,
        "s2": 1,
        "s3": 0,
        "bibitone": True,
        "specials": [{"code": "V", "round": "m3"}],
    }
    # Everything Alice read while building it (each version of her panel, every answer) names things in
    # words: the words scan of tests/bot/exts/race/test_words.py over this plan's texts.
    ids = sorted({e.id for e in record.entrants})
    texts = discord_texts(fake_discord)
    assert any("Vigorilla with m3" in text for where, text in texts if where.startswith("DM ")), "her panels read"
    findings = scan(texts, ids) + counters(texts)
    assert not findings, [str(f) for f in findings]


async def test_a_stale_click_on_a_grid_panel_is_refused_not_recorded(
    gregario: Gregario, fake_discord: FakeDiscord, alice: DiscordUser
) -> None:
    """Alice picks her Rouleur for the grid; a click on "Sprinteur" from her screen before the edit lands on
    the position a square now holds: it is refused as out of date and no square is recorded."""
    table = await _start(gregario, fake_discord, alice, "flamme_rouge")
    _step, panel = await _open_panel(table, alice)
    assert {"Rouleur", "Sprinteur"} <= set(panel.buttons), panel.buttons
    await (await alice.click(panel, "Rouleur")).acknowledged()
    before = (await orders.panel(table.ctx, table.race_id, alice.id)).order
    reply = await (await alice.click_earlier(panel, "Sprinteur")).reply()
    assert reply.text == STALE and reply.ephemeral_for == alice.id
    after = await orders.panel(table.ctx, table.race_id, alice.id)
    assert after.order == before == {"place": {"rider": "r"}}, "nothing recorded by the stale click"


async def test_a_rider_chosen_on_the_panel_is_reviewed_and_sent(
    gregario: Gregario, fake_discord: FakeDiscord, alice: DiscordUser
) -> None:
    """One rider each (Flamme Rouge's ``riders_per_player=1``): Alice's first panel asks her rider; once she
    picks one, the panel is the review with Send (it asked the same select again before), and her Send
    gives her that rider."""
    table = await _start(gregario, fake_discord, alice, "flamme_rouge", options="riders_per_player=1")
    step, panel = await _open_panel(table, alice)
    (choice,) = picks_on(panel)
    assert choice.get("type") == 3, "the riders are a select"
    rider = choice["options"][0]
    await (await alice.choose(panel, rider["label"], placeholder=choice.get("placeholder"))).acknowledged()
    assert sendable(panel) and not picks_on(panel), "nothing more to pick: the review"
    await (await alice.click(panel, SEND)).acknowledged()
    await table.wait_step_after(step)
    async with table.ctx.db.sessions() as session:
        sent = (await step_orders(session, table.race_id, step))[f"u{alice.id}"]
    colour, kind = str(rider["label"]).split()  # "black Sprinteur" is the rider black-s
    assert (sent.body, sent.complete, sent.by) == ({"rider": f"{colour}-{kind[0].lower()}"}, True, "player")


async def test_a_stale_send_is_refused_once_the_draft_changed(
    gregario: Gregario, fake_discord: FakeDiscord, alice: DiscordUser
) -> None:
    """Alice's review shows square P1; she goes Back and picks another square: Send from the old review
    is refused, and only the review of what she now holds sends."""
    table = await _start(gregario, fake_discord, alice, "flamme_rouge")
    step, panel = await _open_panel(table, alice)
    await (await alice.click(panel, "Rouleur")).acknowledged()
    await _pick_first(alice, panel)
    assert sendable(panel)
    await (await alice.click(panel, "Back")).acknowledged()
    assert not sendable(panel), "Back from the review asks the square again"
    reply = await (await alice.click_earlier(panel, SEND)).reply()
    assert reply.text == STALE
    _status, still, _ = await table.state()
    assert still == step, "the stale Send sent nothing"


async def _every_field_shown(panel: Message, alice: DiscordUser, fields: list[dict[str, Any]]) -> None:
    """Every field with choices is on the panel, on one of the review's pages of optional parts."""
    wanted = {_form.field_digest(f) for f in fields if f.get("kind") != "text"}
    seen = _shown(panel)
    for _ in range(6):
        more = [b for b in panel.buttons if b.startswith("More options")]
        if wanted <= seen or not more:
            break
        await (await alice.click(panel, more[0])).acknowledged()
        seen |= _shown(panel)
    missing = [f.get("label", {}).get("text") for f in fields if _form.field_digest(f) not in seen]
    assert wanted <= seen, f"fields the panel cannot reach: {missing}"


@pytest.mark.parametrize("ruleset", list(SHORT))
async def test_each_systems_panel_reaches_every_field_of_its_first_decisions(
    gregario: Gregario, fake_discord: FakeDiscord, alice: DiscordUser, ruleset: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Through its first decisions, every field the engine offers (required or optional) is a button or a
    select on the panel; the parts are picked one by one, and each order is sent from its review."""
    monkeypatch.setattr("bot.services.lobby.secrets.randbelow", lambda _bound: SEED)
    table = await _start(gregario, fake_discord, alice, ruleset)
    checked = sent = optional = 0
    for _ in range(200):
        status, step, humans = await table.state()
        if status != "running" or sent >= 6:
            break
        if not humans:
            await table.wait_step_after(step)
            continue
        panel = await table.panel(f"u{alice.id}", step)
        await fake_discord.settle()
        stored = await orders.panel(table.ctx, table.race_id, alice.id)
        if stored.step != step:
            continue
        fields = [f for f in (stored.decision or {}).get("fields") or [] if f.get("kind") != "text"]
        await _every_field_shown(panel, alice, fields)
        checked += 1
        optional += sum(1 for f in fields if not f.get("required", True))
        if sendable(panel):
            await (await alice.click(panel, SEND)).acknowledged()
            sent += 1
            await table.wait_step_after(step)
            continue
        await _pick_first(alice, panel)
    print(f"{ruleset}: {checked} panels, {sent} orders sent, {optional} optional fields seen")
    if ruleset != "flamme_rouge":  # Flamme Rouge's decisions have no optional part; the others' first ones do
        assert optional, "the walk met an optional part (Bibitone, specials, descents, a cyclist's details)"
    assert checked >= 3 and sent >= 1, f"only {checked} panels checked, {sent} orders sent"
    view = await lobby.view(table.ctx, table.race_id)
    assert view.step > 1 or view.status != "running", "orders sent from the review resolved steps"


async def _pick_first(alice: DiscordUser, panel: Message) -> None:
    first = picks_on(panel)[0]
    if first.get("type") == 2:
        await (await alice.click(panel, first["label"])).acknowledged()
    else:
        await (await alice.choose(panel, first["options"][0]["label"], placeholder=first["placeholder"])).acknowledged()


async def test_change_on_the_review_asks_the_whole_order_again(
    gregario: Gregario, fake_discord: FakeDiscord, alice: DiscordUser
) -> None:
    """Alice places her Rouleur, reviews, presses Change: the panel asks which rider again (the first part,
    not only the square), her order stays until she picks; she places her Sprinteur instead and sends."""
    table = await _start(gregario, fake_discord, alice, "flamme_rouge")
    step, panel = await _open_panel(table, alice)
    await (await alice.click(panel, "Rouleur")).acknowledged()
    await _pick_first(alice, panel)
    assert sendable(panel) and "Change" in panel.buttons
    reviewed = (await orders.panel(table.ctx, table.race_id, alice.id)).order
    await (await alice.click(panel, "Change")).acknowledged()
    assert {"Rouleur", "Sprinteur"} <= set(panel.buttons), f"the first part is asked again: {panel.buttons}"
    assert (await orders.panel(table.ctx, table.race_id, alice.id)).order == reviewed, "kept until a pick"
    await (await alice.click(panel, "Sprinteur")).acknowledged()
    assert (await orders.panel(table.ctx, table.race_id, alice.id)).order == {"place": {"rider": "s"}}
    await _pick_first(alice, panel)
    await (await alice.click(panel, SEND)).acknowledged()
    await table.wait_step_after(step)
    record = await records.race_record(table.ctx, table.race_id)
    assert record.steps[step - 1][f"u{alice.id}"]["place"]["rider"] == "s"  # type: ignore[index]
