"""A player's private panel, built from the engine's decision alone (never from the rule system's name).

The panel is a form (:mod:`bot.exts.race._form`): it asks the parts still to decide, goes Back a part,
and once the rules call the order complete shows a review where any part can be changed and the
optional parts still open can be added, until the player sends it. Choice fields become buttons (up to
five choices) or a select (25 options a page, with page turns); a number field is a select of its whole
legal range, paged; the text syntax is always one click away (**Type my order**). Four rows hold fields,
the last holds the controls (Send, Back, Change, Type my order, page turns).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

import discord

from bot.catalogue import MESSAGE_LIMIT
from bot.exts.race import _form, _layout
from bot.exts.race._components import FormButton, PanelButton, PartSelect, PickButton, PickSelect
from bot.exts.race._text import BUTTON_LABEL_LIMIT, OPTION_LABEL_LIMIT, clip, say, stamp, told
from bot.i18n import t
from bot.render.registry import accent as registry_accent
from bot.render.registry import identity
from bot.services.outcomes import PanelView
from engine.ruleset import set_path

PAGE = 25
BUTTONS_UP_TO = 5
FIELD_ROWS = 4
OPTIONAL_ROWS = 3
"""A review shows this many optional parts a page (the fourth row is the select that changes a part)."""
CONTROL_ROW = 4


@dataclass(frozen=True)
class Pick:
    """One field's choices as the panel offers them: (value, label) pairs."""

    path: list[str]
    label: str
    options: list[tuple[Any, str]]
    number: bool = False
    """A number field: offered as a select labelled with the field (bare numbers on buttons say nothing)."""


NUMBERS_UP_TO = 250
"""An open-ended number (Tabella's sprint, D16) is offered from its minimum up to this many values, paged
by 25; a larger one is typed."""


def picks(decision: dict[str, Any] | None, locale: str | None) -> list[Pick]:
    """The fields a player can decide with components, in the decision's order."""
    return [pick_of(field, locale) for field in (decision or {}).get("fields") or []]


def pick_of(field: dict[str, Any], locale: str | None) -> Pick:
    """One field's choices: a choice field's own, a number field's whole legal range (paged on the panel);
    a text field has none (it is typed; it keeps the field indexes aligned)."""
    path = list(field.get("path") or [])
    label = say(field.get("label"), locale)
    if field.get("kind") == "choice" and field.get("choices"):
        return Pick(path, label, [(c.get("value"), say(c.get("label"), locale)) for c in field["choices"]])
    if field.get("kind") == "number":
        low = int(field["minimum"]) if field.get("minimum") is not None else 0
        high = int(field["maximum"]) if field.get("maximum") is not None else low + NUMBERS_UP_TO - 1
        return Pick(path, label, [(n, str(n)) for n in range(low, min(high, low + NUMBERS_UP_TO - 1) + 1)], True)
    return Pick(path, label, [])


def part_pick(part: dict[str, Any], locale: str | None) -> Pick:
    """A part of the order asked again from the review: its field's choices, or, for a list of entries
    no field offers one by one (the specials of a plan), one choice per entry to take it out."""
    value = part.get("value")
    if part.get("kind") in ("choice", "number") or not isinstance(value, list):
        return pick_of(part, locale)
    labels = {repr(c.get("value")): say(c.get("label"), locale) for c in part.get("choices") or []}
    options: list[tuple[Any, str]] = []
    for i, entry in enumerate(value):
        named = labels.get(repr(entry)) or t("race.panel.entry", locale, n=i + 1)
        options.append(([*value[:i], *value[i + 1 :]], t("race.panel.remove", locale, entry=named)))
    return Pick(list(part.get("path") or []), say(part.get("label"), locale), options)


def order_for(pick: Pick, values: list[Any], sent: dict[str, Any] | None = None) -> dict[str, Any]:
    """The order a pick sends: what was sent before in this step with the value (or values) set at the
    field's path (the engine's own merge, :func:`engine.ruleset.set_path`). The whole order goes every
    time, so no rule system has to merge partial orders."""
    value: Any = values[0] if len(values) == 1 else values
    if not pick.path:
        return dict(sent or {})
    return set_path(dict(sent or {}), pick.path, value)


def render(
    panel: PanelView,
    *,
    title: str,
    locale: str | None,
    deadline: datetime | None,
    mode: str = "p",
    page: tuple[int, int] | None = None,
    note: str | None = None,
    accent: int | None = None,
) -> discord.ui.LayoutView:
    """The panel laid out (:func:`bot.exts.race._layout.panel`: a container in the player's colour, else
    ``accent``, the race's), one of two screens (a closed panel is a one-line receipt:
    :func:`bot.exts.race._delivery.closed_panel`):

    - *asking*: the parts still to decide (the decision's fields), with Back to the previous part;
      ``mode`` "f" asks the whole order again (Change), "e<n>" asks part ``n`` again (from the review);
    - *review*, once the rules call the order complete: each part with its value in words, a select to
      change any part, the optional parts still open (paged three at a time, ``page`` (-1, n)), and
      **Send my order** while it is a draft (a sent order says it counts).
    **Type my order** is on every screen."""
    decision = panel.decision or {}
    complete = bool(panel.order) and (bool(decision.get("complete")) or not decision.get("fields"))
    lines = [f"**{title}**"]
    you = identity(panel.view, panel.entrant, locale or "en")
    if you:
        lines.append(you)  # their colour and tokens first, as the picture shows them
    if note:
        lines.append(note)
    view = discord.ui.View(timeout=None)
    if mode == "f" or mode.startswith("e") or not complete:
        lines += _asking_lines(panel, decision, locale, mode)
        _ask(view, panel, decision, locale, mode, page)
        if mode != "p" or panel.order:
            back = FormButton("k", panel.race_id, panel.step, mode, _form.order_digest(panel.order))
            back.item.label = t("race.button.back", locale)
            _control(view, back)
        _control(view, PanelButton("t", panel.race_id, panel.step, t("race.button.type", locale)))
    else:
        lines += _review(view, panel, decision, locale, page)
    if deadline is not None:
        lines.append(t("race.panel.deadline", locale, when=stamp(deadline)))
    text = clip("\n".join(line for line in lines if line), MESSAGE_LIMIT)
    colour = _layout.rgb(registry_accent(panel.view, panel.entrant)) if panel.view else None
    return _layout.panel(text, view, accent=colour if colour is not None else accent)


def _control(view: discord.ui.View, item: Any, row: int = CONTROL_ROW) -> None:
    item.item.row = row
    view.add_item(item)


def _asking_lines(panel: PanelView, decision: dict[str, Any], locale: str | None, mode: str) -> list[str]:
    lines: list[str] = []
    if mode.startswith("e"):
        parts = _form.parts(decision)
        index = int(mode[1:])
        if index < len(parts):
            lines.append(t("race.panel.changing", locale, part=told({"asked": [parts[index]]}, locale)))
        return lines
    lines.append(say(decision.get("prompt"), locale))
    lines.extend(say(m, locale) for m in decision.get("info") or [])
    if mode == "f":
        lines.append(t("race.panel.again", locale))
    elif panel.order:
        shown = told(decision, locale)
        if shown:
            lines.append(t("race.panel.so_far", locale, order=shown))
    return lines


def _ask(
    view: discord.ui.View,
    panel: PanelView,
    decision: dict[str, Any],
    locale: str | None,
    mode: str,
    page: tuple[int, int] | None,
) -> None:
    """The fields still to decide (or, in mode "e<n>", part ``n`` as it was asked), one row each."""
    if mode.startswith("e"):
        parts = _form.parts(decision)
        index = int(mode[1:])
        fields = [parts[index]] if index < len(parts) else []
    else:
        fields = list(decision.get("fields") or [])
    buttons = len(fields) <= FIELD_ROWS
    row = 0
    for index, field in enumerate(fields):
        edit = mode.startswith("e")
        pick = part_pick(field, locale) if edit else pick_of(field, locale)
        if row >= FIELD_ROWS or not pick.options:
            continue
        number = page[1] if page is not None and page[0] == index else 0
        sign = _form.part_digest(field) if edit else _form.field_digest(field)
        pages = _field(view, panel, mode, index, sign, pick, row, number, buttons)
        row += 1
        if pages > 1 and not any(isinstance(i, PanelButton) and i.what == "g" for i in view.children):
            for target, key in ((number - 1, "race.button.previous"), (number + 1, "race.button.next")):
                if 0 <= target < pages:
                    label = t(key, locale)
                    _control(view, PanelButton("g", panel.race_id, panel.step, label, page=(mode, index, target)))


def _field(
    view: discord.ui.View,
    panel: PanelView,
    mode: str,
    index: int,
    sign: str,
    pick: Pick,
    row: int,
    number: int,
    buttons: bool,
) -> int:
    """One field on one row: a few choices as buttons, else a select (25 options a page, page ``number``);
    the custom ids carry the field's identity (``sign``). Returns how many pages the select has."""
    if buttons and not pick.number and len(pick.options) <= BUTTONS_UP_TO:
        for choice, (_value, label) in enumerate(pick.options):
            button = PickButton(
                panel.race_id, panel.step, mode, index, choice, clip(label, BUTTON_LABEL_LIMIT), digest=sign
            )
            _control(view, button, row)
        return 1
    chunk = pick.options[number * PAGE : (number + 1) * PAGE]
    options = [
        discord.SelectOption(label=clip(label or str(value), OPTION_LABEL_LIMIT), value=str(number * PAGE + i))
        for i, (value, label) in enumerate(chunk)
    ]
    placeholder = clip(pick.label, 150)
    _control(view, PickSelect(panel.race_id, panel.step, mode, index, number, options, placeholder, sign), row)
    return (len(pick.options) + PAGE - 1) // PAGE


def _review(
    view: discord.ui.View, panel: PanelView, decision: dict[str, Any], locale: str | None, page: tuple[int, int] | None
) -> list[str]:
    """The review of a complete order: its parts in words, a select to change any of them, the optional
    parts still open, Send (while it is a draft), Back, Change (the whole order again), Type my order."""
    lines = [say(decision.get("prompt"), locale)]
    lines.extend(say(m, locale) for m in decision.get("info") or [])
    parts = _form.parts(decision)
    worded = [told({"asked": [part]}, locale) for part in parts]
    shown = told({"asked": parts}, locale)
    if panel.sent:
        lines.append(t("race.panel.recorded", locale, order=shown) if shown else t("race.panel.kept", locale))
    else:
        lines.append(t("race.panel.review", locale))
        lines.extend(f"• {w}" for w in worded if w)
        lines.append(t("race.panel.draft", locale))
    fields = list(decision.get("fields") or [])
    optional = [i for i, f in enumerate(fields) if pick_of(f, locale).options]
    pages = max(1, (len(optional) + OPTIONAL_ROWS - 1) // OPTIONAL_ROWS)
    number = page[1] % pages if page is not None and page[0] == -1 else 0
    here = optional[number * OPTIONAL_ROWS : (number + 1) * OPTIONAL_ROWS]
    if optional:
        named = [pick_of(fields[i], locale).label for i in here]
        lines.append(t("race.panel.optional", locale, parts="; ".join(n for n in named if n)))
    for row, index in enumerate(here):
        sign = _form.field_digest(fields[index])
        _field(view, panel, "p", index, sign, pick_of(fields[index], locale), row, 0, True)
    sign = _form.order_digest(panel.order)
    changeable = [i for i, part in enumerate(parts) if part_pick(part, locale).options][:PAGE]
    if changeable:
        options = [
            discord.SelectOption(label=clip(worded[i] or str(i + 1), OPTION_LABEL_LIMIT), value=str(i))
            for i in changeable
        ]
        placeholder = clip(t("race.panel.change_part", locale), 150)
        _control(view, PartSelect(panel.race_id, panel.step, sign, options, placeholder), OPTIONAL_ROWS)
    if not panel.sent:
        send = FormButton("v", panel.race_id, panel.step, "p", sign, style=discord.ButtonStyle.success)
        send.item.label = t("race.button.send", locale)
        _control(view, send)
    back = FormButton("k", panel.race_id, panel.step, "p", sign)
    back.item.label = t("race.button.back", locale)
    _control(view, back)
    change = PanelButton("c", panel.race_id, panel.step, t("race.button.change", locale))
    _control(view, change)
    _control(view, PanelButton("t", panel.race_id, panel.step, t("race.button.type", locale)))
    if pages > 1:
        more = t("race.button.more", locale, page=number + 1, pages=pages)
        _control(view, PanelButton("g", panel.race_id, panel.step, more, page=("r", 0, number + 1)))
    return lines
