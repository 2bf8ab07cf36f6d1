"""The scan for internal codes in what players read: "players read names, never codes" (issue 23).

:func:`codes` finds, in one text, what a player should never meet: dotted paths (``cards.r``), identifiers
with underscores (``itemised_108``), Python reprs (``{'``, ``['``), Discord ids outside mentions and
timestamps, rider and entrant ids (``red-r``, ``u1577442429433284295#1``), and ``None``/``True``/``False``.
:func:`discord_texts` gathers every text the fake Discord holds that a person could read (posts and every
earlier version of them, DMs, ephemeral replies, embeds, button labels, select placeholders and options,
modal titles, labels and placeholders, autocomplete choices, attachments' alt text), each with where it
was read, so a finding names its place.

The allowlist :data:`ALLOWED` is short and each entry says why it is not a code. :func:`counters` checks the
race's one counter where a headline, a panel or a picture names the moment: it reads in words ("Move 3").
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

ALLOWED: dict[str, str] = {
    "e.g.": "English abbreviation in help lines",
    "race-{n}.json": "the record's file name, shown as the attachment's name",
}
"""What looks like a code and is the game's or the language's own: each with the reason. The games' order
notations (Tabella's ``A 3R 2S 1D``, Flamme Rouge's ``r5 s9``, Mind Cycling's ``#1 move``) contain no dots,
underscores or reprs, so they need no entry."""

_MENTION = re.compile(r"<(?:@[!&]?|#|t:)\d+(?::[a-zA-Z])?>")
_RECORD_FILE = re.compile(r"\brace-\d+\.json\b")
_URL = re.compile(r"https?://\S+")

PATTERNS: dict[str, re.Pattern[str]] = {
    "dotted path": re.compile(r"(?<![\w.])[a-z][a-z0-9_]*(?:\.[a-z0-9_]+)+(?![\w(])"),
    "underscore identifier": re.compile(r"(?<![\w])[A-Za-z0-9]+_[A-Za-z0-9_]+(?![\w])"),
    "python repr": re.compile(r"[\[{(]\s*'|'\s*:\s|[\[{]\"|\"\s*:\s*[\"{\[\d]"),
    "discord id": re.compile(r"(?<![\w#])u?\d{15,21}(?:#\d+)?(?!\w)"),
    "none or bool": re.compile(r"(?<![\w])(?:None|True|False|null)(?![\w])"),
}
"""Each kind of code by the pattern that finds it (rider ids are looked for by :func:`codes`' ``ids``)."""


@dataclass(frozen=True)
class Finding:
    kind: str
    code: str
    where: str
    text: str

    def __str__(self) -> str:
        return f"[{self.kind}] {self.code!r} in {self.where}: {self.text[:160]!r}"


def _cleaned(text: str) -> str:
    """The text without what is allowed to look like a code: mentions, timestamps, links, the record's name."""
    text = _MENTION.sub(" ", text)
    text = _URL.sub(" ", text)
    text = _RECORD_FILE.sub(" ", text)
    for allowed in ALLOWED:
        if "{" not in allowed:
            text = text.replace(allowed, " ")
    return text


def codes(text: str, where: str = "", ids: Iterable[str] = ()) -> list[Finding]:
    """Every internal code in ``text``; ``ids`` are the race's rider and entrant ids, looked for whole."""
    found: list[Finding] = []
    clean = _cleaned(text)
    for kind, pattern in PATTERNS.items():
        for match in pattern.finditer(clean):
            found.append(Finding(kind, match.group(0), where, text))
    for code in sorted(set(ids), key=len, reverse=True):
        if not code:
            continue
        for _match in re.finditer(rf"(?<![\w#-]){re.escape(code)}(?![\w-])", clean):
            found.append(Finding("rider id", code, where, text))
    return found


COUNTER = re.compile(
    r"^(?:the start|the finish|result|the Gazzetta|Round \d+|Stage \d+(?:, lap \d+)?|Move [1-5]|Sprint [1-3])$"
)
"""What the race's one counter may read as in English, where a headline or a panel title names the moment
(``… · race #3 · Move 3``): the counter's own phrases, never a label of the system's notation (``m3``)."""
_COUNTED = re.compile(r"race #\d+ · ([^*\n]+?)(?:\*\*|\n|$)")
_TITLED = re.compile(r"^(?:Wyścig kolarski|Tabella del Destino) · ([^·\n]+?)(?: · |\n|$)", re.M)


def counters(texts: Iterable[tuple[str, str]]) -> list[Finding]:
    """Every counter a headline, a panel title or a picture's title (its alt text) shows that is not in the
    counter's words (:data:`COUNTER`), each distinct (text, counter) once."""
    seen: set[tuple[str, str]] = set()
    found: list[Finding] = []
    for where, text in texts:
        pattern = _TITLED if where.endswith("alt text") else _COUNTED
        for match in pattern.finditer(text):
            said = match.group(1).strip()
            if not COUNTER.match(said) and (said, text) not in seen:
                seen.add((said, text))
                found.append(Finding("counter", said, where, text))
    return found


def counts(findings: Iterable[Finding]) -> dict[str, int]:
    """How many findings of each kind."""
    return dict(Counter(f.kind for f in findings))


def _component_texts(components: list[dict[str, Any]], where: str) -> Iterable[tuple[str, str]]:
    for row in components:
        for item in [row, *(row.get("components") or [])]:
            if item is row and item.get("type") == 1:
                continue
            for key in ("label", "placeholder", "content"):
                if item.get(key):
                    yield f"{where} {key}", str(item[key])
            for option in item.get("options") or []:
                for key in ("label", "description"):
                    if option.get(key):
                        yield f"{where} option {key}", str(option[key])


def _payload_texts(payload: dict[str, Any], where: str) -> Iterable[tuple[str, str]]:
    if payload.get("content"):
        yield where, str(payload["content"])
    for embed in payload.get("embeds") or []:
        for key in ("title", "description"):
            if embed.get(key):
                yield f"{where} embed {key}", str(embed[key])
        for item in embed.get("fields") or []:
            yield f"{where} embed field", f"{item.get('name')}: {item.get('value')}"
        if (embed.get("footer") or {}).get("text"):
            yield f"{where} embed footer", str(embed["footer"]["text"])
    yield from _component_texts(payload.get("components") or [], where)
    for attachment in payload.get("attachments") or []:
        if isinstance(attachment, dict) and attachment.get("description"):
            yield f"{where} alt text", str(attachment["description"])


def discord_texts(fake: Any) -> list[tuple[str, str]]:
    """(where, text) for every text a person could read in the fake Discord (the bot's messages in every
    channel and DM with each earlier version, the modals it opened, the autocomplete choices it gave)."""
    found: list[tuple[str, str]] = []
    for channel in fake.channels.values():
        place = f"DM {channel.recipient.name}" if channel.recipient is not None else f"#{channel.name}"
        for message in channel.messages:
            if not message.author.bot:
                continue
            kind = "ephemeral" if message.ephemeral_for else "message"
            where = f"{place} {kind} {message.id}"
            versions = [*message.history, message.payload()]
            for number, payload in enumerate(versions):
                label = where if number == len(versions) - 1 else f"{where} (version {number + 1})"
                found.extend(_payload_texts(payload, label))
            for attachment in message.attachments:
                if attachment.description:
                    found.append((f"{where} alt text", attachment.description))
    for interaction in fake.interactions.values():
        if interaction.modal:
            modal = interaction.modal
            found.append(("modal title", str(modal.get("title") or "")))
            found.extend(_component_texts(modal.get("components") or [], "modal"))
        for choice in interaction.choices or []:
            found.append(("autocomplete choice", str(choice.get("name") or "")))
    return [(w, t) for w, t in found if t]


def scan(texts: Iterable[tuple[str, str]], ids: Iterable[str] = ()) -> list[Finding]:
    """Every finding in these (where, text) pairs, each distinct (text, code) once."""
    ids = list(ids)
    seen: set[tuple[str, str, str]] = set()
    out: list[Finding] = []
    for where, text in texts:
        for finding in codes(text, where, ids):
            key = (finding.kind, finding.code, finding.text)
            if key not in seen:
                seen.add(key)
                out.append(finding)
    return out
