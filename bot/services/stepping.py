"""The one place the services talk to the engine's race driver (:class:`engine.race.Race`).

Every function here takes plain, picklable data (a :class:`Spec`, a state dump, stored orders) and
returns plain data, so it can run in the engine worker process (:mod:`bot.services.workers`): each
call loads the state from its dump, does one whole job (start, check an order, resolve a step and
prepare the next, publish, replay) and dumps the state again. Nothing is kept between calls.

The driver hands each step back as the record keeps it beside its events (:class:`engine.race.StepPlayed`),
holds the opening events in ``Race.opening``, and may await nobody in a step that is not the last (a
Flamme Rouge rider without cards plays its exhaustion card by itself): such a step is ready at once and
resolves with no orders; finished comes from the result.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.messages import Message, OrderError
from engine.race import Race, replay
from engine.record import RaceRecord, RecordError
from engine.registry import RULESET_IDS, get_ruleset
from engine.ruleset import ORDER_META_KEYS, PROGRESS_KEY, Entrant, Order, set_path


@dataclass(frozen=True)
class Spec:
    """What identifies a race to the engine, besides its state: the envelope of its record."""

    ruleset: str
    entrants: tuple[tuple[str, str, str | None], ...]
    """(id, name, bot strategy or None) per seat, in seat order."""
    seed: int
    stage: Any = None
    options: dict[str, Any] = field(default_factory=dict)

    def record(self, steps: list[dict[str, Any]] | None = None) -> RaceRecord:
        return RaceRecord(
            ruleset=self.ruleset,
            seed=self.seed,
            stage=self.stage,
            options=dict(self.options),
            entrants=[Entrant(id=i, name=n, bot=b) for i, n, b in self.entrants],
            steps=steps or [],
        )


@dataclass(frozen=True)
class Stored:
    """An order as the database holds it: the body, whether it is complete, who made it, when."""

    body: dict[str, Any]
    complete: bool
    by: str
    received_at: str
    """ISO 8601 (UTC)."""

    def for_record(self) -> Order:
        """The order as the record keeps it: the body and its bookkeeping keys."""
        meta: dict[str, Any] = {"received_at": self.received_at}
        if self.by == "bot":
            meta["by"] = "bot"
        elif self.by == "auto":
            meta["auto"] = True
        return {**self.body, **meta}


@dataclass(frozen=True)
class Awaiting:
    """Who the step now open waits for, and the bots' answers (bots answer at once)."""

    entrants: list[str]
    optional: list[str]
    """Awaited entrants who may send nothing (Tabella plan mode: they do not start)."""
    bot_orders: dict[str, dict[str, Any]]
    finished: bool
    result: dict[str, Any]
    announcement: tuple[str, str, int | None] | None
    """(kind, delay, hour) of news the finished race holds back, if any."""
    progress: dict[str, Any] | None = None
    """The public progress marker as the step opens (after the step before): a front end that tells a
    sequential system lap by lap groups each resolved step by its own marker, not by the race's now."""


@dataclass(frozen=True)
class Opened:
    state: dict[str, Any]
    state_format: str | None
    events: list[dict[str, Any]]
    next: Awaiting


@dataclass(frozen=True)
class Resolved:
    state: dict[str, Any]
    state_format: str | None
    orders: dict[str, Any]
    """The step as the record keeps it (entrant -> order with ``by``/``auto``/``received_at``)."""
    events: list[dict[str, Any]]
    next: Awaiting


@dataclass(frozen=True)
class Waiting:
    """The step cannot resolve yet: these awaited entrants have no complete order."""

    missing: list[str]


@dataclass(frozen=True)
class Checked:
    order: dict[str, Any]
    complete: bool


@dataclass(frozen=True)
class Published:
    state: dict[str, Any]
    state_format: str | None
    events: list[dict[str, Any]]
    result: dict[str, Any]


class NotAwaited(Exception):
    """The entrant has nothing to decide in this step."""


def _race(spec: Spec, state: dict[str, Any]) -> Race:
    ruleset = get_ruleset(spec.ruleset)
    return Race(ruleset=ruleset, header=spec.record(), state=ruleset.load(state))


def _dump(race: Race) -> tuple[dict[str, Any], str | None]:
    data = race.ruleset.dump(race.state)
    form = data.get("format")
    return data, form if isinstance(form, str) else None


def _awaiting(race: Race) -> Awaiting:
    decisions = race.awaited()
    result = race.result()
    bots = {}
    for decision in decisions:
        if race.entrants[decision.entrant].bot is not None:
            bots[decision.entrant] = _body(race.bot_order(decision.entrant))
    announcement = None
    if result.finished:
        pending = race.ruleset.pending_announcement(race.state)
        if pending is not None:
            announcement = (pending.kind, pending.delay, pending.hour)
    return Awaiting(
        entrants=[d.entrant for d in decisions],
        optional=[d.entrant for d in decisions if not d.required],
        bot_orders=bots,
        finished=result.finished,
        result=result.model_dump(mode="json"),
        announcement=announcement,
        progress=_progress(race),
    )


def _progress(race: Race) -> dict[str, Any] | None:
    marker = race.ruleset.public_view(race.state).get(PROGRESS_KEY)
    return dict(marker) if isinstance(marker, dict) else None


def _body(order: Order) -> dict[str, Any]:
    return {k: v for k, v in order.items() if k not in ORDER_META_KEYS}


class StartError(ValueError):
    """The rules refuse to start this race (seats, stage or options), with the engine's reason."""


def ruleset_ids() -> tuple[str, ...]:
    return RULESET_IDS


def player_limits(ruleset: str, stage: Any, options: dict[str, Any]) -> tuple[int, int]:
    """How many seats a race on ``stage`` with ``options`` may have (raises ``ValueError`` for a bad stage
    or options)."""
    limits = get_ruleset(ruleset).player_limits(stage, options)
    return limits.minimum, limits.maximum


def stage_copy(ruleset: str, stage: Any) -> tuple[Any, str | None]:
    """What a race stores for ``stage``: the explicit stage data (a preset's, or the default's when
    ``stage`` is None) and the preset's name to show (None for the default or an explicit stage). A stage
    the rule system refuses is kept as given, so it is refused where it always was (at start)."""
    try:
        data = get_ruleset(ruleset).stage_data(stage)
    except ValueError:
        return stage, None
    return data, stage if isinstance(stage, str) else None


def is_preset(ruleset: str, name: str) -> bool:
    """Whether ``name`` is one of the rule system's presets (else it names a server's saved stage)."""
    return any(p.name == name for p in get_ruleset(ruleset).presets())


def stage_label(ruleset: str, stage: Any, name: str | None) -> Any:
    """What names a race's stage to people and the league: its preset's or saved stage's name, ``None`` for
    the rule system's default stage (copied or not), else the stage data itself."""
    if name is not None:
        return name
    if stage is not None and not isinstance(stage, str):
        try:
            if get_ruleset(ruleset).stage_data(None) == stage:
                return None
        except ValueError:
            pass
    return stage


def strategies(ruleset: str) -> tuple[tuple[str, ...], str]:
    """The bot strategies of a rule system and its default one."""
    rules = get_ruleset(ruleset)
    return tuple(rules.strategies), rules.default_strategy


def seats_at_start(
    ruleset: str, seats: list[tuple[str, str, str | None]], options: dict[str, Any]
) -> list[tuple[str, str, str | None]]:
    """The seats the race starts with: as the lobby chose them, or, when nobody seated a bot, with the
    rule system's default bot seats added (Flamme Rouge's bot teams)."""
    if any(bot is not None for _, _, bot in seats):
        return seats
    entrants = [Entrant(id=i, name=n, bot=b) for i, n, b in seats]
    return [(e.id, e.name, e.bot) for e in get_ruleset(ruleset).default_entrants(entrants, options)]


def start(spec: Spec) -> Opened:
    """A new race: its state, the opening events and what its first step awaits (raises :class:`StartError`)."""
    try:
        race = Race.start(spec.ruleset, spec.record().entrants, spec.seed, stage=spec.stage, options=spec.options)
    except (RecordError, ValueError) as exc:
        raise StartError(str(exc)) from None
    state, form = _dump(race)
    return Opened(state, form, [e.model_dump(mode="json") for e in race.opening], _awaiting(race))


def check(spec: Spec, state: dict[str, Any], entrant: str, order: Order | str, previous: Order | None) -> Checked:
    """An entrant's order checked by the rules (merged with what they sent before this step).

    Raises :class:`NotAwaited` or the engine's :class:`~engine.messages.OrderError`."""
    race = _race(spec, state)
    if entrant not in {d.entrant for d in race.awaited()}:
        raise NotAwaited(entrant)
    if isinstance(order, dict):
        order = _body(order)
    checked = race.ruleset.validate(race.state, entrant, order, previous)
    return Checked(_body(checked.order), checked.complete)


@dataclass(frozen=True)
class Panel:
    decision: dict[str, Any] | None
    """What the entrant must decide now, given what they sent (fields, choices, prompt), or None."""
    view: dict[str, Any]
    """What the entrant alone may see (their hand, their plan)."""


def panel(spec: Spec, state: dict[str, Any], entrant: str, partial: Order | None) -> Panel:
    """An entrant's private panel: their pending decision and their private view. The decision also
    carries ``asked``: the field that asked each value ``partial`` holds (:func:`asked_fields`), so the
    panel confirms the order in the decision's own labels."""
    race = _race(spec, state)
    decisions = race.awaited({entrant: partial} if partial else None)
    mine = next((d for d in decisions if d.entrant == entrant), None)
    view = race.ruleset.private_view(race.state, entrant)
    if mine is None:
        return Panel(None, view)
    asked = mine.model_dump(mode="json")
    asked["asked"] = asked_fields(race, entrant, partial or {})
    return Panel(asked, view)


def _leaves(order: Order, prefix: tuple[str, ...] = ()) -> dict[tuple[str, ...], Any]:
    found: dict[tuple[str, ...], Any] = {}
    for key, value in order.items():
        if isinstance(value, dict):
            found.update(_leaves(value, (*prefix, str(key))))
        else:
            found[(*prefix, str(key))] = value
    return found


def asked_fields(race: Race, entrant: str, order: Order) -> list[dict[str, Any]]:
    """The fields of the entrant's decision that asked each value of ``order``, in the order they were
    asked: the decision is asked again with the order's values set one field at a time (a later field
    appears once the earlier one is set, as on the panel). Each is the field's JSON with the ``value``
    the order holds; a value no field asks (bookkeeping) is left out."""
    leaves = _leaves({k: v for k, v in order.items() if k not in ORDER_META_KEYS})
    found: list[dict[str, Any]] = []
    done: set[tuple[str, ...]] = set()
    partial: Order = {}
    for _ in range(len(leaves) + 1):
        try:
            decisions = race.awaited({entrant: partial} if partial else None)
        except (OrderError, ValueError, KeyError, TypeError):
            break
        mine = next((d for d in decisions if d.entrant == entrant), None)
        fresh = [f for f in (mine.fields if mine is not None else []) if tuple(f.path) in leaves]
        fresh = [f for f in fresh if tuple(f.path) not in done]
        if not fresh:
            break
        for f in fresh:
            done.add(tuple(f.path))
            value = leaves[tuple(f.path)]
            found.append({**f.model_dump(mode="json"), "value": value})
            partial = set_path(partial, f.path, value)
    return found


def resolve(
    spec: Spec,
    state: dict[str, Any],
    orders: dict[str, Stored],
    force: bool,
    now: str,
    absent_by_bot: bool = False,
    gone: tuple[str, ...] = (),
) -> Resolved | Waiting:
    """Resolve the step now open with the stored orders, or say who is missing.

    With ``force`` (the deadline), an absent player gets the rules' automatic order, completing what
    they sent (marked ``auto``), or, where the server's policy says so (``absent_by_bot``), the order the
    rule system's default bot would give, also marked ``auto``; an entrant the rules let send nothing is
    left out. The entrants ``gone`` (who left the race) are absent at once, without waiting for the
    deadline. A bot without a stored order answers now."""
    race = _race(spec, state)
    decisions = race.awaited()
    step: dict[str, Order] = {}
    missing = []
    for decision in decisions:
        who = decision.entrant
        stored = orders.get(who)
        if stored is not None and stored.complete:
            step[who] = stored.for_record()
        elif race.entrants[who].bot is not None:
            step[who] = {**_body(race.bot_order(who)), "by": "bot", "received_at": now}
        elif not force and who not in gone:
            missing.append(who)
        elif stored is not None or decision.required:
            partial = stored.body if stored is not None else None
            strategy = race.ruleset.default_strategy if absent_by_bot else None
            absent = race.ruleset.auto_order(race.state, who, partial, strategy)
            step[who] = {**_body(absent), "auto": True, "received_at": now}
    if missing:
        return Waiting(missing)
    played = race.play_step(step, decisions)
    data, form = _dump(race)
    events = [e.model_dump(mode="json") for e in played.events]
    return Resolved(data, form, dict(played.orders), events, _awaiting(race))


def publish(spec: Spec, state: dict[str, Any]) -> Published:
    """Publish what the finished race held back (the Gazzetta): new state, its events, the final result."""
    race = _race(spec, state)
    events = race.publish()
    data, form = _dump(race)
    return Published(data, form, [e.model_dump(mode="json") for e in events], race.result().model_dump(mode="json"))


def result_of(spec: Spec, state: dict[str, Any]) -> dict[str, Any]:
    """Where the race stands now (a final post owed by a version before the outbox reads its result here)."""
    return _race(spec, state).result().model_dump(mode="json")


def replay_result(record: RaceRecord, published: bool) -> dict[str, Any]:
    """The result a record replays to (after its announcement, when it was published)."""
    race = replay(record)
    if published:
        race.publish()
    return race.result().model_dump(mode="json")


def _replayed_to(record: RaceRecord, steps: int, on_state: Any = None) -> Race:
    """The race after the first ``steps`` steps of ``record`` (announcements come after the last step)."""
    return replay(record.model_copy(update={"steps": record.steps[:steps], "announcements": None}), on_state=on_state)


def decisions_before(
    record: RaceRecord, step: int, entrants: list[str], played: dict[str, Order] | None = None
) -> dict[str, dict[str, Any] | None]:
    """What each of ``entrants`` was asked when ``step`` opened (None: nothing), the record replayed to the
    step before: a panel closed once its step resolved shows its components again, disabled. With
    ``played`` (the orders the step played), each decision carries ``asked`` (:func:`asked_fields`), so
    the closed panel tells the order in the decision's own labels."""
    race = _replayed_to(record, step - 1)
    asked = {d.entrant: d.model_dump(mode="json") for d in race.awaited()}
    for entrant, order in (played or {}).items():
        if asked.get(entrant) is not None:
            asked[entrant]["asked"] = asked_fields(race, entrant, order)
    return {e: asked.get(e) for e in entrants}


def result_after(record: RaceRecord, step: int) -> dict[str, Any]:
    """Where the race stood after resolved ``step``, the record replayed (a stage's summary told late)."""
    return _replayed_to(record, step).result().model_dump(mode="json")


def public_after(record: RaceRecord, step: int) -> dict[str, Any]:
    """The public view after resolved ``step`` (0: the start), the record replayed: the board of a post
    delivered after the race moved on (a restart) shows the race as it stood after that step."""
    race = _replayed_to(record, step)
    return race.ruleset.public_view(race.state)


def order_error(exc: OrderError) -> Message:
    """The engine's typed refusal, to hand to the player."""
    return exc.message
