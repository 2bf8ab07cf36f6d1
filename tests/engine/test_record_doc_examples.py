"""Every example record in the docs replays, and together they show an absent player and a published
announcement."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from engine.race import replay
from engine.record import parse_record

DOCS = Path(__file__).resolve().parents[2] / "docs"
_JSON_BLOCK = re.compile(r"```json\n(.*?)```", re.S)
PAGES = sorted(p for p in DOCS.rglob("*.md"))


def _examples(page: Path) -> list[str]:
    return [b for b in _JSON_BLOCK.findall(page.read_text(encoding="utf-8")) if '"format"' in b]


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(DOCS)) for p in PAGES])
def test_every_example_record_in_the_docs_replays(page: Path) -> None:
    """Each JSON block that is a record (it has a ``format``) parses and replays to its end."""
    for block in _examples(page):
        record = parse_record(json.loads(block))
        replay(record)


def test_the_docs_show_an_absent_player_and_a_published_announcement() -> None:
    """Somewhere in the docs an example record has an order ``{"auto": true}`` and an announcement."""
    records = [json.loads(b) for page in PAGES for b in _examples(page)]
    assert any(
        isinstance(order, dict) and order.get("auto") is True and len(set(order) - {"auto", "received_at"}) == 0
        for r in records
        for step in r.get("steps", [])
        for order in step.values()
    )
    assert any(r.get("announcements") for r in records)


def test_the_record_page_example_ends_as_the_page_says() -> None:
    """The Gazzetta example: finished, final, Luca first and Anna caught (§6.10)."""
    (block,) = _examples(DOCS / "race-record.md")
    race = replay(parse_record(json.loads(block)))
    result = race.result()
    assert result.finished and not result.provisional
    assert [(s.entrant, s.figures.get("gazzetta")) for s in result.standings] == [("luca", None), ("anna", "caught")]
