"""Tokens: a rider, a cyclist or a player as a coloured shape with a label, so colour is never the only
signal. The label's colour is chosen for contrast with the fill."""

from __future__ import annotations

from PIL import ImageDraw

from bot.render.fonts import font
from bot.render.layout import text_width
from bot.render.palette import INK, RGB, text_on

Box = tuple[float, float, float, float]


def label_size(label: str, box: Box, largest: int = 16) -> int:
    """The largest font size (at most ``largest``) at which ``label`` fits inside ``box``."""
    width = box[2] - box[0] - 4
    height = box[3] - box[1] - 2
    size = min(largest, int(height * 0.8))
    while size > 7 and text_width(label, size, True) > width:
        size -= 1
    return size


def token(
    draw: ImageDraw.ImageDraw,
    box: Box,
    fill: RGB,
    label: str,
    outline: RGB = INK,
    shape: str = "round",
    width: int = 2,
    largest: int = 16,
) -> None:
    """A token filling ``box``: a rounded square (``round``) or a disc (``disc``), outlined, labelled."""
    if shape == "disc":
        draw.ellipse(box, fill=fill, outline=outline, width=width)
    else:
        radius = min(box[2] - box[0], box[3] - box[1]) // 4
        draw.rounded_rectangle(box, radius=radius, fill=fill, outline=outline, width=width)
    if label:
        size = label_size(label, box, largest)
        centre = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2 + 0.5)
        draw.text(centre, label, fill=text_on(fill), font=font(size, True), anchor="mm")


def swatch(draw: ImageDraw.ImageDraw, xy: tuple[float, float], fill: RGB, size: int = 14, outline: RGB = INK) -> None:
    """A small square of colour for a legend."""
    x, y = xy
    draw.rectangle((x, y, x + size, y + size), fill=fill, outline=outline)
