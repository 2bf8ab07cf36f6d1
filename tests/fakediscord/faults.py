"""Injected faults: a route answers an error (429 with retry_after, 5xx, 403...) a given number of times."""

from __future__ import annotations

from dataclasses import dataclass

from aiohttp import web

from tests.fakediscord.answers import json_response


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
            body = {"message": "You are being rate limited.", "retry_after": fault.retry_after, "global": False}
            response = json_response(body, 429)
            response.headers["Via"] = "1.1 google"  # without it discord.py takes a 429 for a Cloudflare ban
            response.headers["Retry-After"] = str(fault.retry_after)
            return response
        body = {"message": fault.message or f"fake error {fault.status}", "code": fault.code}
        return json_response(body, fault.status)
