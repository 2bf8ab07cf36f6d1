"""What a person typed on the ``gregario`` command line, read for every sub-command: options, stages, the
record's path, and the one-line refusal (:class:`UsageError`, exit status 2) when it cannot be used.

Apart from :mod:`bot.cli`, which dispatches to the sub-commands, so that each sub-command reads its input
without importing the dispatcher back.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any


class UsageError(Exception):
    """A mistake in what the user typed: one line saying what is wrong and what to do; exit status 2."""


def check_record_path(path: str | None) -> None:
    """Refuse a ``--record`` file that cannot be written, before the race starts (so no race is lost)."""
    if not path:
        return
    target = Path(path)
    folder = target.parent
    if target.is_dir():
        raise UsageError(f"--record {path} is a folder; give a file name, e.g. {target / 'race.json'}")
    if not folder.is_dir():
        raise UsageError(f"cannot save the record to {path}: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK):
        raise UsageError(f"cannot save the record to {path}: the folder {folder} is not writable")


def brief(text: str, lines: int = 2) -> str:
    """At most ``lines`` lines of a multi-line refusal (several bad options), saying how many were left out."""
    parts = text.strip().splitlines() or [""]
    if len(parts) <= lines:
        return "\n".join(parts)
    return "\n".join([*parts[: lines - 1], f"{parts[lines - 1]} (and {len(parts) - lines} more)"])


def parse_options(pairs: Sequence[str]) -> dict[str, Any]:
    """``--option key=value`` pairs; each value is read as JSON when it can be (``2``, ``true``,
    ``["peloton"]``), otherwise kept as text (``--option grid=random``)."""
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, raw = pair.partition("=")
        if not sep or not key:
            raise UsageError(f"--option needs KEY=VALUE (e.g. --option grid=random), got {pair!r}")
        try:
            options[key] = json.loads(raw)
        except json.JSONDecodeError:
            options[key] = raw
    return options


def parse_stage(text: str | None) -> dict[str, Any] | str | None:
    """``--stage``: a preset name, the system's stage text, or a JSON object (``{"deck": ..., "stages": 3}``)."""
    if text and text.lstrip().startswith("{"):
        try:
            value = json.loads(text)
        except json.JSONDecodeError as exc:
            raise UsageError(f"--stage is not valid JSON ({exc.msg}, column {exc.colno})") from exc
        if isinstance(value, dict):
            return value
    return text
