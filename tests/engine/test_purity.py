"""The engine stays pure: importing all of it pulls in no Discord, database or bot code."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

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


def test_the_engine_reads_no_clock_draws_no_unseeded_chance_and_does_no_io() -> None:
    """No engine module imports random, time, os, socket or asyncio, or asks datetime for the time now."""
    import ast
    from pathlib import Path

    engine_dir = Path(__file__).resolve().parents[2] / "engine"
    banned_modules = {"random", "time", "os", "socket", "asyncio", "subprocess", "secrets", "urllib"}
    banned_calls = {"now", "utcnow", "today"}
    found: list[str] = []
    for path in sorted(engine_dir.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name.split(".")[0] for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module.split(".")[0]]
            else:
                names = []
            found += [f"{path.name}: import {n}" for n in names if n in banned_modules]
            if isinstance(node, ast.Attribute) and node.attr in banned_calls:
                found.append(f"{path.name}:{node.lineno}: .{node.attr}")
    assert found == []


def test_splitmix64_lives_only_in_the_generator_module() -> None:
    """Its constants appear in engine/rng.py alone; the shortcuts there equal the long way round."""
    from engine.rng import Rng

    root = Path(__file__).resolve().parents[2] / "engine"
    for path in root.rglob("*.py"):
        text = path.read_text(encoding="utf-8").upper()
        if path.name != "rng.py":
            assert "9E3779B97F4A7C15" not in text and "BF58476D1CE4E5B9" not in text, path
    for state, salt in [(0, 1), (12345, 7), (2**64 - 1, 3)]:
        assert Rng.split(state, salt).state == Rng.from_seed(state, salt).state
        drawn = Rng(state)
        drawn.next64()
        assert Rng.after_draw(state) == drawn.state


def test_the_packed_shuffle_draws_what_next64_draws() -> None:
    """``Rng.shuffle_packed`` writes ``next64`` out: the same permutation and the same state after it as the
    shuffle drawing through ``next64`` (one draw for several swaps while at least ``refill`` is left)."""
    from engine.rng import Rng

    def long_way(items: list[int], rng: Rng, refill: int) -> None:
        x = 0
        for k in range(len(items), 1, -1):
            if x < refill:
                x = rng.next64()
            x, j = divmod(x, k)
            items[k - 1], items[j] = items[j], items[k - 1]

    for seed in range(200):
        for size in (0, 1, 2, 9, 15, 17, 40):
            for refill in (1 << 40, 1 << 8):
                mine, theirs = list(range(size)), list(range(size))
                a, b = Rng.from_seed(seed, size), Rng.from_seed(seed, size)
                a.shuffle_packed(mine, refill)
                long_way(theirs, b, refill)
                assert (mine, a.state) == (theirs, b.state)
