"""Colours every picture shares: the Okabe–Ito palette, safe for the common kinds of colour blindness.

Colour is never the only signal: every token also carries a label (a letter or number) and every
terrain has a mark or a legend entry. Team colours follow the games' own colours where they have them
(Flamme Rouge's black, blue, green, red, pink and white), shifted to the Okabe–Ito hues.
"""

from __future__ import annotations

RGB = tuple[int, int, int]


def hex_rgb(text: str) -> RGB:
    """``"#E69F00"`` -> ``(230, 159, 0)``."""
    text = text.lstrip("#")
    return (int(text[0:2], 16), int(text[2:4], 16), int(text[4:6], 16))


OKABE_ITO: dict[str, RGB] = {
    "black": hex_rgb("#000000"),
    "orange": hex_rgb("#E69F00"),
    "sky": hex_rgb("#56B4E9"),
    "green": hex_rgb("#009E73"),
    "yellow": hex_rgb("#F0E442"),
    "blue": hex_rgb("#0072B2"),
    "vermillion": hex_rgb("#D55E00"),
    "purple": hex_rgb("#CC79A7"),
}

SEATS: tuple[RGB, ...] = (
    OKABE_ITO["orange"],
    OKABE_ITO["sky"],
    OKABE_ITO["green"],
    OKABE_ITO["yellow"],
    OKABE_ITO["blue"],
    OKABE_ITO["vermillion"],
    OKABE_ITO["purple"],
    (90, 90, 90),
)
"""Colours for seats in systems without team colours, in seat order (labels tell seats 9+ apart)."""

FLAMME_ROUGE_TEAMS: dict[str, RGB] = {
    "black": (30, 30, 30),
    "blue": OKABE_ITO["blue"],
    "green": OKABE_ITO["green"],
    "red": OKABE_ITO["vermillion"],
    "pink": OKABE_ITO["purple"],
    "white": (250, 250, 250),
}

PAPER: RGB = (250, 248, 242)
INK: RGB = (25, 25, 25)
MUTED: RGB = (110, 110, 110)
GRID: RGB = (160, 160, 160)
VERGE: RGB = (226, 222, 212)
"""Where a square has fewer lanes than the widest: the roadside."""
HIGHLIGHT: RGB = OKABE_ITO["yellow"]
YELLOW_JERSEY: RGB = (245, 205, 0)

TERRAIN: dict[str, RGB] = {
    "flat": (205, 205, 205),
    "start": (236, 236, 236),
    "finish": (236, 236, 236),
    "ascent": (240, 168, 130),
    "climb": (240, 168, 130),
    "descent": (150, 200, 236),
    "supply": (248, 232, 120),
    "cobbles": (170, 150, 120),
    "plains": (218, 216, 206),
    "sprint": (180, 222, 196),
    "mountain": (240, 190, 160),
}
"""Terrain fills: ascents warm (the board game's red), descents cool (its blue), supply yellow,
cobbles brown-grey; each also has a mark, so colour is not the only signal."""


def seat_colour(index: int) -> RGB:
    """The colour of the seat at ``index`` (0-based), cycling after the palette ends."""
    return SEATS[index % len(SEATS)]


def fade(colour: RGB, amount: float = 0.65) -> RGB:
    """``colour`` mixed with white (a rider out of the race)."""
    r, g, b = colour
    return (round(r + (255 - r) * amount), round(g + (255 - g) * amount), round(b + (255 - b) * amount))


def text_on(fill: RGB) -> RGB:
    """Black or white, whichever reads better on ``fill`` (relative luminance, WCAG)."""

    def channel(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in fill)
    luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b
    return INK if luminance > 0.18 else (255, 255, 255)
