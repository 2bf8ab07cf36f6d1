"""The Flamme Rouge board's legend names the step's marks it draws, and only those (issue 23: "every legend
item a picture names is drawn"): line for a move, dots for a slipstream, E for exhaustion."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest
from PIL import Image, ImageChops

from bot.i18n import t
from bot.render import board_image
from bot.render.flamme_rouge import BOARD_TOP, MARK_KEYS, RENDERER, ROW_H, _squares
from engine.messages import Event
from engine.race import Race
from engine.registry import get_ruleset
from engine.ruleset import Entrant

MARKS = {
    "fr.move": "render.fr.legend_move",
    "fr.slipstream": "render.fr.legend_slipstream",
    "fr.exhaustion": "render.fr.legend_exhaustion",
}
"""Each event kind that leaves a mark on the board, by the legend's words for that mark."""


def a_race_step_with_every_mark() -> tuple[dict[str, Any], list[Event]]:
    """The public view after the first step of an all-bot race whose events move, slipstream and tire riders."""
    ruleset = get_ruleset("flamme_rouge")
    for seed in range(1, 60):
        seats = [Entrant(id=f"p{i}", name=f"Rider {i}", bot=ruleset.default_strategy) for i in range(4)]
        race = Race.start("flamme_rouge", ruleset.default_entrants(seats, {}), seed)
        while not race.finished:
            events = race.play_step({}).events
            kinds = {e.kind for e in events}
            if set(MARKS) <= kinds and _moved_and_slipstreamed(events):
                return ruleset.public_view(race.state), events
    raise AssertionError("no step with a move, a slipstream and exhaustion")


def _moved_and_slipstreamed(events: Sequence[Event]) -> bool:
    return all(
        any(e.kind == kind and e.data["to"] > e.data["from"] > 0 for e in events)
        for kind in ("fr.move", "fr.slipstream")
    )


def regions(view: Mapping[str, Any], events: Sequence[Event]) -> tuple[Image.Image, Image.Image]:
    """The board's track and its legend row (terrain swatches, then the marks' words) as two images."""
    image = board_image("flamme_rouge", view, events, "en").convert("RGB")
    riders = [r for r in view["riders"] if r["square"] > 0]
    rows = RENDERER._rows(max([len(_squares(view)), *(r["square"] for r in riders)]))
    legend_top = BOARD_TOP + rows * ROW_H
    return image.crop((0, BOARD_TOP, image.width, legend_top)), image.crop(
        (0, legend_top, image.width, legend_top + 28)
    )


def changed(a: Image.Image, b: Image.Image) -> bool:
    return ImageChops.difference(a, b).getbbox() is not None


@pytest.mark.parametrize("kind", list(MARKS))
def test_a_mark_is_named_in_the_legend_exactly_when_it_is_drawn(kind: str) -> None:
    """Without the step's events of one kind, the track loses that mark and the legend its words; with
    them, both are there (the words in the legend's order)."""
    view, events = a_race_step_with_every_mark()
    track, legend = regions(view, events)
    without = [e for e in events if e.kind != kind]
    track_without, legend_without = regions(view, without)
    assert changed(track, track_without), f"{kind} leaves a mark on the track"
    assert changed(legend, legend_without), f"the legend names {t(MARKS[kind])} only where it is drawn"
    assert list(MARKS.values()) == list(MARK_KEYS)


def test_a_board_without_marks_names_none() -> None:
    """The start of a race (no moves yet) draws no mark, and its legend row is the terrain alone: the same
    row as a board of the same track whose step's events left no mark."""
    view, events = a_race_step_with_every_mark()
    unmarked = [e for e in events if e.kind not in MARKS]
    _track, legend = regions(view, unmarked)
    _track, legend_no_events = regions(view, [])
    assert not changed(legend, legend_no_events)
    _track, marked = regions(view, events)
    assert changed(marked, legend)
