"""Start the Discord bot from the command line (``gregario run``): token in, exit code out.

Without a token it explains where to get one and exits with 2 before importing discord.py, so a
newcomer's first run is a clear message rather than a stack trace.
"""

from __future__ import annotations

import logging
import sys

from pydantic import ValidationError

from bot.settings import Settings

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

    import discord

    from bot import create_bot

    logging.basicConfig(level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    bot = create_bot(settings)
    try:
        bot.run(settings.token.get_secret_value(), log_handler=None)
    except discord.LoginFailure:
        print(
            "Discord refused the token. Reset it in the developer portal and set GREGARIO_TOKEN again.", file=sys.stderr
        )
        return 1
    except discord.PrivilegedIntentsRequired:
        print("Discord refused an intent the bot asks for. Enable it on the portal's Bot page.", file=sys.stderr)
        return 1
    return 0
