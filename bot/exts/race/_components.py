"""Persistent components: every custom id carries the race (and the step), so a click works after a restart.

Each is a :class:`discord.ui.DynamicItem` registered once with ``bot.add_dynamic_items``; its callback
hands the parsed ids to the race's intake (``interaction.client.race_intake``, :class:`._intake.Intake`),
which does the work. The intake is reached through the :class:`Intake` protocol, so this module imports
neither the intake nor anything that imports it.
"""

from __future__ import annotations

import re
from typing import Any, Protocol

import discord

from bot.errors import answered

Click = discord.Interaction[Any]


class Intake(Protocol):
    """What the components call (:class:`bot.exts.race._intake.Intake` implements it)."""

    async def lobby_action(self, interaction: Click, race_id: int, action: str) -> None: ...

    async def pick(
        self, interaction: Click, race_id: int, step: int, mode: str, field: int, values: list[int], digest: str = ""
    ) -> None: ...

    async def back(self, interaction: Click, race_id: int, step: int, mode: str, digest: str) -> None: ...

    async def send(self, interaction: Click, race_id: int, step: int, digest: str) -> None: ...

    async def edit_part(self, interaction: Click, race_id: int, step: int, digest: str, index: int) -> None: ...

    async def type_order(self, interaction: Click, race_id: int, step: int) -> None: ...

    async def change(self, interaction: Click, race_id: int, step: int) -> None: ...

    async def open_orders(self, interaction: Click, race_id: int, step: int | None) -> None: ...

    async def turn_page(
        self, interaction: Click, race_id: int, step: int, mode: str, field: int, page: int
    ) -> None: ...

    async def full_log(self, interaction: Click, race_id: int, step: int) -> None: ...

    async def rematch(self, interaction: Click, race_id: int) -> None: ...


class _HasIntake(Protocol):
    race_intake: Intake


def _intake(interaction: discord.Interaction[Any]) -> Intake:
    client: _HasIntake = interaction.client
    return client.race_intake


class LobbyButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"gr:l:(?P<race>\d+):(?P<action>[a-z]+)"):
    """Join, Leave, Add bot, Start or Cancel on a lobby."""

    def __init__(self, race: int, action: str, label: str, style: discord.ButtonStyle, disabled: bool = False) -> None:
        super().__init__(
            discord.ui.Button(label=label, style=style, custom_id=f"gr:l:{race}:{action}", disabled=disabled)
        )
        self.race, self.action = race, action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> LobbyButton:
        return cls(int(match["race"]), match["action"], "", discord.ButtonStyle.secondary)

    @answered
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _intake(interaction).lobby_action(interaction, self.race, self.action)


MODE = r"(?P<mode>[fpr]|e\d{1,2})"
"""Which screen of the panel a control was on: ``p`` the order as stored, ``f`` the whole order asked
again (Change), ``e<n>`` part ``n`` asked again from the review, ``r`` the review's page of optional parts."""


class PickButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"gr:b:(?P<race>\d+):(?P<step>\d+):" + MODE + r":(?P<field>\d+):(?P<digest>[0-9a-f]+):(?P<choice>\d+)",
):
    """One choice of a decision's field, as a button (few choices). ``digest`` is the field's identity
    (:func:`bot.exts.race._form.field_digest`): a click on a field the panel no longer asks is refused."""

    def __init__(
        self, race: int, step: int, mode: str, field: int, choice: int, label: str = "", digest: str = "0"
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label or "·",
                style=discord.ButtonStyle.primary,
                custom_id=f"gr:b:{race}:{step}:{mode}:{field}:{digest}:{choice}",
            )
        )
        self.race, self.step, self.mode, self.field, self.choice = race, step, mode, field, choice
        self.digest = digest

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> PickButton:
        return cls(
            int(match["race"]),
            int(match["step"]),
            match["mode"],
            int(match["field"]),
            int(match["choice"]),
            digest=match["digest"],
        )

    @answered
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _intake(interaction).pick(
            interaction, self.race, self.step, self.mode, self.field, [self.choice], self.digest
        )


class PickSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"gr:s:(?P<race>\d+):(?P<step>\d+):" + MODE + r":(?P<field>\d+):(?P<digest>[0-9a-f]+):(?P<page>\d+)",
):
    """A decision's field with many choices, as a select (25 options a page); values are choice indexes."""

    def __init__(
        self,
        race: int,
        step: int,
        mode: str,
        field: int,
        page: int,
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
        digest: str = "0",
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=f"gr:s:{race}:{step}:{mode}:{field}:{digest}:{page}",
                options=options or [discord.SelectOption(label="·", value="0")],
                placeholder=placeholder,
            )
        )
        self.race, self.step, self.mode, self.field, self.digest = race, step, mode, field, digest

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> PickSelect:
        return cls(
            int(match["race"]),
            int(match["step"]),
            match["mode"],
            int(match["field"]),
            int(match["page"]),
            digest=match["digest"],
        )

    @answered
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        data: dict[str, Any] = dict(interaction.data or {})
        values = [int(v) for v in data.get("values") or []]
        await _intake(interaction).pick(interaction, self.race, self.step, self.mode, self.field, values, self.digest)


class FormButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"gr:(?P<what>[kv]):(?P<race>\d+):(?P<step>\d+):" + MODE + r":(?P<digest>[0-9a-f]+)",
):
    """Back (k) to the previous part, or Send (v) the order the review shows; ``digest`` is that order's
    identity (:func:`bot.exts.race._form.order_digest`), so a click from an older screen is refused."""

    def __init__(
        self,
        what: str,
        race: int,
        step: int,
        mode: str,
        digest: str,
        label: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    ) -> None:
        super().__init__(
            discord.ui.Button(label=label or "·", style=style, custom_id=f"gr:{what}:{race}:{step}:{mode}:{digest}")
        )
        self.what, self.race, self.step, self.mode, self.digest = what, race, step, mode, digest

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> FormButton:
        return cls(match["what"], int(match["race"]), int(match["step"]), match["mode"], match["digest"])

    @answered
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        intake = _intake(interaction)
        if self.what == "v":
            await intake.send(interaction, self.race, self.step, self.digest)
        else:
            await intake.back(interaction, self.race, self.step, self.mode, self.digest)


class PartSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"gr:a:(?P<race>\d+):(?P<step>\d+):(?P<digest>[0-9a-f]+)",
):
    """The review's "change a part" select: its values are the parts' indexes in the order shown."""

    def __init__(
        self,
        race: int,
        step: int,
        digest: str,
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=f"gr:a:{race}:{step}:{digest}",
                options=options or [discord.SelectOption(label="·", value="0")],
                placeholder=placeholder,
            )
        )
        self.race, self.step, self.digest = race, step, digest

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> PartSelect:
        return cls(int(match["race"]), int(match["step"]), match["digest"])

    @answered
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        data: dict[str, Any] = dict(interaction.data or {})
        values = [int(v) for v in data.get("values") or []]
        await _intake(interaction).edit_part(interaction, self.race, self.step, self.digest, values[0] if values else 0)


class PanelButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"gr:(?P<what>[tcoge]):(?P<race>\d+):(?P<step>\d+)(?::" + MODE + r":(?P<field>\d+):(?P<page>\d+))?",
):
    """Type my order (t), Change (c: the whole order again), Open my orders (o) and Full log (e) on round posts,
    page turns (g)."""

    def __init__(
        self,
        what: str,
        race: int,
        step: int,
        label: str = "",
        *,
        page: tuple[str, int, int] | None = None,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        disabled: bool = False,
    ) -> None:
        suffix = f":{page[0]}:{page[1]}:{page[2]}" if page is not None else ""
        super().__init__(
            discord.ui.Button(
                label=label or "·", style=style, custom_id=f"gr:{what}:{race}:{step}{suffix}", disabled=disabled
            )
        )
        self.what, self.race, self.step, self.page = what, race, step, page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> PanelButton:
        page = (match["mode"], int(match["field"]), int(match["page"])) if match["mode"] else None
        return cls(match["what"], int(match["race"]), int(match["step"]), page=page)

    @answered
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        intake = _intake(interaction)
        if self.what == "t":
            await intake.type_order(interaction, self.race, self.step)
        elif self.what == "c":
            await intake.change(interaction, self.race, self.step)
        elif self.what == "o":
            await intake.open_orders(interaction, self.race, self.step)
        elif self.what == "e":
            await intake.full_log(interaction, self.race, self.step)
        elif self.page is not None:
            await intake.turn_page(interaction, self.race, self.step, *self.page)


class RematchButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"gr:r:(?P<race>\d+)"):
    """On a final post: a new lobby with the same seats."""

    def __init__(self, race: int, label: str = "") -> None:
        super().__init__(
            discord.ui.Button(label=label or "·", style=discord.ButtonStyle.success, custom_id=f"gr:r:{race}")
        )
        self.race = race

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> RematchButton:
        return cls(int(match["race"]))

    @answered
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _intake(interaction).rematch(interaction, self.race)


DYNAMIC_ITEMS = (LobbyButton, PickButton, PickSelect, FormButton, PartSelect, PanelButton, RematchButton)
