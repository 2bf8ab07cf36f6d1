"""The engine stays pure: importing all of it pulls in no Discord, database or bot code."""

from __future__ import annotations

import subprocess
import sys
import textwrap

FORBIDDEN = ("discord", "sqlmodel", "sqlalchemy", "aiosqlite", "bot")


def test_importing_every_engine_module_pulls_in_no_discord_database_or_bot_code() -> None:
    """Walk every module of ``engine`` in a fresh interpreter and list the forbidden ones loaded."""
    script = textwrap.dedent(
        f"""
        import importlib, pkgutil, sys
        import engine
        names = [m.name for m in pkgutil.walk_packages(engine.__path__, "engine.")]
        for name in names:
            importlib.import_module(name)
        bad = sorted(m for m in sys.modules if m.split(".")[0] in {FORBIDDEN!r})
        print(len(names))
        print(",".join(bad))
        """
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    count, bad = out.stdout.strip().split("\n") if "\n" in out.stdout.strip() else (out.stdout.strip(), "")
    assert int(count) >= 5
    assert bad == ""
