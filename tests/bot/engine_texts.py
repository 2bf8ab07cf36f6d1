"""The engine's English templates by message key, read from its source, so a catalogue's engine entries can be
held to the same placeholders as the English they translate.

The engine writes each message's English where it builds it (``msg``, ``cached_msg``, ``event``, ``plural``,
``OrderError.of`` and the systems' helpers around them, called with the key and the text first, or a
``(key, text)`` pair in a table of words); this walks the source for those literals.
A key written only as an already-formatted text (``message_of`` with an f-string) has no template here.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

from engine import race
from engine.keys import message_keys

ENGINE = Path(race.__file__).resolve().parent
Template = str | dict[str, str]


def _text(node: ast.AST | None) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _name(func: ast.AST) -> str:
    if isinstance(func, ast.Attribute):
        return func.attr
    return func.id if isinstance(func, ast.Name) else ""


@cache
def english_templates() -> dict[str, Template]:
    """Each engine key whose English template is a literal in the source: a template, or ``one``/``other``."""
    keys = message_keys()
    found: dict[str, Template] = {}
    for path in sorted(ENGINE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                args = node.args
                name = _name(node.func)
                if name not in {"event", "plural"} and len(args) >= 2:
                    key, text = _text(args[0]), _text(args[1])
                    if key in keys and text is not None:
                        found.setdefault(key, text)
                elif name == "event" and len(args) >= 2:
                    kind, text = _text(args[0]), _text(args[1])
                    key = _text(args[2]) if len(args) >= 3 else kind
                    if key in keys and text is not None:
                        found.setdefault(key, text)
                elif name == "plural" and len(args) >= 4:
                    key, one, other = _text(args[0]), _text(args[2]), _text(args[3])
                    if key in keys and one is not None and other is not None:
                        found.setdefault(key, {"one": one, "other": other})
            elif isinstance(node, ast.Tuple) and len(node.elts) == 2:
                key, text = _text(node.elts[0]), _text(node.elts[1])
                if key in keys and text is not None:
                    found.setdefault(key, text)
    return found
