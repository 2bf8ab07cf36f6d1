"""Tokens sit where a hand-worked layout of a tiny board says, sampled pixel by pixel.

Every coordinate below is worked out by hand from the layout constants each renderer documents in its
module docstring (margins, cell sizes, rows), not by calling the renderers' own layout functions.
"""

from __future__ import annotations

from typing import Any

from PIL import Image

from bot.render import board_image, board_png
from bot.render.palette import FLAMME_ROUGE_TEAMS, OKABE_ITO, SEATS, TERRAIN, VERGE, YELLOW_JERSEY

RGB = tuple[int, int, int]


def pixel(image: Image.Image, x: int, y: int) -> RGB:
    got = image.convert("RGB").getpixel((x, y))
    assert isinstance(got, tuple)
    return (int(got[0]), int(got[1]), int(got[2]))


# --- Flamme Rouge ----------------------------------------------------------------------------------
# MARGIN 16, BOARD_TOP 64, SQUARE_W 40, LANE_H 30, NUMBER_H 18, ROW_GAP 10 (row height 118), 20 squares a
# row, lane 1 at the bottom, token inset 3.
def fr_view() -> dict[str, Any]:
    """25 squares: 1-2 start, 3-20 flat, 21-23 ascent, 24-25 finish; all with 2 lanes."""
    return {
        "round": 4,
        "track": {
            "name": "Tiny",
            "squares": 25,
            "start_squares": 2,
            "finish": 24,
            "profile": "S2 _18 u3 F2",
            "weather": {},
        },
        "riders": [
            {"id": "black-r", "team": "black", "type": "Rouleur", "owner": "anna", "square": 7, "lane": 1},
            {"id": "blue-s", "team": "blue", "type": "Sprinteur", "owner": "bob", "square": 4, "lane": 2},
            {"id": "black-s", "team": "black", "type": "Sprinteur", "owner": "anna", "square": 23, "lane": 1},
        ],
    }


def test_flamme_rouge_tokens_sit_on_their_squares_and_lanes() -> None:
    """Square 7 lane 1, square 4 lane 2 and square 23 (second row) hold their riders' team colours."""
    image = board_image("flamme_rouge", fr_view())
    assert image.width == 2 * 16 + 20 * 40
    # Square 7: column 6, x 256-296; lane 1 is the bottom lane: y 82+60 = 142-172; token 259-293 x 145-169.
    assert pixel(image, 262, 157) == FLAMME_ROUGE_TEAMS["black"]
    # Square 4: column 3, x 136-176; lane 2: y 112-142; token 139-173 x 115-139.
    assert pixel(image, 142, 127) == FLAMME_ROUGE_TEAMS["blue"]
    # Square 23: row 1 (top 64+118 = 182, lanes from 200), column 2, x 96-136; lane 1: y 260-290.
    assert pixel(image, 102, 275) == FLAMME_ROUGE_TEAMS["black"]


def test_flamme_rouge_empty_squares_show_terrain_and_roadside() -> None:
    """An empty ascent square is ascent-coloured, a flat one flat, and a missing third lane is roadside."""
    image = board_image("flamme_rouge", fr_view())
    # Square 21 (ascent): row 1, column 0, x 16-56; lane 2: y 230-260.
    assert pixel(image, 36, 245) == TERRAIN["ascent"]
    # Square 10 (flat), lane 1: x 376-416, y 142-172.
    assert pixel(image, 396, 157) == TERRAIN["flat"]
    # Square 10 has two lanes: its lane 3 (top, y 82-112) is roadside.
    assert pixel(image, 396, 97) == VERGE


def test_the_last_move_is_drawn_from_where_the_rider_started() -> None:
    """A move from square 3 to 7 in lane 1 leaves a trail in the team colour across squares 4-6."""
    events = [{"kind": "fr.move", "data": {"rider": "black-r", "from": 3, "to": 7, "lane": 1}}]
    before = board_image("flamme_rouge", fr_view())
    after = board_image("flamme_rouge", fr_view(), events)
    # Square 5, lane 1: x 176-216, the trail runs along the lane's middle, y 157.
    assert pixel(before, 196, 157) == TERRAIN["flat"]
    assert pixel(after, 196, 157) == FLAMME_ROUGE_TEAMS["black"]


def test_a_board_picture_is_a_png_of_the_drawn_size() -> None:
    """The PNG decodes to the same size as the drawn board and stays small."""
    data = board_png("flamme_rouge", fr_view())
    image = Image.open(__import__("io").BytesIO(data))
    assert image.format == "PNG"
    assert image.size == board_image("flamme_rouge", fr_view()).size
    assert len(data) < 300_000


# --- Tabella del Destino ---------------------------------------------------------------------------
# MARGIN 16, LABEL_W 30, START_W 90, CELL_W 136, CELL_H 130, TABLE_TOP 84; tokens 30x24 from (4, 50) in
# a cell, 33 apart across and 26 down, 4 to a line (2 in the start column).
def tabella_view() -> dict[str, Any]:
    def cell(row: str, p: int) -> dict[str, Any]:
        return {"cell": f"{row}{p}", "digits": [p, p + 1], "terrain": "climb", "curvone": False, "strettoia": False}

    def rider(n: int, row: str, pair: int | None) -> dict[str, Any]:
        return {"id": f"p{n}", "name": f"P{n}", "status": "racing", "R": 30, "V": 10, "row": row, "pair": pair}

    return {
        "rows": 1,
        "round_label": "m2",
        "course": [[cell(r, p) for p in range(1, 6)] for r in "ABC"],
        "riders": [rider(0, "B", 3), rider(1, "B", 3), rider(2, "A", None)],
    }


def test_tabella_riders_stand_in_their_cells() -> None:
    """Two riders in B3 side by side, one waiting in row A's start column, in their seat colours."""
    image = board_image("tabella", tabella_view())
    # B3: x 16+30+90+2*136 = 408, y 84+130 = 214; first token 412-442 x 264-288, second 445-475.
    assert pixel(image, 415, 276) == SEATS[0]
    assert pixel(image, 448, 276) == SEATS[1]
    # Start column of row A: x 46, y 84; token 50-80 x 134-158.
    assert pixel(image, 53, 146) == SEATS[2]
    # Nobody in B4 (x 544): its token place shows the climb colour.
    assert pixel(image, 551, 276) == TERRAIN["climb"]


# --- Mind Cycling ----------------------------------------------------------------------------------
# MARGIN 16, BOARD_TOP 64, ROW_W 26, LANE_H 28, NUMBER_H 16, first column = row 0, lane 1 on top.
def mind_view() -> dict[str, Any]:
    return {
        "round": 2,
        "course": {
            "strips": ["plains", "sprint"],
            "strip_length": 5,
            "lanes": 3,
            "rocks": [[3, 1]],
            "supply_spaces": [],
            "medal_sprint": {"kind": "sprint", "first": 6, "last": 10},
            "medal_mountain": None,
        },
        "last_row": 10,
        "cyclists": [
            {"id": "a#1", "entrant": "a", "number": 1, "role": "sprinter", "row": 7, "lane": 2, "base": "black"},
            {"id": "b#2", "entrant": "b", "number": 2, "role": "climber", "row": 1, "lane": 3, "base": "blue"},
        ],
        "section_winners": {},
    }


def test_mind_cycling_cyclists_show_helmet_and_base_where_they_stand() -> None:
    """A sprinter on row 7 lane 2 (green helmet, black base), a climber on row 1 lane 3, a rock on row 3."""
    image = board_image("mind_cycling", mind_view())
    # Row 7: x 16+7*26 = 198-224; lane 2: y 64+16+28 = 108-136. Helmet disc 200-222 x 110-129, base below.
    assert pixel(image, 211, 112) == OKABE_ITO["green"]
    assert pixel(image, 201, 131) == (20, 20, 20)
    # Row 1: x 42-68; lane 3: y 136-164; helmet yellow, base blue.
    assert pixel(image, 55, 140) == OKABE_ITO["yellow"]
    assert pixel(image, 45, 159) == OKABE_ITO["blue"]
    # The rock on row 3, lane 1: x 94-120, y 80-108 (its corner, away from the mark).
    assert pixel(image, 97, 83) == (95, 95, 95)


# --- Wyścig kolarski -------------------------------------------------------------------------------
# MARGIN 16, TABLE_TOP 114, LINE_H 44, line middle 20 below its top; the yellow token is a disc centred
# 53 right of the margin.
def test_wyscig_the_yellow_token_sits_by_the_player_who_sets_the_pace() -> None:
    """The second seat sets the pace: its line has the yellow token, the first seat's has none."""
    player = {"cards": 6, "minutes": 0, "turns": 1, "last": None, "times": [], "total": 0, "place": 1}
    view = {
        "stage_number": 1,
        "stages": 1,
        "seats": ["a", "b"],
        "leader": "b",
        "reference": 45,
        "on_climb": False,
        "pile": 50,
        "turn": "a",
        "played": [],
        "players": [{"id": "a", "name": "A", **player}, {"id": "b", "name": "B", **player}],
    }
    image = board_image("wyscig", view)
    # Seat 2's line: y 114+44 = 158, middle 178; the disc spans x 56-82.
    assert pixel(image, 60, 178) == YELLOW_JERSEY
    assert pixel(image, 60, 134) != YELLOW_JERSEY


def test_meteo_tokens_are_marked_on_their_squares() -> None:
    """A crosswind on squares 5-8: a bar under their numbers, and the alt text names the stretch."""
    from bot.render import alt_text
    from bot.render.flamme_rouge import WEATHER

    view = fr_view()
    view["track"]["weather"] = {str(n): "crosswind" for n in range(5, 9)}
    image = board_image("flamme_rouge", view)
    # The bar sits in the 4 pixels above the lanes (y 78-81); square 6 spans x 216-256, square 10 x 376-416.
    assert pixel(image, 230, 80) == WEATHER
    assert pixel(image, 390, 80) != WEATHER
    assert "Meteo: crosswind (no slipstream) 5-8" in alt_text("flamme_rouge", view).splitlines()
