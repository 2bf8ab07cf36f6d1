"""The CI drift check of docs/rules/ (``.ci/check_rules_copy.py``) passes on a faithful copy and fails, with a
diff, on each kind of drift. The real comparison against ../shared/rules/ runs in CI only; here both sides
are made from docs/rules/ itself, so the suite needs nothing outside the repository."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / ".ci" / "check_rules_copy.py"


def _module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("check_rules_copy", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def sides(tmp_path: Path) -> tuple[Path, Path]:
    """("shared", docs): two identical copies of docs/rules/."""
    shared, docs = tmp_path / "shared", tmp_path / "docs"
    shutil.copytree(ROOT / "docs" / "rules", shared)
    shutil.copytree(ROOT / "docs" / "rules", docs)
    return shared, docs


def _run(shared: Path, docs: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), "--shared", str(shared), "--docs", str(docs)],
        capture_output=True,
        text=True,
        timeout=60,
    )


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_a_faithful_copy_passes(sides: tuple[Path, Path]) -> None:
    """Same decisions, sections, examples and catalogue: exit status 0 and the decision counts."""
    done = _run(*sides)
    assert done.returncode == 0, done.stdout
    assert "flamme-rouge.md: 27 decisions" in done.stdout


@pytest.mark.parametrize(
    ("page", "old", "new", "what", "added"),
    [
        ("flamme-rouge.md", "| D4 | A move past", "| D4 | A move beyond", "decision table", "A move beyond"),
        ("tabella-del-destino.md", "### 6.8 Negative", "### 6.11 Negative", "numbered sections", "+6.11"),
        ("mind-cycling.md", "- **Bottle pass (D12).**", "- **Bottle swap (D12).**", "worked examples", "Bottle swap"),
        (
            "flamme-rouge.md",
            "`abcgiDHqntmKOLrepJsfu` | 78 |",
            "`abcgiDHqntmKOLrepJsfu` | 79 |",
            "stage catalogue",
            "| 79 |",
        ),
        ("wyscig-kolarski.md", "| **4** |", "| **5** |", "tables of §2.2", "| **5** |"),
    ],
)
def test_each_kind_of_drift_fails_with_a_diff(
    sides: tuple[Path, Path], page: str, old: str, new: str, what: str, added: str
) -> None:
    """A changed decision, section number, example name, stage row or carried table: exit 1, the diff shown."""
    shared, docs = sides
    _edit(docs / page, old, new)
    done = _run(shared, docs)
    assert done.returncode == 1
    assert f"docs/rules/{page} ({what}" in done.stdout
    assert any(line.startswith("+") and added in line for line in done.stdout.splitlines()), done.stdout


def test_missing_shared_rules_fail_loudly(tmp_path: Path, sides: tuple[Path, Path]) -> None:
    """CI without ../shared/rules/ is a broken CI, not a pass: exit status 2."""
    done = _run(tmp_path / "nowhere", sides[1])
    assert done.returncode == 2 and "cannot read" in done.stderr


def test_the_example_names_are_read_as_the_tests_cite_them() -> None:
    """Bold item names become X2, E6, Solo scoring; items without a name are "-"."""
    names = _module().example_name
    assert names("- **X2 — end of the track (D4).** Stage ending") == "X2"
    assert names("- **E6 (immediate clamp, D14; Scia, D25).** Before") == "E6"
    assert names("- **Solo scoring**: game 1") == "Solo scoring"
    assert names("- **47, 46 or 45** stay in the peloton") == "-"
    assert names("- Peloton Attack! → the front rider moves 2") == "-"
