"""bench/load.py end to end at its smallest: a real `gregario run`, the fake in the benchmark's process,
four races of the four systems with people ordering; it prints its figures and the bot meets no 429."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_four_races_are_measured_and_every_figure_is_printed() -> None:
    done = subprocess.run(
        [
            sys.executable,
            "bench/load.py",
            "--races",
            "4",
            "--ordering",
            "1",
            "--minutes",
            "0.3",
            "--database",
            "sqlite",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    out = done.stdout
    assert "Traceback" not in out + done.stderr
    opened = re.search(r"opened (\d+) races \(no failures\)", out)
    assert opened and int(opened.group(1)) >= 4, out
    steps = re.search(r"window \d+ s: (\d+) steps resolved", out)
    assert steps and int(steps.group(1)) > 0, out
    for system in ("flamme_rouge", "tabella", "wyscig", "mind_cycling"):
        assert re.search(rf"^  {system} .*\d", out, re.MULTILINE), f"no latency line for {system}: {out}"
    assert "429s: 0 (0 global, 0 channel)" in out
    for figure in ("requests:", "bot memory:", "bot CPU:", "click -> its answer", "bot loop stalls"):
        assert figure in out
