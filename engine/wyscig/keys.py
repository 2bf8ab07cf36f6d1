"""Every message key Wyścig may emit, so a translation catalogue can be checked for completeness.

Written out by hand: its test plays races (bots, absent players, refused orders) and checks every key
they emit is here, and scans the package's source for ``wk.`` literals and checks the two lists agree.
"""

from __future__ import annotations

MESSAGE_KEYS: frozenset[str] = frozenset(
    {
        # events (an event's kind is its message key)
        "wk.stage_start",
        "wk.climb_laid",
        "wk.climb_ended",
        "wk.redeal",
        "wk.skip",
        "wk.pace",
        "wk.lead",
        "wk.peloton",
        "wk.blocked",
        "wk.penalty",
        "wk.give_back",
        "wk.stage_end",
        "wk.race_end",
        # the decision: prompts, fields, card labels and their hints, what the player needs to know
        "wk.prompt.leader",
        "wk.prompt.turn",
        "wk.field.card",
        "wk.field.descents",
        "wk.label.card",
        "wk.hint.pace",
        "wk.hint.lead",
        "wk.hint.peloton",
        "wk.hint.blocked",
        "wk.hint.penalty",
        "wk.hint.give_back",
        "wk.hint.climb_pace",
        "wk.hint.climb_lead",
        "wk.hint.climb_peloton",
        "wk.hint.climb_blocked",
        "wk.hint.climb_penalty",
        "wk.hint.climb_give_back",
        "wk.info.hand",
        "wk.info.hand_speeds",
        "wk.info.stage",
        "wk.info.lap",
        "wk.info.minutes",
        "wk.info.climb",
        # refusals (and the answer to ``hand``)
        "wk.hand",
        "wk.empty",
        "wk.syntax",
        "wk.syntax_no_card",
        "wk.syntax_no_count",
        "wk.syntax_two_cards",
        "wk.syntax_type",
        "wk.not_an_order",
        "wk.finished",
        "wk.not_entrant",
        "wk.not_your_turn",
        "wk.bad_field",
        "wk.no_such_card",
        "wk.card_not_in_hand",
        "wk.negative_descents",
        "wk.too_many_descents",
        "wk.missing_order",
        "wk.no_card",
        # words inside other messages (nested messages): a hand, a card played, the lap line, shared winners,
        # what is wrong with a field of an order
        "wk.cards.speeds",
        "wk.cards.speeds_descents",
        "wk.cards.descents_only",
        "wk.cards.none",
        "wk.cards.not_dealt",
        "wk.shown.card",
        "wk.shown.descents",
        "wk.shown.climb_card",
        "wk.shown.climb_descents",
        "wk.lap.pace",
        "wk.lap.lead",
        "wk.lap.peloton",
        "wk.lap.penalty",
        "wk.lap.give_back",
        "wk.lap.blocked",
        "wk.lap.then",
        "wk.names.and",
        "wk.problem.unknown_field",
        "wk.problem.boolean",
        "wk.problem.number",
        # the result
        "wk.column.total_time",
        "wk.column.stage_wins",
        "wk.column.stage_times",
        "wk.column.penalty_minutes",
        "wk.result.note",
        # the catalogue: presets, the stage board, the rules summary
        "wk.preset.summary.itemised_108",
        "wk.preset.summary.total_102",
        "wk.preset.summary.classic_96",
        "wk.preset.label.default",
        "wk.label.no_descent",
        "wk.label.descents",
        "wk.preset.title.itemised_108",
        "wk.preset.title.total_102",
        "wk.preset.title.classic_96",
        "wk.stage_board",
        "wk.summary",
    }
)


def message_keys() -> frozenset[str]:
    """Every key a Wyścig event, decision, refusal, result or catalogue text may carry."""
    return MESSAGE_KEYS
