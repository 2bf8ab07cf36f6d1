"""Start the Discord bot from the command line (``gregario run``): token in, exit code out.

Without a token it explains where to get one and exits with 2 before importing discord.py, so a
newcomer's first run is a clear message rather than a stack trace.
"""

from __future__ import annotations

import asyncio
import logging
import sys
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from bot.settings import Settings, describe_settings_error

if TYPE_CHECKING:
    from bot.app import Gregario

_log = logging.getLogger("bot.runner")

BAD_TOKEN = (
    "Discord refused the token. Reset it in the developer portal (Bot -> Reset Token) and set GREGARIO_TOKEN again."
)
PRIVILEGED_INTENTS = (
    "Discord refused an intent the bot asks for. Enable it on the developer portal's Bot page "
    "(Privileged Gateway Intents), or run a version of Gregario that does not need it."
)

CANNOT_REACH = (
    "Cannot reach Discord at {url} ({reason}): check the internet connection, firewall or proxy, "
    "and GREGARIO_API_BASE_URL if you set it."
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
            print(describe_settings_error(invalid), file=sys.stderr)
            print("Fix it in the environment or in .env (.env.example lists every setting).", file=sys.stderr)
            return 2
    if settings.token is None:
        print(NO_TOKEN, file=sys.stderr, end="")
        return 2

    import discord

    discord.http.Route.BASE = settings.api_base_url
    gateway = settings.gateway_url()
    if gateway is not None:  # a stand-in for Discord serves the gateway beside its API
        import yarl

        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)
    discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False  # Gregario never joins voice
    logging.basicConfig(level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if settings.log_level != "DEBUG":  # discord.py's and alembic's own start-up chatter only when debugging
        for chatty in ("discord", "alembic"):
            logging.getLogger(chatty).setLevel(max(logging.WARNING, logging.getLevelName(settings.log_level)))
    try:
        return asyncio.run(_serve(settings, settings.token.get_secret_value()))
    except KeyboardInterrupt:
        return 130


async def _serve(settings: Settings, token: str) -> int:
    """Build the bot inside the loop (its connector trusts ``GREGARIO_CA_FILE`` too) and serve it."""
    from bot import create_bot

    kwargs: dict[str, Any] = {}
    if settings.ca_file is not None:
        import ssl

        import aiohttp

        context = ssl.create_default_context()
        context.load_verify_locations(cafile=settings.ca_file)
        kwargs["connector"] = aiohttp.TCPConnector(ssl=context, limit=0)
    return await serve(create_bot(settings, **kwargs), token)


STOP_DEADLINE_SECONDS = 20.0
"""A stop that takes longer than this (something hangs) ends the process at once: the database keeps
every committed order, and the workers die with the bot."""


def _on_stop_signals(bot: Gregario) -> list[int]:
    """SIGTERM (kill, systemd, docker stop) and SIGINT (Ctrl-C) close the bot cleanly; returns the
    signals handled (none where the loop cannot, e.g. on Windows)."""
    import signal

    loop = asyncio.get_running_loop()
    stopping: list[asyncio.Task[None]] = []

    def stop(signum: int) -> None:
        if stopping:
            _log.info("%s received again; the stop is under way", signal.Signals(signum).name)
            return
        _log.info("%s received: stopping", signal.Signals(signum).name)
        stopping.append(loop.create_task(bot.close()))
        deadline = loop.call_later(STOP_DEADLINE_SECONDS, _give_up)
        stopping[0].add_done_callback(lambda _task: deadline.cancel())

    handled: list[int] = []
    for signum in (signal.SIGTERM, signal.SIGINT):
        try:
            loop.add_signal_handler(signum, stop, signum)
        except (NotImplementedError, RuntimeError):  # not the main thread, or not supported here
            continue
        handled.append(signum)
    return handled


def _give_up() -> None:
    import os

    _log.error("the stop took more than %.0f s; exiting now", STOP_DEADLINE_SECONDS)
    logging.shutdown()
    os._exit(1)


async def serve(bot: Gregario, token: str) -> int:
    """Run ``bot`` until it is closed (SIGTERM or SIGINT close it cleanly); return the exit code,
    explaining on stderr why it could not run."""
    import discord

    handled = _on_stop_signals(bot)
    try:
        async with bot:
            await bot.start(token)
    except discord.LoginFailure:
        print(BAD_TOKEN, file=sys.stderr)
        return 2
    except discord.PrivilegedIntentsRequired:
        print(PRIVILEGED_INTENTS, file=sys.stderr)
        return 2
    except OSError as exc:  # aiohttp's connection errors and timeouts are OSErrors
        reason = getattr(exc, "strerror", None) or str(exc) or type(exc).__name__
        print(CANNOT_REACH.format(url=discord.http.Route.BASE, reason=reason), file=sys.stderr)
        return 2
    finally:
        loop = asyncio.get_running_loop()
        for signum in handled:
            loop.remove_signal_handler(signum)
    _log.info("stopped")
    return 0
