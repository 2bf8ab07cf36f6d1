"""The words of Mind Cycling a player reads, as messages a translator can reach.

Every key is written out whole (``"mc.role.sprinter"``), never built from pieces, so the package's
source can be scanned for the keys it may emit (``tests/engine/mind_cycling/test_message_keys.py``).
A word that changes with a value (a role, an action, a medal) has one key per value: a translator
then writes each sentence whole rather than a sentence with an English word dropped into it.
"""

from __future__ import annotations

from engine.messages import Message, cached_msg, message_of, msg
from engine.mind_cycling.models import load_presets
from engine.mind_cycling.state import Cyclist

CYCLIST_LABELS: dict[str, tuple[str, str]] = {
    "sprinter": ("mc.cyclist.sprinter", "#{n} sprinter"),
    "climber": ("mc.cyclist.climber", "#{n} climber"),
    "domestique": ("mc.cyclist.domestique", "#{n} domestique"),
}
"""A cyclist as a choice or a group of fields shows it: its number and role (``#3 domestique``)."""

ACTION_LABELS: dict[str, tuple[str, str]] = {
    "move": ("mc.action.move", "move"),
    "attack": ("mc.action.attack", "attack"),
    "wheel": ("mc.action.wheel", "wheel"),
    "relay": ("mc.action.relay", "relay"),
    "later": ("mc.action.later", "later"),
}
"""The actions a cyclist may be given (§6, §9.3), as their buttons read."""

MEDAL_NAMES: dict[str, tuple[str, str]] = {
    "best_cyclist": ("mc.medal.best_cyclist", "Best Cyclist"),
    "best_sprinter": ("mc.medal.best_sprinter", "Best Sprinter"),
    "best_climber": ("mc.medal.best_climber", "Best Climber"),
    "best_team": ("mc.medal.best_team", "Best Team"),
}
"""§7: the four medals, by the code the standings keep (``medal_names``)."""

INFO_BASES: dict[bool, tuple[str, str]] = {
    True: ("mc.info_cyclist_blue", "#{n}: row {row}, lane {lane}, blue base (bottle), maximum {top}"),
    False: ("mc.info_cyclist_black", "#{n}: row {row}, lane {lane}, black base (no bottle), maximum {top}"),
}
"""Orders mode: one line per cyclist on the road, by its base after this order's passes."""


def _word(entry: tuple[str, str], **params: object) -> Message:
    key, text = entry
    return cached_msg(key, text, **params) if params else message_of(key, {}, text)


def cyclist_label(c: Cyclist) -> Message:
    """The cyclist as a choice or a group label reads: ``#3 domestique``."""
    return _word(CYCLIST_LABELS[c.role], n=c.number)


def action_label(action: str) -> Message:
    """An action's button: ``move``, ``attack``, ``wheel``, ``relay`` or ``later``."""
    return _word(ACTION_LABELS[action])


def medal_name(code: str) -> Message:
    """A medal's name (``Best Cyclist``) from the code the standings keep (``best_cyclist``)."""
    return _word(MEDAL_NAMES[code])


def lane_label(lane: int) -> Message:
    """A lane as a choice reads: ``lane 2``."""
    return msg("mc.lane", "lane {lane}", lane=lane)


def pass_to_label(number: int) -> Message:
    """The choice that passes the bottle to team-mate ``#number``."""
    return msg("mc.pass_to", "to #{n}", n=number)


def keep_label() -> Message:
    """The choice that keeps the bottle."""
    return message_of("mc.keep_bottle", {}, "keep")


def cyclist_info(c: Cyclist, bottle: bool, top: int) -> Message:
    """One cyclist's line in an orders-mode decision: its space, its base and its maximum this round."""
    return _word(INFO_BASES[bottle], n=c.number, row=c.row, lane=c.lane, top=top)


def modifiers_info(c: Cyclist, cap: int, wind: bool, fatigued: bool) -> list[Message]:
    """Why a cyclist's maximum is below its role's figure for the section (§5.2): wind, fatigue."""
    out = []
    if wind:
        out.append(msg("mc.info_wind", "#{n} is in the wind: -1 from {cap}.", n=c.number, cap=cap))
    if fatigued:
        out.append(msg("mc.info_fatigue", "#{n} is fatigued (a domestique without a bottle): -1.", n=c.number))
    return out


RIDE_REFUSALS: dict[str, tuple[str, str]] = {
    "not_in_train": ("mc.why.not_in_train", "it is not behind anyone in a train"),
    "declined": ("mc.why.declined", "it already let its chance go"),
    "sprinter_mountain": ("mc.why.sprinter_mountain", "a sprinter that starts the round in the mountains can't"),
    "fatigued": ("mc.why.fatigued", "a fatigued domestique can't"),
    "front_attacked": ("mc.why.front_attacked", "the cyclist in front of it attacked"),
    "train_broken": ("mc.why.train_broken", "a cyclist ahead of it in its train crossed the line and broke the train"),
    "not_front_four": ("mc.why.not_front_four", "only the front four of a train may relay"),
    "nobody_moved": ("mc.why.nobody_moved", "nobody in front of it moved before its turn"),
    "wheel_space": ("mc.why.wheel_space", "the space behind {who} (row {row}, lane {lane}) is not free"),
    "relay_space": ("mc.why.relay_space", "the space in front of {who} (row {row}, lane {lane}) is not free"),
}
"""Why a cyclist may not wheel or relay now (§6.1, §6.2, D15, D16): the ``why`` of ``mc.fallback`` and
``mc.ride_refused``, each reason a sentence of its own."""

PATH_PROBLEMS: dict[str, tuple[str, str]] = {
    "off_road": ("mc.path.off_road", "step {n} ({step}) would leave the road (lanes 1-{lanes})"),
    "crosses": ("mc.path.crosses", "step {n} ({step}) already crosses the finish line"),
    "rock": ("mc.path.rock", "step {n} ({step}) runs into a rock on row {row}, lane {lane}"),
    "cyclist": ("mc.path.cyclist", "step {n} ({step}) runs into {who} on row {row}, lane {lane}"),
}
"""Why an explicit path can't be ridden (live mode): the ``problem`` of ``mc.blocked``."""

WHERE: dict[str, tuple[str, str]] = {
    "line": ("mc.where.line", "Line {n} ('{line}')"),
    "cyclist": ("mc.where.cyclist", "Cyclist '{name}'"),
    "answer": ("mc.where.answer", "Your answer"),
}
"""Which part of a text order a refusal is about: the ``where`` that opens it (the quoted text is the
player's own)."""


def ride_refusal_reason(code: str, **params: object) -> Message:
    """Why a cyclist may not wheel or relay now, by the code of :data:`RIDE_REFUSALS`."""
    return _word(RIDE_REFUSALS[code], **params)


def path_problem(code: str, **params: object) -> Message:
    """Why an explicit path can't be ridden, by the code of :data:`PATH_PROBLEMS`."""
    return _word(PATH_PROBLEMS[code], **params)


def where_label(code: str, **params: object) -> Message:
    """The part of a text order a refusal is about: ``Line 2 ('#3 fly')``, ``Cyclist '9'``, ``Your answer``."""
    return _word(WHERE[code], **params)


def nobody_label() -> Message:
    """An empty list of cyclists, as a sentence reads it: ``none``."""
    return message_of("mc.none", {}, "none")


DEFAULT_LABEL = message_of("mc.preset.default", {}, "default")
"""The label of the default course in a list of presets (``classic [default]``)."""


def preset_summary(name: str, text: str) -> Message:
    """A preset's one-line summary, from ``data/presets.json``: its key is made from the preset's name
    (``mc.preset.classic``), the one key built from data; :func:`message_keys` lists each preset's."""
    return message_of(preset_key(name), {}, text)


PRESET_TITLES = {
    "classic": ("mc.preset_title.classic", "Classic course"),
    "short": ("mc.preset_title.short", "Short course"),
    "sprinters": ("mc.preset_title.sprinters", "Sprinters' day"),
    "alps": ("mc.preset_title.alps", "Alps"),
}
"""The presets' names as players read them (a preset without one is shown by its name)."""


def preset_title(name: str) -> Message | None:
    """Preset ``name`` as players read it ("Short course")."""
    found = PRESET_TITLES.get(name)
    return message_of(found[0], {}, found[1]) if found else None


def preset_key(name: str) -> str:
    """The message key of preset ``name``'s summary."""
    return "mc.preset." + name


SUMMARY = message_of(
    "mc.summary",
    {},
    "Mind Cycling: no dice, no cards. Each player runs a team: a sprinter (#1), a climber (#2) and "
    "domestiques. Each round the cyclists move from the leader back, each up to a maximum set by its role "
    "and the section it starts in (sprinter 5/7/3, domestique 7/5/5, climber 5/3/7 on plains/sprint/"
    "mountain): 1 less in the wind, 1 less for a domestique without a bottle. A cyclist in a train may "
    "wheel (follow the one in front) or relay (jump to the front of the train). A bottle buys an attack "
    "(3 more steps) in the cyclist's own section; domestiques pass bottles and take new ones at supply "
    "spaces. Four medals: first across the line, first out of the sprint, first out of the mountains, and "
    "best team (12 points for 1st down to 1 for 12th); most medals wins. Solo: get four cyclists across in "
    "the fewest rounds.",
)
"""The rules in a paragraph (``gregario rules``, ``/rules``)."""


EVENT_KINDS = frozenset(
    {
        "mc.round_start", "mc.placed", "mc.bottle_pass", "mc.pass_ignored",
        "mc.move", "mc.attack", "mc.wheel", "mc.relay", "mc.move_finish", "mc.attack_finish", "mc.relay_finish",
        "mc.path_blocked", "mc.refill", "mc.reduced", "mc.fallback", "mc.declined", "mc.crossed",
        "mc.sprint_exit", "mc.mountain_exit", "mc.solo_score", "mc.round_limit", "mc.race_over",
    }
)  # fmt: skip
"""Every event kind (the kind is its message's key)."""

EVENT_WORDS = frozenset(key for key, _ in RIDE_REFUSALS.values())
"""The messages nested in events' data (and in refusals): why a wheel or relay can't be ridden. The
actions' words (``mc.action.*``) are listed with the decisions' choices."""

REFUSALS = frozenset(
    {
        "mc.not_entrant", "mc.not_your_turn", "mc.race_over_no_order", "mc.bad_order", "mc.bad_place",
        "mc.already_placed", "mc.bad_turn",
        "mc.bad_cyclist", "mc.no_such_cyclist", "mc.bad_step", "mc.bad_lane", "mc.bad_word", "mc.empty",
        "mc.bad_line", "mc.bad_pass", "mc.bad_action", "mc.twice", "mc.bad_key", "mc.bad_intents",
        "mc.not_on_road", "mc.bad_intent", "mc.bad_intent_key", "mc.ride_distance", "mc.bad_distance",
        "mc.ride_path", "mc.bad_path", "mc.path_length", "mc.path_and_lane", "mc.pass_not_domestique",
        "mc.off_road", "mc.ride_not_now", "mc.no_attack", "mc.too_far", "mc.blocked", "mc.bad_prompt",
        "mc.ride_refused", "mc.bad_passes", "mc.cannot_pass", "mc.wrong_receiver", "mc.which_pass",
        "mc.none",
        *(key for key, _ in PATH_PROBLEMS.values()),
        *(key for key, _ in WHERE.values()),
    }
)  # fmt: skip
"""Every refusal of an order (:class:`~engine.messages.OrderError`)."""

DECISION_TEXTS = frozenset(
    {
        "mc.prompt_place", "mc.prompt_intents", "mc.prompt_intents_missing", "mc.prompt_passes", "mc.prompt_turn",
        "mc.prompt_ride",
        "mc.field_cyclist", "mc.field_action", "mc.field_distance", "mc.field_lane", "mc.field_pass",
        "mc.field_text", "mc.field_action_live", "mc.field_steps", "mc.field_lane_live", "mc.field_ride",
        "mc.field_text_live",
        "mc.info_cyclist_blue", "mc.info_cyclist_black", "mc.info_wind", "mc.info_fatigue", "mc.info_where",
        "mc.lane", "mc.pass_to", "mc.keep_bottle",
        *(key for key, _ in CYCLIST_LABELS.values()),
        *(key for key, _ in ACTION_LABELS.values()),
    }
)  # fmt: skip
"""Prompts, field labels, choices, groups and info lines of the decisions."""

RESULT_TEXTS = frozenset(
    {
        "mc.column.medals", "mc.column.medal_names", "mc.column.team_points", "mc.column.best_place",
        "mc.column.places", "mc.column.rounds", "mc.column.remaining", "mc.column.crossed",
        "mc.round_limit_note", "mc.solo_line", "mc.solo_unfinished",
        *(key for key, _ in MEDAL_NAMES.values()),
    }
)  # fmt: skip
"""The standings' column headings, medal names and notes."""

CATALOGUE_TEXTS = frozenset(
    {
        "mc.summary", "mc.preset.default",
        "mc.stage_board", "mc.stage_board_random", "mc.stage_board_random_rocks", "mc.stage_board_random_supply",
    }
)  # fmt: skip
"""The rules summary, the presets' labels and the stage boards (each preset's summary: :func:`message_keys`)."""


def message_keys() -> frozenset[str]:
    """Every message key Mind Cycling may emit: the lists above and each preset's summary."""
    presets = {preset_key(name) for name in load_presets()}
    titles = {key for key, _ in PRESET_TITLES.values()}
    return EVENT_KINDS | EVENT_WORDS | REFUSALS | DECISION_TEXTS | RESULT_TEXTS | CATALOGUE_TEXTS | presets | titles
