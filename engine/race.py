"""A race in progress: a rule system, its state and the record being written, stepped generically.

This is the one loop every front end shares (the terminal, ``simulate``, ``replay``, and the bot's
race service): collect the awaited orders, fill in bots and absent players, resolve, and hand the step
(its orders for the record, its events) to the caller. Nothing here knows which rule system it drives.

Simulations (``gregario simulate``, ``/stage analyse``) play rollouts (:func:`rollout`) instead: the same races by the
same rules on the same seeds, without a record, with events only when asked (:class:`Rollout`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from functools import cached_property
from typing import Any

from pydantic import BaseModel, ValidationError

from engine.messages import OrderError
from engine.record import Announced, RaceRecord, RecordError, announcement_name
from engine.registry import get_ruleset
from engine.ruleset import (
    ORDER_META_KEYS,
    Decision,
    Entrant,
    EntrantError,
    Event,
    Order,
    Result,
    Ruleset,
    Validated,
)
from engine.validation import describe_validation_error


def split_meta(order: Order | str) -> tuple[Order | str, dict[str, Any]]:
    """An order as the rule system validates it, and its bookkeeping keys (:data:`ORDER_META_KEYS`) apart.

    The one place the bookkeeping is taken out: ``validate`` and ``auto_order`` never see it, ``resolve``
    gets it beside the orders. An order without bookkeeping is returned as it is (no copy)."""
    if isinstance(order, str) or order.keys().isdisjoint(ORDER_META_KEYS):
        return order, {}
    meta = {k: v for k, v in order.items() if k in ORDER_META_KEYS}
    received = meta.get("received_at")
    if received is not None:
        _check_time(received)
    return {k: v for k, v in order.items() if k not in ORDER_META_KEYS}, meta


def _check_time(value: Any) -> None:
    """``received_at`` must be an ISO 8601 time (a rule may compare them: Tabella D6)."""
    try:
        if not isinstance(value, str):
            raise ValueError
        datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        raise OrderError.of(
            "order.bad_time", "received_at must be an ISO 8601 time, not {value}", value=value
        ) from None


MESSAGE_KEYS = frozenset({"order.bad_time", "order.incomplete"})
"""The keys the driver itself may say (every other key belongs to a rule system's ``message_keys``)."""


@dataclass(frozen=True, slots=True)
class StepPlayed:
    """One resolved step: its orders exactly as the record keeps them (bookkeeping keys included, bot orders
    marked ``"by": "bot"``) and its events. The caller appends ``orders`` to its record and shows or stores
    ``events``; the race keeps neither."""

    orders: dict[str, Order | str]
    events: list[Event]


@dataclass
class Race:
    """A race in progress: its rule system, the record's header and the current state.

    It keeps what the next step needs and nothing that grows with the race: each step's orders and events
    go to the caller (:class:`StepPlayed`), who keeps the record's steps. ``opening`` holds the events of
    the start (the first deal, the bots' grid...), shown before the first step.
    """

    ruleset: Ruleset[Any]
    header: RaceRecord
    """The record without its steps: rule system, seed, stage, options, entrants, setup."""
    state: Any
    opening: list[Event] = field(default_factory=list)
    played: int = 0
    """Steps resolved so far (so a publication knows the step it follows)."""
    announced: list[Announced] = field(default_factory=list)
    """What this race has published, for its record's ``announcements``."""

    # --- creation --------------------------------------------------------------------------------
    @classmethod
    def start(
        cls,
        ruleset_id: str,
        entrants: list[Entrant],
        seed: int,
        stage: dict[str, Any] | str | None = None,
        options: Mapping[str, Any] | None = None,
        setup: Mapping[str, Any] | None = None,
    ) -> Race:
        """A new race; raises :class:`RecordError` naming what is wrong (``entrants.2.bot: ...``)."""
        try:
            record = RaceRecord(
                ruleset=ruleset_id,
                seed=seed,
                stage=stage,
                options=dict(options or {}),
                entrants=entrants,
                setup=dict(setup) if setup is not None else None,
            )
        except ValidationError as exc:
            raise RecordError(describe_validation_error(exc)) from exc
        return cls.from_record_start(record)

    @classmethod
    def from_record_start(cls, record: RaceRecord) -> Race:
        """The race at the start of ``record`` (its steps are not played; see :func:`replay`)."""
        ruleset = get_ruleset(record.ruleset)
        try:
            state, opening = ruleset.start_race(
                record.stage, record.options, list(record.entrants), record.seed, record.setup
            )
        except EntrantError as exc:
            raise RecordError(str(exc)) from exc
        except ValidationError as exc:
            raise RecordError(_name_the_part(ruleset, record) or describe_validation_error(exc)) from exc
        except (ValueError, OrderError) as exc:
            raise RecordError(_name_the_part(ruleset, record) or _name_the_field(record, str(exc))) from exc
        # A copy: the caller may go on appending steps to its own record.
        header = record.model_copy(update={"steps": [], "announcements": None})
        return cls(ruleset=ruleset, header=header, state=state, opening=opening)

    def record(self, steps: list[dict[str, Order | str]]) -> RaceRecord:
        """The race record: this race's header with ``steps`` (the orders of the steps played so far) and
        what it published (``announcements``, left out when nothing was)."""
        announced = [a for a in self.announced if a.after_step <= len(steps)] or None
        return self.header.model_copy(update={"steps": steps, "announcements": announced})

    # --- queries ---------------------------------------------------------------------------------
    @cached_property
    def entrants(self) -> dict[str, Entrant]:
        """Seats by id (fixed for the whole race)."""
        return {e.id: e for e in self.header.entrants}

    def awaited(self, partial: Mapping[str, Order] | None = None) -> list[Decision]:
        return self.ruleset.awaited(self.state, partial)

    def result(self) -> Result:
        return self.ruleset.result(self.state)

    @property
    def finished(self) -> bool:
        """The race is over (``result().finished``, never an empty list of awaited decisions: a step may
        await nobody and still be to play)."""
        return self.ruleset.finished(self.state)

    # --- stepping --------------------------------------------------------------------------------
    def validate(self, entrant: str, order: Order | str, previous: Order | None = None) -> Order:
        """A player's order, checked and normalised (raises ``OrderError``); bookkeeping keys are not
        part of it."""
        body, _ = split_meta(order)
        return self.ruleset.validate(self.state, entrant, body, previous).order

    def bot_order(self, entrant: str, partial: Order | None = None) -> Order:
        """What a bot seat plays now, marked ``"by": "bot"`` for the record."""
        strategy = self.entrants[entrant].bot
        order = self.ruleset.auto_order(self.state, entrant, _body(partial), strategy)
        return {**order, "by": "bot"}

    def absent_order(self, entrant: str, partial: Order | None = None) -> Order:
        """The rules' automatic order for an absent player, keeping what they chose, marked ``auto``."""
        order = self.ruleset.auto_order(self.state, entrant, _body(partial), None)
        return {**order, "auto": True}

    def play_step(self, orders: Mapping[str, Order | str], awaited: list[Decision] | None = None) -> StepPlayed:
        """Resolve one step. ``orders`` hold the humans' orders; bot seats are filled in here.

        Every order is validated (bots' too, through the same path) without its bookkeeping keys, which
        go to ``resolve`` beside it. The orders as sent, bookkeeping included, come back in
        :class:`StepPlayed` for the caller's record, so a replay reproduces the step exactly. ``awaited``
        may pass the decisions the caller has just asked for, to save asking twice. A step that awaits
        nobody is resolved with no orders.
        """
        if awaited is None:
            awaited = self.awaited()
        return self._play(orders, [(d.entrant, d.required) for d in awaited], awaited)

    def _play(
        self, orders: Mapping[str, Order | str], awaited: list[tuple[str, bool]], decisions: list[Decision] | None
    ) -> StepPlayed:
        """:meth:`play_step` for the awaited entrants and whether each must send an order (``decisions``:
        what the caller was shown, kept for its callers' sake; an incomplete order is named from the
        decision given what was sent)."""
        if not awaited and self.finished:
            raise RecordError("the race is finished: no order is awaited")
        entrants = self.entrants
        step: dict[str, Order | str] = {}
        normalised: dict[str, Order] = {}
        metas: dict[str, dict[str, Any]] = {}
        ruleset, state = self.ruleset, self.state
        for who, required in awaited:
            if who in orders:
                sent = orders[who]
                try:
                    body, meta = split_meta(sent)
                except OrderError as exc:
                    exc.entrant = who
                    raise
                if meta:
                    metas[who] = meta
            elif entrants[who].bot is not None:
                body = ruleset.auto_order(state, who, None, entrants[who].bot)
                metas[who] = {"by": "bot"}
                sent = {**body, "by": "bot"}
            elif not required:
                continue
            else:
                raise RecordError(f"no order from {who}", entrant=who)
            try:
                kept = metas.get(who)
                if kept is not None and kept.get("auto") is True:
                    checked = _complete_absent(ruleset, state, who, body)
                else:
                    checked = ruleset.validate(state, who, body, None)
            except OrderError as exc:
                exc.entrant = who
                raise
            if not checked.complete:
                # The decision given what was sent names exactly what is still missing (not the whole order).
                decision = next(d for d in ruleset.awaited(state, {who: checked.order}) if d.entrant == who)
                incomplete = OrderError.of(
                    "order.incomplete", "The order is incomplete: {missing}", missing=decision.prompt.text
                )
                incomplete.entrant = who
                raise incomplete
            normalised[who] = checked.order
            step[who] = sent
        if len(step) != len(orders):
            extra = sorted(set(orders) - set(step))
            if extra:
                raise RecordError(f"an order from {', '.join(extra)}, who is not awaited now", entrant=extra[0])
        self.state, events = ruleset.resolve(state, normalised, metas or None)
        self.played += 1
        return StepPlayed(step, events)

    def publish(self) -> list[Event]:
        """Publish what the finished race held back (Tabella's Gazzetta), if anything.

        The bot calls this when the announcement is due; the terminal calls it at once. The events are
        returned, not added to the step events: a publication is not a step of the record; it goes to the
        record's ``announcements`` (:meth:`record`)."""
        pending = self.ruleset.pending_announcement(self.state)
        if pending is None:
            return []
        self.state, events = self.ruleset.publish(self.state)
        self.announced.append(Announced(kind=announcement_name(pending.kind), after_step=self.played))
        return events

    def play_bots_until_human(self, on_step: Callable[[StepPlayed], object] | None = None) -> int:
        """Resolve steps while every awaited entrant is a bot (or nobody is awaited and the race goes on);
        each step goes to ``on_step``. Returns the number of steps played."""
        entrants = self.entrants
        ruleset = self.ruleset
        played = 0
        while True:
            awaited = ruleset.awaited_ids(self.state)  # who, without building the decisions
            if any(entrants[who].bot is None for who in awaited) or (not awaited and self.finished):
                return played
            step = self._play({}, [(who, True) for who in awaited], None)
            played += 1
            if on_step is not None:
                on_step(step)


def replay(
    record: RaceRecord,
    on_step: Callable[[int, StepPlayed], object] | None = None,
    on_publish: Callable[[Announced, list[Event]], object] | None = None,
    on_state: Callable[[int, Race], object] | None = None,
) -> Race:
    """Play every step of ``record``, each to ``on_step(number, step)``; an illegal order raises
    :class:`RecordError` naming step and entrant. The race keeps no step: a caller that wants the events
    collects them in ``on_step``.

    The record's ``announcements`` are published after the step each names, their events to
    ``on_publish``, so a finished race's record replays to the standings its players were shown; one that
    names nothing pending (or another kind) is refused. ``on_state(number, race)`` sees the race after
    each step (and at the start, number 0), for a caller that shows every step's state.

    A record made before a play became automatic (Flamme Rouge's exhaustion card of a rider without cards)
    holds an order from an entrant the step no longer awaits: such an order is still checked with the rule
    system and then left out, as the rules now play it by themselves."""
    race = Race.from_record_start(record)
    announcements = list(enumerate(record.announcements or []))
    if on_state is not None:
        on_state(0, race)
    _publish_due(race, announcements, 0, on_publish)
    for n, step in enumerate(record.steps, start=1):
        decisions = race.awaited()
        awaited = {d.entrant for d in decisions}
        if not decisions and race.finished:
            raise RecordError(f"step {n}: the race is already finished, but the record goes on", step=n)
        extra = [who for who in step if who not in awaited]
        due = sorted(d.entrant for d in decisions if d.required and d.entrant not in step)
        if extra and due:
            # Someone else's order where the step awaits another: name the turn, not just the missing order.
            verb = "is" if len(due) == 1 else "are"
            raise RecordError(
                f"step {n}: {', '.join(extra)} played out of turn; {', '.join(due)} {verb} to play",
                step=n,
                entrant=extra[0],
            )
        if extra:
            for who in extra:
                try:
                    race.validate(who, step[who])
                except OrderError:
                    raise RecordError(
                        f"step {n}, {who}: an order from {who}, who is not awaited now", step=n, entrant=who
                    ) from None
            step = {who: order for who, order in step.items() if who in awaited}
        missing = sorted(awaited - set(step))
        # An entrant who sent nothing where the rules say they do not start (Tabella plan mode) is
        # simply absent from the step; the rule system decides whether that is allowed.
        try:
            played = race.play_step(step, decisions)
        except OrderError as exc:
            blamed = exc.entrant
            where = f"step {n}, {blamed}" if blamed else f"step {n}"
            raise RecordError(f"{where}: {exc.message.text}", step=n, entrant=blamed) from exc
        except RecordError as exc:
            blamed = exc.entrant or (missing[0] if missing else None)
            where = f"step {n}, {blamed}" if blamed else f"step {n}"
            raise RecordError(f"{where}: {exc}", step=n, entrant=blamed) from exc
        except ValidationError as exc:
            raise RecordError(f"step {n}: {describe_validation_error(exc)}", step=n) from exc
        if on_step is not None:
            on_step(n, played)
        _publish_due(race, announcements, n, on_publish)
        if on_state is not None:
            on_state(n, race)
    return race


def _publish_due(
    race: Race,
    announcements: list[tuple[int, Announced]],
    step: int,
    on_publish: Callable[[Announced, list[Event]], object] | None,
) -> None:
    """Publish the recorded announcements that came out after ``step`` (taking them off the list)."""
    while announcements and announcements[0][1].after_step == step:
        index, announced = announcements.pop(0)
        pending = race.ruleset.pending_announcement(race.state)
        if pending is None or announced.kind not in (pending.kind, announcement_name(pending.kind)):
            held = f"only {announcement_name(pending.kind)!r} is pending" if pending else "nothing is pending"
            raise RecordError(
                f"announcements.{index}: {announced.kind!r} cannot be published after step {step}: {held}"
            )
        events = race.publish()
        if on_publish is not None:
            on_publish(announced, events)


def _complete_absent(ruleset: Ruleset[Any], state: Any, who: str, body: Order | str) -> Validated:
    """An order marked ``"auto": true``, checked; where it is incomplete (a hand-written record may give
    ``{"auto": true}`` alone, or only the parts the player chose), the rules' automatic order completes it.

    A complete order (what the bot and the CLI write) is checked as it is, so records of today replay
    exactly as before."""
    if not body:
        return ruleset.validate(state, who, ruleset.auto_order(state, who, None, None), None)
    checked = ruleset.validate(state, who, body, None)
    if checked.complete:
        return checked
    completed = ruleset.auto_order(state, who, body if isinstance(body, dict) else {"text": body}, None)
    return ruleset.validate(state, who, completed, None)


def _body(partial: Order | None) -> Order | None:
    """A partial order without its bookkeeping keys."""
    if partial is None:
        return None
    body = split_meta(partial)[0]
    return body if isinstance(body, dict) else None


def _name_the_field(record: RaceRecord, text: str) -> str:
    """A rule system's refusal of a well-formed part, prefixed with the field it is about
    (``rocks: space (row 99, lane 9) ...`` -> ``stage.rocks: space (row 99, lane 9) ...``).

    The field is the key of the record's ``stage``, ``options`` or ``setup`` that the message names at its
    head or, failing that, first as a word (its subject); a message naming none is left as it is."""
    if text.startswith(("stage", "options", "setup", "entrants")):
        return text  # already named from the record's top
    named: list[tuple[int, str, str]] = []
    for part, data in (("stage", record.stage), ("options", record.options), ("setup", record.setup)):
        if not isinstance(data, dict):
            continue
        for key in data:
            if text.startswith(f"{key}:"):
                return f"{part}.{text}"
            found = re.search(rf"\b{re.escape(key)}\b", text)
            if found:
                named.append((found.start(), part, key))
    if named:
        _, part, key = min(named)
        return f"{part}.{key}: {text}"
    return text


def _name_the_part(ruleset: Ruleset[Any], record: RaceRecord) -> str | None:
    """Which part of a refused record is malformed, its fields named from the record's top
    (``options.table: Extra inputs are not permitted``), so every rule system reports alike.

    Only called once ``new_race`` has refused the record, so a good record pays nothing for it."""
    parts: list[tuple[str, type[BaseModel], Any]] = [
        ("options", ruleset.options_model, record.options),
        ("setup", ruleset.setup_model, record.setup or {}),
    ]
    if isinstance(record.stage, dict):
        parts.insert(0, ("stage", ruleset.stage_model, record.stage))
    homes = {name: set(model.model_fields) for name, model, _ in parts}
    homes.setdefault("stage", set(ruleset.stage_model.model_fields))
    for name, model, data in parts:
        try:
            model.model_validate(data)
        except ValidationError as exc:
            text = describe_validation_error(exc, name)
            for err in exc.errors():
                if err["type"] != "extra_forbidden" or len(err["loc"]) != 1:
                    continue
                key = str(err["loc"][0])
                home = next((other for other, fields in homes.items() if other != name and key in fields), None)
                if home is not None:
                    line = f"{name}.{key}: {err['msg']}"
                    text = text.replace(line, f"{name}.{key}: {key} belongs in {home}, not in {name}", 1)
            return text
    return None


# --- rollouts: simulations ------------------------------------------------------------------------
_BY_BOT = "bot"


@dataclass(slots=True)
class Rollout:
    """An all-bot race played for its outcome alone (``gregario simulate``, ``/stage analyse``): the same
    rules as :class:`Race` on the same seed (the same standings, step by step the same states), but no
    record is written, events are built only when a step asks for them (:meth:`Ruleset.advance`), and the
    bots' orders go to the rules as the rule system's own ``auto_order`` made them; in a quiet step of a race
    with no person seated the rule system plays its bots as it likes (:meth:`Ruleset.play_bots`).

    ``check`` validates every bot order as :class:`Race` does (tests and smoke runs); a production rollout
    leaves it off, as the engine's own bot orders need no re-validation. A seat without a bot cannot
    play in a rollout: the step that awaits it raises :class:`RecordError`, as :class:`Race` does when an
    order is missing."""

    ruleset: Ruleset[Any]
    state: Any
    bots: dict[str, str | None]
    """Each entrant's strategy by id (``None``: a person, who never plays in a rollout)."""
    check: bool = False
    steps: int = 0
    """Steps resolved so far."""
    people: bool = field(init=False)
    """Whether any seat is a person's (then every step asks who is awaited, to stop before it)."""

    def __post_init__(self) -> None:
        self.people = any(bot is None for bot in self.bots.values())

    @classmethod
    def start(
        cls,
        ruleset_id: str,
        entrants: list[Entrant],
        seed: int,
        stage: dict[str, Any] | str | None = None,
        options: Mapping[str, Any] | None = None,
        setup: Mapping[str, Any] | None = None,
        *,
        check: bool = False,
    ) -> Rollout:
        """A new rollout; a bad stage, options or entrants raise the :class:`RecordError` that
        :meth:`Race.start` raises for them."""
        ruleset = get_ruleset(ruleset_id)
        try:
            state = ruleset.new_race(stage, dict(options or {}), list(entrants), seed, setup)
        except Exception:
            Race.start(ruleset_id, entrants, seed, stage, options, setup)  # names what is wrong, as a race does
            raise
        return cls(ruleset, state, {e.id: e.bot for e in entrants}, check)

    @property
    def finished(self) -> bool:
        return self.ruleset.finished(self.state)

    def result(self) -> Result:
        return self.ruleset.result(self.state)

    def step(self, events: bool = False, awaited: list[str] | None = None) -> list[Event]:
        """Resolve one step with every awaited bot's order; its events when ``events`` is true (else an
        empty list: nothing is built). ``awaited`` may pass ``awaited_ids`` just asked, to save asking twice."""
        ruleset, state, bots = self.ruleset, self.state, self.bots
        if not events and not self.check and not self.people:
            # The quiet step of an all-bot race: the rule system plays its bots as it likes, without being
            # asked who is awaited first (Ruleset.play_bots).
            if ruleset.finished(state) and not ruleset.awaited_ids(state):
                raise RecordError("the race is finished: no order is awaited")
            self.steps += 1
            self.state = ruleset.play_bots(state, bots)  # type: ignore[arg-type]  # no person: every strategy is set
            return []
        if awaited is None:
            awaited = ruleset.awaited_ids(state)
        if not awaited and ruleset.finished(state):
            raise RecordError("the race is finished: no order is awaited")
        orders: dict[str, Order] = {}
        meta: dict[str, dict[str, Any]] = {}
        auto_order, check = ruleset.auto_order, self.check
        for who in awaited:
            strategy = bots[who]
            if strategy is None:
                raise RecordError(f"no order from {who}", entrant=who)
            order = auto_order(state, who, None, strategy)
            if check:
                order = self._checked(who, order)
            orders[who] = order
            meta[who] = {"by": _BY_BOT}
        self.steps += 1
        if events:
            said: list[Event] = []
            self.state = ruleset.advance(state, orders, meta or None, said)
            return said
        self.state = ruleset.advance(state, orders, meta or None)
        return []

    def _checked(self, who: str, order: Order) -> Order:
        """A bot's order through the rules' check, as :class:`Race` checks it."""
        try:
            checked = self.ruleset.validate(self.state, who, order, None)
        except OrderError as exc:
            exc.entrant = who
            raise
        if not checked.complete:
            raise RecordError(f"{who}'s bot sent an incomplete order", entrant=who)
        return checked.order

    def play(self, on_events: Callable[[list[Event]], object] | None = None, limit: int | None = None) -> int:
        """Resolve steps while only bots are awaited (or nobody, and the race goes on), at most ``limit``;
        each step's events to ``on_events`` (built only for it). Returns the number of steps played."""
        ruleset, bots = self.ruleset, self.bots
        played = 0
        want = on_events is not None
        while limit is None or played < limit:
            awaited: list[str] | None = None
            if self.people or want or self.check:
                awaited = ruleset.awaited_ids(self.state)
                if any(bots[who] is None for who in awaited) or (not awaited and ruleset.finished(self.state)):
                    break
            elif ruleset.finished(self.state) and not ruleset.awaited_ids(self.state):
                break  # no seat can stop an all-bot race, only its end: who is awaited is asked only then
            said = self.step(want, awaited)
            played += 1
            if on_events is not None:
                on_events(said)
        return played

    def publish(self) -> list[Event]:
        """Publish what the finished race held back (Tabella's Gazzetta), as :meth:`Race.publish` does."""
        if self.ruleset.pending_announcement(self.state) is None:
            return []
        self.state, events = self.ruleset.publish(self.state)
        return events


def rollout(
    ruleset_id: str,
    entrants: list[Entrant],
    seed: int,
    stage: dict[str, Any] | str | None = None,
    options: Mapping[str, Any] | None = None,
    *,
    check: bool = False,
    on_events: Callable[[list[Event]], object] | None = None,
) -> Rollout:
    """An all-bot race played to its end (or to the first seat without a bot) in rollout mode."""
    played = Rollout.start(ruleset_id, entrants, seed, stage, options, check=check)
    played.play(on_events)
    return played
