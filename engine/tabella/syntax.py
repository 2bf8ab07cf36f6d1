"""The text syntax of §8.3: plans and round orders as forum players write them.

Two forms are read. The labelled form (``start: A  m1: 3R ... specials: V@m3 bibitone``) and the
compact form (``A · 3R 2S 1D 5R 4R · 4 1 2 · V@m3 bibitone, G@m2 @Luca down``). Separators are new
lines, ``;``, ``,``, ``·``, ``|`` and white space; ``@Name`` targets match the race's display names,
spaces included. The parser only gives the text its structure; :mod:`engine.tabella.orders` checks the
values, so a text order and a JSON order get the same messages.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from engine.messages import OrderError, cached_msg
from engine.ruleset import Order
from engine.tabella.state import ROUNDS
from engine.tabella.vocabulary import PUSH_DIRECTIONS, START_NAMES, OrderContext, part_name

SEPARATORS = frozenset(" \t\r\n;,·|")
LABELS = {
    "start": "start",
    "partenza": "start",
    "bibitone": "bibitone",
    "specials": "specials",
    "speciali": "specials",
    "moves": "moves",
    "mosse": "moves",
    "sprint": "sprint",
    "volata": "sprint",
    **{f"m{i}": f"m{i}" for i in range(1, 6)},
    **{f"s{i}": f"s{i}" for i in range(1, 4)},
}
LABEL_EXAMPLES = {"start": "A", "bibitone": "yes", "specials": "V@m3", "moves": "3R 2S 1D 5R 4R", "sprint": "4 1 2"}
LABEL_EXAMPLES.update({f"s{i}": "4" for i in range(1, 4)})
SINGLE_FIELDS = frozenset({"start", "bibitone", *(f"m{i}" for i in range(1, 6)), *(f"s{i}" for i in range(1, 4))})
_SPECIAL = re.compile(r"^(v2|b2|[vgjbxp])(?:@(.*))?$", re.I)
_MOVE_LIKE = re.compile(r"^-?\d+\s*[^\d\s]+$")
_NUMBER = re.compile(r"^-?\d+$")
DIRECTION_LETTERS = frozenset({"s", "d", "r"})
YES_NO = {word: True for word in ("yes", "si", "sì", "true")} | {word: False for word in ("no", "false")}
NO_SPECIALS = frozenset({"none", "nessuna", "nessuno", "niente", "-", "—"})


def _error(key: str, text: str, **params: Any) -> OrderError:
    return OrderError.of(key, text, **params)


def tokenize(text: str, names: list[str]) -> list[str]:
    """Split on the separators, keeping ``@Name With Spaces`` whole and splitting ``label:value``."""
    by_length = sorted({n for n in names if n}, key=len, reverse=True)
    tokens: list[str] = []
    i, n = 0, len(text)
    while i < n:
        if text[i] in SEPARATORS:
            i += 1
            continue
        buf: list[str] = []
        while i < n and text[i] not in SEPARATORS:
            if text[i] == "@" and (not buf or buf[-1] == "="):
                rest = text[i + 1 :]
                match = next(
                    (
                        name
                        for name in by_length
                        if rest[: len(name)].casefold() == name.casefold()
                        and (len(rest) == len(name) or rest[len(name)] in SEPARATORS)
                    ),
                    None,
                )
                if match is not None:
                    buf.append("@" + rest[: len(match)])
                    i += 1 + len(match)
                    continue
            buf.append(text[i])
            i += 1
        token = "".join(buf)
        head, colon, tail = token.partition(":")
        if colon and "@" not in head and "=" not in head:
            tokens.append(head + ":")
            if tail:
                tokens.append(tail)
        else:
            tokens.append(token)
    return _join_split_moves(tokens)


def _join_split_moves(tokens: list[str]) -> list[str]:
    """``3 R`` is the move ``3R``: a bare number followed by a lone direction letter is one token."""
    out: list[str] = []
    for token in tokens:
        if out and _NUMBER.match(out[-1]) and token.casefold() in DIRECTION_LETTERS:
            out[-1] += token
        else:
            out.append(token)
    return out


def _is_argument(token: str) -> bool:
    low = token.casefold()
    return (
        token.startswith("@")
        or low.startswith(("target=", "dir=", "to="))
        or low in PUSH_DIRECTIONS
        or low == "bibitone"
    )


def _attach(entry: dict[str, Any], token: str) -> None:
    low = token.casefold()
    if low == "bibitone":
        entry["bibitone"] = True
    elif low.startswith("dir="):
        _set_once(entry, "dir", token[4:])
    elif low in PUSH_DIRECTIONS:
        _set_once(entry, "dir", token)
    elif low.startswith("target="):
        _set_once(entry, "target", token[7:])
    elif low.startswith("to="):
        _set_once(entry, "target", token[3:])
    else:
        _set_once(entry, "target", token)


def _set_once(entry: dict[str, Any], key: str, value: str) -> None:
    """A special names one target and one direction: a second one is a mistake, not a correction."""
    if key in entry:
        where = f"{entry['code']}@{entry['round']}"
        first, second = (str(v).strip().lstrip("@").strip() for v in (entry[key], value))
        if key == "target":
            raise _error(
                "td.syntax.two_targets",
                "{where}: two targets ({first} and {second}); name one rider",
                where=where,
                first=first,
                second=second,
            )
        raise _error(
            "td.syntax.two_directions",
            "{where}: two directions ({first} and {second}); choose one",
            where=where,
            first=first,
            second=second,
        )
    entry[key] = value


class _Parser:
    """Walks the tokens once, filling the raw order field by field."""

    def __init__(self, ctx: OrderContext, compact: bool, field: str | None) -> None:
        self.ctx = ctx
        self.live = ctx.live_round
        self.compact = compact
        self.field = field
        self.out: dict[str, Any] = {}
        self.moves: list[str] = []
        self.sprint: list[str] = []
        self.specials: list[dict[str, Any]] = []
        self.entry: dict[str, Any] | None = None
        self.last = "the start of the message"
        self.bare_bibitone = False

    # The compact plan walks start -> moves -> sprint -> specials by itself; a compact live order
    # walks the round's value -> specials.
    def _advance(self) -> None:
        if not self.compact:
            return
        if self.live is not None:
            if ROUNDS[self.live] in self.out:
                self.field = "specials"
        elif self.field == "start" and "start" in self.out:
            self.field = "moves"
        elif self.field == "moves" and len(self.moves) == 5:
            self.field = "sprint"
        elif self.field == "sprint" and len(self.sprint) == 3:
            self.field = "specials"

    def feed(self, token: str) -> None:
        low = token.casefold()
        after_bibitone, self.bare_bibitone = self.bare_bibitone, False
        if after_bibitone and low in YES_NO:
            self.out["bibitone"] = YES_NO[low]  # ``bibitone no``
            return
        if low.endswith(":") and low[:-1] in LABELS:
            self.field = LABELS[low[:-1]]
            self.entry = None
            self.last = token
            return
        if self.entry is not None and self.entry["round"] == "" and low in ROUNDS:
            self.entry["round"] = low  # ``V@ m3``: the round written after a space
            return
        if low in LABELS and LABELS[low] != "bibitone":
            raise _error(
                "td.syntax.label_without_colon",
                "write {label}: with a colon before its value, like {label}: {example}",
                label=low,
                example=LABEL_EXAMPLES.get(LABELS[low], "3R"),
            )
        field = self.field
        if field in SINGLE_FIELDS and field in self.out and (not self.compact or self.live is None):
            raise self._twice(field, token)
        if self.compact and self.live is not None and field == "specials" and self.entry is None:
            label = ROUNDS[self.live]
            if (_MOVE_LIKE.match(token) and label.startswith("m")) or (_NUMBER.match(token) and label.startswith("s")):
                raise self._twice(label, token)
        if self.compact and self.live is None and field == "specials" and not self.specials and _NUMBER.match(token):
            raise _error("td.syntax.many_sprints", "the plan has more than 3 sprint values; it needs 3, like 4 1 2")
        if field in SINGLE_FIELDS and field not in self.out:
            self.out[field] = token
            self.last = f"{field}: {token}"
            self.field = None if not self.compact else field
            self._advance()
            return
        if field == "moves" and len(self.moves) < 5 and (_MOVE_LIKE.match(token) or not _SPECIAL.match(token)):
            if _NUMBER.match(token) and self.moves and self.compact:
                # the sprint values started early: the route part is short
                raise _error(
                    "td.syntax.few_moves",
                    "the plan has {count} route moves; it needs 5, like 3R 2S 1D 5R 4R",
                    count=len(self.moves),
                )
            if not _MOVE_LIKE.match(token):
                raise _error(
                    "td.syntax.bad_move",
                    "{where}: write an effort 1 to 5 and a direction S, D or R, like 3R; you wrote {value}",
                    where=part_name(f"m{len(self.moves) + 1}"),
                    value=token,
                )
            self.moves.append(token)
            self.last = token
            self._advance()
            return
        if field == "sprint" and len(self.sprint) < 3 and not _SPECIAL.match(token):
            if not _NUMBER.match(token):
                five = _MOVE_LIKE.match(token) and self.compact
                extra = cached_msg("td.syntax.five_moves", " (a plan has exactly 5 route moves)") if five else ""
                raise _error(
                    "td.syntax.bad_intensity",
                    "{where}: intensity must be a whole number 0 or more, you wrote {value}{extra}",
                    where=part_name(f"s{len(self.sprint) + 1}"),
                    value=token,
                    extra=extra,
                )
            self.sprint.append(token)
            self.last = token
            self._advance()
            return
        if field == "specials" and self.entry is None and not self.specials and low in NO_SPECIALS:
            return  # ``specials: none``
        if self.entry is not None and _is_argument(token):
            _attach(self.entry, token)
            return
        if (
            self.entry is not None
            and self.entry["code"] in {"G", "J", "B", "B2"}
            and "target" not in self.entry
            and low in {name.casefold() for name in self.ctx.names.values()}
        ):
            self.entry["target"] = token  # a target written without its @
            return
        special = _SPECIAL.match(token)
        if special:
            code = special.group(1).upper()
            label = special.group(2)
            if label is None and self.live is None:
                raise _error(
                    "td.syntax.special_round",
                    "{code}: say in which round, like {code}@m3 (start, m1-m5, s1-s3)",
                    code=code,
                )
            self.entry = {"code": code, "round": label if label is not None else ROUNDS[self.live or 0]}
            self.specials.append(self.entry)
            self.last = token
            return
        if low == "bibitone":
            self.out["bibitone"] = True
            self.bare_bibitone = True
            return
        if _is_argument(token):
            raise _error(
                "td.syntax.stray_argument",
                "{value} must follow the special it belongs to (like G@m2 @Luca down)",
                value=token,
            )
        raise _error("td.syntax.unexpected", "I don't understand {value} (after {after})", value=token, after=self.last)

    def _twice(self, field: str, token: str) -> OrderError:
        return _error(
            "td.syntax.twice",
            "{where} is written twice (first {first}, then {second}); write it once",
            where=part_name(field) if field in ROUNDS else field,
            first=self.out[field],
            second=token,
        )

    def finish(self) -> Order:
        if self.moves:
            if len(self.moves) < 5 and self.compact:
                raise _error(
                    "td.syntax.few_moves",
                    "the plan has {count} route moves; it needs 5, like 3R 2S 1D 5R 4R",
                    count=len(self.moves),
                )
            for i, move in enumerate(self.moves, start=1):
                self.out[f"m{i}"] = move
        if self.sprint:
            if len(self.sprint) < 3 and self.compact:
                raise _error(
                    "td.syntax.few_sprints",
                    "the plan has {count} sprint values; it needs 3, like 4 1 2",
                    count=len(self.sprint),
                )
            for i, value in enumerate(self.sprint, start=1):
                self.out[f"s{i}"] = value
        if self.specials:
            self.out["specials"] = self.specials
        return self.out


def parse_text(text: str, ctx: OrderContext) -> Order:
    """A plan (plan mode) or a round order (live mode) in the text syntax -> a raw order object."""
    tokens = tokenize(text, list(ctx.names.values()))
    if not tokens:
        raise _error("td.syntax.empty", "the order is empty; write it like {example}", example=example_text(ctx))
    labelled = any(t.casefold().endswith(":") and t.casefold()[:-1] in LABELS for t in tokens)
    if ctx.live_round is not None:
        first = ROUNDS[ctx.live_round]
        # ``C ; bibitone: no``: the round's own value may come first, unlabelled, before labelled fields.
        leads = not labelled or _looks_like_value(first, tokens[0])
        parser = _Parser(ctx, compact=not labelled, field=first if leads else None)
    else:
        parser = _Parser(ctx, compact=not labelled, field=None if labelled else "start")
    for token in tokens:
        parser.feed(token)
    return parser.finish()


def _looks_like_value(label: str, token: str) -> bool:
    """Whether ``token`` reads as the value of round ``label`` (a start, a move or an intensity)."""
    low = token.casefold()
    if label == "start":
        return low in START_NAMES
    if label.startswith("m"):
        return bool(_MOVE_LIKE.match(token))
    return bool(_NUMBER.match(token))


def parse_specials(text: str, ctx: OrderContext) -> list[dict[str, Any]]:
    """Just the specials part (``V@m3 bibitone, G@m2 @Luca down``), as a list of raw entries."""
    parser = _Parser(ctx, compact=False, field="specials")
    for token in tokenize(text, list(ctx.names.values())):
        parser.feed(token)
    out = parser.finish()
    entries: list[dict[str, Any]] = list(out.get("specials", []))
    if out.get("bibitone"):
        v_entry = next((e for e in entries if e["code"] == "V"), None)
        if v_entry is None:
            raise _error("td.syntax.bibitone_without_v", "bibitone goes on your V entry, like V@m3 bibitone")
        v_entry["bibitone"] = True
    return entries


def _special_text(entry: dict[str, Any], names: Mapping[str, str], bibitone: bool, live: bool) -> str:
    parts = [entry["code"] if live else f"{entry['code']}@{entry['round']}"]
    if entry["code"] == "V" and bibitone:
        parts.append("bibitone")
    if "target" in entry:
        parts.append("@" + names.get(entry["target"], entry["target"]))
    if "dir" in entry:
        parts.append(entry["dir"])
    return " ".join(parts)


def format_order(order: Order, names: Mapping[str, str], live_round: int | None = None) -> str:
    """An order in the text syntax (the confirmation echoes this back; it parses to the same order)."""
    specials = order.get("specials", [])
    bibitone = bool(order.get("bibitone"))
    has_v = any(e["code"] == "V" for e in specials)
    texts = [_special_text(e, names, bibitone, live_round is not None) for e in specials]
    if bibitone and not has_v:
        texts.append("bibitone")
    if live_round is not None:
        label = ROUNDS[live_round]
        value = order.get(label)
        head = f"{label}: {_value_text(label, value)}" if value is not None else ""
        return " ; ".join(p for p in [head, *texts] if p)
    complete = all(label in order for label in ROUNDS)
    if complete:
        moves = " ".join(_value_text(f"m{i}", order[f"m{i}"]) for i in range(1, 6))
        sprint = " ".join(str(order[f"s{i}"]) for i in range(1, 4))
        parts = [order["start"], moves, sprint]
        if texts:
            parts.append(", ".join(texts))
        return " · ".join(parts)
    fields = [f"{label}: {_value_text(label, order[label])}" for label in ROUNDS if label in order]
    if texts:
        fields.append("specials: " + " ; ".join(texts))
    return "  ".join(fields)


def _value_text(label: str, value: Any) -> str:
    if label.startswith("m") and isinstance(value, dict):
        return f"{value['effort']}{value['dir']}"
    return str(value)


def example_text(ctx: OrderContext) -> str:
    """A sample of the syntax for the round(s) an order covers."""
    live = ctx.live_round
    if live is None:
        return "A · 3R 2S 1D 5R 4R · 4 1 2 · V@m3 bibitone, G@m2 @Luca down"
    if live == 0:
        return "start: A ; bibitone ; P"
    if live <= 5:
        return f"{ROUNDS[live]}: 3R ; X"
    return f"{ROUNDS[live]}: 4 ; V"
