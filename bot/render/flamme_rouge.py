"""Flamme Rouge: the track as the board game shows it, wrapped onto rows so a 78-square stage reads on a
phone.

Layout (the tests work positions out by hand from these constants):

- The board starts at ``y = BOARD_TOP``; squares run left to right, ``PER_ROW`` to a row. Square ``n``
  (1-based) is in row ``(n - 1) // PER_ROW`` and column ``(n - 1) % PER_ROW``; its left edge is
  ``MARGIN + column * SQUARE_W``.
- A row is ``ROW_H`` high: a ``NUMBER_H`` strip with square numbers (every fifth) and terrain marks,
  then three lanes of ``LANE_H`` each. Lane 1 (the right-hand lane in the riders' direction) is the
  bottom one: lane ``l`` starts at ``row top + NUMBER_H + (3 - l) * LANE_H``.
- A rider's token fills its lane cell less ``INSET`` pixels on each side.
- Missing lanes (a square with 1 or 2 lanes) are drawn as roadside; the start line is a thick bar after
  the last start square, the finish line a chequered bar before the first finish square.
- The last move of each rider is a line in its team colour from where it started (a small ring) to its
  token; a slipstream is drawn dotted; a rider that took an exhaustion card wears an "E" badge.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from PIL import Image

from bot.i18n import named, t
from bot.render.base import EventLike, SystemRenderer, event_data, round_of
from bot.render.layout import MARGIN, Canvas, fit
from bot.render.palette import FLAMME_ROUGE_TEAMS, GRID, INK, MUTED, RGB, TERRAIN, VERGE, seat_colour
from bot.render.tokens import swatch, token
from bot.render.words import FR_TEAM, FR_TYPE, FR_WEATHER, TERRAIN_WORDS, say
from engine.flamme_rouge.track import parse_profile
from engine.ruleset import Event

SQUARE_W = 40
LANE_H = 30
LANES = 3
NUMBER_H = 18
ROW_GAP = 10
ROW_H = NUMBER_H + LANES * LANE_H + ROW_GAP
PER_ROW = 20
BOARD_TOP = 64
INSET = 3
WIDTH = 2 * MARGIN + PER_ROW * SQUARE_W
PROFILE_H = 56
"""The preview's profile strip: height of the elevation drawing."""

TERRAIN_OF = {"S": "start", "_": "flat", "u": "ascent", "d": "descent", "P": "supply", "C": "cobbles", "F": "finish"}
MARK = {"ascent": "▲", "descent": "▼", "supply": "P", "cobbles": "C"}
WEATHER = (190, 170, 220)
"""The bar under a square that has a Meteo token (its letter says which)."""
WEATHER_MARK = {"crosswind": "X", "tailwind": "T", "headwind": "H"}
TYPE_LETTER = {"Rouleur": "R", "Sprinteur": "S", "Peloton rider": "P"}


def square_origin(n: int) -> tuple[int, int]:
    """The top-left corner of square ``n``'s lane area (below its number strip)."""
    row, col = divmod(n - 1, PER_ROW)
    return MARGIN + col * SQUARE_W, BOARD_TOP + row * ROW_H + NUMBER_H


def lane_box(n: int, lane: int) -> tuple[int, int, int, int]:
    """The cell of square ``n``, lane ``lane`` (1 = bottom)."""
    x, y = square_origin(n)
    top = y + (LANES - lane) * LANE_H
    return x, top, x + SQUARE_W, top + LANE_H


def weather_mark(token: str) -> str:
    return WEATHER_MARK.get(token, token[:1].upper())


def team_colour(team: str, index: int) -> RGB:
    return FLAMME_ROUGE_TEAMS.get(team, seat_colour(index))


def _squares(view: Mapping[str, Any]) -> list[tuple[str, int]]:
    """``(terrain name, lanes)`` per printed square, from the public profile."""
    return [(TERRAIN_OF.get(t, "flat"), n) for t, n in parse_profile(view["track"]["profile"])]


def _teams(view: Mapping[str, Any]) -> dict[str, int]:
    """Team colour -> its number on the tokens (1, 2, ...), in the order the riders are listed."""
    teams: dict[str, int] = {}
    for r in view["riders"]:
        teams.setdefault(r["team"], len(teams) + 1)
    return teams


def rider_label(rider: Mapping[str, Any], teams: Mapping[str, int]) -> str:
    """``R1``: the rider's type letter and its team's number."""
    return f"{TYPE_LETTER.get(rider['type'], rider['type'][:1])}{teams[rider['team']]}"


MARK_KEYS = ("render.fr.legend_move", "render.fr.legend_slipstream", "render.fr.legend_exhaustion")
"""The step's marks a board may draw, in the legend's order (each listed only when drawn)."""


class FlammeRougeRenderer(SystemRenderer):
    ruleset_id = "flamme_rouge"

    # --- the board -------------------------------------------------------------------------------
    def riders(
        self, view: Mapping[str, Any], names: Mapping[str, str], locale: str, short: bool = False
    ) -> dict[str, str]:
        """``black-r`` -> "Anna's Rouleur"; a team's peloton riders by their number ("Peloton's Peloton rider 2")."""
        found: dict[str, str] = {}
        for rider in view.get("riders") or []:
            rid = str(rider.get("id"))
            owner = names.get(str(rider.get("owner")), str(rider.get("owner")))
            kind = say(FR_TYPE, rider.get("type"), locale)
            number = rid.rsplit("-", 1)[-1][1:]
            if number.isdigit():
                kind = t("render.fr.numbered", locale, kind=kind, number=number)
            found[rid] = kind if short else t("render.fr.rider_named", locale, name=owner, kind=kind)
        return found

    def accent(self, view: Mapping[str, Any], entrant: str) -> RGB | None:
        """The entrant's team colour, as its tokens are drawn."""
        mine = [r for r in view.get("riders") or [] if r.get("owner") == entrant]
        if not mine:
            return None
        team = mine[0]["team"]
        return team_colour(team, _teams(view).get(team, 1) - 1)

    def identity(self, view: Mapping[str, Any], entrant: str, locale: str) -> str | None:
        """ "You ride black: your tokens are R1 and S1.", as the picture draws them."""
        mine = [r for r in view.get("riders") or [] if r.get("owner") == entrant]
        if not mine:
            return None
        teams = _teams(view)
        tokens = ", ".join(rider_label(r, teams) for r in mine)
        return t("render.fr.identity", locale, colour=say(FR_TEAM, mine[0]["team"], locale), tokens=tokens)

    def _draw_track(self, canvas: Canvas, squares: list[tuple[str, int]], view: Mapping[str, Any], shown: int) -> None:
        draw = canvas.draw
        track = view["track"]
        last = len(squares)
        weather = {int(k): v for k, v in (track.get("weather") or {}).items()}
        for n in range(1, shown + 1):
            terrain, lanes = squares[n - 1] if n <= last else ("finish", squares[-1][1])
            x, y = square_origin(n)
            for lane in range(1, LANES + 1):
                box = lane_box(n, lane)
                if lane > lanes:
                    draw.rectangle(box, fill=VERGE)
                    continue
                fill = TERRAIN[terrain]
                if n > last:  # past the printed track: the virtual finish area
                    fill = (236, 236, 236)
                draw.rectangle(box, fill=fill, outline=GRID)
            label_y = y - NUMBER_H / 2
            if n == 1 or n % 5 == 0:
                canvas.text((x + SQUARE_W / 2, label_y), str(n), 11, fill=MUTED, anchor="mm")
            elif terrain in MARK:
                canvas.text((x + SQUARE_W / 2, label_y), MARK[terrain], 11, fill=MUTED, anchor="mm")
            if weather.get(n):  # a Meteo token on the square's tile: a bar under its number, and its letter
                draw.rectangle((x, y - 4, x + SQUARE_W, y - 1), fill=WEATHER)
                canvas.text((x + SQUARE_W - 2, label_y), weather_mark(weather[n]), 11, bold=True, fill=INK, anchor="rm")
        start = int(track["start_squares"])
        if start:  # a test track without start squares has no start line (R-FR-10)
            x, y = square_origin(start)
            draw.rectangle((x + SQUARE_W - 2, y, x + SQUARE_W + 2, y + LANES * LANE_H), fill=INK)
        x, y = square_origin(int(track["finish"]))
        for k in range(LANES * LANE_H // 6):
            for j in range(2):
                fill = INK if (k + j) % 2 else (255, 255, 255)
                draw.rectangle((x - 4 + 4 * j, y + 6 * k, x + 4 * j, y + 6 * k + 6), fill=fill)

    def _rows(self, shown: int) -> int:
        return (shown - 1) // PER_ROW + 1

    def _trail(self, canvas: Canvas, start: int, end: int, lane: int, colour: RGB, dotted: bool) -> None:
        """A line along ``lane`` from the centre of square ``start`` to the centre of ``end``, continued on
        the next row when the move wraps; a ring marks where a move started."""
        draw = canvas.draw
        n = start
        while True:
            row_last = ((n - 1) // PER_ROW + 1) * PER_ROW
            seg_end = min(end, row_last)
            x_from = lane_box(n, lane)[0] + (SQUARE_W / 2 if n == start else 0)
            x_to = lane_box(seg_end, lane)[0] + (SQUARE_W / 2 if seg_end == end else SQUARE_W)
            cy = lane_box(n, lane)[1] + LANE_H / 2
            if dotted:
                x = x_from + 4
                while x < x_to:
                    draw.ellipse((x - 3, cy - 3, x + 3, cy + 3), fill=colour, outline=INK)
                    x += 9
            else:
                draw.line((x_from, cy, x_to, cy), fill=INK, width=6)
                draw.line((x_from, cy, x_to, cy), fill=colour, width=3)
            if seg_end == end:
                break
            n = seg_end + 1
        if not dotted:
            x0, y0, _, _ = lane_box(start, lane)
            cx, cy = x0 + SQUARE_W / 2, y0 + LANE_H / 2
            draw.ellipse((cx - 5, cy - 5, cx + 5, cy + 5), fill=colour, outline=INK, width=2)

    def board(
        self, view: Mapping[str, Any], events: Sequence[EventLike], locale: str, names: Mapping[str, str]
    ) -> Image.Image:
        return self._board(view, events, locale, names, preview=False)

    def _board(
        self,
        view: Mapping[str, Any],
        events: Sequence[EventLike],
        locale: str,
        names: Mapping[str, str],
        preview: bool,
    ) -> Image.Image:
        squares = _squares(view)
        riders = list(view.get("riders") or [])
        on_board = [r for r in riders if r["square"] > 0]
        shown = max([len(squares), *(r["square"] for r in on_board)])
        rows = self._rows(shown)
        teams = _teams(view)
        owners = {r["team"]: r["owner"] for r in riders}
        legend_rows = (len(teams) + 1) // 2
        tokens = sorted(set((view["track"].get("weather") or {}).values()))
        weather_h = 24 if tokens else 0
        height = (
            BOARD_TOP + rows * ROW_H + (PROFILE_H + 24 if preview else 0) + 30 + weather_h + legend_rows * 22 + MARGIN
        )
        canvas = Canvas.new(WIDTH, height)
        track = view["track"]
        if preview:
            canvas.title(
                track["name"],
                t(
                    "render.fr.preview_subtitle",
                    locale,
                    squares=track["squares"],
                    start=track["start_squares"],
                    finish=int(track["finish"]) - 1,
                ),
            )
        else:
            canvas.title(
                t("render.fr.title", locale, stage=track["name"], round=round_of(view)),
                t("render.fr.subtitle", locale),
            )
        self._draw_track(canvas, squares, view, shown)

        colours = {r["id"]: team_colour(r["team"], teams[r["team"]] - 1) for r in riders}
        by_id = {r["id"]: r for r in riders}
        tired: set[str] = set()
        drawn: set[str] = set()  # the marks this picture holds: its legend names those and no others
        for kind, data in event_data(events):
            rider = by_id.get(str(data.get("rider", "")))
            if kind == "fr.move" and rider is not None and data["to"] > data["from"] > 0:
                self._trail(canvas, int(data["from"]), int(data["to"]), int(data["lane"]), colours[rider["id"]], False)
                drawn.add("render.fr.legend_move")
            elif kind == "fr.slipstream" and rider is not None and data["to"] > data["from"] > 0:
                self._trail(canvas, int(data["from"]), int(data["to"]), int(data["lane"]), colours[rider["id"]], True)
                drawn.add("render.fr.legend_slipstream")
            elif kind == "fr.exhaustion":
                tired.update(str(r) for r in data.get("riders", []))
        for r in on_board:
            x0, y0, x1, y1 = lane_box(int(r["square"]), int(r["lane"]))
            box = (x0 + INSET, y0 + INSET, x1 - INSET, y1 - INSET)
            token(canvas.draw, box, colours[r["id"]], rider_label(r, teams), outline=INK, largest=14)
            if r["id"] in tired:
                drawn.add("render.fr.legend_exhaustion")
                canvas.draw.ellipse((x1 - 10, y0 - 3, x1 + 2, y0 + 9), fill=(255, 255, 255), outline=INK)
                canvas.text((x1 - 4, y0 + 3), "E", 9, bold=True, anchor="mm")

        y = BOARD_TOP + rows * ROW_H
        if preview:
            y = self._profile(canvas, squares, y + 4, locale) + 8
        y = self._terrain_legend(canvas, y, locale, [k for k in MARK_KEYS if k in drawn])
        if tokens:
            swatch(canvas.draw, (MARGIN, y + 2), WEATHER, 14, outline=GRID)
            marks = " · ".join(f"{weather_mark(w)} {say(FR_WEATHER, w, locale)}" for w in tokens)
            canvas.text(
                (MARGIN + 20, y), t("render.fr.weather", locale, tokens=marks), 13, width=WIDTH - 2 * MARGIN - 20
            )
            y += weather_h
        for i, (team, number) in enumerate(teams.items()):
            x = MARGIN + (i % 2) * (WIDTH - 2 * MARGIN) // 2
            yy = y + (i // 2) * 22
            token(canvas.draw, (x, yy, x + 30, yy + 20), team_colour(team, number - 1), str(number), largest=13)
            owner = owners[team]
            who = names.get(owner, owner)
            crossed = sorted(
                (r for r in riders if r["team"] == team and r.get("crossed_round")), key=lambda r: r["type"]
            )
            extra = "".join(
                " · " + t("render.fr.crossed", locale, rider=rider_label(r, teams), round=r["crossed_round"])
                for r in crossed
            )
            colour = say(FR_TEAM, team, locale)
            canvas.text((x + 36, yy + 2), f"{colour} · {who}{extra}", 14, width=(WIDTH - 2 * MARGIN) // 2 - 40)
        return canvas.image

    def _terrain_legend(self, canvas: Canvas, y: int, locale: str, marks: list[str]) -> int:
        x = MARGIN
        entries = [("flat", ""), ("ascent", "▲"), ("descent", "▼"), ("supply", "P"), ("cobbles", "C")]
        for name, mark in entries:
            swatch(canvas.draw, (x, y + 2), TERRAIN[name], 14, outline=GRID)
            label = f"{mark} {say(TERRAIN_WORDS, name, locale)}".strip()
            canvas.text((x + 20, y), label, 13)
            x += 28 + int(canvas.draw.textlength(label, font=_font13()))
        if marks:
            label = " · ".join(t(key, locale) for key in marks)
            canvas.text((x + 6, y), fit(label, 13, WIDTH - MARGIN - x - 6), 13, fill=MUTED)
        return y + 28

    def _profile(self, canvas: Canvas, squares: list[tuple[str, int]], y: int, locale: str) -> int:
        """The stage's elevation: each square a column, rising on ascents and falling on descents."""
        heights = [0]
        for terrain, _ in squares:
            step = 1 if terrain == "ascent" else -1 if terrain == "descent" else 0
            heights.append(heights[-1] + step)
        lo, hi = min(heights), max(heights)
        span = max(hi - lo, 1)
        width = WIDTH - 2 * MARGIN
        col = width / len(squares)
        canvas.text((MARGIN, y), t("render.fr.profile", locale), 13, bold=True)
        top = y + 18
        base = top + PROFILE_H
        for i, (terrain, _) in enumerate(squares):
            h = 8 + (heights[i + 1] - lo) / span * (PROFILE_H - 12)
            x0 = MARGIN + i * col
            canvas.draw.rectangle((x0, base - h, x0 + col, base), fill=TERRAIN[terrain])
        canvas.draw.line((MARGIN, base, MARGIN + width, base), fill=GRID, width=1)
        return base

    def preview(self, stage: Mapping[str, Any] | str | None, options: Mapping[str, Any], locale: str) -> Image.Image:
        from engine.flamme_rouge.start import build_track, normalise_stage
        from engine.flamme_rouge.views import track_view

        track = build_track(normalise_stage(stage), False)
        view = {"track": track_view(track), "riders": [], "round": 0}
        return self._board(view, [], locale, {}, preview=True)

    # --- text ------------------------------------------------------------------------------------
    def describe(
        self, view: Mapping[str, Any], events: Sequence[EventLike], locale: str, names: Mapping[str, str]
    ) -> str:
        teams = _teams(view)
        squares = _squares(view)
        lines = [t("render.fr.title", locale, stage=view["track"]["name"], round=round_of(view))]
        weather = {int(k): str(v) for k, v in (view["track"].get("weather") or {}).items()}
        if weather:
            runs: list[list[Any]] = []  # [token, first square, last square]
            for n in sorted(weather):
                if runs and runs[-1][0] == weather[n] and runs[-1][2] == n - 1:
                    runs[-1][2] = n
                else:
                    runs.append([weather[n], n, n])
            told = ", ".join(f"{say(FR_WEATHER, w, locale)} {a}-{b}" for w, a, b in runs)
            lines.append(t("render.fr.weather", locale, tokens=told))
        riders = sorted(view.get("riders") or [], key=lambda r: (-r["square"], r["lane"]))
        for r in riders:
            label = rider_label(r, teams)
            who = names.get(r["owner"], r["owner"])
            if r.get("crossed_round"):
                where = t("render.fr.crossed", locale, rider=label, round=r["crossed_round"])
            elif r["square"] <= 0:
                where = t("render.fr.not_placed", locale)
            else:
                n = int(r["square"])
                terrain = squares[n - 1][0] if n <= len(squares) else "finish"
                where = t(
                    "render.fr.where",
                    locale,
                    square=n,
                    lane=r["lane"],
                    terrain=say(TERRAIN_WORDS, terrain, locale),
                )
            kind = f"{say(FR_TEAM, r['team'], locale)} {say(FR_TYPE, r['type'], locale)}"
            lines.append(f"{label} {kind} ({who}): {where}")
        # Riders by their tokens, as the picture shows them ("R4"), never by their ids.
        tokens = {str(r["id"]): rider_label(r, teams) for r in riders}
        for event in events:
            if isinstance(event, Event):  # the engine's own words, translated, riders by their tokens
                lines.append(named(event.message, locale, tokens))
                continue
            [(kind, data)] = event_data([event])
            rider = tokens.get(str(data.get("rider")), str(data.get("rider")))
            if kind in ("fr.move", "fr.slipstream"):
                key = "render.fr.moved" if kind == "fr.move" else "render.fr.slipstreamed"
                lines.append(t(key, locale, rider=rider, start=data["from"], end=data["to"]))
            elif kind == "fr.exhaustion":
                tired = ", ".join(tokens.get(str(r), str(r)) for r in data.get("riders", []))
                lines.append(t("render.fr.exhausted", locale, riders=tired))
        return "\n".join(lines)


def _font13() -> Any:
    from bot.render.fonts import font

    return font(13)


RENDERER = FlammeRougeRenderer()
