"""A fake Discord on 127.0.0.1 that drives the real, unmodified discord.py client in tests.

See ``server.FakeDiscord`` (REST + gateway + faults), ``users.DiscordUser`` (act as a person) and
``plugin`` (pytest fixtures, registered in ``tests/conftest.py``).
"""

from tests.fakediscord.server import FakeDiscord
from tests.fakediscord.users import DiscordUser, InteractionHandle
from tests.fakediscord.world import Channel, Guild, Message, User

__all__ = ["Channel", "DiscordUser", "FakeDiscord", "Guild", "InteractionHandle", "Message", "User"]
