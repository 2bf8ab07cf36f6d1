"""Orders: checking and normalising what a player sends (rules §8.1, §8.2, D9), and the entry points the
ruleset delegates to (who is awaited, validate, the automatic order).

An order is one JSON object in both modes. A plan (plan mode) holds every round; a live order holds
the round being played. Keys: ``start`` (A/B/C), ``bibitone`` (bool), ``m1``-``m5`` (``{"effort",
"dir"}``), ``s1``-``s3`` (intensity), ``specials`` (a list of ``{"code", "round", "target", "dir"}``)
and the record's ``received_at``. Conditions that depend on the race situation are not checked here
(D28): they are checked when the round resolves.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping, Sequence
from typing import Any

from engine.messages import OrderError, cached_msg, msg
from engine.ruleset import Order, OrderMeta, Validated
from engine.tabella import bots
from engine.tabella.state import LAST_ROUND, ROUNDS, RaceState
from engine.tabella.syntax import parse_specials, parse_text
from engine.tabella.vocabulary import (
    ALLOWED_ROUNDS,
    DIRECTIONS,
    FALSE_WORDS,
    NEEDS_TARGET,
    PUSH_DIRECTIONS,
    SPECIAL_NAMES,
    START_NAMES,
    TRUE_WORDS,
    OrderContext,
    allowed_text,
    part_name,
    special_name,
)

_MOVE = re.compile(r"(-?\d+)\s*([^\d\s]*)")


def _error(key: str, text: str, **params: Any) -> OrderError:
    return OrderError.of(key, text, **params)


def resolve_target(raw: Any, ctx: OrderContext, where: str) -> str:
    """A target written as an id or a display name (``@Luca``, case-insensitive) -> the entrant id."""
    if not isinstance(raw, str) or not raw.strip().lstrip("@").strip():
        raise _error("td.order.no_target", "{where}: name the rider to target, like @Luca", where=where)
    name = raw.strip().lstrip("@").strip()
    folded = name.casefold()
    found = [eid for eid, ename in ctx.names.items() if ename.casefold() == folded]
    if not found:
        found = [eid for eid in ctx.names if eid.casefold() == folded]
    if not found:
        riders = ", ".join(n for eid, n in ctx.names.items() if eid != ctx.entrant)
        raise _error(
            "td.order.unknown_target",
            "{where}: there is no rider called {name} in this race; the others are {riders}",
            where=where,
            name=name,
            riders=riders,
        )
    if len(found) > 1:
        raise _error(
            "td.order.ambiguous_target",
            "{where}: {count} riders are called {name}; write the rider's id instead ({ids})",
            where=where,
            count=len(found),
            name=name,
            ids=", ".join(found),
        )
    if found[0] == ctx.entrant:
        raise _error("td.order.self_target", "{where}: you can't target yourself; name another rider", where=where)
    return found[0]


def _int(raw: Any) -> int | None:
    if isinstance(raw, bool):
        return None
    if isinstance(raw, int):
        return raw
    if isinstance(raw, str) and raw.strip().lstrip("-").isdigit():
        return int(raw.strip())
    return None


def check_start(raw: Any) -> str:
    value = START_NAMES.get(str(raw).strip().casefold()) if isinstance(raw, str) else None
    if value is None:
        raise _error(
            "td.order.bad_start",
            "start: choose A (Aggressiva), B (Bersagliera) or C (Cavaliera), you wrote {value}",
            value=raw,
        )
    return value


def check_bibitone(raw: Any) -> bool:
    if isinstance(raw, bool):
        return raw
    if isinstance(raw, str) and raw.strip().casefold() in TRUE_WORDS | FALSE_WORDS:
        return raw.strip().casefold() in TRUE_WORDS
    raise _error("td.order.bad_bibitone", "bibitone: write yes or no, you wrote {value}", value=raw)


def check_move(label: str, raw: Any) -> dict[str, Any]:
    """A route move: effort 1-5 and direction S, D or R (§5.3)."""
    where = part_name(label)
    if isinstance(raw, str):
        found = _MOVE.fullmatch(raw.strip())
        if found is None or not found.group(2):
            raise _error(
                "td.order.bad_move",
                "{where}: write an effort 1 to 5 and a direction S, D or R, like 3R; you wrote {value}",
                where=where,
                value=raw,
            )
        raw = {"effort": found.group(1), "dir": found.group(2)}
    if not isinstance(raw, Mapping):
        raise _error(
            "td.order.bad_move",
            "{where}: write an effort 1 to 5 and a direction S, D or R, like 3R; you wrote {value}",
            where=where,
            value=raw,
        )
    unknown = sorted(set(raw) - {"effort", "dir"})
    if unknown:
        raise _error("td.order.bad_move_key", "{where}: unknown part {part}", where=where, part=unknown[0])
    move: dict[str, Any] = {}
    # A move object may be built one field at a time (effort, then direction): a missing part makes
    # the order incomplete, not wrong.
    if raw.get("effort") not in (None, ""):
        effort = _int(raw.get("effort"))
        if effort is None or not 1 <= effort <= 5:
            raise _error(
                "td.order.bad_effort",
                "{where}: effort must be 1 to 5, you wrote {value}",
                where=where,
                value=raw.get("effort"),
            )
        move["effort"] = effort
    direction = raw.get("dir")
    if direction not in (None, ""):
        norm = DIRECTIONS.get(str(direction).strip().casefold())
        if norm is None:
            raise _error(
                "td.order.bad_direction",
                "{where}: direction must be S, D or R, you wrote {value}",
                where=where,
                value=direction,
            )
        move["dir"] = norm
    return move


def check_sprint(label: str, raw: Any) -> int:
    """A sprint intensity: any whole number 0 or more (D16)."""
    value = _int(raw)
    if value is None or value < 0:
        raise _error(
            "td.order.bad_intensity",
            "{where}: intensity must be a whole number 0 or more, you wrote {value}",
            where=part_name(label),
            value=raw,
        )
    return value


def check_special(raw: Any, ctx: OrderContext) -> dict[str, Any]:
    """One special entry: its code, its round (D9), its target and push direction (§8.2)."""
    if not isinstance(raw, Mapping):
        raise _error("td.order.bad_special", "specials: each entry needs a code and a round, like V@m3")
    code = str(raw.get("code", "")).strip().upper()
    if code not in SPECIAL_NAMES:
        raise _error(
            "td.order.unknown_special",
            "specials: {value} is not a special; use V, G, J, B, X, P, V2 or B2",
            value=raw.get("code"),
        )
    unknown = sorted(set(raw) - {"code", "round", "target", "dir", "bibitone"})
    if unknown:
        raise _error("td.order.bad_special_key", "{code}: unknown part {part}", code=code, part=unknown[0])
    label = raw.get("round")
    live = ctx.live_round
    if label in (None, "") and live is not None:
        label = ROUNDS[live]
    label = str(label).strip().casefold() if label is not None else ""
    if label not in ROUNDS:
        raise _error(
            "td.order.special_round",
            "{code}: say in which round, like {code}@m3 (start, m1-m5, s1-s3); you wrote {value}",
            code=code,
            value=raw.get("round") or cached_msg("td.order.nothing", "nothing"),
        )
    number = ROUNDS.index(label)
    where = f"{code}@{label}"
    if live is not None and number != live:
        raise _error(
            "td.order.special_other_round",
            "{where}: this order is for {round}; specials go with the move of the round they are used in",
            where=where,
            round=ROUNDS[live],
        )
    if number not in ctx.rounds:
        raise _error(
            "td.order.special_past",
            "{where}: that round is already over; this plan covers {rounds}",
            where=where,
            rounds=", ".join(ROUNDS[n] for n in ctx.rounds),
        )
    if number not in ALLOWED_ROUNDS[code]:
        raise _error(
            "td.order.special_not_here",
            "{where}: the {name} can't be used in {round}; it is allowed in {allowed}",
            where=where,
            name=special_name(code),
            round=label,
            allowed=allowed_text(code),
        )
    entry: dict[str, Any] = {"code": code, "round": label}
    # §8.1: only G, J, B and B2 name a target and only G a direction; a stray one is refused, not dropped.
    stray_target = raw.get("target")
    if code not in NEEDS_TARGET and stray_target not in (None, ""):
        raise _error(
            "td.order.no_target_here",
            "{where}: the {name} takes no target (you wrote {value})",
            where=where,
            name=special_name(code),
            value=str(stray_target).strip().lstrip("@").strip(),
        )
    if code != "G" and raw.get("dir") not in (None, ""):
        raise _error(
            "td.order.no_direction_here",
            "{where}: only a Gomitata takes a direction (you wrote {value})",
            where=where,
            value=raw.get("dir"),
        )
    if code in NEEDS_TARGET:
        entry["target"] = resolve_target(raw.get("target"), ctx, where)
    if code == "G" and number not in range(6, 9):
        direction = raw.get("dir")
        norm = PUSH_DIRECTIONS.get(str(direction).strip().casefold()) if direction is not None else None
        if norm is None:
            raise _error(
                "td.order.push_direction",
                "{where}: say which way you push, up (towards A) or down (towards C){wrote}",
                where=where,
                wrote=msg("td.order.you_wrote", ", you wrote {value}", value=direction)
                if direction not in (None, "")
                else "",
            )
        entry["dir"] = norm
    if raw.get("bibitone"):
        if code != "V":
            raise _error("td.order.bibitone_not_v", "{where}: bibitone goes on your V entry", where=where)
        entry["bibitone"] = True
    return entry


def check_pending_special(raw: Any, ctx: OrderContext, given: Sequence[Any]) -> dict[str, Any]:
    """A special given part by part from a panel (``special``: code, then round, target, direction): its
    code is checked at once (known, not used yet, not already in the order); the whole entry is checked
    by :func:`check_special` once :func:`special_ready` says it is whole, and joins ``specials``."""
    if not isinstance(raw, Mapping):
        raise _error("td.order.bad_special", "specials: each entry needs a code and a round, like V@m3")
    code = str(raw.get("code", "")).strip().upper()
    if code not in SPECIAL_NAMES:
        raise _error(
            "td.order.unknown_special",
            "specials: {value} is not a special; use V, G, J, B, X, P, V2 or B2",
            value=raw.get("code"),
        )
    taken = {str(e.get("code", "")).upper() for e in given if isinstance(e, Mapping)}
    if code in taken or code in ctx.used:
        raise _error(
            "td.order.special_used",
            "{code}: you have already used your {name} in this race",
            code=code,
            name=special_name(code),
        )
    return {**{k: v for k, v in raw.items() if v not in (None, "")}, "code": code}


def special_ready(entry: Mapping[str, Any], ctx: OrderContext) -> bool:
    """Whether a special given part by part has every part its code needs (§8.1): a round (implied in
    live mode), a target for G, J, B and B2, a push direction for a Gomitata outside the sprint."""
    label = entry.get("round") or (ROUNDS[ctx.live_round] if ctx.live_round is not None else None)
    if label is None:
        return False
    if entry["code"] in NEEDS_TARGET and "target" not in entry:
        return False
    sprint = label in ROUNDS and ROUNDS.index(label) in range(6, 9)
    return not (entry["code"] == "G" and not sprint and "dir" not in entry)


def special_parts_missing(entry: Mapping[str, Any], ctx: OrderContext) -> list[str]:
    """The parts a special given part by part still needs, in the order a panel asks them."""
    missing = []
    if "round" not in entry and ctx.live_round is None:
        missing.append("round")
    if entry["code"] in NEEDS_TARGET and "target" not in entry:
        missing.append("target")
    label = entry.get("round") or (ROUNDS[ctx.live_round] if ctx.live_round is not None else None)
    sprint = label in ROUNDS and ROUNDS.index(label) in range(6, 9)
    if entry["code"] == "G" and not sprint and "dir" not in entry:
        missing.append("dir")
    return missing


def normalise(raw: Order, ctx: OrderContext) -> tuple[Order, bool]:
    """The order checked and normalised, and whether it is complete for the rounds it covers."""
    out: Order = {}
    labels = {ROUNDS[n] for n in ctx.rounds}
    for key, value in raw.items():
        if key == "start":
            if "start" not in labels:
                raise _error("td.order.not_now", "start: the start is not part of this order")
            out["start"] = check_start(value)
        elif key == "bibitone":
            if ctx.mode == "live" and "start" not in labels:
                raise _error("td.order.bibitone_late", "bibitone: the Bibitone is declared with the start")
            out["bibitone"] = check_bibitone(value)
        elif key in ROUNDS and key != "start":
            if key not in labels:
                raise _error(
                    "td.order.not_now",
                    "{where}: this order is for {rounds}",
                    where=part_name(key),
                    rounds=", ".join(ROUNDS[n] for n in ctx.rounds),
                )
            out[key] = check_move(key, value) if key.startswith("m") else check_sprint(key, value)
        elif key == "specials":
            out["specials"] = value
        elif key == "special":
            out["special"] = value
        else:
            raise _error("td.order.unknown_key", "unknown part of the order: {part}", part=key)
    specials = out.pop("specials", None)
    pending = out.pop("special", None)
    if specials is not None:
        if isinstance(specials, str):
            specials = parse_specials(specials, ctx)
        if not isinstance(specials, Sequence) or isinstance(specials, str):
            raise _error("td.order.bad_specials", "specials must be a list of entries like V@m3")
    if pending is not None:
        pending = check_pending_special(pending, ctx, specials or [])
        if special_ready(pending, ctx):
            specials = [*(specials or []), pending]
        else:
            out["special"] = pending
    if specials is not None:
        checked = [check_special(entry, ctx) for entry in specials]
        _no_repeats(checked, ctx)
        for entry in checked:
            if entry.pop("bibitone", False):
                out["bibitone"] = True
        if out.get("bibitone") and ctx.mode == "live" and 0 not in ctx.rounds:
            raise _error("td.order.bibitone_late", "bibitone: the Bibitone is declared with the start")
        out["specials"] = sorted(
            checked, key=lambda e: (ROUNDS.index(e["round"]), list(SPECIAL_NAMES).index(e["code"]))
        )
    # A special given part by part and not yet whole (§8.1) holds the order back: it is sent whole or not at all.
    complete = all(ROUNDS[n] in out and is_whole(out[ROUNDS[n]]) for n in ctx.rounds) and "special" not in out
    return out, complete


def is_whole(value: Any) -> bool:
    """A move given only in part (an effort without its direction) is not yet a move."""
    return not isinstance(value, dict) or {"effort", "dir"} <= set(value)


def _no_repeats(entries: list[dict[str, Any]], ctx: OrderContext) -> None:
    seen: dict[str, str] = {}
    for entry in entries:
        code = entry["code"]
        if code in seen:
            raise _error(
                "td.order.special_twice",
                "{code} appears twice ({first} and {second}): each special is used once per race",
                code=code,
                first=seen[code],
                second=entry["round"],
            )
        if code in ctx.used:
            raise _error(
                "td.order.special_used",
                "{code}: you have already used your {name} in this race",
                code=code,
                name=special_name(code),
            )
        seen[code] = entry["round"]


def specials_in(order: Order, round_number: int) -> dict[str, dict[str, Any]]:
    """The specials an order uses in one round, by code."""
    label = ROUNDS[round_number]
    return {e["code"]: e for e in order.get("specials", []) if e["round"] == label}


def automatic_order(ctx: OrderContext) -> Order:
    """§4.1: start -> Cavaliera, Bibitone no; route -> 1R; sprint -> 0; no specials."""
    order: Order = {}
    for n in ctx.rounds:
        label = ROUNDS[n]
        if n == 0:
            order["start"] = "C"
            order["bibitone"] = False
        elif n <= 5:
            order[label] = {"effort": 1, "dir": "R"}
        else:
            order[label] = 0
    order["specials"] = []
    return order


# --- the entry points the ruleset delegates to -------------------------------------------------------
def names_of(state: RaceState) -> dict[str, str]:
    """Entrant id -> display name, every rider of the race."""
    return {r.id: r.name for r in state.riders}


def awaited_ids(state: RaceState) -> list[str]:
    """Who is asked for an order: every starter in plan mode (D8), the riders still racing in live mode."""
    if state.over:
        return []
    if state.mode == "plan":
        return [r.id for r in state.riders if r.status in ("waiting", "racing")]
    return [r.id for r in state.riders if r.racing or (r.status == "waiting" and state.round == 0)]


def rounds_of(state: RaceState) -> tuple[int, ...]:
    """The rounds an order covers now: all those left (plan mode, D1) or the one at hand (live mode)."""
    if state.mode == "plan":
        return tuple(range(state.round, LAST_ROUND + 1))
    return (state.round,)


def context(state: RaceState, entrant: str) -> OrderContext:
    """What checking ``entrant``'s order needs from the race."""
    rider = state.rider(entrant)
    return OrderContext(
        entrant=entrant,
        names=names_of(state),
        mode=state.mode,
        rounds=rounds_of(state),
        used=frozenset(rider.used),
    )


def validate(state: RaceState, entrant: str, order: Order | str, previous: Order | None = None) -> Validated:
    """An order sent as text (§8.3) or as fields (merged into ``previous``), checked and normalised."""
    if entrant not in awaited_ids(state):
        raise OrderError.of("td.not_awaited", "No order is needed from you now: you are not racing.")
    ctx = context(state, entrant)
    if isinstance(order, str):
        order = {"text": order}
    if not isinstance(order, Mapping):
        raise OrderError.of("td.order.not_object", "An order is a text message or a JSON object.")
    raw: dict[str, Any]
    if "text" in order:
        text = order["text"]
        if not isinstance(text, str):
            raise OrderError.of("td.order.bad_text", "The text of an order must be a string.")
        raw = parse_text(text, ctx)
        extra = sorted(k for k in order if k != "text")
        if extra:
            raise OrderError.of(
                "td.order.text_and_fields",
                "Send either the text or the fields, not both (found {part} next to the text)",
                part=extra[0],
            )
    else:
        raw = merge(previous or {}, dict(order))
    checked, complete = normalise(raw, ctx)
    return Validated(order=checked, complete=complete)


def auto_order(state: RaceState, entrant: str, partial: Order | None = None, strategy: str | None = None) -> Order:
    """The automatic order (§4.1) or a bot's, keeping whatever the player already chose."""
    ctx = context(state, entrant)
    kept: Order = {}
    if partial:
        try:
            kept, _ = normalise(dict(partial), ctx)
        except OrderError:
            kept = {}
        kept.pop("special", None)  # a special left half given is not played (only whole ones are, §8.1)
    if strategy is None:
        base = automatic_order(ctx)  # §4.1: Cavaliera, 1R, 0, no specials
    elif strategy in bots.STRATEGIES:
        made = (bots.plan_order if state.mode == "plan" else bots.live_order)(state, entrant, strategy)
        base, _ = normalise(made, ctx)
    else:
        raise ValueError(f"unknown strategy {strategy!r}; choose one of: {', '.join(bots.STRATEGIES)}")
    # What the player already chose stays, a half-chosen move included (its effort or direction).
    return merge(base, kept)


def checked(state: RaceState, rid: str, order: Order, meta: OrderMeta | None) -> Order:
    """The order as validated (the driver validates already; a direct caller may not have), with its
    bookkeeping (``received_at``, ``auto``) beside it under the same keys, for the round to read."""
    result = validate(state, rid, order)
    if not result.complete:
        raise OrderError.of("td.order.incomplete", "The order of {rider} is incomplete.", rider=rid)
    return {**result.order, **meta} if meta else result.order


def merge(previous: Order, order: Order) -> Order:
    """``order`` laid over ``previous``, a move's parts merged one level down (a panel sends one part at a time)."""
    merged = {k: copy.deepcopy(v) for k, v in previous.items()}
    for key, value in order.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = {**merged[key], **value}
        else:
            merged[key] = value
    return merged
