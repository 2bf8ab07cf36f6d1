"""Injected faults: a route answers an error (429 with retry_after, 5xx, 403...) a given number of times,
or a hook acts once a request is served and before its answer leaves (SIGKILL the bot there: a crash
after Discord did the work, before the bot learnt it was done)."""

from __future__ import annotations

import asyncio
import inspect
import os
import signal
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from aiohttp import web

from tests.fakediscord.answers import json_response

if TYPE_CHECKING:
    from tests.fakediscord.server import RecordedRequest

RequestAction = Callable[["RecordedRequest"], Awaitable[Any] | Any]
KILL_WAIT = 5.0
"""Seconds a killed process has to be gone before the hook gives up waiting (it is then left as is)."""


@dataclass
class Fault:
    """An error answer injected on a route: ``times`` requests get it, then the route works again."""

    method: str
    route: str
    status: int
    times: int = 1
    retry_after: float = 0.05
    code: int = 0
    message: str = ""
    hits: int = 0
    scope: str = "user"
    """A 429's scope: ``global`` (the token's limit over all routes) or ``user`` (a route's bucket)."""


class Faults:
    """The faults waiting for their requests, matched by method and route template."""

    def __init__(self) -> None:
        self.pending: list[Fault] = []

    def add(self, fault: Fault) -> Fault:
        self.pending.append(fault)
        return fault

    def take(self, method: str, route: str) -> Fault | None:
        """The fault this request meets, if any (each fault serves ``times`` requests)."""
        for fault in self.pending:
            if fault.method == method and fault.route == route and fault.hits < fault.times:
                fault.hits += 1
                return fault
        return None

    @staticmethod
    def response(fault: Fault) -> web.Response:
        if fault.status == 429:
            scope = fault.scope
            body = {
                "message": "You are being rate limited.",
                "retry_after": fault.retry_after,
                "global": scope == "global",
            }
            response = json_response(body, 429)
            response.headers["Via"] = "1.1 google"  # without it discord.py takes a 429 for a Cloudflare ban
            response.headers["Retry-After"] = str(fault.retry_after)
            response.headers["X-RateLimit-Scope"] = scope
            if scope == "global":
                response.headers["X-RateLimit-Global"] = "true"
            return response
        body = {"message": fault.message or f"fake error {fault.status}", "code": fault.code}
        return json_response(body, fault.status)


@dataclass
class Hook:
    """An action on the next ``times`` served requests of ``method route`` (``dm`` and ``when`` narrow it)."""

    method: str
    route: str
    action: RequestAction
    dm: bool | None = None
    when: Callable[[RecordedRequest], bool] | None = None
    times: int = 1
    drop_answer: bool = False
    hits: list[RecordedRequest] = field(default_factory=list)
    """The requests it acted on, in order."""

    @property
    def spent(self) -> bool:
        return len(self.hits) >= self.times

    def matches(self, record: RecordedRequest) -> bool:
        if self.spent or record.method != self.method or record.route != self.route:
            return False
        if self.dm is not None and record.dm is not self.dm:
            return False
        return self.when is None or bool(self.when(record))

    async def run(self, record: RecordedRequest) -> None:
        self.hits.append(record)
        outcome = self.action(record)
        if inspect.isawaitable(outcome):
            await outcome


class Hooks:
    """The hooks waiting for their requests; a request meets at most one (the oldest that matches)."""

    def __init__(self) -> None:
        self.pending: list[Hook] = []

    def add(self, hook: Hook) -> Hook:
        self.pending.append(hook)
        return hook

    def take(self, record: RecordedRequest) -> Hook | None:
        self.pending = [h for h in self.pending if not h.spent]
        return next((h for h in self.pending if h.matches(record)), None)

    def cancel(self, hook: Hook) -> None:
        if hook in self.pending:
            self.pending.remove(hook)

    def clear(self) -> None:
        self.pending.clear()


def _alive(pid: int) -> bool:
    """Whether ``pid`` still runs (a zombie waiting to be reaped has stopped running)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[-1].split()[0] not in ("Z", "X")


async def kill_process(pid: int) -> None:
    """SIGKILL ``pid`` and wait until it no longer runs: whatever is answered afterwards, it never reads."""
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        return
    deadline = time.monotonic() + KILL_WAIT
    while _alive(pid) and time.monotonic() < deadline:
        await asyncio.sleep(0.002)
