"""A race in progress: a rule system, its state and the record being written, stepped generically.

This is the one loop every front end shares (the terminal, ``simulate``, ``replay``, and the bot's
race service): collect the awaited orders, fill in bots and absent players, resolve, append the step
to the record. Nothing here knows which rule system it drives.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from pydantic import BaseModel, ValidationError

from engine.messages import OrderError
from engine.record import RaceRecord, RecordError, describe_validation_error
from engine.registry import get_ruleset
from engine.ruleset import ORDER_META_KEYS, Decision, Entrant, Event, Order, Result, Ruleset


def strip_meta(order: Order | str) -> Order | str:
    """The order as the rule system validates it: without ``by`` and ``auto`` (who made it), but with
    ``received_at``, which a rule may read (Tabella's third priority key, D6)."""
    if isinstance(order, str):
        return order
    return {k: v for k, v in order.items() if k not in ORDER_META_KEYS or k == "received_at"}


@dataclass
class Race:
    """A race: its rule system, current state, the record so far and the events of every step."""

    ruleset: Ruleset[Any]
    record: RaceRecord
    state: Any
    events: list[list[Event]] = field(default_factory=list)

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
        """A new race and its empty record."""
        record = RaceRecord(
            ruleset=ruleset_id,
            seed=seed,
            stage=stage,
            options=dict(options or {}),
            entrants=entrants,
            setup=dict(setup) if setup is not None else None,
        )
        return cls.from_record_start(record)

    @classmethod
    def from_record_start(cls, record: RaceRecord) -> Race:
        """The race at the start of ``record`` (its steps are not played; see :func:`replay`)."""
        ruleset = get_ruleset(record.ruleset)
        try:
            state = ruleset.new_race(record.stage, record.options, list(record.entrants), record.seed, record.setup)
        except ValidationError as exc:
            raise RecordError(_name_the_part(ruleset, record) or describe_validation_error(exc)) from exc
        except (ValueError, OrderError) as exc:
            raise RecordError(_name_the_part(ruleset, record) or str(exc)) from exc
        empty = record.model_copy(update={"steps": []})
        return cls(ruleset=ruleset, record=empty, state=state)

    # --- queries ---------------------------------------------------------------------------------
    @cached_property
    def entrants(self) -> dict[str, Entrant]:
        """Seats by id (fixed for the whole race)."""
        return {e.id: e for e in self.record.entrants}

    def awaited(self, partial: Mapping[str, Order] | None = None) -> list[Decision]:
        return self.ruleset.awaited(self.state, partial)

    def result(self) -> Result:
        return self.ruleset.result(self.state)

    @property
    def finished(self) -> bool:
        return not self.awaited() and self.result().finished

    # --- stepping --------------------------------------------------------------------------------
    def validate(self, entrant: str, order: Order | str, previous: Order | None = None) -> Order:
        """A player's order, checked and normalised (raises ``OrderError``)."""
        return self.ruleset.validate(self.state, entrant, strip_meta(order), previous).order

    def bot_order(self, entrant: str, partial: Order | None = None) -> Order:
        """What a bot seat plays now, marked ``"by": "bot"`` for the record."""
        strategy = self.entrants[entrant].bot
        order = self.ruleset.auto_order(self.state, entrant, partial, strategy)
        return {**order, "by": "bot"}

    def absent_order(self, entrant: str, partial: Order | None = None) -> Order:
        """The rules' automatic order for an absent player, keeping what they chose, marked ``auto``."""
        order = self.ruleset.auto_order(self.state, entrant, partial, None)
        return {**order, "auto": True}

    def play_step(self, orders: Mapping[str, Order | str], awaited: list[Decision] | None = None) -> list[Event]:
        """Resolve one step. ``orders`` hold the humans' orders; bot seats are filled in here.

        Every order is validated (bots' too, through the same path); the orders as sent, with their
        bookkeeping keys, are appended to the record so a replay reproduces the step exactly.
        ``awaited`` may pass the decisions the caller has just asked for, to save asking twice.
        """
        if awaited is None:
            awaited = self.awaited()
        if not awaited:
            raise RecordError("the race is finished: no order is awaited")
        entrants = self.entrants
        step: dict[str, Order | str] = {}
        normalised: dict[str, Order] = {}
        ruleset, state = self.ruleset, self.state
        for decision in awaited:
            who = decision.entrant
            meta: dict[str, Any] = {}
            if who in orders:
                sent = orders[who]
                body: Order | str = sent
                if isinstance(sent, dict) and not sent.keys().isdisjoint(ORDER_META_KEYS):
                    meta = {k: v for k, v in sent.items() if k in ORDER_META_KEYS}
                    body = strip_meta(sent)
            elif entrants[who].bot is not None:
                body = ruleset.auto_order(state, who, None, entrants[who].bot)
                meta = {"by": "bot"}
                sent = {**body, "by": "bot"}
            elif not decision.required:
                continue
            else:
                raise RecordError(f"no order from {who}", entrant=who)
            try:
                checked = ruleset.validate(state, who, body, None)
            except OrderError as exc:
                exc.entrant = who
                raise
            if not checked.complete:
                incomplete = OrderError.of(
                    "order.incomplete", "The order is incomplete: {missing}", missing=decision.prompt.text
                )
                incomplete.entrant = who
                raise incomplete
            normalised[who] = {**checked.order, **meta} if meta else checked.order
            step[who] = sent
        if len(step) != len(orders):
            extra = sorted(set(orders) - set(step))
            if extra:
                raise RecordError(f"an order from {', '.join(extra)}, who is not awaited now", entrant=extra[0])
        self.state, events = self.ruleset.resolve(self.state, normalised)
        self.record.steps.append(step)
        self.events.append(events)
        return events

    def publish(self) -> list[Event]:
        """Publish what the finished race held back (Tabella's Gazzetta), if anything.

        The bot calls this when the announcement is due; the terminal calls it at once. The events are
        returned, not added to the step events: a publication is not a step of the record."""
        if self.ruleset.pending_announcement(self.state) is None:
            return []
        self.state, events = self.ruleset.publish(self.state)
        return events

    def play_bots_until_human(self) -> None:
        """Resolve steps while every awaited entrant is a bot."""
        entrants = self.entrants
        while True:
            awaited = self.awaited()
            if not awaited or any(entrants[d.entrant].bot is None for d in awaited):
                return
            self.play_step({}, awaited)


def replay(record: RaceRecord) -> Race:
    """Play every step of ``record``; an illegal order raises :class:`RecordError` naming step and entrant."""
    race = Race.from_record_start(record)
    for n, step in enumerate(record.steps, start=1):
        decisions = race.awaited()
        awaited = {d.entrant for d in decisions}
        if not awaited:
            raise RecordError(f"step {n}: the race is already finished, but the record goes on", step=n)
        missing = sorted(awaited - set(step))
        # An entrant who sent nothing where the rules say they do not start (Tabella plan mode) is
        # simply absent from the step; the rule system decides whether that is allowed.
        try:
            race.play_step(step, decisions)
        except OrderError as exc:
            who = _guess_entrant(exc, step)
            raise RecordError(f"step {n}, {who}: {exc.message.text}", step=n, entrant=who) from exc
        except RecordError as exc:
            who = exc.entrant or (missing[0] if missing else "?")
            raise RecordError(f"step {n}, {who}: {exc}", step=n, entrant=who) from exc
        except ValidationError as exc:
            raise RecordError(f"step {n}: {describe_validation_error(exc)}", step=n) from exc
    return race


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
    for name, model, data in parts:
        try:
            model.model_validate(data)
        except ValidationError as exc:
            return describe_validation_error(exc, name)
    return None


def _guess_entrant(exc: OrderError, step: Mapping[str, Any]) -> str:
    return exc.entrant or next(iter(step), "?")
