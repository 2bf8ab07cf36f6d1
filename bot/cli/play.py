"""``gregario play``: you against bots in the terminal, through the same decisions the bot renders.

Each awaited :class:`~engine.ruleset.Decision` becomes a prompt: its context lines, then its next
field as a numbered list of choices (type the number), a number range, or a text box. At any prompt
you may instead type a whole order in the rule system's text syntax (``r5 s9``, ``play 47``...).
Refusals are the engine's own messages; nothing you type can break the race.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from pydantic import ValidationError

from bot.cli.inputs import UsageError, brief, check_record_path, parse_options, parse_stage
from bot.cli.replay import render_standings
from bot.cli.seats import bot_seats, new_seed, parse_strategies
from bot.i18n import DEFAULT_LOCALE, named, t
from bot.render import alt_text
from bot.render.registry import rider_names
from engine.messages import OrderError
from engine.race import Race, StepPlayed
from engine.record import RecordError
from engine.registry import get_ruleset
from engine.ruleset import Decision, Entrant, Event, InputField, Order, set_path
from engine.validation import describe_validation_error

HUMAN_ID = "you"
HELP = (
    "Type the number of a choice, or a whole order in the game's syntax{example}. 'board' shows the race, 'quit' stops."
)


class Quit(Exception):
    """The player typed ``quit`` (or the input ended)."""


class Terminal:
    """Prompts on ``out``, answers from ``inp``; end of input counts as quitting."""

    def __init__(self, inp: TextIO, out: TextIO) -> None:
        self.inp = inp
        self.out = out

    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    def ask(self, prompt: str) -> str:
        self.out.write(prompt)
        self.out.flush()
        line = self.inp.readline()
        if not line:
            raise Quit
        answer = line.strip()
        if answer.lower() in {"quit", "exit", "q"}:
            raise Quit
        return answer


def render_field(term: Terminal, field: InputField) -> None:
    term.say(f"  {t(field.label)}")
    if field.kind == "choice":
        for i, choice in enumerate(field.choices, start=1):
            hint = f"  ({t(choice.hint)})" if choice.hint else ""
            term.say(f"    {i}) {t(choice.label)}{hint}")
    elif field.kind == "number":
        term.say(f"    {number_range(field)}")


def number_range(field: InputField) -> str:
    """The bounds of a number field as a player reads them (no bound is said as none: "0 or more")."""
    low, high = field.minimum, field.maximum
    if low is not None and high is not None:
        return f"a number from {low} to {high}"
    if low is not None:
        return f"a number, {low} or more"
    if high is not None:
        return f"a number, {high} or less"
    return "a number"


def answer_to_order(field: InputField, answer: str, partial: Order) -> Order | str:
    """What the answer means for this field: a choice, a number, or else a whole text-syntax order."""
    if field.kind == "choice" and answer.isdigit() and 1 <= int(answer) <= len(field.choices):
        return set_path(partial, field.path, field.choices[int(answer) - 1].value)
    if field.kind == "number" and answer.lstrip("-").isdigit():
        return set_path(partial, field.path, int(answer))
    if field.kind == "text" and field.path:
        return set_path(partial, field.path, answer)
    return answer


def ask_order(race: Race, term: Terminal, show_board: Callable[[], None]) -> Order:
    """Ask the human for a complete order for the current step, one field at a time."""
    partial: Order = {}
    skipped: set[tuple[str, ...]] = set()  # optional parts the player passed over with Enter
    while True:
        decision = _my_decision(race, partial)
        if decision is None:
            return partial
        # Every part is offered as a numbered menu, optional ones too (Enter skips one); a whole order in the
        # text syntax can be typed at any prompt anyway.
        offered = [f for f in decision.fields if f.kind != "text" and tuple(f.path) not in skipped]
        if decision.complete and not offered:
            return partial
        term.say(f"\n{t(decision.prompt)}")
        for line in decision.info:
            term.say(f"  {t(line)}")
        field = offered[0] if offered else decision.fields[0]
        render_field(term, field)
        if not field.required:
            term.say("    (optional: press Enter to skip)")
        answer = term.ask("> ")
        if answer.lower() == "board":
            show_board()
            continue
        if answer.lower() in {"help", "?"}:
            term.say(HELP.format(example=f" (for example: {decision.example})" if decision.example else ""))
            continue
        if not answer and not field.required:
            skipped.add(tuple(field.path))
            continue
        try:
            validated = race.ruleset.validate(race.state, HUMAN_ID, answer_to_order(field, answer, partial), partial)
        except OrderError as exc:
            term.say(f"  {t(exc.message)}")
            continue
        partial = validated.order


def _my_decision(race: Race, partial: Order) -> Decision | None:
    for decision in race.awaited({HUMAN_ID: partial}):
        if decision.entrant == HUMAN_ID:
            return decision
    return None


def play(args: argparse.Namespace, inp: TextIO | None = None, out: TextIO | None = None) -> int:
    """Play one race: you against bots. Returns 0 when the race ends or you quit, 130 after Ctrl-C (the
    record so far is saved either way); raises :class:`UsageError` for a bad argument, before the race."""
    term = Terminal(inp or sys.stdin, out or sys.stdout)
    ruleset = get_ruleset(args.ruleset)
    check_record_path(args.record)
    options = parse_options(args.option)
    stage = parse_stage(args.stage)
    strategies = parse_strategies(ruleset, args.bots)
    try:
        low = ruleset.player_limits(stage, options).minimum
    except ValueError:  # a bad stage or option: the race's start below names the part in one line
        low = 1
    opponents = args.opponents if args.opponents is not None else max(low - 1, 0)
    human = Entrant(id=HUMAN_ID, name=args.name)
    seed = new_seed(args.seed)
    try:
        entrants = ruleset.default_entrants([human, *bot_seats(ruleset, opponents, strategies)], options)
        race = Race.start(ruleset.id, entrants, seed, stage=stage, options=options)
    except ValidationError as exc:  # default_entrants reads the options before the race checks them
        raise UsageError(brief(describe_validation_error(exc, "options"))) from None
    except RecordError as exc:
        raise UsageError(brief(str(exc))) from None
    term.say(f"{ruleset.name} — seed {seed}. Riders: {', '.join(e.name for e in entrants)}")
    term.say(HELP.format(example=""))

    names = {e.id: e.name for e in entrants}

    def show_board() -> None:
        # The same words as the picture's description on Discord, through t(): the terminal reads the
        # board in the player's terms, and nothing here knows the rule system.
        term.say(alt_text(ruleset.id, ruleset.public_view(race.state), (), names=names))

    steps: list[dict[str, Any]] = []
    news: list[Event] = list(race.opening)

    def save(status: int) -> int:
        """Write the record (if asked); a failure to write is reported in one line, exit status 2."""
        if args.record:
            try:
                Path(args.record).write_text(race.record(steps).to_json(), encoding="utf-8")
            except OSError as exc:
                print(f"gregario play: could not save the record to {args.record}: {exc.strerror}", file=sys.stderr)
                return 2
            term.say(f"Race record saved to {args.record}")
        return status

    def keep(played: StepPlayed) -> None:
        steps.append(played.orders)
        news.extend(played.events)

    def tell_news() -> None:
        if not news:
            return
        term.say("")
        named_ids = rider_names(ruleset.id, ruleset.public_view(race.state), names, DEFAULT_LOCALE)
        for event in news:
            term.say(f"• {named(event.message, None, named_ids)}")
        news.clear()
        show_board()

    if not news:
        show_board()
    try:
        while True:
            tell_news()
            race.play_bots_until_human(keep)
            tell_news()
            if race.finished:
                break
            awaited = race.awaited()
            orders: dict[str, Any] = {}
            if any(d.entrant == HUMAN_ID for d in awaited):
                orders[HUMAN_ID] = ask_order(race, term, show_board)
            keep(race.play_step(orders, awaited))
    except Quit:
        term.say("\nRace abandoned.")
        return save(0)
    except KeyboardInterrupt:
        term.say("\nRace interrupted.")
        return save(130)
    published = race.publish()
    if published:
        term.say("\nThe next morning:")
        named_ids = rider_names(ruleset.id, ruleset.public_view(race.state), names, DEFAULT_LOCALE)
        for event in published:
            term.say(f"• {named(event.message, None, named_ids)}")
    result = race.result()
    term.say("\nFinal standings" + (" (provisional)" if result.provisional else "") + ":")
    term.say(render_standings(race))
    return save(0)
