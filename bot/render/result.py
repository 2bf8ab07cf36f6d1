"""The result card for the final post: a podium and the standings with the figures the result describes
(its columns), so the card, like the final post's text, never knows the rule system."""

from __future__ import annotations

from collections.abc import Mapping

from PIL import Image

from bot.i18n import t
from bot.render.layout import MARGIN, WIDTH, Canvas, wrap
from bot.render.palette import GRID, INK, MUTED, RGB, TERRAIN
from bot.render.tokens import token
from bot.standings import column_label, figures_line, per_rider_columns, rider_cells
from engine.ruleset import Result

MEDALS: dict[int, RGB] = {1: (240, 200, 40), 2: (200, 200, 205), 3: (205, 140, 80)}
PODIUM_H = {1: 110, 2: 80, 3: 60}
ROW = 30
RIDER_ROW = 20
HEAD_ROW = 32
TABLE_X = MARGIN + 290
"""Where the per-rider table's columns start (after the rider's name)."""


def result_card_image(
    ruleset_id: str, result: Result, title: str, locale: str, names: Mapping[str, str]
) -> Image.Image:
    columns = [c.model_dump() for c in result.columns]
    standings = sorted(result.standings, key=lambda s: s.place)
    notes = [t(n, locale) for n in result.notes]
    # Per-rider figures as a small table under their entrant's row: one line per rider.
    riders = {id(s): rider_cells(s.figures, columns, locale) for s in standings}
    lines = sum(len(r) for r in riders.values())
    split = per_rider_columns(columns)
    head = HEAD_ROW if split and lines else 0
    height = 70 + 40 + max(PODIUM_H.values()) + 30 + head + ROW * len(standings) + RIDER_ROW * lines
    height += 22 * len(notes) + MARGIN
    canvas = Canvas.new(WIDTH, height)
    status = "render.result.final" if result.finished and not result.provisional else "render.result.provisional"
    canvas.title(title, t(status, locale))
    # Podium: 2nd, 1st, 3rd from left to right, each block with its place and the name above it.
    base = 70 + 40 + max(PODIUM_H.values())
    block_w = 200
    centre = WIDTH // 2
    for place, dx in ((2, -block_w), (1, 0), (3, block_w)):
        at = [s for s in standings if s.place == place]
        if not at:
            continue
        x0 = centre + dx - block_w // 2 + 6
        x1 = x0 + block_w - 12
        top = base - PODIUM_H[place]
        canvas.draw.rectangle((x0, top, x1, base), fill=MEDALS[place], outline=INK, width=2)
        canvas.text(((x0 + x1) / 2, top + PODIUM_H[place] / 2), str(place), 36, bold=True, anchor="mm")
        who = " / ".join(names.get(s.entrant, s.entrant) for s in at)
        canvas.text(((x0 + x1) / 2, top - 6), who, 16, bold=True, anchor="md", width=block_w - 8)
    canvas.draw.line((MARGIN, base, WIDTH - MARGIN, base), fill=GRID, width=2)
    y = base + 16
    cell_w = (WIDTH - MARGIN - TABLE_X) // max(len(split), 1)
    if head:
        # The per-rider table's headings, once: each column's label over its values (two lines at most).
        for n, c in enumerate(split):
            for k, part in enumerate(wrap(column_label(c, locale), 11, cell_w - 8)[:2]):
                canvas.text((TABLE_X + n * cell_w, y + 14 * k), part, 11, fill=MUTED, width=cell_w - 8)
        y += head
    for i, s in enumerate(standings):
        if i % 2 == 0:
            canvas.draw.rectangle((MARGIN, y - 3, WIDTH - MARGIN, y + ROW - 5), fill=TERRAIN["start"])
        token(
            canvas.draw,
            (MARGIN + 4, y, MARGIN + 40, y + ROW - 8),
            MEDALS.get(s.place, (255, 255, 255)),
            str(s.place),
            largest=14,
        )
        canvas.text((MARGIN + 50, y + 2), names.get(s.entrant, s.entrant), 15, bold=True, width=230)
        canvas.text(
            (MARGIN + 290, y + 3),
            figures_line(s.figures, columns, locale, names, per_rider=False),
            13,
            fill=INK,
            width=WIDTH - 2 * MARGIN - 294,
        )
        y += ROW
        for rider, cells in riders[id(s)]:
            canvas.text((MARGIN + 66, y - 4), names.get(rider, rider), 12, bold=True, width=TABLE_X - MARGIN - 72)
            for n, cell in enumerate(cells):
                canvas.text((TABLE_X + n * cell_w, y - 4), cell, 12, fill=INK, width=cell_w - 8)
            y += RIDER_ROW
    for note in notes:
        canvas.text((MARGIN, y + 4), note, 13, fill=MUTED, width=WIDTH - 2 * MARGIN)
        y += 22
    return canvas.image
