"""``gregario replay`` refuses a setup that cannot be: one line naming the field, exit status 2, nothing
written (R-FR-10, R-FR-11, R-WK-6)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bot.cli import main
from tests.engine.flamme_rouge.helpers import record as fr_record
from tests.engine.wyscig.helpers import record as wk_record

NO_START_SQUARES = fr_record(
    players=2,
    stage={"profile": "_6 u4 _6 F5"},
    setup={"riders": {"black-r": {"square": 3}, "black-s": {"square": 1}, "blue-r": {"square": 2}}},
)
ANNA_BIDS_ALONE = fr_record(players=2, options={"breakaway": "on"}, setup={"riders": {"black-r": {"bid": 6}}})
NINE_39S = wk_record({"p1": "45", "p2": "44"}, "39 " * 9)


@pytest.mark.rules("R-FR-10", "R-FR-11", "R-WK-6")
@pytest.mark.parametrize(
    ("record", "line"),
    [
        (
            NO_START_SQUARES,
            "gregario replay: setup.riders: the stage has no start squares (its profile does not begin with S), "
            "so the setup must place every rider; not placed: blue-s",
        ),
        (
            ANNA_BIDS_ALONE,
            "gregario replay: setup.riders: round-1 Breakaway bids are given for every bidding player or none; "
            "no bid for ben",
        ),
        (
            NINE_39S,
            "gregario replay: setup.pile: with the hands it holds more cards than the deck has: "
            "39 (9, the deck holds 8)",
        ),
    ],
    ids=["track without start squares", "breakaway bid missing", "pile beyond the deck"],
)
def test_a_setup_that_cannot_be_is_refused_in_one_line_with_status_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], record: dict[str, Any], line: str
) -> None:
    """An unplaced rider on a track without start squares, a bid for Anna only, nine 39s: exit 2, one line."""
    path = tmp_path / "race.json"
    text = json.dumps(record)
    path.write_text(text, encoding="utf-8")
    status = main(["replay", str(path)])
    out, err = capsys.readouterr()
    assert status == 2
    assert out == ""
    assert err == line + "\n"
    assert path.read_text(encoding="utf-8") == text
    assert sorted(p.name for p in tmp_path.iterdir()) == ["race.json"]
