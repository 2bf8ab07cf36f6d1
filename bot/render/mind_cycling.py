"""Mind Cycling: the road with its lanes, sections, rocks and feed spaces, the cyclists with helmet
colours for their role and base colours for the bottle, and the medal lines.

Layout (the tests work positions out by hand from these constants):

- The road runs left to right, one column per row of the course, ``PER_BAND`` columns to a band. The
  first column is row ``first`` = the lowest of 0 and every placed cyclist's row (the start grid uses
  rows 0, -1, ...); row ``r`` is column ``c = r - first``, in band ``c // PER_BAND`` at
  ``x = MARGIN + (c % PER_BAND) * ROW_W``.
- A band is ``BAND_H`` high from ``BOARD_TOP + band * BAND_H``: a ``NUMBER_H`` strip with row numbers,
  then the lanes, lane 1 on top: lane ``l`` starts at ``band top + NUMBER_H + (l - 1) * LANE_H``.
- A cyclist fills its cell less ``INSET`` pixels: its base (blue = carries a bottle, with a white
  bottle mark; black = none) and on it a disc in the helmet colour of its role (sprinter green,
  domestique blue, climber yellow) labelled with the role's letter and the player's number (``S1``).
- A rock is a dark cell marked ✕, a feed space a yellow cell marked F. A medal line closes each medal
  section (sprint: green, mountain: red), the finish line is chequered.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from PIL import Image

from bot.i18n import t
from bot.render.base import EventLike, SystemRenderer, event_data, event_lines, round_of
from bot.render.layout import MARGIN, Canvas
from bot.render.palette import GRID, INK, MUTED, OKABE_ITO, PAPER, RGB, TERRAIN
from bot.render.tokens import swatch, token
from bot.render.words import MIND_BASE, MIND_ROLE, TERRAIN_WORDS, say

ROW_W = 26
LANE_H = 28
NUMBER_H = 16
BAND_GAP = 12
PER_BAND = 30
BOARD_TOP = 64
INSET = 1
WIDTH = 2 * MARGIN + PER_BAND * ROW_W

HELMET: dict[str, RGB] = {
    "sprinter": OKABE_ITO["green"],
    "domestique": OKABE_ITO["sky"],
    "climber": OKABE_ITO["yellow"],
}
BASE: dict[str, RGB] = {"blue": OKABE_ITO["blue"], "black": (20, 20, 20)}
ROLE_LETTER = {"sprinter": "S", "domestique": "D", "climber": "C"}
ROCK: RGB = (95, 95, 95)
FEED: RGB = (248, 232, 120)
MEDAL_LINE: dict[str, RGB] = {"sprint": OKABE_ITO["green"], "mountain": OKABE_ITO["vermillion"]}
MOVES = ("mc.move", "mc.attack", "mc.relay", "mc.wheel", "mc.move_finish", "mc.attack_finish", "mc.relay_finish")


def first_row(view: Mapping[str, Any]) -> int:
    """The first column's row: 0, or lower when the start grid holds cyclists behind row 0."""
    rows = [c["row"] for c in view.get("cyclists") or [] if c.get("row") is not None]
    return int(min([0, *rows]))


def band_height(lanes: int) -> int:
    return NUMBER_H + lanes * LANE_H + BAND_GAP


def cell_box(row: int, lane: int, first: int, lanes: int) -> tuple[int, int, int, int]:
    """The cell of ``row``, ``lane`` (lane 1 on top) when the first column is row ``first``."""
    c = row - first
    band, col = divmod(c, PER_BAND)
    x = MARGIN + col * ROW_W
    y = BOARD_TOP + band * band_height(lanes) + NUMBER_H + (lane - 1) * LANE_H
    return x, y, x + ROW_W, y + LANE_H


def _numbers(view: Mapping[str, Any]) -> dict[str, int]:
    found: dict[str, int] = {}
    for c in view.get("cyclists") or []:
        found.setdefault(c["entrant"], len(found) + 1)
    return found


def cyclist_label(cyclist: Mapping[str, Any], numbers: Mapping[str, int]) -> str:
    return f"{ROLE_LETTER.get(cyclist['role'], '?')}{numbers[cyclist['entrant']]}"


def section_of(row: int, course: Mapping[str, Any]) -> str:
    length = int(course["strip_length"])
    strips = course["strips"]
    if row <= 0:
        return "start"
    index = (row - 1) // length
    return str(strips[index]) if index < len(strips) else "finish"


class MindCyclingRenderer(SystemRenderer):
    ruleset_id = "mind_cycling"

    def riders(
        self, view: Mapping[str, Any], names: Mapping[str, str], locale: str, short: bool = False
    ) -> dict[str, str]:
        """``u123#1`` -> "Anna #1", as the rules' own texts name a cyclist (``short``: "#1 sprinter")."""
        found = {}
        for c in view.get("cyclists") or []:
            owner = names.get(str(c.get("entrant")), str(c.get("entrant")))
            role = say(MIND_ROLE, c.get("role"), locale)
            key = "render.mc.cyclist_short" if short else "render.mc.cyclist_named"
            found[str(c.get("id"))] = t(key, locale, name=owner, number=c.get("number"), role=role)
        return found

    def identity(self, view: Mapping[str, Any], entrant: str, locale: str) -> str | None:
        """ "You are 2 on the picture: your cyclists are S2 (#1 sprinter), D2 (#2 domestique), C2 (#3 climber).":
        the player's number and each cyclist's token, as the picture draws them."""
        numbers = _numbers(view)
        mine = [c for c in view.get("cyclists") or [] if c.get("entrant") == entrant]
        if entrant not in numbers or not mine:
            return None
        cyclists = ", ".join(
            t(
                "render.mc.identity_cyclist",
                locale,
                token=cyclist_label(c, numbers),
                cyclist=t(
                    "render.mc.cyclist_short",
                    locale,
                    number=c.get("number"),
                    role=say(MIND_ROLE, c.get("role"), locale),
                ),
            )
            for c in mine
        )
        return t("render.mc.identity", locale, number=numbers[entrant], cyclists=cyclists)

    def board(
        self, view: Mapping[str, Any], events: Sequence[EventLike], locale: str, names: Mapping[str, str]
    ) -> Image.Image:
        return self._draw(view, events, locale, names, None)

    def _draw(
        self,
        view: Mapping[str, Any],
        events: Sequence[EventLike],
        locale: str,
        names: Mapping[str, str],
        title: str | None,
    ) -> Image.Image:
        course = view["course"]
        lanes = int(course["lanes"])
        last = int(view["last_row"])
        cyclists = list(view.get("cyclists") or [])
        first = first_row(view)
        placed = [c for c in cyclists if c.get("row") is not None]
        top_row = max([last + 1, *(c["row"] for c in placed)])
        columns = top_row - first + 1
        bands = (columns - 1) // PER_BAND + 1
        numbers = _numbers(view)
        legend_h = 24 + 24 * ((len(numbers) + 2) // 3) + 24
        height = BOARD_TOP + bands * band_height(lanes) + legend_h + MARGIN
        canvas = Canvas.new(WIDTH, height)
        draw = canvas.draw
        if title is None:
            canvas.title(t("render.mc.title", locale, round=round_of(view)), t("render.mc.subtitle", locale))
        else:
            canvas.title(title, t("render.mc.preview_subtitle", locale, rows=last, lanes=lanes))
        rocks = {(int(r), int(lane)) for r, lane in course.get("rocks") or []}
        feeds = {(int(r), int(lane)) for r, lane in course.get("supply_spaces") or []}
        for row in range(first, top_row + 1):
            kind = section_of(row, course) if row <= last else "finish"
            fill = TERRAIN.get(kind, TERRAIN["flat"]) if kind not in ("start", "finish") else TERRAIN["start"]
            for lane in range(1, lanes + 1):
                box = cell_box(row, lane, first, lanes)
                if (row, lane) in rocks:
                    draw.rectangle(box, fill=ROCK, outline=GRID)
                elif (row, lane) in feeds:
                    draw.rectangle(box, fill=FEED, outline=GRID)
                else:
                    draw.rectangle(box, fill=fill, outline=GRID)
            x0, y0, _, _ = cell_box(row, 1, first, lanes)
            if row == 1 or row % 5 == 0:
                canvas.text((x0 + ROW_W / 2, y0 - NUMBER_H / 2), str(row), 10, False, MUTED, "mm")
        # Section names at the start of each section; medal lines after each medal section; the finish.
        length = int(course["strip_length"])
        for i, kind in enumerate(course["strips"]):
            row = i * length + 1
            if i == 0 or course["strips"][i - 1] != kind:
                x0, y0, _, _ = cell_box(row, 1, first, lanes)
                label = say(TERRAIN_WORDS, kind, locale)
                canvas.text((x0 + 2 + ROW_W / 2 + 10, y0 - NUMBER_H / 2), label, 10, True, INK, "lm")
        for key in ("medal_sprint", "medal_mountain"):
            section = course.get(key)
            if section:
                kind = str(section["kind"])
                self._line(canvas, int(section["last"]), first, lanes, MEDAL_LINE.get(kind, INK), chequered=False)
        self._line(canvas, last, first, lanes, INK, chequered=True)
        # Moves of this step.
        by_id = {c["id"]: c for c in cyclists}
        for kind, data in event_data(events):
            who = by_id.get(str(data.get("cyclist", "")))
            if kind in MOVES and who is not None and data.get("from_row") is not None and data.get("row") is not None:
                a = cell_box(int(data["from_row"]), int(data["from_lane"]), first, lanes)
                b = cell_box(int(data["row"]), int(data["lane"]), first, lanes)
                colour = HELMET.get(who["role"], GRID)
                start = ((a[0] + a[2]) / 2, (a[1] + a[3]) / 2)
                end = ((b[0] + b[2]) / 2, (b[1] + b[3]) / 2)
                if abs(start[1] - end[1]) > LANE_H * len(range(lanes)):  # wrapped onto another band
                    draw.ellipse((start[0] - 5, start[1] - 5, start[0] + 5, start[1] + 5), fill=colour, outline=INK)
                    continue
                draw.line((start, end), fill=INK, width=6)
                draw.line((start, end), fill=colour, width=3)
                draw.ellipse((start[0] - 5, start[1] - 5, start[0] + 5, start[1] + 5), fill=PAPER, outline=INK, width=2)
        for hazard, mark, colour in ((rocks, "✕", (255, 255, 255)), (feeds, "F", INK)):
            for row, lane in hazard:  # marks over the move lines: a rock is never hidden
                if first <= row <= top_row:
                    box = cell_box(row, lane, first, lanes)
                    canvas.text(((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), mark, 14, True, colour, "mm")
        for c in placed:
            x0, y0, x1, y1 = cell_box(int(c["row"]), int(c["lane"]), first, lanes)
            base = BASE.get(c.get("base", "black"), BASE["black"])
            draw.rounded_rectangle((x0 + INSET, y0 + INSET, x1 - INSET, y1 - INSET), radius=4, fill=base)
            token(
                draw,
                (x0 + 2, y0 + 2, x1 - 2, y1 - 7),
                HELMET.get(c["role"], (200, 200, 200)),
                cyclist_label(c, numbers),
                outline=INK,
                shape="disc",
                width=1,
                largest=11,
            )
            if c.get("base") == "blue":  # the bottle: a white mark on the base
                draw.rounded_rectangle(
                    (x0 + ROW_W / 2 - 5, y1 - 6, x0 + ROW_W / 2 + 5, y1 - 3), radius=1, fill=(255, 255, 255)
                )
        y = BOARD_TOP + bands * band_height(lanes)
        self._legend(canvas, y, locale, names, numbers, view)
        return canvas.image

    def _line(self, canvas: Canvas, after_row: int, first: int, lanes: int, colour: RGB, chequered: bool) -> None:
        _, y0, x1, _ = cell_box(after_row, 1, first, lanes)
        bottom = y0 + lanes * LANE_H
        if chequered:
            for k in range(lanes * LANE_H // 6):
                for j in range(2):
                    fill = INK if (k + j) % 2 else (255, 255, 255)
                    canvas.draw.rectangle((x1 - 3 + 4 * j, y0 + 6 * k, x1 + 1 + 4 * j, y0 + 6 * k + 6), fill=fill)
        else:
            canvas.draw.rectangle((x1 - 3, y0 - 4, x1 + 3, bottom + 4), fill=colour, outline=INK)

    def _legend(
        self,
        canvas: Canvas,
        y: int,
        locale: str,
        names: Mapping[str, str],
        numbers: Mapping[str, int],
        view: Mapping[str, Any],
    ) -> None:
        x = MARGIN
        for fill, label in (
            (HELMET["sprinter"], t("render.mc.sprinter", locale)),
            (HELMET["domestique"], t("render.mc.domestique", locale)),
            (HELMET["climber"], t("render.mc.climber", locale)),
            (BASE["blue"], t("render.mc.blue_base", locale)),
            (ROCK, t("render.mc.rock", locale)),
            (FEED, t("render.mc.feed", locale)),
        ):
            swatch(canvas.draw, (x, y + 2), fill, 14)
            canvas.text((x + 20, y), label, 13)
            x += 30 + int(canvas.draw.textlength(label, font=_font(13)))
        y += 24
        winners = view.get("section_winners") or {}
        for i, (entrant, n) in enumerate(numbers.items()):
            xx = MARGIN + (i % 3) * ((WIDTH - 2 * MARGIN) // 3)
            yy = y + (i // 3) * 24
            token(canvas.draw, (xx, yy, xx + 26, yy + 20), (255, 255, 255), str(n), largest=12)
            canvas.text((xx + 32, yy + 2), names.get(entrant, entrant), 14, width=(WIDTH - 2 * MARGIN) // 3 - 40)
        y += 24 * ((len(numbers) + 2) // 3)
        by_key = {c["id"]: c for c in view.get("cyclists") or []}

        def winner(key: str) -> str:
            c = by_key.get(key)
            if c is None:
                return key
            return f"{cyclist_label(c, numbers)} ({names.get(c['entrant'], c['entrant'])})"

        medals = [
            t("render.mc.medal", locale, section=say(TERRAIN_WORDS, k, locale), who=winner(str(v)))
            for k, v in winners.items()
            if v
        ]
        canvas.text(
            (MARGIN, y + 2),
            " · ".join([t("render.mc.lines", locale), *medals]),
            12,
            fill=MUTED,
            width=WIDTH - 2 * MARGIN,
        )

    def preview(self, stage: Mapping[str, Any] | str | None, options: Mapping[str, Any], locale: str) -> Image.Image:
        from engine.mind_cycling.course import preview_course
        from engine.mind_cycling.models import Options, stage_from

        opts = Options.model_validate(dict(options))
        model = stage_from(dict(stage) if isinstance(stage, Mapping) else stage)
        course = preview_course(model, opts.lanes, opts.medal_section)
        view = {"course": course.to_json(), "last_row": course.last_row, "cyclists": [], "round": 0}
        title = stage if isinstance(stage, str) else t("render.mc.custom", locale)
        return self._draw(view, [], locale, {}, title or "classic")

    def describe(
        self, view: Mapping[str, Any], events: Sequence[EventLike], locale: str, names: Mapping[str, str]
    ) -> str:
        course = view["course"]
        numbers = _numbers(view)
        lines = [t("render.mc.title", locale, round=round_of(view))]
        length = int(course["strip_length"])
        sections = ", ".join(
            f"{i * length + 1}-{(i + 1) * length} {say(TERRAIN_WORDS, k, locale)}"
            for i, k in enumerate(course["strips"])
        )
        lines.append(t("render.mc.road", locale, lanes=course["lanes"], rows=view["last_row"], sections=sections))
        rocks = ", ".join(f"{r}/{lane}" for r, lane in course.get("rocks") or []) or "—"
        feeds = ", ".join(f"{r}/{lane}" for r, lane in course.get("supply_spaces") or []) or "—"
        lines.append(t("render.mc.hazards", locale, rocks=rocks, feeds=feeds))
        for c in sorted(view.get("cyclists") or [], key=lambda c: -(c.get("row") if c.get("row") is not None else -99)):
            who = names.get(c["entrant"], c["entrant"])
            where = (
                t("render.mc.where", locale, row=c["row"], lane=c["lane"])
                if c.get("row") is not None
                else t("render.mc.not_placed", locale)
            )
            lines.append(
                f"{cyclist_label(c, numbers)} {who} #{c['number']} {say(MIND_ROLE, c['role'], locale)}: {where}, "
                + say(MIND_BASE, c.get("base", "black"), locale)
            )
        lines.extend(event_lines(events, locale))
        return "\n".join(lines)


def _font(size: int) -> Any:
    from bot.render.fonts import font

    return font(size)


RENDERER = MindCyclingRenderer()
