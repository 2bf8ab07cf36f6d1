"""Answers in Discord's shape: JSON bodies discord.py can read, and error answers with their codes."""

from __future__ import annotations

import json
from typing import Any

from aiohttp import web


class DiscordError(Exception):
    """An error answer in Discord's shape: HTTP status, JSON error code and message."""

    def __init__(self, status: int, code: int, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


def json_response(data: Any, status: int = 200) -> web.Response:
    # discord.py needs exactly "application/json" (no charset) to decode the body.
    return web.Response(body=json.dumps(data).encode(), status=status, headers={"Content-Type": "application/json"})
