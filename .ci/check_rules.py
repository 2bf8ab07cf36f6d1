#!/usr/bin/env python3
"""CI: check that docs/rules/, the project's authority on the rules, is whole and that every citation of it
in the project resolves.

docs/rules/ holds one page per rule system; the engine, its tests and docs/rulings.md cite its decisions by
D-number (``D27``) and its sections by number (``§9.4``). For each page this checks:

- the decision table ("Decisions at a glance"): rows D1, D2, ... with no gap or repeat, each naming in its
  last column sections the page has;
- the numbered sections (the numbers of the ``##``/``###`` headings): each once;
- the worked examples: a worked-examples section with at least one sub-section of examples;
- the tables of facts (the stage catalogue of Flamme Rouge §3.3 and the decks, tiles, components and tables
  listed in ``CARRIED``): each of those sections still holds its tables;
- the citations: every ``D<n>`` and ``§<n>`` in the system's engine package (``engine/<package>/``), its tests
  (``tests/engine/<package>/``) and its rulings in docs/rulings.md (``R-FR-*``, ``R-TDD-*``, ``R-WK-*``,
  ``R-MC-*``) names a decision or a section of its page.

Standard library only, so it runs before any virtual environment exists. Exit status 0 when everything holds,
1 with one line per problem. Usage: ``python3 .ci/check_rules.py [--root DIR]``.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGES = {
    "flamme-rouge.md": ("flamme_rouge", "FR"),
    "tabella-del-destino.md": ("tabella", "TDD"),
    "wyscig-kolarski.md": ("wyscig", "WK"),
    "mind-cycling.md": ("mind_cycling", "MC"),
}
"""Each rule-system page of docs/rules/: the engine package that implements it, the prefix of its rulings."""

CARRIED = {
    "flamme-rouge.md": ["3.1", "3.2", "3.3"],
    "tabella-del-destino.md": ["3", "4.3", "5.2", "6", "10.2"],
    "wyscig-kolarski.md": ["2.2", "5.1", "5.2"],
    "mind-cycling.md": ["3.4"],
}
"""Sections whose tables and code blocks are facts carried over as they are (Flamme Rouge §3.3 = the stage
catalogue)."""

_HEADING = re.compile(r"^(#{2,3}) (\d+(?:\.\d+)?)\.? ", re.M)
_DECISION_ROW = re.compile(r"^\|\s*D\d+\s*\|.*$", re.M)
_NAMED_ITEM = re.compile(r"^- \*\*(.+?)\*\*(.*)")
_DECISION_CITED = re.compile(r"(?<![\w-])D(\d+)\b")
_SECTION_CITED = re.compile(r"§\s?(\d+(?:\.\d+)?)")
_RULING = re.compile(r"^- \*\*R-([A-Z]+)-\d+\*\* \(([^)]*)\)", re.M)


def decision_number(row: str) -> int:
    """The D-number of a decision table's row."""
    return int(row.split("|")[1].strip()[1:])


def decisions(text: str) -> list[str]:
    """The rows of the decision table, whitespace-normalised, in D-number order."""
    return sorted((" ".join(row.split()) for row in _DECISION_ROW.findall(text)), key=decision_number)


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


def cited(text: str) -> tuple[set[int], set[str]]:
    """The D-numbers and section numbers ``text`` cites."""
    return {int(n) for n in _DECISION_CITED.findall(text)}, set(_SECTION_CITED.findall(text))


def page_problems(name: str, page: str) -> list[str]:
    """What is wrong with one page on its own: its decision table, sections, worked examples, carried tables."""
    problems: list[str] = []
    numbers = [decision_number(row) for row in decisions(page)]
    if not numbers:
        problems.append(f"docs/rules/{name}: no decision table")
    elif numbers != list(range(1, len(numbers) + 1)):
        problems.append(f"docs/rules/{name}: the decisions are not D1 to D{len(numbers)} once each: {numbers}")
    found = sections(page)
    repeated = sorted({n for n in found if found.count(n) > 1})
    if repeated:
        problems.append(f"docs/rules/{name}: sections numbered twice: {', '.join(repeated)}")
    known = set(found)
    for row in decisions(page):
        where = row.rstrip("|").rsplit("|", 1)[-1]
        for number in re.findall(r"\d+(?:\.\d+)?", where):
            if number not in known:
                problems.append(f"docs/rules/{name}: {row.split('|')[1].strip()} names §{number}, which it lacks")
    examples = worked_examples(page)
    if examples in (["(no worked-examples section)"], []):
        problems.append(f"docs/rules/{name}: no worked examples")
    for number in CARRIED.get(name, []):
        if not carried_blocks(section_body(page, number)):
            problems.append(f"docs/rules/{name}: §{number} lost its tables of facts")
    return problems


def citation_problems(root: Path, name: str, page: str, rulings: str) -> list[str]:
    """Every citation of the page's decisions and sections, in its system's code, tests and rulings, that the
    page does not have."""
    package, prefix = PAGES[name]
    decided = {decision_number(row) for row in decisions(page)}
    known = set(sections(page))
    sources = [
        (str(path.relative_to(root)), path.read_text(encoding="utf-8"))
        for folder in (root / "engine" / package, root / "tests" / "engine" / package)
        for path in sorted(folder.rglob("*.py"))
    ]
    sources += [(f"docs/rulings.md R-{prefix}", body) for system, body in _RULING.findall(rulings) if system == prefix]
    problems: list[str] = []
    for where, text in sources:
        numbers, cited_sections = cited(text)
        problems += [f"{where} cites D{n}, which docs/rules/{name} lacks" for n in sorted(numbers - decided)]
        problems += [f"{where} cites §{n}, which docs/rules/{name} lacks" for n in sorted(cited_sections - known)]
    return problems


def check(root: Path) -> list[str]:
    """Every problem with docs/rules/ under ``root`` and the citations of it (empty when all holds)."""
    docs = root / "docs" / "rules"
    rulings_path = root / "docs" / "rulings.md"
    rulings = rulings_path.read_text(encoding="utf-8") if rulings_path.exists() else ""
    problems: list[str] = []
    for name in PAGES:
        path = docs / name
        if not path.exists():
            problems.append(f"docs/rules/{name} is missing")
            continue
        page = path.read_text(encoding="utf-8")
        problems += page_problems(name, page) + citation_problems(root, name, page, rulings)
    return problems


def main(argv: list[str] | None = None) -> int:
    """Run the check and report; see the module docstring for the exit status."""
    parser = argparse.ArgumentParser(description="Check docs/rules/ and every citation of it.")
    parser.add_argument("--root", type=Path, default=ROOT, help="the project's folder (default: this one)")
    args = parser.parse_args(argv)
    problems = check(args.root)
    if problems:
        print("docs/rules/ does not hold what the project cites:")
        print("\n".join(problems))
        return 1
    counts = ", ".join(
        f"{name}: {len(decisions((args.root / 'docs' / 'rules' / name).read_text(encoding='utf-8')))} decisions"
        for name in PAGES
    )
    print(f"docs/rules/ is whole and every citation resolves ({counts})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
