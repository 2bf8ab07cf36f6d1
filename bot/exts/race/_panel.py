"""A player's private panel, built from the engine's decision alone (never from the rule system's name).

Choice fields become buttons (up to five choices) or a select (25 options a page, with page turns);
a number field with at most 25 values becomes a select; the text syntax is always one click away
(**Type my order**). Four rows hold fields, the last holds Type my order, Change and page turns.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

import discord

from bot.catalogue import MESSAGE_LIMIT
from bot.exts.race._components import PanelButton, PickButton, PickSelect
from bot.exts.race._text import BUTTON_LABEL_LIMIT, OPTION_LABEL_LIMIT, clip, say, stamp, told
from bot.i18n import t
from bot.render.registry import identity
from bot.services.outcomes import PanelView

PAGE = 25
BUTTONS_UP_TO = 5
FIELD_ROWS = 4


@dataclass(frozen=True)
class Pick:
    """One field's choices as the panel offers them: (value, label) pairs."""

    path: list[str]
    label: str
    options: list[tuple[Any, str]]


def picks(decision: dict[str, Any] | None, locale: str | None) -> list[Pick]:
    """The fields a player can decide with components, in the decision's order."""
    found: list[Pick] = []
    for field in (decision or {}).get("fields") or []:
        path = list(field.get("path") or [])
        label = say(field.get("label"), locale)
        if field.get("kind") == "choice" and field.get("choices"):
            found.append(Pick(path, label, [(c.get("value"), say(c.get("label"), locale)) for c in field["choices"]]))
        elif field.get("kind") == "number":
            # A number becomes a select of its range, paged by 25; an open-ended one offers 25 values
            # from its minimum (larger ones are typed).
            low = int(field["minimum"]) if field.get("minimum") is not None else 0
            high = int(field["maximum"]) if field.get("maximum") is not None else low + PAGE - 1
            found.append(Pick(path, label, [(n, str(n)) for n in range(low, min(high, low + 10 * PAGE) + 1)]))
        else:
            found.append(Pick(path, label, []))  # typed only; keeps the field indexes aligned
    return found


def order_for(pick: Pick, values: list[Any], sent: dict[str, Any] | None = None) -> dict[str, Any]:
    """The order a pick sends: what was sent before in this step with the value (or values) set at the
    field's path. The whole order goes every time, so no rule system has to merge partial orders."""
    value: Any = values[0] if len(values) == 1 else values
    merged: dict[str, Any] = _copy(sent or {})
    if not pick.path:
        return merged
    here = merged
    for key in pick.path[:-1]:
        nested = here.get(key)
        if not isinstance(nested, dict):
            nested = here[key] = {}
        here = nested
    here[pick.path[-1]] = value
    return merged


def _copy(order: dict[str, Any]) -> dict[str, Any]:
    return {k: _copy(v) if isinstance(v, dict) else v for k, v in order.items()}


def render(
    panel: PanelView,
    *,
    title: str,
    locale: str | None,
    deadline: datetime | None,
    mode: str = "p",
    page: tuple[int, int] | None = None,
    closed: bool = False,
    note: str | None = None,
    played: dict[str, Any] | None = None,
) -> tuple[str, discord.ui.View]:
    """The panel's text and components. ``mode`` "f": the whole decision again (after Change).

    ``closed``: the step has resolved; the panel says so and what was ``played``, and keeps the
    components it showed (the confirmation's Change, or the decision's choices when the player never
    completed an order), every one disabled, so nobody wonders whether it still works."""
    decision = panel.decision or {}
    complete = bool(panel.order) and (bool(decision.get("complete")) or not decision.get("fields"))
    lines = [f"**{title}**"]
    you = identity(panel.view, panel.entrant, locale or "en") if not closed else None
    if you:
        lines.append(you)  # their colour and tokens first, as the picture shows them
    if note:
        lines.append(note)
    if closed:
        lines.append(t("race.panel.closed", locale))
        automatic = told(decision, locale) if played and not panel.order else ""
        if automatic:
            # The player completed no order: what the rules played for them is told as automatic.
            lines.append(t("race.panel.automatic", locale, order=automatic))
        elif played:
            lines.append(t("race.panel.played", locale))
    else:
        if decision and not (complete and mode == "p"):
            lines.append(say(decision.get("prompt"), locale))
            lines.extend(say(m, locale) for m in decision.get("info") or [])
        if panel.order:
            shown = told(decision, locale)
            if complete:
                lines.append(t("race.panel.recorded", locale, order=shown) if shown else t("race.panel.kept", locale))
            elif shown:
                lines.append(t("race.panel.so_far", locale, order=shown))
    if deadline is not None and not closed:
        lines.append(t("race.panel.deadline", locale, when=stamp(deadline)))
    view = discord.ui.View(timeout=None)
    if mode == "f" or not complete:
        _fields(view, panel, decision, locale, mode, page)
    row = 4
    if complete and mode == "p":
        view.add_item(
            PanelButton(
                "c", panel.race_id, panel.step, t("race.button.change", locale), style=discord.ButtonStyle.primary
            )
        )
    else:
        view.add_item(PanelButton("t", panel.race_id, panel.step, t("race.button.type", locale)))
    for item in view.children:
        if isinstance(item, PanelButton) and item.what in "tc":
            item.item.row = row
    if closed:
        for item in view.children:
            item.item.disabled = True  # type: ignore[attr-defined]
    return clip("\n".join(line for line in lines if line), MESSAGE_LIMIT), view


def _fields(
    view: discord.ui.View,
    panel: PanelView,
    decision: dict[str, Any],
    locale: str | None,
    mode: str,
    page: tuple[int, int] | None,
) -> None:
    row = 0
    for index, pick in enumerate(picks(decision, locale)):
        if row >= FIELD_ROWS or not pick.options:
            continue
        if len(pick.options) <= BUTTONS_UP_TO and len(decision.get("fields") or []) <= FIELD_ROWS:
            for choice, (_value, label) in enumerate(pick.options):
                button = PickButton(panel.race_id, panel.step, mode, index, choice, clip(label, BUTTON_LABEL_LIMIT))
                button.item.row = row
                view.add_item(button)
            row += 1
            continue
        number = page[1] if page is not None and page[0] == index else 0
        chunk = pick.options[number * PAGE : (number + 1) * PAGE]
        options = [
            discord.SelectOption(label=clip(label or str(value), OPTION_LABEL_LIMIT), value=str(number * PAGE + i))
            for i, (value, label) in enumerate(chunk)
        ]
        select = PickSelect(panel.race_id, panel.step, mode, index, number, options, clip(pick.label, 150))
        select.item.row = row
        view.add_item(select)
        row += 1
        pages = (len(pick.options) + PAGE - 1) // PAGE
        if pages > 1 and not any(isinstance(i, PanelButton) and i.what == "g" for i in view.children):
            for target, key in ((number - 1, "race.button.previous"), (number + 1, "race.button.next")):
                if 0 <= target < pages:
                    turn = PanelButton("g", panel.race_id, panel.step, t(key, locale), page=(mode, index, target))
                    turn.item.row = 4
                    view.add_item(turn)
