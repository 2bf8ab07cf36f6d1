"""The whole race as an animated GIF, one frame a round (a lap for Wyścig), within an upload limit.

GIF because every Discord client plays it inline (APNG and animated WebP are not played everywhere)
and because boards are flat colours, which a 256-colour palette keeps exactly. Frames share one
palette, and Pillow stores only the part of each frame that changed, so a long race stays small. When
the result is still over the byte budget (the server's ``guild.filesize_limit``), frames are dropped
evenly (the first and the last always stay) and the pictures shrink in turn (:data:`SHRINK`), then the
palette shrinks.
"""

from __future__ import annotations

import io
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image

from bot.i18n import DEFAULT_LOCALE
from bot.render.base import EventLike
from bot.render.palette import PAPER
from bot.render.registry import renderer

FRAME_MS = 800
"""How long each round stays on screen."""
LAST_FRAME_MS = 4000
"""The finish stays longer, so the last frame can be read before the loop starts again."""
MAX_FRAMES = 150
"""More rounds than this are sampled evenly (a 6-stage Wyścig has about 150 laps)."""
SHRINK: tuple[tuple[int, float, float], ...] = ((24, 0.5, 1.0), (12, 0.25, 0.75), (6, 0.1, 0.6), (1, 0.0, 0.5))
"""How an animation over budget gives way, in turn: ``(frames, share, scale)`` = drop frames evenly at
this scale down to ``frames`` or ``share`` of the rounds, whichever is fewer, then go to the next
scale. Three quarters still reads on a phone; half size is the least (below it a board no longer
reads). After that the palette shrinks from 256 colours down to 16."""


@dataclass(frozen=True)
class Animation:
    """An encoded animation and what it took to fit the budget."""

    data: bytes
    filename: str
    frames: int
    rounds: int
    scale: float
    colours: int


def frames_of(
    ruleset_id: str, steps: Sequence[tuple[Mapping[str, Any], Sequence[EventLike]]]
) -> list[tuple[Mapping[str, Any], list[EventLike]]]:
    """The steps grouped into frames: consecutive steps whose views share the renderer's frame key (a
    round, a lap) become one frame showing the last view and all the group's events."""
    r = renderer(ruleset_id)
    groups: list[tuple[Any, Mapping[str, Any], list[EventLike]]] = []
    for view, events in steps:
        key = r.frame_key(view)
        if groups and groups[-1][0] == key:
            groups[-1] = (key, view, groups[-1][2] + list(events))
        else:
            groups.append((key, view, list(events)))
    return [(view, events) for _, view, events in groups]


def sample(count: int, keep: int) -> list[int]:
    """``keep`` indexes spread evenly over ``range(count)``, always with the first and the last."""
    if keep >= count:
        return list(range(count))
    if keep <= 1:
        return [count - 1]
    return sorted({round(i * (count - 1) / (keep - 1)) for i in range(keep)})


class _Frames:
    """The boards, quantised to one shared palette per (scale, colours) on demand and kept, so trying
    fewer frames costs only the GIF encoding."""

    def __init__(self, images: list[Image.Image]) -> None:
        self.images = images
        self.done: dict[tuple[float, int], tuple[Image.Image, dict[int, Image.Image]]] = {}

    def scaled(self, index: int, scale: float) -> Image.Image:
        im = self.images[index]
        if scale == 1.0:
            return im
        return im.resize((max(1, int(im.width * scale)), max(1, int(im.height * scale))), Image.Resampling.LANCZOS)

    def get(self, indexes: list[int], scale: float, colours: int) -> list[Image.Image]:
        entry = self.done.get((scale, colours))
        if entry is None:
            # One palette for every frame, from the first, middle and last boards side by side.
            picks = [self.scaled(i, scale) for i in (0, len(self.images) // 2, len(self.images) - 1)]
            strip = Image.new("RGB", (sum(im.width for im in picks), max(im.height for im in picks)), PAPER)
            x = 0
            for im in picks:
                strip.paste(im, (x, 0))
                x += im.width
            palette = strip.quantize(colors=colours, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
            entry = self.done[(scale, colours)] = (palette, {})
        palette, frames = entry
        for i in indexes:
            if i not in frames:
                frames[i] = self.scaled(i, scale).quantize(palette=palette, dither=Image.Dither.NONE)
        return [frames[i] for i in indexes]


def _encode(frames: list[Image.Image]) -> bytes:
    durations = [FRAME_MS] * (len(frames) - 1) + [LAST_FRAME_MS]
    out = io.BytesIO()
    frames[0].save(
        out, format="GIF", save_all=True, append_images=frames[1:], duration=durations, loop=0, optimize=False
    )
    return out.getvalue()


def race_animation(
    ruleset_id: str,
    steps: Sequence[tuple[Mapping[str, Any], Sequence[EventLike]]],
    budget: int,
    locale: str = DEFAULT_LOCALE,
    names: Mapping[str, str] | None = None,
) -> Animation:
    """The race as an animated GIF of at most ``budget`` bytes.

    ``steps`` are ``(public view after the step, the step's events)`` in order; the renderer groups them
    into rounds. Raises ``ValueError`` when even one small frame cannot fit (a budget of a few KB).
    """
    r = renderer(ruleset_id)
    grouped = frames_of(ruleset_id, steps)
    if not grouped:
        raise ValueError("a race animation needs at least one step")
    picked = [grouped[i] for i in sample(len(grouped), MAX_FRAMES)]
    images = [r.board(view, events, locale, names or {}) for view, events in picked]
    width = max(im.width for im in images)
    height = max(im.height for im in images)
    same = []
    for im in images:  # boards may grow (riders past the line): every frame gets the largest size
        if im.size != (width, height):
            padded = Image.new("RGB", (width, height), PAPER)
            padded.paste(im, (0, 0))
            im = padded
        same.append(im)
    keep, colours = len(same), 256
    frames = _Frames(same)
    stages = iter([(max(1, min(frames, math.ceil(share * len(same)))), scale) for frames, share, scale in SHRINK])
    least, scale = next(stages)
    while True:
        chosen = frames.get(sample(len(same), keep), scale, colours)
        data = _encode(chosen)
        if len(data) <= budget:
            return Animation(data, "race.gif", len(chosen), len(grouped), scale, colours)
        if keep > least:
            # Frames cost about the same each: aim straight for the count that fits, with a margin.
            keep = max(least, min(keep - 1, int(keep * budget / len(data) * 0.9)))
            continue
        shrink = next(stages, None)
        if shrink is not None:
            least, scale = shrink
        elif colours > 16:
            colours //= 2
        else:
            raise ValueError(f"even one frame of the race needs {len(data)} bytes; the limit is {budget}")
