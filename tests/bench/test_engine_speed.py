"""bench/engine_speed.py and bench/identical.py: bad arguments are named in one line, before any race."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, *args], cwd=ROOT, capture_output=True, text=True, timeout=120)


def test_an_unknown_configuration_is_named_with_the_choices() -> None:
    """Exit status 2, no traceback, the configurations listed."""
    done = _run("bench/engine_speed.py", "--only", "nowhere")
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert "fr.first" in done.stderr and "nowhere" in done.stderr


def test_a_path_that_is_no_flamme_pourpre_checkout_is_refused(tmp_path: Path) -> None:
    """--pourpre must point at a checkout (its jeu/race.py): said in one line, nothing measured."""
    done = _run("bench/engine_speed.py", "--only", "fr.first", "--pourpre", str(tmp_path))
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert "not a flamme-pourpre checkout" in done.stderr
    assert done.stdout == ""


def test_the_worker_plays_a_configuration_and_says_what_it_played() -> None:
    """One command line in, one JSON line out: CPU time, races, steps and rounds of the races played."""
    done = subprocess.run(
        [sys.executable, "-I", "bench/engine_speed.py", "--worker", str(ROOT)],
        cwd=ROOT,
        input="play fr.first full 2 1\nplay fr.first rollout 2 1\nhas_rollout\n",
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    full, rollout, has = (json.loads(line) for line in done.stdout.splitlines())
    assert full["races"] == rollout["races"] == 2
    assert full["steps"] == rollout["steps"] > 20  # two races of about twenty rounds, the same races
    assert full["rounds"] == rollout["rounds"] == full["steps"]
    assert full["cpu"] > 0 and has == {"has": 1.0}


def test_identical_rollouts_compare_quiet_rollouts_with_the_full_driver() -> None:
    """``bench/identical.py --rollouts``: each setting's quiet rollouts end as the full driver's races (here one
    seeded race of every Flamme Rouge preset and variant), exit status 0."""
    done = _run("bench/identical.py", "--rollouts", "--only", "flamme_rouge", "--races", "1")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "DIFFERENT" not in done.stdout
    assert "settings: rollouts as the full driver" in done.stdout
