"""Tabella del Destino: the three rows of the destiny table with their digits, the terrain of each pair,
curvone and strettoia marked, and every rider where it stands with its Resistenza and Velocità.

Layout (the tests work positions out by hand from these constants):

- Row ``A``, ``B``, ``C`` (index 0, 1, 2) of the course starts at ``y = TABLE_TOP + index * CELL_H``.
- Left of the pairs is the start column (``START_W`` wide, after a ``LABEL_W`` row-letter column): a
  rider that has chosen its start row but not moved yet waits there. Pair ``p`` (1-5) starts at
  ``x = MARGIN + LABEL_W + START_W + (p - 1) * CELL_W``.
- In a cell, the riders standing there are numbered ``k = 0, 1, ...`` in the order of the public view;
  rider ``k`` has its token at ``x + TOKEN_X + (k % PER_LINE) * TOKEN_STEP_X``,
  ``y + TOKEN_Y + (k // PER_LINE) * TOKEN_STEP_Y``, ``TOKEN_W`` by ``TOKEN_H`` (the start column holds
  ``START_PER_LINE`` to a line). The token's label is the rider's number in the roster (1, 2, ...).
- The roster under the table lists every rider: number, name, position, status, R and V.
- This round's moves are arrows from the cell left to the cell reached; a cell where a tamponamento
  happened has a thick border and a "!" badge.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from PIL import Image

from bot.i18n import t
from bot.progress import counter
from bot.render.base import EventLike, SystemRenderer, event_data, event_lines
from bot.render.layout import MARGIN, Canvas
from bot.render.palette import GRID, INK, MUTED, OKABE_ITO, PAPER, TERRAIN, fade, seat_colour
from bot.render.tokens import token
from bot.render.words import TABELLA_SPECIAL, TABELLA_STATUS, TERRAIN_WORDS, say
from engine.messages import Message
from engine.ruleset import PROGRESS_KEY

ROWS = ("A", "B", "C")
LABEL_W = 30
START_W = 90
CELL_W = 136
CELL_H = 130
TABLE_TOP = 84
TOKEN_X, TOKEN_Y = 4, 50
TOKEN_W, TOKEN_H = 30, 24
TOKEN_STEP_X, TOKEN_STEP_Y = 33, 26
PER_LINE = 4
START_PER_LINE = 2
MAX_LINES = 3
ROSTER_LINE = 24
WIDTH = 2 * MARGIN + LABEL_W + START_W + 5 * CELL_W
MARK = {"climb": "▲", "descent": "▼", "flat": "="}


def cell_origin(row: str, pair: int | None) -> tuple[int, int]:
    """Top-left of the cell at ``row`` and ``pair`` (``None`` or 0: the start column)."""
    y = TABLE_TOP + ROWS.index(row) * CELL_H
    if not pair:
        return MARGIN + LABEL_W, y
    return MARGIN + LABEL_W + START_W + (pair - 1) * CELL_W, y


def token_box(row: str, pair: int | None, k: int) -> tuple[int, int, int, int]:
    """Where the ``k``-th rider of a cell has its token."""
    x, y = cell_origin(row, pair)
    per_line = PER_LINE if pair else START_PER_LINE
    tx = x + TOKEN_X + (k % per_line) * TOKEN_STEP_X
    ty = y + TOKEN_Y + (k // per_line) * TOKEN_STEP_Y
    return tx, ty, tx + TOKEN_W, ty + TOKEN_H


def _round_label(view: Mapping[str, Any], events: Sequence[EventLike], locale: str) -> str:
    """The round the events tell (the view already names the next one), else the view's, by the race's one
    counter ("Move 3") as the post's headline and the panel say it."""
    told = [d.get("name") for k, d in event_data(events) if k == "td.round"]
    name = told[-1] if told else None
    if isinstance(name, Mapping) and "key" in name:
        name = Message(str(name["key"]), dict(name.get("params") or {}), str(name.get("text") or ""))
    if isinstance(name, Message):
        return t(name, locale)
    marker = view.get(PROGRESS_KEY)
    return counter(marker if isinstance(marker, Mapping) else None, locale)


def _place(rider: Mapping[str, Any]) -> str:
    if rider.get("row") is None:
        return "—"
    return f"{rider['row']}{rider['pair'] or ''}"


class TabellaRenderer(SystemRenderer):
    ruleset_id = "tabella"

    def accent(self, view: Mapping[str, Any], entrant: str) -> tuple[int, int, int] | None:
        """The colour of the entrant's token: its place in the roster."""
        for number, rider in enumerate(view.get("riders") or []):
            if rider.get("id") == entrant:
                return seat_colour(number)
        return None

    def identity(self, view: Mapping[str, Any], entrant: str, locale: str) -> str | None:
        """ "Your token is 3.": the rider's number on the picture, its place in the roster."""
        for number, rider in enumerate(view.get("riders") or [], start=1):
            if rider.get("id") == entrant:
                return t("render.tb.identity", locale, number=number)
        return None

    def board(
        self, view: Mapping[str, Any], events: Sequence[EventLike], locale: str, names: Mapping[str, str]
    ) -> Image.Image:
        return self._draw(view, events, locale, preview=False)

    def _draw(
        self,
        view: Mapping[str, Any],
        events: Sequence[EventLike],
        locale: str,
        preview: bool,
        title: str | None = None,
    ) -> Image.Image:
        riders = list(view.get("riders") or [])
        number = {r["id"]: i + 1 for i, r in enumerate(riders)}
        roster_lines = (len(riders) + 1) // 2
        height = TABLE_TOP + 3 * CELL_H + 36 + roster_lines * ROSTER_LINE + MARGIN
        canvas = Canvas.new(WIDTH, height)
        rows = int(view.get("rows") or 1)
        if preview:
            canvas.title(title or "", t("render.tb.preview_subtitle", locale, first=rows, last=rows + 2))
        else:
            canvas.title(
                t("render.tb.title", locale, round=_round_label(view, events, locale), first=rows, last=rows + 2),
                t("render.tb.subtitle", locale),
            )
        draw = canvas.draw
        # Column heads: start, then pairs 1-5.
        head_y = TABLE_TOP - 14
        canvas.text((MARGIN + LABEL_W + START_W / 2, head_y), t("render.tb.start", locale), 13, True, MUTED, "mm")
        for p in range(1, 6):
            x, _ = cell_origin("A", p)
            canvas.text((x + CELL_W / 2, head_y), str(p), 13, True, MUTED, "mm")
        collided = {str(d.get("cell")) for k, d in event_data(events) if k == "td.collision"}
        for r_index, row in enumerate(view["course"]):
            name = ROWS[r_index]
            x0, y0 = cell_origin(name, 0)
            canvas.text((MARGIN + LABEL_W / 2, y0 + CELL_H / 2), name, 22, True, INK, "mm")
            draw.rectangle((x0, y0, x0 + START_W, y0 + CELL_H), fill=PAPER, outline=GRID)
            for cell in row:
                p = int(cell["cell"][1:])
                x, y = cell_origin(name, p)
                terrain = cell["terrain"]
                draw.rectangle((x, y, x + CELL_W, y + CELL_H), fill=TERRAIN.get(terrain, TERRAIN["flat"]), outline=INK)
                a, b = cell["digits"]
                canvas.text((x + 10, y + 6), f"{a} {b}", 28, True, INK)
                canvas.text((x + CELL_W - 8, y + 8), MARK.get(terrain, ""), 16, True, INK, "ra")
                tags = []
                if cell.get("curvone"):
                    tags.append(t("render.tb.curvone", locale))
                if cell.get("strettoia"):
                    tags.append(t("render.tb.strettoia", locale))
                if tags:
                    label = " + ".join(tags)
                    tw = draw.textlength(label, font=_bold(12))
                    draw.rounded_rectangle((x + 8, y + 34, x + 14 + tw, y + 48), radius=4, fill=INK)
                    canvas.text((x + 11, y + 35), label, 12, True, (255, 255, 255))
                if cell["cell"] in collided:
                    draw.rectangle(
                        (x + 2, y + 2, x + CELL_W - 2, y + CELL_H - 2), outline=OKABE_ITO["vermillion"], width=4
                    )
                    draw.ellipse(
                        (x + CELL_W - 26, y + CELL_H - 26, x + CELL_W - 6, y + CELL_H - 6),
                        fill=OKABE_ITO["vermillion"],
                        outline=INK,
                    )
                    canvas.text((x + CELL_W - 16, y + CELL_H - 16), "!", 14, True, (255, 255, 255), "mm")
        # This round's moves: an arrow per rider from the cell it left to the cell it reached.
        for kind, data in event_data(events):
            if kind != "td.move" or not data.get("frm") or not data.get("cell") or data["frm"] == data["cell"]:
                continue
            frm, to = str(data["frm"]), str(data["cell"])
            if frm[0] not in ROWS or to[0] not in ROWS:
                continue
            offset = (number.get(str(data.get("rider")), 0) % 5) * 5 - 10
            fx, fy = cell_origin(frm[0], int(frm[1:] or 0))
            tx, ty = cell_origin(to[0], int(to[1:] or 0))
            from_w = CELL_W if len(frm) > 1 and frm[1:] != "0" else START_W
            start = (fx + from_w / 2, fy + TOKEN_Y + TOKEN_H / 2 + offset)
            end = (tx + 8, ty + TOKEN_Y + TOKEN_H / 2 + offset)
            colour = seat_colour(number.get(str(data.get("rider")), 1) - 1)
            draw.line((start, end), fill=INK, width=7)
            draw.line((start, end), fill=colour, width=4)
            draw.ellipse((start[0] - 6, start[1] - 6, start[0] + 6, start[1] + 6), fill=PAPER, outline=INK, width=2)
            draw.ellipse((start[0] - 3, start[1] - 3, start[0] + 3, start[1] + 3), fill=colour)
        # Riders in their cells.
        by_cell: dict[tuple[str, int], list[Mapping[str, Any]]] = {}
        for r in riders:
            if r.get("row") in ROWS and r.get("status") != "dns":
                by_cell.setdefault((r["row"], int(r.get("pair") or 0)), []).append(r)
        for (row, pair), here in by_cell.items():
            per_line = PER_LINE if pair else START_PER_LINE
            room = per_line * MAX_LINES
            for k, r in enumerate(here[:room]):
                box = token_box(row, pair, k)
                fill = seat_colour(number[r["id"]] - 1)
                if r.get("status") == "exhausted":  # faded: out of the race, still on the table
                    fill = fade(fill)
                    token(draw, box, fill, str(number[r["id"]]), outline=MUTED, largest=14, width=1)
                else:
                    token(draw, box, fill, str(number[r["id"]]), outline=INK, largest=14)
            if len(here) > room:
                x, y = cell_origin(row, pair)
                canvas.text((x + 6, y + CELL_H - 4), f"+{len(here) - room}", 12, True, INK, "ld")
        # Roster.
        y = TABLE_TOP + 3 * CELL_H + 14
        col_w = (WIDTH - 2 * MARGIN) // 2
        for i, r in enumerate(riders):
            x = MARGIN + (i % 2) * col_w
            yy = y + (i // 2) * ROSTER_LINE
            token(draw, (x, yy, x + 30, yy + 20), seat_colour(i), str(i + 1), largest=13)
            status = say(TABELLA_STATUS, r.get("status", "racing"), locale)
            canvas.text((x + 36, yy + 2), r["name"], 14, True, width=150)
            canvas.text(
                (x + 190, yy + 2),
                t("render.tb.figures", locale, place=_place(r), r=r["R"], v=r["V"], status=status),
                14,
                width=col_w - 196,
            )
        return canvas.image

    def preview(self, stage: Mapping[str, Any] | str | None, options: Mapping[str, Any], locale: str) -> Image.Image:
        from engine.tabella.models import Stage
        from engine.tabella.presets import PRESETS
        from engine.tabella.table import Course, check_table, classic_table
        from engine.tabella.views import course_data

        if stage is None:
            chosen, title = Stage(), "classic"
        elif isinstance(stage, str):
            chosen, title = PRESETS[stage].stage, stage
        else:
            chosen, title = Stage.model_validate(dict(stage)), t("render.tb.custom", locale)
        if chosen.table == "random" or chosen.rows == "random":
            canvas = Canvas.new(WIDTH, 120)
            canvas.title(title, t("render.tb.random_rows" if chosen.table != "random" else "render.tb.random", locale))
            canvas.text((MARGIN, 70), t("render.tb.drawn_at_start", locale), 16)
            return canvas.image
        table = classic_table() if chosen.table == "classic" else check_table(chosen.table)
        view = {"course": course_data(Course.of(table, int(chosen.rows))), "rows": int(chosen.rows), "riders": []}
        return self._draw(view, [], locale, preview=True, title=title)

    def describe(
        self, view: Mapping[str, Any], events: Sequence[EventLike], locale: str, names: Mapping[str, str]
    ) -> str:
        rows = int(view.get("rows") or 1)
        lines = [t("render.tb.title", locale, round=_round_label(view, events, locale), first=rows, last=rows + 2)]
        for r_index, row in enumerate(view["course"]):
            cells = []
            for cell in row:
                a, b = cell["digits"]
                extra = [say(TABELLA_SPECIAL, k, locale) for k in TABELLA_SPECIAL if cell.get(k)]
                cells.append(
                    f"{cell['cell']} ({a},{b}) {say(TERRAIN_WORDS, cell['terrain'], locale)}"
                    + (f" ({', '.join(extra)})" if extra else "")
                )
            lines.append(f"{ROWS[r_index]}: " + "; ".join(cells))
        for i, r in enumerate(view.get("riders") or []):
            status = say(TABELLA_STATUS, r.get("status", "racing"), locale)
            lines.append(
                f"{i + 1} {r['name']}: "
                + t("render.tb.figures", locale, place=_place(r), r=r["R"], v=r["V"], status=status)
            )
        lines.extend(event_lines(events, locale))
        return "\n".join(lines)


def _bold(size: int) -> Any:
    from bot.render.fonts import font

    return font(size, True)


RENDERER = TabellaRenderer()
