"""Keeping the bot on 127.0.0.1: a resolver that maps Discord's host names to the fake, and TLS.

The real discord.py client talks to ``https://discord.com`` and ``wss://gateway.discord.gg``. Instead of
patching it, its aiohttp connector gets :class:`LoopbackResolver`, which answers those names with the
fake's loopback port and refuses every other name, so nothing can leave the machine. The fake serves TLS
with a throwaway self-signed certificate made by the openssl CLI; the connector skips verification.
"""

from __future__ import annotations

import socket
import ssl
import subprocess
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp.abc import AbstractResolver, ResolveResult

DISCORD_HOSTS = frozenset(
    {
        "discord.com",
        "gateway.discord.gg",
        "cdn.discordapp.com",
        "media.discordapp.net",
        "discordapp.com",
    }
)
"""The names the bot may reach; all of them lead to the fake."""


class RefusedHost(OSError):
    """A name outside Discord: the test network refuses it."""


class LoopbackResolver(AbstractResolver):
    """Resolves Discord's host names to the fake on 127.0.0.1 and refuses every other name."""

    def __init__(self, port: int, hosts: frozenset[str] = DISCORD_HOSTS) -> None:
        self.port = port
        self.hosts = hosts
        self.refused: list[str] = []

    async def resolve(
        self, host: str, port: int = 0, family: socket.AddressFamily = socket.AF_INET
    ) -> list[ResolveResult]:
        if host not in self.hosts:
            self.refused.append(host)
            raise RefusedHost(f"the fake Discord refuses to resolve {host!r}: no network leaves the machine in tests")
        return [
            {
                "hostname": host,
                "host": "127.0.0.1",
                "port": self.port,
                "family": socket.AF_INET,
                "proto": 0,
                "flags": socket.AI_NUMERICHOST,
            }
        ]

    async def close(self) -> None:
        return None


def make_connector(resolver: LoopbackResolver, **kwargs: Any) -> aiohttp.TCPConnector:
    """A connector for discord.py (``connector=``) that can only reach the fake. Call it inside the loop."""
    return aiohttp.TCPConnector(resolver=resolver, ssl=False, **kwargs)


def make_certificate(directory: Path) -> tuple[Path, Path]:
    """A throwaway self-signed certificate for Discord's host names, made with the openssl CLI."""
    cert, key = directory / "fake-discord.crt", directory / "fake-discord.key"
    # Discord's names for the in-process bot, 127.0.0.1 for a `gregario run` process pointed at the fake.
    names = ",".join([*(f"DNS:{host}" for host in sorted(DISCORD_HOSTS)), "IP:127.0.0.1"])
    subprocess.run(
        [
            "openssl", "req", "-x509", "-nodes", "-days", "2",
            "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
            "-keyout", str(key), "-out", str(cert),
            "-subj", "/CN=discord.com", "-addext", f"subjectAltName={names}",
        ],
        check=True,
        capture_output=True,
    )  # fmt: skip
    return cert, key


def server_ssl_context(cert: Path, key: Path) -> ssl.SSLContext:
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    return context
