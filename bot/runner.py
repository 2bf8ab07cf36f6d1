"""Start the Discord bot from the command line (``gregario run``): token in, exit code out.

Without a token it explains where to get one and exits with 2 before importing discord.py, so a
newcomer's first run is a clear message rather than a stack trace.
"""

from __future__ import annotations

import asyncio
import logging
import sys
from typing import TYPE_CHECKING

from pydantic import ValidationError

from bot.settings import Settings

if TYPE_CHECKING:
    from bot.app import Gregario

BAD_TOKEN = (
    "Discord refused the token. Reset it in the developer portal (Bot -> Reset Token) and set GREGARIO_TOKEN again."
)
PRIVILEGED_INTENTS = (
    "Discord refused an intent the bot asks for. Enable it on the developer portal's Bot page "
    "(Privileged Gateway Intents), or run a version of Gregario that does not need it."
)

NO_TOKEN = """\
Gregario needs a Discord bot token to connect, and none is set.

To get one: open the Discord developer portal (https://discord.com/developers/applications),
choose Applications -> your application (or New Application) -> Bot -> Reset Token, and copy it.
Then either export it:

    export GREGARIO_TOKEN=your-token

or put the line GREGARIO_TOKEN=your-token in a .env file in this folder (see .env.example).
DISCORD_TOKEN works too.

No token? `gregario play` plays a race right here in the terminal, with no Discord at all.
"""


def run(settings: Settings | None = None) -> int:
    """Run the bot until it stops; return the process exit code (2 = not configured)."""
    if settings is None:
        try:
            settings = Settings()
        except ValidationError as invalid:
            print(f"Gregario's settings are not valid (see .env.example):\n{invalid}", file=sys.stderr)
            return 2
    if settings.token is None:
        print(NO_TOKEN, file=sys.stderr, end="")
        return 2

    from bot import create_bot

    logging.basicConfig(level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        return asyncio.run(serve(create_bot(settings), settings.token.get_secret_value()))
    except KeyboardInterrupt:
        return 0


async def serve(bot: Gregario, token: str) -> int:
    """Run ``bot`` until it is closed; return the exit code, explaining on stderr why it could not run."""
    import discord

    try:
        async with bot:
            await bot.start(token)
    except discord.LoginFailure:
        print(BAD_TOKEN, file=sys.stderr)
        return 1
    except discord.PrivilegedIntentsRequired:
        print(PRIVILEGED_INTENTS, file=sys.stderr)
        return 1
    return 0
