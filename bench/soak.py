"""The crash-safety soak at length: a `gregario run` process SIGKILLed 100+ times, on SQLite or PostgreSQL.

The same soak as tests/bot/exts/race/test_soak.py (tests/bot/exts/race/soak.py), with knobs: races of
the four rule systems against the project's fake Discord, people ordering on their panels at random
moments, a short pace so deadlines fire, kills at random and at the moments that matter (after a post
is created, after a panel is sent, after a click is acknowledged, after a race's last step commits),
and with ``--faults`` Discord's own misbehaviour (429 with retry-after, 5xx, a dropped gateway and its
RESUME, an invalid session). It prints the kills, races, orders and messages and the figures of each
check, and exits 1 if a check failed.

    python bench/soak.py --kills 100 --races 12 --database sqlite --faults
    GREGARIO_TEST_DATABASE_URL=postgresql+asyncpg://postgres@127.0.0.1:55432/gregario_test \\
        python bench/soak.py --kills 100 --database postgresql --faults

PostgreSQL: a fresh database is created on the server of ``GREGARIO_TEST_DATABASE_URL`` for the run and
dropped after. ``--moments random,post`` limits the kill moments; ``--seed`` replays a run's choices.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sqlalchemy.engine import make_url

from tests.bot.exts.race.soak import MOMENTS, Plan, seed_from_environment, soak
from tests.fakediscord.network import make_certificate
from tests.fakediscord.server import FakeDiscord


async def _admin(server: str, sql: str) -> None:
    import asyncpg

    url = make_url(server)
    conn = await asyncpg.connect(
        host=url.host, port=url.port, user=url.username, password=url.password, database=url.database
    )
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


async def main(args: argparse.Namespace) -> int:
    seed = args.seed if args.seed is not None else seed_from_environment()
    moments = tuple(m.strip() for m in args.moments.split(",") if m.strip())
    unknown = sorted(set(moments) - set(MOMENTS))
    if unknown:
        print(f"unknown moments {unknown}; choose among {', '.join(MOMENTS)}", file=sys.stderr)
        return 2
    kill_seconds = args.kill_seconds if args.kill_seconds is not None else max(150.0, args.kills * 14.0)
    plan = Plan(
        seed=seed,
        kills=args.kills,
        races=args.races,
        more_races=True,
        together=args.together,
        moments=moments,
        faults=args.faults,
        pace=args.pace,
        kill_seconds=kill_seconds,
        finish_seconds=args.finish_seconds,
    )
    with tempfile.TemporaryDirectory(prefix="gregario-soak-") as scratch:
        folder = Path(args.keep) if args.keep else Path(scratch)
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "tls").mkdir(exist_ok=True)
        cert, key = make_certificate(folder / "tls")
        server = os.environ.get("GREGARIO_TEST_DATABASE_URL", "").strip()
        name = ""
        if args.database == "postgresql":
            if not server:
                print("--database postgresql needs GREGARIO_TEST_DATABASE_URL (a PostgreSQL server)", file=sys.stderr)
                return 2
            name = f"gregario_soak_{uuid.uuid4().hex[:10]}"
            await _admin(server, f'CREATE DATABASE "{name}"')
            url = make_url(server).set(database=name).render_as_string(hide_password=False)
        else:
            url = f"sqlite+aiosqlite:///{folder / 'races.sqlite3'}"
        fake = FakeDiscord(cert, key)
        guild = fake.create_guild("Gregario Soak", fake.create_user("Olga"))
        await fake.start()
        print(
            f"soak: seed {seed}, {plan.kills} kills over {kill_seconds:.0f} s at {','.join(moments)}, "
            f"{plan.races} races, {args.database}{', faults' if plan.faults else ''}, pace {plan.pace}; "
            f"logs in {folder}",
            flush=True,
        )
        try:
            report = await soak(fake, guild, folder, url, plan)
        finally:
            await fake.stop()
            if name:
                await _admin(server, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        print(report.summary(), flush=True)
        if args.verbose:
            print(report.kill_log(), flush=True)
        return 0 if report.ok else 1


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--kills", type=int, default=100, help="SIGKILLs to deal (default 100)")
    parser.add_argument(
        "--races",
        type=int,
        default=12,
        help="races at least, the four systems in turn; more open while kills are owed (default 12)",
    )
    parser.add_argument("--together", type=int, default=4, help="races at once; the next opens as one ends")
    parser.add_argument("--database", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--faults", action="store_true", help="mix in Discord's faults")
    parser.add_argument("--moments", default=",".join(MOMENTS), help=f"kill moments (default {','.join(MOMENTS)})")
    parser.add_argument("--pace", default="30s", help="the races' pace (default 30s; 30s is the shortest)")
    parser.add_argument("--seed", type=int, default=None, help="replay a run's choices")
    parser.add_argument("--kill-seconds", type=float, default=None, help="time for the kills (default 14 s a kill)")
    parser.add_argument("--finish-seconds", type=float, default=300.0, help="time the races have to finish after")
    parser.add_argument("--verbose", action="store_true", help="list every kill, when and where")
    parser.add_argument("--keep", default="", help="a folder to keep the database and the logs in")
    return parser.parse_args()


if __name__ == "__main__":
    sys.exit(asyncio.run(main(_arguments())))
