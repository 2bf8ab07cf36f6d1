"""bench/flamme_rouge_speed.py: without the `bench` extra, --compare says which extra to install."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

HIDE_THE_PACKAGE = """
import runpy, sys
sys.modules["flamme_rouge"] = None  # as if the bench extra were not installed
sys.argv = ["bench/flamme_rouge_speed.py", "--compare", "-n", "1"]
runpy.run_path("bench/flamme_rouge_speed.py", run_name="__main__")
"""


def test_compare_without_the_bench_extra_names_the_extra() -> None:
    """Exit status 2, one line naming the `bench` extra, no traceback, and no race run first."""
    done = subprocess.run(
        [sys.executable, "-c", HIDE_THE_PACKAGE], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert "bench" in done.stderr and "pip install" in done.stderr
    assert done.stdout == ""
