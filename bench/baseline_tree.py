"""A baseline commit checked out beside this tree, and children that import one tree or the other.

The speed benches measure this tree and a baseline commit in the same run: the baseline is checked out in a
temporary ``git worktree`` (removed afterwards), and each side runs in its own Python process whose import
path starts with that side's root, so ``import engine`` finds that side's engine. The child runs the bench
file of *this* tree (the baseline may not have it) with ``--child --tree ROOT``; :func:`child_tree` puts
``ROOT`` first on the path before anything imports the engine.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent.parent
"""This tree's root (the parent of ``bench/``)."""

DEFAULT_BASELINE = "da5f9a8"
"""The commit issue 28 measured."""


@contextlib.contextmanager
def baseline_worktree(commit: str) -> Iterator[Path]:
    """``commit`` checked out (detached) in a temporary git worktree, removed on exit."""
    scratch = Path(tempfile.mkdtemp(prefix="gregario-baseline-"))
    where = scratch / "tree"
    subprocess.run(
        ["git", "-C", str(HERE), "worktree", "add", "--detach", "--quiet", str(where), commit],
        check=True,
    )
    try:
        yield where
    finally:
        subprocess.run(["git", "-C", str(HERE), "worktree", "remove", "--force", str(where)], check=False)
        with contextlib.suppress(OSError):
            scratch.rmdir()


def resolve_commit(commit: str) -> str:
    """The full hash of ``commit`` (so a cache keyed by it never mixes two commits)."""
    out = subprocess.run(["git", "-C", str(HERE), "rev-parse", commit], check=True, capture_output=True, text=True)
    return out.stdout.strip()


def child_tree(argv: list[str]) -> None:
    """In a child process: put the tree named by ``--tree ROOT`` first on the import path."""
    if "--tree" in argv:
        root = argv[argv.index("--tree") + 1]
        sys.path.insert(0, root)
        os.chdir(root)


def run_child(script: Path, tree: Path, args: list[str], stdin: Any = None) -> Any:
    """Run ``script --child --tree TREE ARGS`` in a fresh interpreter and return the JSON it prints last.

    The child's stderr passes through (progress lines); its stdout's last line is the answer."""
    env = dict(os.environ, PYTHONHASHSEED="0")
    env.pop("PYTHONPATH", None)
    proc = subprocess.run(
        [sys.executable, str(script), "--child", "--tree", str(tree), *args],
        check=True,
        stdout=subprocess.PIPE,
        input=None if stdin is None else json.dumps(stdin),
        text=True,
        env=env,
        cwd=str(tree),
    )
    return json.loads(proc.stdout.strip().splitlines()[-1])


def percentile(sorted_values: list[float], q: float) -> float:
    """The ``q`` quantile (0-1) of sorted values, nearest rank."""
    if not sorted_values:
        return float("nan")
    rank = max(0, min(len(sorted_values) - 1, math.ceil(q * len(sorted_values)) - 1))
    return sorted_values[rank]
