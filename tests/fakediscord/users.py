"""Tests act as people do: type a slash command, click a button by its label, read what they can see.

``DiscordUser`` never touches the bot; it builds the interactions the Discord client would send from
what is on screen (the registered commands, the message's components) and fails loudly, with what
*is* there, when a person could not do what the test asks.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import aiohttp

from tests.fakediscord.world import Channel, Interaction, Message, User, walk_components

if TYPE_CHECKING:
    from tests.fakediscord.server import FakeDiscord

DEFAULT_TIMEOUT = 3.0
SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2


class InteractionHandle:
    """One interaction a user made, to wait for and read the bot's answers."""

    def __init__(self, fake: FakeDiscord, record: Interaction) -> None:
        self.fake = fake
        self.record = record

    def _describe(self) -> str:
        r = self.record
        recent = [f"{q.method} {q.route} -> {q.status}" for q in self.fake.requests[-8:]]
        return (
            f"interaction {r.id} (type {r.kind}, data {r.data}) by {r.user.name}: response type {r.response_type}, "
            f"original {r.original!r}, {len(r.followups)} followups; last requests: {recent}"
        )

    async def reply(self, timeout: float = DEFAULT_TIMEOUT) -> Message:
        """The bot's answer message (after a "thinking" defer: once it is filled in)."""

        def answered() -> Message | None:
            r = self.record
            if r.response_type == 7 and r.message is not None:
                return r.message
            if r.original is not None and not r.original.loading:
                return r.original
            return None

        found: Message = await self.fake.wait_until(answered, timeout, lambda: f"no reply to {self._describe()}")
        return found

    async def followups(self, count: int, timeout: float = DEFAULT_TIMEOUT) -> list[Message]:
        """The first ``count`` followup messages (after the reply)."""

        def enough() -> list[Message] | None:
            return self.record.followups[:count] if len(self.record.followups) >= count else None

        found: list[Message] = await self.fake.wait_until(
            enough, timeout, lambda: f"fewer than {count} followups to {self._describe()}"
        )
        return found

    async def acknowledged(self, timeout: float = DEFAULT_TIMEOUT) -> int:
        """The interaction response type once the bot answered (4 message, 5 defer, 7 update...)."""
        kind: int = await self.fake.wait_until(
            lambda: self.record.response_type, timeout, lambda: f"no answer to {self._describe()}"
        )
        return kind

    async def modal(self, timeout: float = DEFAULT_TIMEOUT) -> dict[str, Any]:
        """The modal the bot opened in answer."""
        found: dict[str, Any] = await self.fake.wait_until(
            lambda: self.record.modal, timeout, lambda: f"no modal opened for {self._describe()}"
        )
        return found

    async def choices(self, timeout: float = DEFAULT_TIMEOUT) -> list[tuple[str, Any]]:
        """The autocomplete suggestions, as (name shown, value sent)."""

        def answered() -> list[list[dict[str, Any]]] | None:
            return [self.record.choices] if self.record.choices is not None else None

        found: list[list[dict[str, Any]]] = await self.fake.wait_until(
            answered, timeout, lambda: f"no autocomplete answer to {self._describe()}"
        )
        return [(c["name"], c["value"]) for c in found[0]]


class DiscordUser:
    """A person on the fake Discord."""

    def __init__(self, fake: FakeDiscord, user: User, channel: Channel | None = None) -> None:
        self.fake = fake
        self.user = user
        self.channel = channel
        """Where this person types commands unless told otherwise."""

    @property
    def id(self) -> int:
        return self.user.id

    @property
    def name(self) -> str:
        return self.user.name

    def close_dms(self) -> None:
        """This person closes their DMs (Privacy settings): the bot's DMs fail with 50007."""
        self.fake.close_dms(self.user)

    def _where(self, channel: Channel | None) -> Channel:
        where = channel or self.channel
        if where is None:
            raise AssertionError(f"{self.name} has no channel to act in; pass channel=")
        return where

    # --- slash commands -----------------------------------------------------------------------------
    async def slash(self, command: str, *, channel: Channel | None = None, **options: Any) -> InteractionHandle:
        """Type ``/command`` (``"race new"`` for a subcommand) with ``options`` by their visible names."""
        await self.fake.settle()
        where = self._where(channel)
        data = self._command_data(command, where, options, focused=None)
        return InteractionHandle(self.fake, await self.fake.interact(self.user, where, 2, data))

    async def autocomplete(
        self, command: str, option: str, typed: str, *, channel: Channel | None = None, **options: Any
    ) -> list[tuple[str, Any]]:
        """Type ``typed`` into ``option`` of ``/command`` and read the suggestions Discord shows."""
        await self.fake.settle()
        where = self._where(channel)
        data = self._command_data(command, where, {**options, option: typed}, focused=option)
        handle = InteractionHandle(self.fake, await self.fake.interact(self.user, where, 4, data))
        return await handle.choices()

    def _command_data(
        self, command: str, channel: Channel, given: dict[str, Any], focused: str | None
    ) -> dict[str, Any]:
        words = command.lstrip("/").split()
        registered = self.fake.find_command(words[0], channel)
        data: dict[str, Any] = {"id": str(registered.id), "name": registered.name, "type": 1}
        if registered.guild_id is not None:
            data["guild_id"] = str(registered.guild_id)
        resolved: dict[str, dict[str, Any]] = {}
        schema = registered.data.get("options") or []
        container = data
        for word in words[1:]:
            sub = next(
                (o for o in schema if o["name"] == word and o.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP)), None
            )
            if sub is None:
                names = [o["name"] for o in schema if o.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP)]
                raise AssertionError(f"/{command}: {word!r} is not a subcommand here; Discord offers {names}")
            entry: dict[str, Any] = {"name": word, "type": sub["type"], "options": []}
            container.setdefault("options", []).append(entry)
            container, schema = entry, sub.get("options") or []
        if any(o.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP) for o in schema):
            raise AssertionError(f"/{command} needs a subcommand: {[o['name'] for o in schema]}")
        container.setdefault("options", [])
        for name, value in given.items():
            spec = next((o for o in schema if o["name"] == name), None)
            if spec is None:
                raise AssertionError(f"/{command} has no option {name!r}; it has {[o['name'] for o in schema]}")
            if name == focused:
                container["options"].append({"name": name, "type": spec["type"], "value": str(value), "focused": True})
            else:
                container["options"].append(
                    {"name": name, "type": spec["type"], "value": self._option_value(command, spec, value, resolved)}
                )
        if focused is None:
            missing = [o["name"] for o in schema if o.get("required") and o["name"] not in given]
            if missing:
                raise AssertionError(f"Discord won't send /{command} without its required options {missing}")
        if resolved:
            data["resolved"] = resolved
        return data

    def _option_value(self, command: str, spec: dict[str, Any], value: Any, resolved: dict[str, dict[str, Any]]) -> Any:
        kind, name = spec["type"], spec["name"]
        choices = spec.get("choices") or []
        if choices:
            for choice in choices:
                if value in (choice["name"], choice["value"]):
                    return choice["value"]
            shown = [c["name"] for c in choices]
            raise AssertionError(f"/{command} {name}: {value!r} is not among the choices {shown}")
        if kind == 3:
            text = str(value)
            if spec.get("max_length") and len(text) > spec["max_length"]:
                raise AssertionError(f"/{command} {name}: Discord caps it at {spec['max_length']} characters")
            return text
        if kind in (4, 10):
            number = int(value) if kind == 4 else float(value)
            low, high = spec.get("min_value"), spec.get("max_value")
            if (low is not None and number < low) or (high is not None and number > high):
                raise AssertionError(f"/{command} {name}: Discord only accepts {low}..{high}")
            return number
        if kind == 5:
            return bool(value)
        if kind == 6:
            target = value.user if isinstance(value, DiscordUser) else value
            assert isinstance(target, User), f"/{command} {name} takes a user"
            resolved.setdefault("users", {})[str(target.id)] = target.payload()
            return str(target.id)
        if kind == 7:
            assert isinstance(value, Channel), f"/{command} {name} takes a channel"
            resolved.setdefault("channels", {})[str(value.id)] = {**value.payload(), "permissions": "0"}
            return str(value.id)
        if kind == 11:
            assert isinstance(value, tuple) and len(value) == 2, f"/{command} {name} takes a file: (filename, bytes)"
            where = self._where(None)
            upload = self.fake.upload(where, value[0], value[1], "application/json")
            resolved.setdefault("attachments", {})[str(upload.id)] = upload.payload()
            return str(upload.id)
        raise AssertionError(f"/{command} {name}: option type {kind} is not supported by the fake yet")

    # --- components ---------------------------------------------------------------------------------
    def _check_can_see(self, message: Message) -> None:
        if not message.visible_to(self.user):
            raise AssertionError(f"{self.name} can't see {message!r}")

    async def click(self, message: Message, label: str) -> InteractionHandle:
        """Click the button labelled ``label`` on ``message``."""
        await self.fake.settle()
        self._check_can_see(message)
        buttons = [c for c in message.items() if c.get("type") == 2 and c.get("label") == label]
        if not buttons:
            raise AssertionError(f"no button {label!r} on {message!r}")
        button = buttons[0]
        if button.get("disabled"):
            raise AssertionError(f"the button {label!r} is disabled on {message!r}")
        if button.get("style") == 5:
            raise AssertionError(f"{label!r} is a link button: it opens {button.get('url')}, the bot sees nothing")
        data = {"custom_id": button["custom_id"], "component_type": 2}
        record = await self.fake.interact(self.user, message.channel, 3, data, message=message)
        return InteractionHandle(self.fake, record)

    async def click_earlier(self, message: Message, label: str) -> InteractionHandle:
        """Click the button labelled ``label`` as an earlier version of ``message`` showed it: the person's
        screen had not caught up with the bot's edit. Discord sends the message as it is now, so the custom
        id may be one the message no longer has (a click that raced the panel's closing)."""
        await self.fake.settle()
        self._check_can_see(message)
        for version in reversed(message.history):
            shown = walk_components(list(version.get("components") or []))  # rows, or a layout's nesting
            found = [c for c in shown if c.get("type") == 2 and c.get("label") == label and c.get("custom_id")]
            if found:
                data = {"custom_id": found[0]["custom_id"], "component_type": 2}
                record = await self.fake.interact(self.user, message.channel, 3, data, message=message)
                return InteractionHandle(self.fake, record)
        raise AssertionError(f"no earlier version of {message!r} had a button {label!r}")

    async def choose(self, message: Message, *labels: str, placeholder: str | None = None) -> InteractionHandle:
        """Pick the options labelled ``labels`` in a select menu of ``message`` (by placeholder if several)."""
        await self.fake.settle()
        self._check_can_see(message)
        selects = [c for c in message.items() if c.get("type") == 3]
        if placeholder is not None:
            selects = [c for c in selects if c.get("placeholder") == placeholder]
        if len(selects) != 1:
            raise AssertionError(f"expected one select menu (placeholder {placeholder!r}) on {message!r}")
        select = selects[0]
        if select.get("disabled"):
            raise AssertionError(f"the select menu is disabled on {message!r}")
        options = {o["label"]: o["value"] for o in select.get("options") or []}
        unknown = [label for label in labels if label not in options]
        if unknown:
            raise AssertionError(f"the select menu has no option {unknown}; it offers {list(options)}")
        low, high = select.get("min_values", 1), select.get("max_values", 1)
        if not low <= len(labels) <= high:
            raise AssertionError(f"the select menu takes {low} to {high} choices, not {len(labels)}")
        data = {"custom_id": select["custom_id"], "component_type": 3, "values": [options[label] for label in labels]}
        record = await self.fake.interact(self.user, message.channel, 3, data, message=message)
        return InteractionHandle(self.fake, record)

    async def press(self, message: Message, custom_id: str, values: list[str] | None = None) -> InteractionHandle:
        """Use the component ``custom_id`` on ``message``: click the button, or pick the select's options
        by their ``values`` (for a player who picks what they see, whatever its label)."""
        await self.fake.settle()
        self._check_can_see(message)
        item = next((c for c in message.items() if c.get("custom_id") == custom_id), None)
        if item is None:
            raise AssertionError(f"no component {custom_id!r} on {message!r}")
        if item.get("disabled"):
            raise AssertionError(f"the component {custom_id!r} is disabled on {message!r}")
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": item.get("type")}
        if item.get("type") == 3:
            offered = {o["value"] for o in item.get("options") or []}
            chosen = list(values or [])
            if not chosen or not set(chosen) <= offered:
                raise AssertionError(f"the select {custom_id!r} offers {sorted(offered)}, not {chosen}")
            data["values"] = chosen
        record = await self.fake.interact(self.user, message.channel, 3, data, message=message)
        return InteractionHandle(self.fake, record)

    async def submit(
        self, modal: dict[str, Any], values: dict[str, str], *, channel: Channel | None = None
    ) -> InteractionHandle:
        """Fill the modal's text inputs by their labels and press Submit (others keep their prefilled value)."""
        await self.fake.settle()
        rows: list[dict[str, Any]] = []
        labels: list[str] = []
        for row in modal.get("components") or []:
            if row.get("type") == 18:  # a Label wrapping one component
                inner = row.get("component") or {}
                label = row.get("label", "")
                labels.append(label)
                if label in values or inner.get("value"):
                    rows.append(
                        {
                            "type": 18,
                            "component": {
                                "type": inner.get("type"),
                                "custom_id": inner["custom_id"],
                                "value": values.get(label, inner.get("value", "")),
                            },
                        }
                    )
                elif inner.get("required", True):
                    raise AssertionError(f"the modal field {label!r} is required")
                continue
            submitted = []
            for item in row.get("components") or []:
                label = item.get("label", "")
                labels.append(label)
                if label not in values and item.get("required", True) and not item.get("value"):
                    raise AssertionError(f"the modal field {label!r} is required")
                text = values.get(label, item.get("value") or "")  # untouched fields keep what the bot prefilled
                if item.get("max_length") and len(text) > item["max_length"]:
                    raise AssertionError(f"the modal field {label!r} takes at most {item['max_length']} characters")
                submitted.append({"type": 4, "custom_id": item["custom_id"], "value": text})
            rows.append({"type": 1, "components": submitted})
        unknown = [label for label in values if label not in labels]
        if unknown:
            raise AssertionError(f"the modal has no field {unknown}; it has {labels}")
        data = {"custom_id": modal["custom_id"], "components": rows}
        record = await self.fake.interact(self.user, self._where(channel), 5, data)
        return InteractionHandle(self.fake, record)

    # --- reading -------------------------------------------------------------------------------------
    def read(self, channel: Channel | None = None) -> list[Message]:
        """The messages this person sees in ``channel``, oldest first (their ephemerals included)."""
        where = self._where(channel)
        return [m for m in where.messages if m.visible_to(self.user) and not m.loading]

    def dms(self) -> list[Message]:
        """The bot's DMs to this person, oldest first."""
        return [m for m in self.fake.dm_channel(self.user).messages if not m.deleted]

    async def wait_for(
        self,
        check: Callable[[Message], bool],
        *,
        channel: Channel | None = None,
        dm: bool = False,
        count: int = 1,
        timeout: float = DEFAULT_TIMEOUT,
        what: str = "a message",
    ) -> list[Message]:
        """Wait until ``count`` messages passing ``check`` appear in ``channel`` (or the DMs)."""

        def seen() -> list[Message]:
            return self.dms() if dm else self.read(channel)

        def found() -> list[Message] | None:
            matching = [m for m in seen() if check(m)]
            return matching if len(matching) >= count else None

        matched: list[Message] = await self.fake.wait_until(
            found, timeout, lambda: f"{self.name} never saw {what} ({count}); they see {seen()!r}"
        )
        return matched

    async def download(self, url: str) -> bytes:
        """Download an attachment from the CDN, like clicking it."""
        async with aiohttp.ClientSession(connector=self.fake.connector()) as session, session.get(url) as response:
            if response.status != 200:
                raise AssertionError(f"downloading {url} gave {response.status}")
            return await response.read()

    async def say(self, content: str, channel: Channel | None = None) -> Message:
        """Write a plain message in a channel."""
        await self.fake.settle()
        return await self.fake.post_as(self.user, self._where(channel), content)
