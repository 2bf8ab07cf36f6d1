"""DejaVu Sans, shipped with the package: Latin, Polish and Cyrillic letters (Pillow's default font has
none of them). See ``LICENSE`` in this folder."""

from __future__ import annotations

from functools import cache
from importlib import resources

from PIL import ImageFont

REGULAR = "DejaVuSans.ttf"
BOLD = "DejaVuSans-Bold.ttf"


def font_path(bold: bool = False) -> str:
    """The file of the regular or bold face."""
    return str(resources.files(__name__).joinpath(BOLD if bold else REGULAR))


@cache
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The face at ``size`` pixels, loaded once."""
    return ImageFont.truetype(font_path(bold), size)
