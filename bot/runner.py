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
    from bot import logs

    logs.configure(settings)
    try:
        return asyncio.run(_serve(settings, settings.token.get_secret_value()))
    except KeyboardInterrupt:
        return 130


async def _serve(settings: Settings, token: str) -> int:
    """Check the database and take its lease, then build the bot inside the loop (its connector trusts
    ``GREGARIO_CA_FILE`` too) and serve it while a heartbeat keeps the lease."""
    from bot import create_bot, preflight

    try:
        lease = await preflight.database(settings)
    except preflight.StartupError as failed:
        print(failed, file=sys.stderr)
        return 2
    kwargs: dict[str, Any] = {}
    if settings.ca_file is not None:
        import ssl

        import aiohttp

        context = ssl.create_default_context()
        context.load_verify_locations(cafile=settings.ca_file)
        kwargs["connector"] = aiohttp.TCPConnector(ssl=context, limit=0)
    bot = create_bot(settings, **kwargs)
    beating = asyncio.Event()
    taken: list[object] = []

    def lost(holder: object) -> None:
        _log.error("another process took this database over (%s); stopping", holder or "nobody holds it now")
        taken.append(holder)
        asyncio.get_running_loop().create_task(bot.close())

    heartbeat = asyncio.create_task(lease.keep(beating, lost))
    try:
        code = await serve(bot, token)
    finally:
        beating.set()
        await heartbeat
        if not taken:
            try:
                await lease.release()
            except Exception as error:  # it expires on its own
                _log.warning("could not release the database's lease: %s", error)
        await lease.db.close()
    return 1 if taken else code


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
        if _database_trouble(exc, bot):
            return 2
        reason = getattr(exc, "strerror", None) or str(exc) or type(exc).__name__
        print(CANNOT_REACH.format(url=discord.http.Route.BASE, reason=reason), file=sys.stderr)
        return 2
    except Exception as exc:
        if not _database_trouble(exc, bot):
            raise
        return 2
    finally:
        loop = asyncio.get_running_loop()
        for signum in handled:
            loop.remove_signal_handler(signum)
    _log.info("stopped")
    return 0


def _database_trouble(error: BaseException, bot: Gregario) -> bool:
    """If ``error`` is the database's (it went away between the start-up check and the services' start),
    say so on stderr and return True."""
    from bot.store.database import unreachable

    if not unreachable(error):
        return False
    from bot.preflight import describe_database_error

    print(describe_database_error(error, bot.settings.database_url), file=sys.stderr)
    return True
