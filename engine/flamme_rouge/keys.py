"""Every message key Flamme Rouge may emit, listed once (``Ruleset.message_keys``), so a translation catalogue
can be checked for completeness. Its test plays whole races and scans this package's source: a key emitted or
written anywhere here and missing from this list fails it, and so does a key listed here and written nowhere.
"""

from __future__ import annotations

EVENTS = frozenset(
    {
        "fr.auto_exhaustion",
        "fr.bid",
        "fr.blocked",
        "fr.breakaway",
        "fr.cross",
        "fr.exhaustion",
        "fr.finish",
        "fr.move",
        "fr.peloton_card",
        "fr.peloton_empty",
        "fr.placed",
        "fr.rider_chosen",
        "fr.slipstream",
    }
)
"""Events (the message key is the event's kind)."""

REFUSALS = frozenset(
    {
        "fr.already_placed",
        "fr.bad_bid_rider",
        "fr.bad_bid_text",
        "fr.bad_card",
        "fr.bad_cards",
        "fr.bad_draw_text",
        "fr.bad_order",
        "fr.bad_order_mixed",
        "fr.bad_order_text",
        "fr.bad_place",
        "fr.bad_place_text",
        "fr.bad_rider",
        "fr.bad_rider_text",
        "fr.bad_text",
        "fr.bid_rider_first",
        "fr.bid_rider_fixed",
        "fr.bot_team",
        "fr.card_locked",
        "fr.card_not_in_hand",
        "fr.empty_order",
        "fr.first_card_first",
        "fr.first_locked",
        "fr.no_rider_to_place",
        "fr.no_such_rider",
        "fr.not_a_start_square",
        "fr.not_a_start_square_on_board",
        "fr.not_bidding",
        "fr.not_entrant",
        "fr.not_your_rider",
        "fr.not_your_turn_to_choose",
        "fr.not_your_turn_to_place",
        "fr.nothing_to_play",
        "fr.race_over",
        "fr.rider_crossed",
        "fr.rider_taken",
        "fr.start_square_full",
        "fr.two_cards",
        "fr.wrong_phase.bid",
        "fr.wrong_phase.choose",
        "fr.wrong_phase.energy",
        "fr.wrong_phase.place",
    }
)
"""Refusals of an order (``OrderError``)."""

DECISIONS = frozenset(
    {
        "fr.field.card",
        "fr.field.first",
        "fr.field.rider",
        "fr.field.square",
        "fr.group.rider",
        "fr.info.hand",
        "fr.info.rejected",
        "fr.info.rider",
        "fr.prompt.bid_card",
        "fr.prompt.bid_done",
        "fr.prompt.bid_rider",
        "fr.prompt.card",
        "fr.prompt.choose_rider",
        "fr.prompt.draw_first",
        "fr.prompt.energy_done",
        "fr.prompt.place_rider",
        "fr.prompt.place_square",
    }
)
"""Prompts, field labels and groups, context lines of the decisions."""

LABELS = frozenset(
    {
        "fr.label.card",
        "fr.label.exhaustion_card",
        "fr.label.peloton_rider",
        "fr.label.rouleur",
        "fr.label.sprinteur",
        "fr.label.start_square",
        "fr.label.team_rider",
    }
)
"""Choice labels."""

CATALOGUE = frozenset(
    {
        "fr.preset.label.default",
        "fr.preset.label.origin_unverified",
        "fr.preset.label.unverified",
        "fr.preset.summary.base",
        "fr.preset.summary.extra",
        "fr.preset.summary.intro",
        "fr.preset.summary.peloton",
        "fr.preset.summary.tour2017",
        "fr.stage_board",
        "fr.summary",
    }
)
"""The presets' summaries and labels, the stage board, the rules summary."""

COLUMNS = frozenset(
    {
        "fr.column.crossed_round",
        "fr.column.exhaustion",
        "fr.column.past_line",
        "fr.column.rider_places",
        "fr.column.squares",
    }
)
"""The headings of the standings' columns."""

WORDS = frozenset(
    {
        "fr.card.attack",
        "fr.card.exhaustion",
        "fr.card.muscle",
        "fr.colour.black",
        "fr.colour.blue",
        "fr.colour.green",
        "fr.colour.pink",
        "fr.colour.red",
        "fr.colour.white",
        "fr.nothing",
        "fr.rider.first",
        "fr.rider.peloton_rider",
        "fr.rider.rouleur",
        "fr.rider.sprinteur",
        "fr.terrain.ascent",
        "fr.terrain.cobbles",
        "fr.terrain.descent",
        "fr.terrain.finish",
        "fr.terrain.flat",
        "fr.terrain.start",
        "fr.terrain.supply",
    }
)
"""Words inside other messages' parameters (nested messages): rider types, team colours, terrains, the special
cards' names, ``nothing`` for an empty list."""

MESSAGE_KEYS: frozenset[str] = EVENTS | REFUSALS | DECISIONS | LABELS | CATALOGUE | COLUMNS | WORDS
