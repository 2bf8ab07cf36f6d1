"""Shared drawing helpers: a canvas with a title bar, text that fits, legends and PNG encoding.

Pictures are drawn at the size a phone shows them (about 800 pixels wide, text at 14 pixels or more),
so Discord never has to shrink them below reading size.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field

from PIL import Image, ImageDraw

from bot.render.fonts import font
from bot.render.palette import INK, MUTED, PAPER, RGB

MARGIN = 16
"""Space around every picture's content."""
TITLE_H = 40
"""The title bar: the picture's headline (round, stage) in 20-pixel bold."""
WIDTH = 840
"""The default picture width: readable on a phone without zooming."""


@dataclass
class Canvas:
    """An image with its drawing context and a pen that writes lines from the top down."""

    image: Image.Image
    draw: ImageDraw.ImageDraw = field(init=False)

    def __post_init__(self) -> None:
        self.draw = ImageDraw.Draw(self.image)

    @classmethod
    def new(cls, width: int, height: int, background: RGB = PAPER) -> Canvas:
        return cls(Image.new("RGB", (width, height), background))

    def title(self, text: str, subtitle: str = "") -> None:
        """The headline across the top, and a smaller line under it when given."""
        self.draw.text(
            (MARGIN, 10), fit(text, 20, self.image.width - 2 * MARGIN, bold=True), fill=INK, font=font(20, True)
        )
        if subtitle:
            self.draw.text((MARGIN, 36), fit(subtitle, 14, self.image.width - 2 * MARGIN), fill=MUTED, font=font(14))

    def text(
        self,
        xy: tuple[float, float],
        text: str,
        size: int = 14,
        bold: bool = False,
        fill: RGB = INK,
        anchor: str = "la",
        width: int | None = None,
    ) -> None:
        """Text at ``xy`` (Pillow anchor), shortened with an ellipsis to ``width`` pixels when given."""
        if width is not None:
            text = fit(text, size, width, bold)
        self.draw.text(xy, text, fill=fill, font=font(size, bold), anchor=anchor)


def text_width(text: str, size: int, bold: bool = False) -> float:
    return font(size, bold).getlength(text)


def fit(text: str, size: int, width: float, bold: bool = False) -> str:
    """``text`` shortened with "…" until it is at most ``width`` pixels wide."""
    if text_width(text, size, bold) <= width:
        return text
    while text and text_width(text + "…", size, bold) > width:
        text = text[:-1]
    return text + "…"


def wrap(text: str, size: int, width: float, bold: bool = False) -> list[str]:
    """``text`` broken into lines at spaces, each at most ``width`` pixels wide."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        candidate = f"{line} {word}".strip()
        if line and text_width(candidate, size, bold) > width:
            lines.append(line)
            line = word
        else:
            line = candidate
    if line:
        lines.append(line)
    return lines


def png(image: Image.Image) -> bytes:
    """The picture as PNG bytes. Flat-coloured pictures are stored with a 256-colour palette (a third
    of the size of full colour, indistinguishable here)."""
    out = io.BytesIO()
    small = image.quantize(colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    small.save(out, format="PNG", compress_level=6)
    return out.getvalue()
