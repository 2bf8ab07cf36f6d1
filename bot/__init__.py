"""Gregario's Discord application.

Importing ``bot`` stays light on purpose: the terminal CLI (``bot.cli``) imports this package and must
start without loading discord.py, so :func:`create_bot` imports the Discord side only when called.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bot.app import Gregario
    from bot.settings import Settings

__all__ = ["create_bot"]


def create_bot(settings: Settings | None = None, **client_kwargs: Any) -> Gregario:
    """An unstarted Gregario bot (a discord.py ``commands.Bot``).

    ``client_kwargs`` go to the client unchanged, so tests pass ``connector=`` (to reach a fake
    Discord on 127.0.0.1) and ``guild_ready_timeout=``.
    """
    from bot.app import create_bot as _create_bot

    return _create_bot(settings, **client_kwargs)
