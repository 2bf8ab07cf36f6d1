"""The shipped font draws Polish and Cyrillic letters, not the empty box Pillow's default font shows."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image, ImageDraw, ImageFont

from bot.render.fonts import BOLD, REGULAR, font, font_path

POLISH = "ąćęłńóśźżĄĆĘŁŃÓŚŹŻ"
CYRILLIC = "абвгджзийклмнпфцчшщъыьэюяЖЩЯ"
NOT_A_LETTER = "\ue000"
"""A private-use code point: no font has it, so it draws the font's "missing glyph" box."""


def glyph(face: ImageFont.FreeTypeFont, char: str) -> bytes:
    image = Image.new("L", (64, 64), 0)
    ImageDraw.Draw(image).text((8, 8), char, fill=255, font=face)
    return image.tobytes()


@pytest.mark.parametrize("bold", [False, True])
@pytest.mark.parametrize("char", list(POLISH + CYRILLIC))
def test_every_letter_has_its_own_glyph(char: str, bold: bool) -> None:
    """Each Polish and Cyrillic letter draws ink, and not the missing-glyph box."""
    face = font(24, bold)
    drawn = glyph(face, char)
    assert any(drawn), char
    assert drawn != glyph(face, NOT_A_LETTER), f"{char!r} draws the missing-glyph box"


def test_letters_with_marks_differ_from_their_bare_letters() -> None:
    """ł is not drawn as l, nor ż as z: the diacritics really are there."""
    face = font(24)
    for marked, bare in zip("łżąęńЙЁ", "lzaenИЕ", strict=True):
        assert glyph(face, marked) != glyph(face, bare), marked


def test_the_fonts_and_their_licence_ship_in_the_package() -> None:
    """The font files sit in the package, with the licence that allows shipping them."""
    folder = Path(font_path())
    assert folder.name == REGULAR and folder.is_file()
    assert Path(font_path(bold=True)).name == BOLD
    licence = (folder.parent / "LICENSE").read_text(encoding="utf-8")
    assert "Bitstream" in licence and "Permission is hereby granted" in licence


def test_the_package_data_ships_ttf_files() -> None:
    """pyproject's package data includes .ttf files, so the wheel carries the font."""
    import tomllib

    pyproject = tomllib.loads((Path(__file__).parents[3] / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = pyproject["tool"]["setuptools"]["package-data"]["*"]
    assert "*.ttf" in patterns and "LICENSE" in patterns
