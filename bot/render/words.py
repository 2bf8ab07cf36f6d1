"""The game words the pictures print, by the value the public view holds: every catalog key written out
whole (so the catalog checks find them), and an unknown value shown as it is rather than failing."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.i18n import t

TERRAIN_WORDS = {
    "flat": "render.terrain.flat",
    "start": "render.terrain.start",
    "finish": "render.terrain.finish",
    "ascent": "render.terrain.ascent",
    "descent": "render.terrain.descent",
    "supply": "render.terrain.supply",
    "cobbles": "render.terrain.cobbles",
    "climb": "render.terrain.climb",
    "plains": "render.terrain.plains",
    "sprint": "render.terrain.sprint",
    "mountain": "render.terrain.mountain",
}
FR_TEAM = {
    "black": "render.fr.team.black",
    "blue": "render.fr.team.blue",
    "green": "render.fr.team.green",
    "red": "render.fr.team.red",
    "pink": "render.fr.team.pink",
    "white": "render.fr.team.white",
}
FR_TYPE = {
    "Rouleur": "render.fr.type.rouleur",
    "Sprinteur": "render.fr.type.sprinteur",
    "Peloton rider": "render.fr.type.peloton",
}
FR_WEATHER = {
    "crosswind": "render.fr.weather.crosswind",
    "tailwind": "render.fr.weather.tailwind",
    "headwind": "render.fr.weather.headwind",
}
TABELLA_STATUS = {
    "waiting": "render.tb.status.waiting",
    "racing": "render.tb.status.racing",
    "exhausted": "render.tb.status.exhausted",
    "dns": "render.tb.status.dns",
    "finished": "render.tb.status.finished",
    "void": "render.tb.status.void",
}
TABELLA_SPECIAL = {"curvone": "render.tb.curvone", "strettoia": "render.tb.strettoia"}
WYSCIG_OUTCOME = {
    "lead": "render.wk.outcome.lead",
    "pace": "render.wk.outcome.pace",
    "peloton": "render.wk.outcome.peloton",
    "penalty": "render.wk.outcome.penalty",
    "blocked": "render.wk.outcome.blocked",
    "give_back": "render.wk.outcome.give_back",
    "skip": "render.wk.outcome.skip",
}
MIND_ROLE = {
    "sprinter": "render.mc.sprinter",
    "domestique": "render.mc.domestique",
    "climber": "render.mc.climber",
}
MIND_BASE = {"blue": "render.mc.base_blue", "black": "render.mc.base_black"}


def say(words: Mapping[str, str], what: Any, locale: str, /, **params: Any) -> str:
    """The word for ``what`` in ``locale``; ``what`` itself when the table does not know it."""
    key = words.get(str(what))
    return t(key, locale, **params) if key is not None else str(what)
