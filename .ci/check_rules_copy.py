#!/usr/bin/env python3
"""CI only: check that docs/rules/ still matches the maintainers' rules documents in ../shared/rules/.

The project carries its own rules reference (docs/rules/, one page per rule system) so that a clone stands
alone; the prose is the project's own, but the facts the tests rely on must not drift from the authoritative
documents. For each page this compares, with the document of the same name:

- the decision table: every row of "Decisions at a glance" (D-number, ruling, option and default, section);
- the numbered sections (the numbers of the ``##``/``###`` headings that the tests cite as §N.M);
- the worked examples: for each sub-section of the worked-examples section, its list of examples (the bold
  name that opens an item, such as ``X2``, ``E6`` or ``Solo scoring``; ``-`` for an unnamed item);
- the tables of facts carried over as they are: the stage catalogue (Flamme Rouge §3.3) and the decks,
  tiles, components and tables listed in ``CARRIED`` below.

Standard library only, so it runs before any virtual environment exists. Exit status 0 when everything
matches, 1 with a unified diff of every difference, 2 when ../shared/rules/ cannot be read (CI must have it).
Usage: ``python3 .ci/check_rules_copy.py [--shared DIR] [--docs DIR]``.
"""

from __future__ import annotations

import argparse
import difflib
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGES = ["flamme-rouge.md", "tabella-del-destino.md", "wyscig-kolarski.md", "mind-cycling.md"]
"""The rule-system pages; each has a document of the same name in ../shared/rules/."""

CARRIED = {
    "flamme-rouge.md": ["3.1", "3.2", "3.3"],
    "tabella-del-destino.md": ["3", "4.3", "5.2", "6", "10.2"],
    "wyscig-kolarski.md": ["2.2", "5.1", "5.2"],
    "mind-cycling.md": ["3.4"],
}
"""Sections whose tables and code blocks are carried over unchanged (Flamme Rouge §3.3 = the stage catalogue)."""

_HEADING = re.compile(r"^(#{2,3}) (\d+(?:\.\d+)?)\.? ", re.M)
_DECISION_ROW = re.compile(r"^\|\s*D\d+\s*\|.*$", re.M)
_NAMED_ITEM = re.compile(r"^- \*\*(.+?)\*\*(.*)")


def decisions(text: str) -> list[str]:
    """The rows of the decision table, whitespace-normalised, in D-number order."""
    rows = [" ".join(row.split()) for row in _DECISION_ROW.findall(text)]
    return sorted(rows, key=lambda row: int(re.match(r"\|\s*D(\d+)", row).group(1)))  # type: ignore[union-attr]


def sections(text: str) -> list[str]:
    """The numbers of the numbered headings, in order ("3", "3.1", ...)."""
    return [number for _level, number in _HEADING.findall(text)]


def section_body(text: str, number: str) -> str:
    """The text of section ``number`` up to the next heading of the same or a higher level (sub-sections of a
    ``##`` section excluded, so each table is compared once, under its own number)."""
    lines = text.splitlines()
    out: list[str] = []
    inside = False
    for line in lines:
        heading = _HEADING.match(line + " ") or re.match(r"^#{1,3} ", line)
        if heading:
            if inside:
                break
            match = _HEADING.match(line + " ")
            inside = bool(match and match.group(2) == number)
            continue
        if inside:
            out.append(line)
    return "\n".join(out)


def carried_blocks(body: str) -> list[str]:
    """The tables (rows, indentation removed) and fenced code blocks of a section, in order."""
    blocks: list[list[str]] = []
    current: list[str] = []
    fenced = False
    for line in body.splitlines():
        if line.strip().startswith("```"):
            current.append(line.strip())
            if fenced:
                blocks.append(current)
                current = []
            fenced = not fenced
        elif fenced:
            current.append(line)
        elif line.lstrip().startswith("|"):
            current.append(line.strip())
        elif current:
            blocks.append(current)
            current = []
    if current:
        blocks.append(current)
    return ["\n".join(block) for block in blocks]


def example_name(item: str) -> str:
    """The name of a worked example from its opening line: the bold name (cut at " — " or " (" and without a
    final full stop) when the bold text ends with "." or is followed by ":", " (" or " —"; otherwise "-"."""
    match = _NAMED_ITEM.match(item)
    if not match:
        return "-"
    bold, rest = match.group(1), match.group(2)
    if not (bold.endswith(".") or rest.startswith((":", " (", " —"))):
        return "-"
    return re.split(r" — | \(", bold.rstrip("."), maxsplit=1)[0].strip()


def worked_examples(text: str) -> list[str]:
    """For each sub-section of "Worked examples": its number and the names of its items, one line each."""
    match = re.search(r"^## (\d+)\. Worked examples", text, re.M)
    if not match:
        return ["(no worked-examples section)"]
    part = text[match.start() :]
    out: list[str] = []
    for sub in re.split(r"^(?=### )", part, flags=re.M)[1:]:
        number = sub.split()[1]
        items = [
            example_name(line) if line.startswith("- ") else "step"
            for line in sub.splitlines()
            if line.startswith("- ") or re.match(r"^\d+\. ", line)
        ]
        out.append(f"{number}: {', '.join(items) if items else '(prose)'}")
    return out


def compare(name: str, what: str, expected: list[str], actual: list[str]) -> list[str]:
    """A unified diff (shared rules -> docs/rules) of ``what`` in page ``name``, or nothing when equal."""
    if expected == actual:
        return []
    diff = difflib.unified_diff(
        expected, actual, f"../shared/rules/{name} ({what})", f"docs/rules/{name} ({what})", lineterm="", n=1
    )
    return list(diff)


def check(shared: Path, docs: Path) -> list[str]:
    """Every difference between the two directories' pages, as diff lines (empty when they match)."""
    problems: list[str] = []
    for name in PAGES:
        original = (shared / name).read_text(encoding="utf-8")
        page_path = docs / name
        if not page_path.exists():
            problems.append(f"docs/rules/{name} is missing")
            continue
        page = page_path.read_text(encoding="utf-8")
        problems += compare(name, "decision table", decisions(original), decisions(page))
        problems += compare(name, "numbered sections", sections(original), sections(page))
        problems += compare(name, "worked examples", worked_examples(original), worked_examples(page))
        for number in CARRIED.get(name, []):
            what = "stage catalogue §3.3" if (name, number) == ("flamme-rouge.md", "3.3") else f"tables of §{number}"
            expected = "\n\n".join(carried_blocks(section_body(original, number))).splitlines()
            actual = "\n\n".join(carried_blocks(section_body(page, number))).splitlines()
            if not expected:
                problems.append(f"../shared/rules/{name} has no table in §{number} any more: update CARRIED")
            problems += compare(name, what, expected, actual)
    return problems


def main(argv: list[str] | None = None) -> int:
    """Run the check and report; see the module docstring for the exit status."""
    parser = argparse.ArgumentParser(description="Check docs/rules/ against ../shared/rules/.")
    parser.add_argument("--shared", type=Path, default=ROOT.parent / "shared" / "rules")
    parser.add_argument("--docs", type=Path, default=ROOT / "docs" / "rules")
    args = parser.parse_args(argv)
    if not all((args.shared / name).is_file() for name in PAGES):
        print(f"check_rules_copy: cannot read the rules documents in {args.shared}", file=sys.stderr)
        return 2
    problems = check(args.shared, args.docs)
    if problems:
        print("docs/rules/ has drifted from ../shared/rules/ (- = the shared rules, + = docs/rules/):")
        print("\n".join(problems))
        print("Bring docs/rules/ back in line (decisions, section numbers, worked examples, carried tables).")
        return 1
    counts = ", ".join(
        f"{name}: {len(decisions((args.docs / name).read_text(encoding='utf-8')))} decisions" for name in PAGES
    )
    print(f"docs/rules/ matches ../shared/rules/ ({counts})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
