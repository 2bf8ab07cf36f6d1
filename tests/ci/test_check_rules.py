"""The CI check of docs/rules/ (``.ci/check_rules.py``) passes on the project as it is and fails, one line a
problem, when a page loses a decision, a section, its worked examples or a table of facts, or when the code,
the tests or the rulings cite what the page does not have. Each case edits a copy of the project's own
docs/rules/, rulings and one system's engine and tests."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / ".ci" / "check_rules.py"


def _module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("check_rules", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A copy of what the check reads: docs/rules/, docs/rulings.md, each system's engine and tests."""
    shutil.copytree(ROOT / "docs" / "rules", tmp_path / "docs" / "rules")
    shutil.copy(ROOT / "docs" / "rulings.md", tmp_path / "docs" / "rulings.md")
    for package in ("flamme_rouge", "tabella", "wyscig", "mind_cycling"):
        for part in ("engine", "tests/engine"):
            shutil.copytree(ROOT / part / package, tmp_path / part / package, ignore=shutil.ignore_patterns("*.pyc"))
    return tmp_path


def _run(root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), "--root", str(root)], capture_output=True, text=True, timeout=60
    )


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_the_project_as_it_is_passes(project: Path) -> None:
    """Every page whole, every citation resolved: exit status 0 and the decision counts."""
    done = _run(project)
    assert done.returncode == 0, done.stdout
    assert "flamme-rouge.md: 27 decisions" in done.stdout


@pytest.mark.parametrize(
    ("path", "old", "new", "said"),
    [
        ("docs/rules/flamme-rouge.md", "| D4 |", "| D40 |", "not D1 to D27 once each"),
        ("docs/rules/tabella-del-destino.md", "### 6.8 Negative", "### 6.7 Negative", "sections numbered twice: 6.7"),
        ("docs/rules/flamme-rouge.md", "| fixed | 6.6 |", "| fixed | 66.6 |", "D1 names §66.6"),
        ("docs/rulings.md", "- **R-FR-3** (§9.4; completes D27)", "- **R-FR-3** (§9.4; completes D72)", "cites D72"),
        ("engine/wyscig/ruleset.py", '"""', '"""See §42.1 of the rules. ', "cites §42.1"),
    ],
)
def test_each_kind_of_problem_fails_in_one_line(project: Path, path: str, old: str, new: str, said: str) -> None:
    """A decision renumbered, a section numbered twice, a decision naming a section that is not there, a ruling
    or the code citing what the page lacks: exit 1, the problem said."""
    _edit(project / path, old, new)
    done = _run(project)
    assert done.returncode == 1, done.stdout
    assert any(said in line for line in done.stdout.splitlines()), done.stdout


def test_the_stage_catalogue_without_its_table_is_a_problem(project: Path) -> None:
    """Flamme Rouge §3.3 with its table's rows gone (the stage catalogue the presets come from): exit 1."""
    page = project / "docs" / "rules" / "flamme-rouge.md"
    head, rest = page.read_text(encoding="utf-8").split("### 3.3", 1)
    body, tail = rest.split("\n### ", 1)
    kept = "\n".join(line for line in body.splitlines() if not line.lstrip().startswith("|"))
    page.write_text(f"{head}### 3.3{kept}\n### {tail}", encoding="utf-8")
    done = _run(project)
    assert done.returncode == 1 and "flamme-rouge.md: §3.3 lost its tables of facts" in done.stdout, done.stdout


def test_a_missing_page_is_a_problem(project: Path) -> None:
    """A rule system without its page: exit 1, the page named."""
    (project / "docs" / "rules" / "mind-cycling.md").unlink()
    done = _run(project)
    assert done.returncode == 1 and "docs/rules/mind-cycling.md is missing" in done.stdout


def test_the_example_names_are_read_as_the_tests_cite_them() -> None:
    """Bold item names become X2, E6, Solo scoring; items without a name are "-"."""
    names = _module().example_name
    assert names("- **X2 — end of the track (D4).** Stage ending") == "X2"
    assert names("- **E6 (immediate clamp, D14; Scia, D25).** Before") == "E6"
    assert names("- **Solo scoring**: game 1") == "Solo scoring"
    assert names("- **47, 46 or 45** stay in the peloton") == "-"
    assert names("- Peloton Attack! → the front rider moves 2") == "-"
