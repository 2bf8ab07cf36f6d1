"""Orders: the JSON forms and the text syntax of §9.5, checked and normalised with friendly errors.

Normalised forms (each re-validates):

- placement: ``{"cyclist": 3}``
- orders mode: ``{"intents": {"3": {"action": "move", "distance": 5, "lane": 2, "pass_to": 1}}}``
  (``path`` instead of ``lane``; ``pass_to`` 0 = keeps its bottle)
- live mode: ``{"passes": {"3": 1}}``, ``{"action": "move", "path": ["F", "FL"]}``,
  ``{"action": "attack", "distance": 9, "lane": 2}``, ``{"action": "wheel" | "relay" | "later"}``
"""

from __future__ import annotations

import re
from typing import Any

from engine.messages import Message, OrderError
from engine.mind_cycling.decisions import awaited_entrants
from engine.mind_cycling.movement import ATTACK_BONUS, STEPS, check_path, may_attack, path_end_lane
from engine.mind_cycling.rounds import (
    maximum,
    next_actor,
    on_road_numbers,
    possible_passes,
    relay_target,
    wheel_target,
)
from engine.mind_cycling.state import Cyclist, RaceState, RoundContext
from engine.mind_cycling.texts import action_label, nobody_label, where_label
from engine.ruleset import Order, Validated

ACTIONS = ("move", "attack", "wheel", "relay")
MAX_STEPS = 10
"""The longest move the rules allow anywhere: a domestique attacking on the plains, 7 + 3."""
INTENT_KEYS = {"action", "distance", "lane", "path", "pass_to"}
ROLE_NAMES = {"sprinter": 1, "climber": 2}


def _err(key: str, text: str, **params: Any) -> OrderError:
    """A refusal: ``key`` is the message's whole key (``mc.bad_lane``), written out so a scan finds it."""
    return OrderError.of(key, text, **params)


def text_of(order: dict[str, Any] | str) -> str | None:
    """The text-syntax content of an order, if it is one."""
    if isinstance(order, str):
        return order
    if set(order) == {"text"} and isinstance(order["text"], str):
        return str(order["text"])
    return None


def _lines(text: str) -> list[str]:
    """Lines of a text order: newlines or ``;`` separate them; ``(comments)`` are dropped."""
    out = []
    for raw in re.split(r"[\n;]", text):
        line = re.sub(r"\([^)]*\)", "", raw).strip()
        if line:
            out.append(line)
    return out


def _number(state: RaceState, entrant: str, token: str, where: Message) -> int:
    m = re.fullmatch(r"#?(\d+)", token)
    if token.lower() in ROLE_NAMES:
        return ROLE_NAMES[token.lower()]
    if not m:
        raise _err(
            "mc.bad_cyclist",
            "{where}: '{token}' is not a cyclist; name it by team number, like #3.",
            where=where,
            token=token,
        )
    number = int(m.group(1))
    if not 1 <= number <= state.team_size:
        raise _err(
            "mc.no_such_cyclist",
            "{where}: your team has no cyclist #{number} (it has #1 to #{size}).",
            where=where,
            number=number,
            size=state.team_size,
        )
    return number


def _path(token: str, where: Message) -> list[str]:
    steps = [s.strip().upper() for s in token.split(",") if s.strip()]
    for s in steps:
        if s not in STEPS:
            raise _err("mc.bad_step", "{where}: step '{step}' must be F, FL or FR.", where=where, step=s)
    return steps


def parse_ride(words: list[str], where: Message) -> dict[str, Any]:
    """``[N] [path=F,F,FL | F,F,FL] [lane=K]`` after move/attack (and ``[lane=K]`` after wheel/relay)."""
    out: dict[str, Any] = {}
    for word in words:
        low = word.lower()
        if low.startswith("path="):
            out["path"] = _path(word[5:], where)
        elif low.startswith("lane="):
            if not word[5:].isdigit():
                raise _err("mc.bad_lane", "{where}: 'lane=' needs a lane number, like lane=2.", where=where)
            out["lane"] = int(word[5:])
        elif word.isdigit():
            out["distance"] = int(word)
        elif re.fullmatch(r"(?i)(f|fl|fr)(,(f|fl|fr))*,?", word):
            out["path"] = _path(word, where)
        else:
            raise _err(
                "mc.bad_word",
                "{where}: I don't understand '{word}'; write a number of steps, path=F,FL,... or lane=2.",
                where=where,
                word=word,
            )
    return out


def parse_intents(state: RaceState, entrant: str, text: str) -> dict[str, Any]:
    """§9.5 orders-mode text: one line per cyclist (``#3 move 5 path=F,F,FL,F,F``)."""
    intents: dict[str, dict[str, Any]] = {}
    seen: dict[str, int] = {}
    lines = _lines(text)
    if not lines:
        raise _err("mc.empty", "The order is empty: write one line per cyclist, like '#3 move 5 lane=2'.")
    for i, line in enumerate(lines, start=1):
        where = where_label("line", n=i, line=line)
        words = line.split()
        if len(words) < 2:
            raise _err("mc.bad_line", "{where}: write a cyclist and an action, like '#3 move 5'.", where=where)
        number = _number(state, entrant, words[0], where)
        action = words[1].lower()
        intent = intents.setdefault(str(number), {})
        if action in ("pass-bottle-to", "pass"):
            if len(words) != 3:
                raise _err("mc.bad_pass", "{where}: write '#3 pass-bottle-to #1'.", where=where)
            intent["pass_to"] = _number(state, entrant, words[2], where)
            continue
        if action not in ACTIONS:
            raise _err(
                "mc.bad_action",
                "{where}: '{action}' is not an action; use move, attack, wheel, relay or pass-bottle-to.",
                where=where,
                action=words[1],
            )
        if str(number) in seen:
            raise _err(
                "mc.twice",
                "{where}: #{number} already has an action on line {first}.",
                where=where,
                number=number,
                first=seen[str(number)],
            )
        seen[str(number)] = i
        intent["action"] = action
        intent.update(parse_ride(words[2:], where))
    return {"intents": intents}


# --- validation ---------------------------------------------------------------------------------------
def check_intents(state: RaceState, entrant: str, order: dict[str, Any]) -> tuple[dict[str, Any], bool]:
    """Orders mode (§9.2): the form of every intent; legality at its turn is the resolver's (D23)."""
    raw = order.get("intents", {})
    extra = set(order) - {"intents"}
    if extra:
        raise _err("mc.bad_key", "Unknown part of the order: {keys}. Use 'intents'.", keys=", ".join(sorted(extra)))
    if not isinstance(raw, dict):
        raise _err("mc.bad_intents", "'intents' must map cyclist numbers to intents.")
    road = on_road_numbers(state, entrant)
    team = {c.number: c for c in state.team(entrant)}
    out: dict[str, dict[str, Any]] = {}
    for name, intent in raw.items():
        number = _number(state, entrant, str(name), where_label("cyclist", name=str(name)))
        if number not in road:
            raise _err(
                "mc.not_on_road",
                "#{number} is not on the road any more; your cyclists on the road: {road}.",
                number=number,
                road=", ".join(f"#{n}" for n in road) or nobody_label(),
            )
        out[str(number)] = check_intent(state, team[number], intent)
    complete = all(str(n) in out and "action" in out[str(n)] for n in road)
    return out, complete


def check_intent(state: RaceState, cyclist: Cyclist, intent: Any) -> dict[str, Any]:
    who = f"#{cyclist.number}"
    if not isinstance(intent, dict):
        raise _err("mc.bad_intent", "The intent of {who} must be an object with an action.", who=who)
    unknown = set(intent) - INTENT_KEYS
    if unknown:
        raise _err(
            "mc.bad_intent_key",
            "{who}: unknown part {keys}; an intent has action, distance, lane, path, pass_to.",
            who=who,
            keys=", ".join(sorted(unknown)),
        )
    out: dict[str, Any] = {}
    action = intent.get("action")
    if action is not None:
        if action not in ACTIONS:
            raise _err(
                "mc.bad_action",
                "{who}: '{action}' is not an action; use move, attack, wheel or relay.",
                who=who,
                action=action,
            )
        out["action"] = action
    if "distance" in intent:
        distance = intent["distance"]
        if action in ("wheel", "relay"):
            raise _err(
                "mc.ride_distance",
                "{who}: a {action} takes no distance (it is a free ride).",
                who=who,
                action=action_label(action),
            )
        if not isinstance(distance, int) or isinstance(distance, bool) or not 0 <= distance <= MAX_STEPS:
            raise _err(
                "mc.bad_distance",
                "{who}: the distance must be a whole number from 0 to {most}.",
                who=who,
                most=MAX_STEPS,
            )
        out["distance"] = distance
    if "path" in intent:
        if action in ("wheel", "relay"):
            raise _err(
                "mc.ride_path",
                "{who}: a {action} takes no path (it is a free ride).",
                who=who,
                action=action_label(action),
            )
        path = intent["path"]
        if not isinstance(path, list) or any(s not in STEPS for s in path) or len(path) > MAX_STEPS:
            raise _err(
                "mc.bad_path", "{who}: a path is a list of up to {most} steps F, FL or FR.", who=who, most=MAX_STEPS
            )
        _path_on_road(state, cyclist, path, who)
        if "distance" in out and out["distance"] != len(path):
            raise _err(
                "mc.path_length",
                "{who}: the distance {distance} doesn't match the path of {steps} steps.",
                who=who,
                distance=out["distance"],
                steps=len(path),
            )
        out["path"] = list(path)
        out["distance"] = len(path)
    if "lane" in intent:
        lane = intent["lane"]
        if "path" in out:
            raise _err("mc.path_and_lane", "{who}: give either a path or a lane, not both.", who=who)
        if not isinstance(lane, int) or isinstance(lane, bool) or not 1 <= lane <= state.course.lanes:
            raise _err("mc.bad_lane", "{who}: the lane must be 1 to {lanes}.", who=who, lanes=state.course.lanes)
        out["lane"] = lane
    if "pass_to" in intent:
        to = intent["pass_to"]
        if not isinstance(to, int) or isinstance(to, bool) or not 0 <= to <= state.team_size or to == cyclist.number:
            raise _err("mc.bad_pass", "{who}: pass the bottle to a team-mate's number (0 = keep it).", who=who)
        if to and cyclist.role != "domestique":
            raise _err("mc.pass_not_domestique", "{who}: only domestiques pass their bottle.", who=who)
        out["pass_to"] = to
    return out


def _path_on_road(state: RaceState, cyclist: Cyclist, path: list[str], who: str) -> None:
    lane = cyclist.lane
    for i, step in enumerate(path, start=1):
        lane = path_end_lane(lane, [step])
        if not 1 <= lane <= state.course.lanes:
            raise _err(
                "mc.off_road",
                "{who}: step {n} ({step}) of the path would leave the road (lanes 1-{lanes}).",
                who=who,
                n=i,
                step=step,
                lanes=state.course.lanes,
            )


def parse_live(text: str, where: Message | None = None) -> dict[str, Any]:
    """§9.5 live answers: ``move F,F,FL`` · ``attack ...`` · ``wheel`` · ``relay`` · ``later``."""
    where = where or where_label("answer")
    words = text.split()
    if not words:
        raise _err("mc.empty", "The answer is empty: write move, attack, wheel, relay or later.")
    action = words[0].lower()
    if action in ("wheel", "relay", "later"):
        if len(words) > 1:
            raise _err("mc.bad_word", "{where}: '{action}' takes nothing after it.", where=where, action=action)
        return {"action": action}
    if action not in ("move", "attack"):
        raise _err(
            "mc.bad_action",
            "{where}: '{action}' is not an answer; use move, attack, wheel, relay or later.",
            where=where,
            action=words[0],
        )
    return {"action": action, **parse_ride(words[1:], where)}


def check_turn(state: RaceState, ctx: RoundContext, cyclist: Cyclist, order: dict[str, Any]) -> dict[str, Any]:
    """Live mode: a normal move or attack of the cyclist that is next; each path step is checked."""
    who = state.label(cyclist.key)
    action = order.get("action")
    if action in ("wheel", "relay"):
        raise _err(
            "mc.ride_not_now",
            "{who} can only {action} right after the cyclist in front of it moves; now it moves or attacks.",
            who=who,
            action=action_label(action),
        )
    if action not in ("move", "attack"):
        raise _err("mc.bad_action", "{who}: choose move or attack.", who=who)
    out = check_intent(state, cyclist, {k: v for k, v in order.items() if k != "pass_to"})
    top = maximum(state, ctx, cyclist.key)
    if action == "attack":
        if not may_attack(state, cyclist):
            raise _err(
                "mc.no_attack",
                "{who} can't attack: it needs a blue base (a bottle) and to start in its own section.",
                who=who,
            )
        top += ATTACK_BONUS
    if out.get("distance", 0) > top:
        raise _err(
            "mc.too_far", "{who} can ride at most {top} this round, not {n}.", who=who, top=top, n=out["distance"]
        )
    if "path" in out:
        problem = check_path(state, cyclist, out["path"])
        if problem:
            raise _err("mc.blocked", "{who}: {problem}. Choose another path.", who=who, problem=problem)
    return out


def check_prompt(state: RaceState, ctx: RoundContext, cyclist: Cyclist, order: dict[str, Any]) -> dict[str, Any]:
    """Live mode: the answer to a wheel/relay prompt."""
    action = order.get("action")
    if set(order) - {"action"} or action not in ("wheel", "relay", "later"):
        raise _err("mc.bad_prompt", "Answer wheel, relay or later for {who}.", who=state.label(cyclist.key))
    if action != "later":
        dest, why = (wheel_target if action == "wheel" else relay_target)(state, ctx, cyclist.key)
        if dest is None:
            raise _err(
                "mc.ride_refused",
                "{who} can't {action} now: {why}.",
                who=state.label(cyclist.key),
                action=action_label(action),
                why=why,
            )
    return {"action": action}


def check_passes(state: RaceState, entrant: str, order: dict[str, Any]) -> tuple[dict[str, Any], bool]:
    """Live mode: which of the player's domestiques pass their bottle this round."""
    legal = {k: v for k, v in possible_passes(state).items() if state.cyclists[k].entrant == entrant}
    raw = order.get("passes", {})
    if set(order) - {"passes"} or not isinstance(raw, dict):
        raise _err("mc.bad_passes", "Answer with the passes of your domestiques, like '#3 pass' or 'no pass'.")
    out: dict[str, int] = {}
    for name, to in raw.items():
        number = _number(state, entrant, str(name), where_label("cyclist", name=str(name)))
        key = f"{entrant}#{number}"
        if key not in legal:
            raise _err(
                "mc.cannot_pass",
                "#{number} can't pass a bottle this round (a blue domestique, with a black-based team-mate "
                "directly behind).",
                number=number,
            )
        receiver = state.cyclists[legal[key]].number
        if to not in (0, receiver):
            raise _err(
                "mc.wrong_receiver",
                "#{number} can only pass to #{receiver}, directly behind it.",
                number=number,
                receiver=receiver,
            )
        out[str(number)] = to
    complete = all(str(state.cyclists[k].number) in out for k in legal)
    return {"passes": out}, complete


def parse_passes(state: RaceState, entrant: str, text: str) -> dict[str, Any]:
    """``pass`` / ``no pass`` (one domestique able to pass) or ``#3 pass`` / ``#3 no pass`` lines."""
    legal = {k: v for k, v in possible_passes(state).items() if state.cyclists[k].entrant == entrant}
    out: dict[str, int] = {}
    for i, line in enumerate(_lines(text), start=1):
        where = where_label("line", n=i, line=line)
        words = line.lower().split()
        if words and words[0].startswith("#"):
            number = _number(state, entrant, words[0], where)
            words = words[1:]
        elif len(legal) == 1:
            number = state.cyclists[next(iter(legal))].number
        else:
            raise _err("mc.which_pass", "{where}: say which domestique, like '#3 pass'.", where=where)
        key = f"{entrant}#{number}"
        receiver = state.cyclists[legal[key]].number if key in legal else 0
        if words == ["pass"] or (len(words) == 2 and words[0] == "pass-bottle-to"):
            out[str(number)] = receiver if key in legal else -1
        elif words == ["no", "pass"]:
            out[str(number)] = 0
        else:
            raise _err("mc.bad_pass", "{where}: answer 'pass' or 'no pass'.", where=where)
        if out[str(number)] == -1:
            raise _err("mc.cannot_pass", "#{number} can't pass a bottle this round.", number=number)
    return {"passes": out}


# --- the step awaited now ------------------------------------------------------------------------
def validate(state: RaceState, entrant: str, order: Order | str, previous: Order | None = None) -> Validated:
    """An order of ``entrant`` for the step awaited now, merged with what it sent before (``previous``),
    checked and normalised; :class:`~engine.messages.OrderError` says what is wrong."""
    awaited = awaited_entrants(state)
    if entrant not in awaited:
        if entrant not in state.entrants:
            raise OrderError.of("mc.not_entrant", "{who} is not riding in this race.", who=entrant)
        if not awaited:
            raise OrderError.of("mc.race_over_no_order", "The race is over: no order is awaited.")
        waiting = ", ".join(state.names.get(e, e) for e in sorted(awaited))
        raise OrderError.of("mc.not_your_turn", "It's not your turn: waiting for {waiting}.", waiting=waiting)
    if not isinstance(order, (str, dict)):
        raise OrderError.of(
            "mc.bad_order",
            "An order is an object or a line of text, like '#3 move 5' (got {got}).",
            got=repr(order),
        )
    text = text_of(order)
    body: dict[str, Any] = {}
    if isinstance(order, dict) and text is None:
        body = dict(order)
    previous = dict(previous or {})
    if state.phase == "place":
        if text is not None:
            words = text.split()
            if len(words) != 1:
                raise OrderError.of("mc.bad_place", "Name one cyclist for the grid slot, like #3.")
            body = {"cyclist": _number(state, entrant, words[0], where_label("answer"))}
        return Validated(order=check_place(state, entrant, body), complete=True)
    if state.phase == "passes":
        if text is not None:
            body = parse_passes(state, entrant, text)
            body["passes"] = {**previous.get("passes", {}), **body["passes"]}
        checked, complete = check_passes(state, entrant, body)
        return Validated(order=checked, complete=complete)
    if state.options["mode"] == "orders":
        if text is not None:
            parsed = parse_intents(state, entrant, text)["intents"]
            merged = {k: dict(v) for k, v in previous.get("intents", {}).items()}
            for n, intent in parsed.items():
                base = (
                    merged.get(n, {})
                    if set(intent) == {"pass_to"}
                    else {k: v for k, v in merged.get(n, {}).items() if k == "pass_to"}
                )
                merged[n] = {**base, **intent}
            body = {"intents": merged}
        checked_intents, complete = check_intents(state, entrant, body)
        return Validated(order={"intents": checked_intents}, complete=complete)
    ctx = state.ctx
    assert ctx is not None
    if text is not None:
        body = parse_live(text)
    if ctx.prompt is not None:
        return Validated(order=check_prompt(state, ctx, state.cyclists[ctx.prompt], body), complete=True)
    key = next_actor(state, ctx)
    assert key is not None
    if "action" not in body:
        if set(body) - {"distance", "lane"}:
            raise OrderError.of("mc.bad_turn", "Choose move or attack.")
        return Validated(order=body, complete=False)
    return Validated(order=check_turn(state, ctx, state.cyclists[key], body), complete=True)


def check_place(state: RaceState, entrant: str, body: dict[str, Any]) -> dict[str, Any]:
    """Grid placement (§3.3, D9): one of the player's cyclists still to place."""
    if set(body) != {"cyclist"}:
        raise OrderError.of("mc.bad_place", "Name one cyclist for the grid slot, like #3.")
    number = body["cyclist"]
    if not isinstance(number, int) or isinstance(number, bool):
        raise OrderError.of("mc.bad_place", "Name one cyclist for the grid slot, like #3.")
    unplaced = [c.number for c in state.team(entrant) if not c.placed]
    if number not in unplaced:
        raise OrderError.of(
            "mc.already_placed",
            "#{n} can't take the slot: your cyclists still to place are {left}.",
            n=number,
            left=", ".join(f"#{n}" for n in unplaced),
        )
    return {"cyclist": number}
