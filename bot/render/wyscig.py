"""Wyścig kolarski: the race situation. The yellow token by the player who sets the pace, each player's
last card, penalty minutes of this stage, the stage times and the general classification.

Layout: one line per seat in seat order, ``LINE_H`` high from ``TABLE_TOP``; columns start at the
``COLUMNS`` offsets. The player whose card moved this step (the events) has a highlighted line, and the
player to play next an arrow.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import Any

from PIL import Image

from bot.i18n import t
from bot.progress import counter
from bot.render.base import EventLike, SystemRenderer, event_data, event_lines
from bot.render.layout import MARGIN, WIDTH, Canvas
from bot.render.palette import GRID, INK, MUTED, OKABE_ITO, TERRAIN, YELLOW_JERSEY, seat_colour
from bot.render.tokens import token
from bot.render.words import WYSCIG_OUTCOME, say
from bot.standings import clock
from engine.ruleset import PROGRESS_KEY

TABLE_TOP = 114
LINE_H = 44
COLUMNS = {"seat": 0, "name": 76, "card": 280, "outcome": 350, "minutes": 500, "stages": 580, "gc": 720}
"""Column offsets from the left margin."""
CARD_W, CARD_H = 44, 36
OUTCOMES = ("lead", "pace", "peloton", "penalty", "blocked", "give_back", "skip")


def _title(view: Mapping[str, Any], locale: str) -> str:
    """The picture's title: the race's one counter ("Stage 2, lap 4"), from the progress marker the view
    carries (a post gives the marker of the lap it tells), as the post's headline and the panel say it."""
    return t("render.wk.title", locale, counter=counter(view.get(PROGRESS_KEY), locale))


def _seats(view: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    by_id = {p["id"]: p for p in view.get("players") or []}
    return [by_id[s] for s in view.get("seats") or by_id if s in by_id]


class WyscigRenderer(SystemRenderer):
    ruleset_id = "wyscig"

    def accent(self, view: Mapping[str, Any], entrant: str) -> tuple[int, int, int] | None:
        """The colour of the entrant's token in the table: their seat's."""
        for i, player in enumerate(_seats(view)):
            if player.get("id") == entrant:
                return seat_colour(i)
        return None

    def frame_key(self, view: Mapping[str, Any]) -> Hashable:
        """A lap: every seat plays once. A stage's end is a frame of its own (its times are in)."""
        played = len(view.get("played") or [])
        seats = max(1, len(view.get("seats") or []))
        if played == 0:
            return (view.get("stage_number"), "start")
        return (view.get("stage_number"), (played - 1) // seats)

    def board(
        self, view: Mapping[str, Any], events: Sequence[EventLike], locale: str, names: Mapping[str, str]
    ) -> Image.Image:
        players = _seats(view)
        height = TABLE_TOP + LINE_H * len(players) + 30 + MARGIN
        canvas = Canvas.new(WIDTH, height)
        draw = canvas.draw
        canvas.title(
            _title(view, locale),
            t("render.wk.finished" if view.get("finished") else "render.wk.subtitle", locale),
        )
        # The road: reference speed and terrain.
        climb = bool(view.get("on_climb"))
        ref = view.get("reference")
        road_fill = TERRAIN["climb"] if climb else TERRAIN["flat"]
        draw.rounded_rectangle((MARGIN, 58, WIDTH - MARGIN, 86), radius=6, fill=road_fill, outline=GRID)
        road = t("render.wk.climb" if climb else "render.wk.flat", locale)
        canvas.text(
            (MARGIN + 10, 72),
            t("render.wk.road", locale, reference="—" if ref is None else ref, road=road, pile=view.get("pile", 0)),
            15,
            True,
            anchor="lm",
        )
        # Column heads.
        heads = {
            "name": "render.wk.col.player",
            "card": "render.wk.col.card",
            "outcome": "render.wk.col.outcome",
            "minutes": "render.wk.col.minutes",
            "stages": "render.wk.col.stages",
            "gc": "render.wk.col.gc",
        }
        for col, key in heads.items():
            canvas.text((MARGIN + COLUMNS[col], TABLE_TOP - 6), t(key, locale), 12, True, MUTED, "ld")
        moved: dict[str, dict[str, Any]] = {}
        for kind, data in event_data(events):
            if kind.startswith("wk.") and kind[3:] in OUTCOMES and data.get("entrant"):
                moved[str(data["entrant"])] = {**data, "outcome": kind[3:]}
        lap_outcome = {}
        played = list(view.get("played") or [])
        lap = played[-(len(played) % len(players) or len(players)) :] if players and played else []
        for p in lap:
            lap_outcome[p["entrant"]] = p
        for i, p in enumerate(players):
            y = TABLE_TOP + i * LINE_H
            if p["id"] in moved:
                draw.rectangle((MARGIN - 4, y, WIDTH - MARGIN + 4, y + LINE_H - 4), fill=(255, 246, 200))
            elif i % 2 == 0:
                draw.rectangle((MARGIN - 4, y, WIDTH - MARGIN + 4, y + LINE_H - 4), fill=TERRAIN["start"])
            cy = y + (LINE_H - 4) / 2
            token(draw, (MARGIN, cy - 14, MARGIN + 34, cy + 14), seat_colour(i), str(i + 1), largest=15)
            x = MARGIN + COLUMNS["name"]
            if p["id"] == view.get("leader"):
                draw.ellipse((MARGIN + 40, cy - 13, MARGIN + 66, cy + 13), fill=YELLOW_JERSEY, outline=INK, width=2)
                canvas.text((MARGIN + 53, cy), "L", 13, True, INK, "mm")
            if p["id"] == view.get("turn"):
                canvas.text((x, cy - 8), "▶", 14, True, OKABE_ITO["vermillion"], "lm")
                x += 20
            name = names.get(p["id"], p.get("name", p["id"]))
            canvas.text((x, cy - 8), name, 15, True, anchor="lm", width=COLUMNS["card"] - (x - MARGIN) - 8)
            canvas.text(
                (MARGIN + COLUMNS["name"], cy + 11),
                t("render.wk.hand", locale, cards=p.get("cards", 0)),
                11,
                fill=MUTED,
                anchor="lm",
            )
            last = p.get("last")
            cx = MARGIN + COLUMNS["card"]
            if last:
                draw.rounded_rectangle(
                    (cx, cy - CARD_H / 2, cx + CARD_W, cy + CARD_H / 2),
                    radius=5,
                    fill=(255, 255, 255),
                    outline=INK,
                    width=2,
                )
                canvas.text((cx + CARD_W / 2, cy - 2), str(last["card"]), 17, True, INK, "mm")
                if last.get("descents"):
                    canvas.text(
                        (cx + CARD_W / 2, cy + 12), f"+{2 * int(last['descents'])}", 10, True, OKABE_ITO["blue"], "mm"
                    )
            seen = moved.get(p["id"]) or lap_outcome.get(p["id"])
            if seen:
                outcome = str(seen.get("outcome", ""))
                if seen.get("blocked"):
                    outcome = "blocked"
                text = say(WYSCIG_OUTCOME, outcome, locale)
                canvas.text(
                    (MARGIN + COLUMNS["outcome"], cy),
                    text,
                    14,
                    outcome in ("lead", "penalty"),
                    INK,
                    "lm",
                    width=COLUMNS["minutes"] - COLUMNS["outcome"] - 6,
                )
            minutes = int(p.get("minutes") or 0)
            canvas.text(
                (MARGIN + COLUMNS["minutes"], cy),
                f"+{minutes}" if minutes else "0",
                15,
                minutes > 0,
                OKABE_ITO["vermillion"] if minutes else INK,
                "lm",
            )
            times = " ".join(clock(int(x)) for x in p.get("times") or []) or "—"
            canvas.text(
                (MARGIN + COLUMNS["stages"], cy),
                times,
                14,
                False,
                INK,
                "lm",
                width=COLUMNS["gc"] - COLUMNS["stages"] - 6,
            )
            gc = (
                f"{clock(int(p.get('total') or 0))}  (" + t("render.place", locale, place=p.get("place", "—")) + ")"
                if p.get("times")
                else "—"
            )
            canvas.text((MARGIN + COLUMNS["gc"], cy), gc, 15, True, INK, "lm")
        y = TABLE_TOP + LINE_H * len(players) + 6
        canvas.text((MARGIN, y), t("render.wk.legend", locale), 12, fill=MUTED, width=WIDTH - 2 * MARGIN)
        return canvas.image

    def preview(self, stage: Mapping[str, Any] | str | None, options: Mapping[str, Any], locale: str) -> Image.Image:
        from engine.wyscig.deck import deck_presets
        from engine.wyscig.models import Stage

        model = Stage.model_validate({"deck": stage} if isinstance(stage, str) else dict(stage or {}))
        deck = deck_presets()[model.deck]
        speeds = list(deck.speed_values)
        height = 260
        canvas = Canvas.new(WIDTH, height)
        canvas.title(model.deck, t("render.wk.preview_subtitle", locale, count=model.stages, cards=deck.size))
        # The deck as bars: one per speed card value, plus climbs and descents.
        bars = [(str(s), deck.per_speed, TERRAIN["flat"]) for s in speeds]
        bars += [
            (t("render.wk.climbs", locale), deck.climbs, TERRAIN["climb"]),
            (t("render.wk.descents", locale), deck.descents, TERRAIN["descent"]),
        ]
        top, base = 80, 220
        tallest = max(n for _, n, _ in bars) or 1
        bar_w = (WIDTH - 2 * MARGIN) / len(bars)
        for i, (label, count, fill) in enumerate(bars):
            x0 = MARGIN + i * bar_w + 3
            h = (base - top) * count / tallest
            canvas.draw.rectangle((x0, base - h, x0 + bar_w - 6, base), fill=fill, outline=INK)
            canvas.text((x0 + (bar_w - 6) / 2, base - h - 2), str(count), 12, True, INK, "md")
            canvas.text((x0 + (bar_w - 6) / 2, base + 4), label, 12, False, INK, "ma", width=int(bar_w))
        return canvas.image

    def describe(
        self, view: Mapping[str, Any], events: Sequence[EventLike], locale: str, names: Mapping[str, str]
    ) -> str:
        players = _seats(view)
        ref = view.get("reference")
        lines = [
            _title(view, locale),
            t(
                "render.wk.road",
                locale,
                reference="—" if ref is None else ref,
                road=t("render.wk.climb" if view.get("on_climb") else "render.wk.flat", locale),
                pile=view.get("pile", 0),
            ),
        ]
        for i, p in enumerate(players):
            name = names.get(p["id"], p.get("name", p["id"]))
            last = p.get("last")
            parts = [f"{i + 1} {name}"]
            if p["id"] == view.get("leader"):
                parts.append(t("render.wk.leader", locale))
            if last:
                parts.append(t("render.wk.last", locale, card=last["card"], speed=last.get("speed", last["card"])))
            parts.append(t("render.wk.minutes", locale, minutes=p.get("minutes", 0)))
            if p.get("times"):
                parts.append(
                    t(
                        "render.wk.gc",
                        locale,
                        times=", ".join(clock(int(x)) for x in p["times"]),
                        total=clock(int(p.get("total") or 0)),
                        place=p.get("place"),
                    )
                )
            lines.append(" · ".join(parts))
        lines.extend(event_lines(events, locale))
        return "\n".join(lines)


RENDERER = WyscigRenderer()
