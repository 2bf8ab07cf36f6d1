"""The ``gregario`` command: the bot, and races in the terminal without Discord.

Sub-commands: ``run`` (the Discord bot), ``play`` (you against bots, in the terminal), ``simulate``
(all-bot races and their statistics), ``replay`` (a race record), ``rules``, ``stages`` and ``db``.
Only ``run`` imports discord.py, so the terminal commands start fast and need no token.

Every mistake on the command line gets at most three lines on stderr and exit status 2; Ctrl-C stops with
exit status 130 and no traceback; a reader that closes the pipe early (``| head``) ends the output quietly.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from typing import NoReturn

from bot.cli.inputs import UsageError
from engine.registry import RULESET_IDS


class Parser(argparse.ArgumentParser):
    """argparse with short errors: the problem and where to read more, not the whole usage (at most 3 lines)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message}\nSee '{self.prog} --help'.\n")


def counted(minimum: int) -> Callable[[str], int]:
    """An argparse type: a whole number of at least ``minimum`` (``--races 0`` is refused, not run)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be {minimum} or more, got {value}")
        return value

    return parse


def _add_race_arguments(p: argparse.ArgumentParser, default_ruleset: str | None = "flamme_rouge") -> None:
    p.add_argument("--ruleset", "-r", choices=RULESET_IDS, default=default_ruleset, help="rule system")
    p.add_argument("--stage", "-s", help="a preset name, the system's stage text, or a JSON object")
    p.add_argument(
        "--option", "-o", action="append", default=[], metavar="KEY=VALUE", help="a rule option (repeatable)"
    )
    p.add_argument("--seed", type=int, help="the race seed (random if omitted)")
    p.add_argument("--record", metavar="FILE", help="save the race record (JSON) to FILE")


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="gregario",
        description="Cycling board-game races on Discord, and in your terminal.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    sub.add_parser("run", help="start the Discord bot (token from GREGARIO_TOKEN or .env)")

    play = sub.add_parser("play", help="play a race in the terminal against bots (no token needed)")
    _add_race_arguments(play)
    play.add_argument("--name", default="Player", help="your name in the race (default Player)")
    play.add_argument(
        "--opponents", type=counted(0), default=None, help="number of bot opponents (default: the minimum)"
    )
    play.add_argument("--bots", default=None, help="strategy of the bot opponents (default: the system's)")

    sim = sub.add_parser("simulate", help="run all-bot races and print wins by seat and strategy")
    _add_race_arguments(sim)
    sim.add_argument("--races", "-n", type=counted(1), default=100, help="number of races (default 100)")
    sim.add_argument("--players", type=counted(1), default=None, help="number of player seats (default: the minimum)")
    sim.add_argument("--bots", default=None, help="comma-separated strategies, one per seat, cycled")
    sim.add_argument("--no-rotate", action="store_true", help="keep each strategy on its seat")

    rep = sub.add_parser("replay", help="replay a race record and print its standings and log")
    rep.add_argument("file", help="the race record (JSON); - for standard input")
    rep.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    rep.add_argument("--publish", action="store_true", help="publish what the finished race still holds back")
    rep.add_argument("--steps", action="store_true", help="with --json: every step's public state and events")
    rep.add_argument("--reveal", action="store_true", help="with --json: each entrant's private view too")

    rules = sub.add_parser("rules", help="a rule system's summary")
    rules.add_argument("ruleset", choices=RULESET_IDS)

    db = sub.add_parser("db", help="the database: upgrade its tables, or check that they are current")
    db.add_argument("action", choices=["upgrade", "check"], help="upgrade: apply migrations; check: exit 1 if behind")
    db.add_argument("--url", help="the database URL (default: GREGARIO_DATABASE_URL)")

    stages = sub.add_parser("stages", help="the stage presets of a rule system")
    stages.add_argument("ruleset", choices=RULESET_IDS)
    stages.add_argument("stage", nargs="?", help="draw this stage as text")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``gregario`` console script; returns the exit status (2 for a usage mistake)."""
    args = build_parser().parse_args(argv)
    try:
        return _dispatch(args)
    except UsageError as exc:
        print(f"gregario {args.command}: {exc}", file=sys.stderr)
        return 2


def _dispatch(args: argparse.Namespace) -> int:
    if args.command == "run":
        from bot.runner import run

        status: int = run()
        return status
    if args.command == "play":
        from bot.cli.play import play

        return play(args)
    if args.command == "simulate":
        from bot.cli.simulate import simulate

        return simulate(args)
    if args.command == "replay":
        from bot.cli.replay import replay_command

        return replay_command(
            args.file, as_json=args.json, publish=args.publish, every_step=args.steps, reveal=args.reveal
        )
    if args.command == "rules":
        from bot.i18n import t
        from engine.registry import get_ruleset

        print(t(get_ruleset(args.ruleset).summary()))
        return 0
    if args.command == "db":
        from bot.cli.db import db_command

        return db_command(args.action, args.url)
    if args.command == "stages":
        from bot.cli.replay import stages_command

        return stages_command(args.ruleset, args.stage)
    return 2  # pragma: no cover - argparse enforces the choices


def entry() -> None:
    """The console script: :func:`main`, with Ctrl-C (130) and a closed output pipe (2) ended quietly."""
    try:
        status = main()
        sys.stdout.flush()
    except KeyboardInterrupt:
        status = 130
    except BrokenPipeError:
        _silence_stdout()
        status = 2
    sys.exit(status)


def _silence_stdout() -> None:
    """Point stdout at /dev/null, so that the interpreter's last flush cannot fail on a closed pipe."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
