"""The words a player reads outside events and refusals: choice labels, preset summaries and labels, the stage
board and its legend, the rules summary. Each is a :class:`~engine.messages.Message` (a stable ``fr.`` key,
its parameters and the English text), so a translator reaches it.

Keys are written whole, as literals (never built by formatting), so that the test of
:func:`engine.flamme_rouge.keys.message_keys` finds every one of them in the source.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import Any

from engine.flamme_rouge import cards as C
from engine.flamme_rouge.state import PELOTON_RIDER, ROULEUR, SPRINTEUR, TYPE_NAMES
from engine.flamme_rouge.track import (
    ASCENT,
    COBBLE,
    DESCENT,
    FINISH,
    FLAT,
    START,
    SUPPLY,
    TERRAIN_NAMES,
    StageEntry,
    Track,
)
from engine.messages import Message, cached_msg, message_of, plural

# --- words inside sentences (nested messages: a translator reaches each word, not only the sentence) -----
_TYPE_WORDS = {
    ROULEUR: ("fr.rider.rouleur", "Rouleur"),
    SPRINTEUR: ("fr.rider.sprinteur", "Sprinteur"),
    PELOTON_RIDER: ("fr.rider.peloton_rider", "Peloton rider"),
}
_COLOUR_WORDS = {
    "black": ("fr.colour.black", "black"),
    "blue": ("fr.colour.blue", "blue"),
    "green": ("fr.colour.green", "green"),
    "red": ("fr.colour.red", "red"),
    "pink": ("fr.colour.pink", "pink"),
    "white": ("fr.colour.white", "white"),
}
_TERRAIN_WORDS = {
    START: "fr.terrain.start",
    FLAT: "fr.terrain.flat",
    ASCENT: "fr.terrain.ascent",
    DESCENT: "fr.terrain.descent",
    SUPPLY: "fr.terrain.supply",
    COBBLE: "fr.terrain.cobbles",
    FINISH: "fr.terrain.finish",
}
_CARD_WORDS = {
    C.EXHAUSTION: ("fr.card.exhaustion", "exhaustion 2"),
    C.ATTACK: ("fr.card.attack", "Attack!"),
    C.MUSCLE: ("fr.card.muscle", "Muscle 5"),
}


def type_name(letter: str) -> Message:
    """A rider type inside a sentence (``Choose the {rider}'s card``): ``Rouleur``, ``Sprinteur``."""
    key, text = _TYPE_WORDS[letter]
    return message_of(key, {}, text)


def colour_name(colour: str) -> Message:
    """A team colour inside a sentence or label (``blue Sprinteur``)."""
    key, text = _COLOUR_WORDS[colour]
    return message_of(key, {}, text)


def terrain_name(terrain: str) -> Message:
    """A square's terrain inside a sentence (``square 12 (ascent)``)."""
    return message_of(_TERRAIN_WORDS[terrain], {}, TERRAIN_NAMES[terrain])


def card_name(card: int) -> Message | str:
    """A played card as an event names it: its value (``5``, notation), or the special card's name as a
    message (``exhaustion 2``, ``Attack!``, ``Muscle 5``)."""
    special = _CARD_WORDS.get(card)
    if special is None:
        return C.label(card)
    return message_of(special[0], {}, special[1])


def listed(values: list[Any]) -> str | Message:
    """Numbers or ids a sentence lists, in the game's notation (``3, 4, 7``; ``red-r, pink-s``), or ``nothing``
    as a message when there is none."""
    if values:
        return ", ".join(str(v) for v in values)
    return message_of("fr.nothing", {}, "nothing")


def rider_msg(key: str, text: str, letter: str, **params: Any) -> Message:
    """A sentence naming a rider type (prompts, field labels, refusals): the English text formatted once per
    key and parameters (:func:`~engine.messages.cached_msg`), the ``rider`` parameter the type's own message."""
    out = cached_msg(key, text, **params, rider=TYPE_NAMES[letter])
    out.params["rider"] = type_name(letter)
    return out


# --- choice labels (new Message each time: it belongs to whoever it is handed to) -------------------------
_TYPE_LABELS = {
    ROULEUR: ("fr.label.rouleur", "Rouleur"),
    SPRINTEUR: ("fr.label.sprinteur", "Sprinteur"),
    PELOTON_RIDER: ("fr.label.peloton_rider", "Peloton rider"),
}


def type_label(letter: str) -> Message:
    """A rider type as a button shows it: ``Rouleur``, ``Sprinteur``."""
    key, text = _TYPE_LABELS[letter]
    return message_of(key, {}, text)


def card_label(card: int) -> Message:
    """A card as a button shows it: its value, and the exhaustion card as ``2 (exhaustion)`` (D26)."""
    if card == C.EXHAUSTION:
        return message_of("fr.label.exhaustion_card", {"card": 2}, "2 (exhaustion)")
    value = C.value(card)
    return message_of("fr.label.card", {"card": value}, str(value))


def rider_label(rider_id: str) -> Message:
    """A free rider of the one-rider choice (D23): ``blue Sprinteur``."""
    colour, letter = rider_id.split("-")
    params: dict[str, Any] = {"colour": colour_name(colour), "rider": type_name(letter)}
    return message_of("fr.label.team_rider", params, f"{colour} {TYPE_NAMES[letter]}")


def start_square_label(position: int, square: int) -> Message:
    """A start position as a button shows it: by its square on the board (``square 3``), the one numbering
    players read in the posts, the picture and the terminal; the order keeps the grid position (P1 is just
    behind the line), a parameter here for a translator who wants both."""
    return message_of("fr.label.start_square", {"square": square, "position": position}, f"square {square}")


# --- presets --------------------------------------------------------------------------------------------
_PRESET_LABELS = {
    "default": ("fr.preset.label.default", "default"),
    "origin unverified": ("fr.preset.label.origin_unverified", "origin unverified"),
    "unverified": ("fr.preset.label.unverified", "unverified"),
}

_SUMMARIES = {
    "intro": (
        "fr.preset.summary.intro",
        "{count} square ({ascent} uphill, {descent} downhill); the base game's first stage",
        "{count} squares ({ascent} uphill, {descent} downhill); the base game's first stage",
    ),
    "base": (
        "fr.preset.summary.base",
        "{count} square ({ascent} uphill, {descent} downhill); base game",
        "{count} squares ({ascent} uphill, {descent} downhill); base game",
    ),
    "extra": (
        "fr.preset.summary.extra",
        "{count} square ({ascent} uphill, {descent} downhill); extra stage",
        "{count} squares ({ascent} uphill, {descent} downhill); extra stage",
    ),
    "tour2017": (
        "fr.preset.summary.tour2017",
        "{count} square ({ascent} uphill, {descent} downhill); Tour de France 2017",
        "{count} squares ({ascent} uphill, {descent} downhill); Tour de France 2017",
    ),
    "peloton": (
        "fr.preset.summary.peloton",
        "{count} square ({ascent} uphill, {descent} downhill, {supply} supply, {cobbles} cobbled); Peloton expansion",
        "{count} squares ({ascent} uphill, {descent} downhill, {supply} supply, {cobbles} cobbled); Peloton expansion",
    ),
}


def preset_label(stage: StageEntry, default: bool) -> Message | None:
    """The status a listing shows beside a preset's name: ``default`` for the catalogue's default stage, else
    the stage's own label (``origin unverified``, ``unverified``), else none."""
    name = "default" if default else stage.label
    if name is None:
        return None
    key, text = _PRESET_LABELS[name]
    return message_of(key, {}, text)


def preset_summary(stage: StageEntry, track: Track) -> Message:
    """A preset in one line: its length, its climbs and descents (supply and cobbles for Peloton stages), and
    where it comes from."""
    squares = track.terrain[1 : track.last + 1]
    key, one, other = _SUMMARIES[stage.source]
    return plural(
        key,
        track.last,
        one,
        other,
        ascent=squares.count(ASCENT),
        descent=squares.count(DESCENT),
        supply=squares.count(SUPPLY),
        cobbles=squares.count(COBBLE),
    )


# --- the stage board ------------------------------------------------------------------------------------
_LEGEND = (
    "Key: S start area, _ flat, u uphill, d downhill, P supply zone, C cobbles, F finish area. In the profile "
    "each letter is followed by its number of squares (2 lanes, supply zones 3), C by its number of lanes, and "
    "_[3L]×6 means 6 flat squares with 3 lanes. Terrain and lanes: one letter or digit per square, in groups of 10."
)
_BOARD = (
    "{name}: {count} {squares}, {start} start squares, finish line after square {finish}\n"
    "profile: {profile}\nterrain: {terrain}\nlanes:   {lanes}\n" + _LEGEND
)


def stage_board(track: Track) -> Message:
    """The stage as text: its profile and its strips of terrain letters and lane counts, 10 squares a group,
    with the legend that reads them (the template carries the legend, the parameters the drawing)."""
    strip = "".join(track.terrain[n] for n in range(1, track.last + 1))
    lanes = "".join(str(track.lanes[n]) for n in range(1, track.last + 1))
    return plural(
        "fr.stage_board",
        track.last,
        _BOARD.replace("{squares}", "square"),
        _BOARD.replace("{squares}", "squares"),
        name=track.name,
        start=track.start_squares,
        finish=track.finish - 1,
        profile=track.profile(),
        terrain=" ".join(strip[i : i + 10] for i in range(0, len(strip), 10)),
        lanes=" ".join(lanes[i : i + 10] for i in range(0, len(lanes), 10)),
    )


# --- the rules summary ----------------------------------------------------------------------------------
@cache
def _summary_text() -> str:
    text = resources.files("engine.flamme_rouge").joinpath("guide.md").read_text(encoding="utf-8")
    marker = "## In short"
    if marker in text:
        return text.split(marker, 1)[1].split("\n## ", 1)[0].strip()
    return text.strip().split("\n\n")[1]


def summary() -> Message:
    """The rules in a paragraph (``gregario rules``, ``/rules``): the guide's "In short"."""
    return message_of("fr.summary", {}, _summary_text())
