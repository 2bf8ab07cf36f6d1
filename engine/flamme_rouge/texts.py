"""The words a player reads outside events and refusals: choice labels, preset summaries and labels, the stage
board and its legend, the rules summary. Each is a :class:`~engine.messages.Message` (a stable ``fr.`` key,
its parameters and the English text), so a translator reaches it.

Keys are written whole, as literals (never built by formatting), so that the test of
:func:`engine.flamme_rouge.keys.message_keys` finds every one of them in the source.
"""

from __future__ import annotations

from functools import cache
from importlib import resources

from engine.flamme_rouge import cards as C
from engine.flamme_rouge.state import PELOTON_RIDER, ROULEUR, SPRINTEUR, TYPE_NAMES
from engine.flamme_rouge.track import ASCENT, COBBLE, DESCENT, SUPPLY, StageEntry, Track
from engine.messages import Message, message_of, plural

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
    rider = TYPE_NAMES[letter]
    return message_of("fr.label.team_rider", {"colour": colour, "rider": rider}, f"{colour} {rider}")


def start_square_label(square: int) -> Message:
    """A start position as a button shows it: ``P3`` (P1 is just behind the line)."""
    return message_of("fr.label.start_square", {"square": square}, f"P{square}")


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
