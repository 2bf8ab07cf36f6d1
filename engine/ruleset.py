"""The one interface every rule system implements, so nothing above the engine branches on it.

Shape (after OpenSpiel's state API and python-chess's small vocabulary):

- ``start_race(stage, options, entrants, seed, setup) -> (state, opening events)``: the checks common to
  every system (:func:`check_entrants`: unique ids, the player count of :meth:`Ruleset.player_limits`,
  known strategies), then the system's own ``open_race``. ``new_race`` is the same without the events.
- ``awaited(state, partial) -> [Decision]``: who must decide now, what, and what is legal. Simultaneous
  systems await several entrants at once, sequential ones a single entrant. ``partial`` holds the
  orders entrants have sent so far this step, so a multi-part decision (Flamme Rouge: pick the rider
  to draw for first, then its card, then the team-mate's card) shows its next part.
- ``validate(state, entrant, order, previous) -> Validated``: a typed order (JSON object) or the text
  syntax, to a normalised order or an :class:`~engine.messages.OrderError` naming what is wrong.
- ``resolve(state, orders, meta) -> (state, events)``: the awaited orders in, a new state and typed events
  out. It never mutates the state it is given. A step may await nobody (a Flamme Rouge rider without cards
  plays its exhaustion card by itself): it is resolved with no orders.
- ``auto_order(state, entrant, partial, strategy)``: what a bot (``strategy`` = its name) or an absent
  player (``strategy`` = ``None``, the rules' automatic order) plays, completing ``partial``.
- ``public_view`` / ``private_view`` / ``result`` / ``dump`` / ``load``.
- ``player_limits(stage, options) -> PlayerLimits``: how many entrants a race may have.
- ``awaited_ids(state)``, ``finished(state)`` and ``leader(state)``: what ``awaited`` and ``result`` would say
  (who, whether the race is over, who leads), cheaply, for the driver's loop and the stage analysis; defaults
  derive them from the full answers.
- ``advance(state, orders, meta, events) -> state``: ``resolve`` for rollouts (simulations), which may play
  on the state itself and builds the events only when given a list for them; the default resolves (a copy).

Orders are plain JSON objects (``dict``) at this boundary; each rule system validates them with its own
pydantic models. Keys :data:`ORDER_META_KEYS` are bookkeeping of the race record, not part of the
decision: the driver (:mod:`engine.race`) takes them out of every order before ``validate`` and
``auto_order`` see it, and hands them to ``resolve`` beside the orders (``meta``), where a rule may read
them (Tabella's ``received_at``, D6). No rule system filters them itself.

Nothing handed out is shared between races: whatever ``awaited``, ``validate``, ``resolve``, the views and
``result`` return belongs to the caller, who may change it (the contract tests do).

Every public view carries a common progress marker under :data:`PROGRESS_KEY` (``"progress"``), built by
:func:`progress_marker`: ``{"unit": "round" | "stage", "number": n, "of": total or null, "turn": entrant or
null, "label": message or null, "lap": n or null}`` -- where the race is (Flamme Rouge's and Mind Cycling's round,
Tabella's round named by a dumped message, "Move 3", Wyścig's stage) and, when a single entrant is awaited, whose
turn it is; so a front end can edit one message per round without knowing the system. ``lap`` is set only by
sequential systems (turn by turn, one entrant awaited per step): the lap of turns the race is in within its
``number`` (from 1; once finished, the last lap). A front end groups turns by it -- a new lap number means the
previous lap is complete -- and treats ``null`` as "one post per step".

Every state dump carries its format (``"format": "<system>.state/1"``); ``load`` refuses another with
:class:`StateFormatError`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, ClassVar, Generic, Literal, NamedTuple, TypeVar

from pydantic import BaseModel, ConfigDict, Field

from engine.messages import Event as Event  # the interface's event type, built by engine.messages.event
from engine.messages import Light, Message

S = TypeVar("S")

Order = dict[str, Any]
"""A JSON order object. Text-syntax orders arrive as ``{"text": "r5 s9"}`` or a bare string."""

ORDER_META_KEYS = frozenset({"by", "auto", "received_at"})
"""Record bookkeeping carried inside an order object: who made it (``"by": "bot"``), whether the engine
completed it for an absent player (``"auto": true``) and when it was received (ISO 8601)."""

OrderMeta = Mapping[str, Any]
"""An order's bookkeeping keys (a subset of :data:`ORDER_META_KEYS`), passed to ``resolve`` beside it."""


PROGRESS_KEY = "progress"
"""The key of the common progress marker in every public view (:func:`progress_marker`)."""


def progress_marker(
    unit: Literal["round", "stage"],
    number: int,
    of: int | None,
    turn: str | None,
    label: dict[str, Any] | None = None,
    lap: int | None = None,
) -> dict[str, Any]:
    """The common progress marker of a public view: the ``unit`` the race counts in, which one it is at
    (from 1) and of how many (``None``: open-ended), whose turn it is when a single entrant is awaited, the
    system's own name for the step if it has one (a dumped :class:`~engine.messages.Message`, Tabella's
    "Move 3", so a front end says it in words in the reader's language), and, for systems played turn by turn,
    the lap of turns now being played (``None``: the system has no laps; a front end posts once per step)."""
    return {"unit": unit, "number": number, "of": of, "turn": turn, "label": label, "lap": lap}


class StateFormatError(ValueError):
    """A dumped state that is not of this rule system's format (another system, or a version this code
    does not know): ``load`` refuses it rather than guess."""


def check_state_format(data: Mapping[str, Any], expected: str) -> None:
    """Raise :class:`StateFormatError` unless ``data["format"]`` is ``expected`` (``"tabella.state/1"``)."""
    found = data.get("format") if isinstance(data, Mapping) else None
    if found != expected:
        raise StateFormatError(f"cannot load a state of format {found!r}: this code reads {expected!r}")


class EntrantError(ValueError):
    """Entrants a race cannot start with; ``field`` names the offending part (``entrants.2.bot``)."""

    def __init__(self, field: str, text: str) -> None:
        super().__init__(f"{field}: {text}")
        self.field = field


class PlayerLimits(NamedTuple):
    """How many entrants (people and bots, as passed to ``new_race``) a race may have."""

    minimum: int
    maximum: int


class Entrant(BaseModel):
    """A seat in the race: a person, or a bot named by the strategy or bot team that plays it."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(min_length=1, max_length=64)
    name: str = Field(min_length=1, max_length=100)
    bot: str | None = None

    @property
    def is_bot(self) -> bool:
        return self.bot is not None


@dataclass(slots=True)
class Choice(Light):
    """One legal value for a field: what the order will hold, and how a player reads it."""

    value: Any
    label: Message
    """How a player reads the value (a message, so a translator reaches it)."""
    hint: Message | None = None


def choice(value: Any, label: Message) -> Choice:
    """A :class:`Choice` without a hint, built by position (the hot path of ``awaited``)."""
    return Choice(value, label, None)


@dataclass(slots=True)
class InputField(Light):
    """One part of a decision, rendered as buttons/select (``choice``), a number box or a text box.

    ``path`` says where the value goes in the order object (``["cards", "r"]`` -> ``{"cards": {"r": v}}``);
    an empty path on a ``text`` field means the text is a whole order in the system's text syntax.
    """

    path: list[str]
    label: Message
    kind: Literal["choice", "number", "text"]
    choices: list[Choice] = field(default_factory=list)
    minimum: int | None = None
    """The smallest number a ``number`` field takes; ``None``: no lower bound."""
    maximum: int | None = None
    """The largest number a ``number`` field takes; ``None``: no upper bound (Tabella's sprint, D16)."""
    required: bool = True
    group: Message | None = None
    """The rider or cyclist this field concerns (``#3 sprinter``, ``Rouleur``), so a front end can page
    through a team without parsing paths; ``None`` when the decision concerns the entrant's only rider or
    the whole team."""


@dataclass(slots=True)
class Decision(Light):
    """What one entrant must decide right now.

    ``kind`` names the decision in the rule system's own terms (``energy``, ``place``, ``plan``,
    ``turn``...), for custom ids and analytics; renderers never branch on it. ``fields`` are the parts
    still to decide given ``partial``; ``complete`` says the entrant's order can already be resolved
    (a player may still change what the rules allow until the step resolves). ``example`` is a sample
    of the text syntax for help lines.
    """

    entrant: str
    kind: str
    prompt: Message
    fields: list[InputField] = field(default_factory=list)
    partial: Order = field(default_factory=dict)
    complete: bool = False
    required: bool = True
    """False where the rules let an entrant send nothing (Tabella plan mode: they do not start)."""
    example: str | None = None
    info: list[Message] = field(default_factory=list)


def choice_field(path: list[str], label: Message, choices: list[Choice], group: Message | None = None) -> InputField:
    """A required ``choice`` :class:`InputField`, built by position (the field order is pinned by a test)."""
    return InputField(path, label, "choice", choices, None, None, True, group)


def decision(
    entrant: str,
    kind: str,
    prompt: Message,
    fields: list[InputField],
    partial: Order,
    *,
    complete: bool,
    example: str | None = None,
    info: list[Message] | None = None,
    required: bool = True,
) -> Decision:
    """A :class:`Decision`, built by position: calling the class by keyword costs about twice as much, and
    the two adjacent booleans are named here, once (the field order is pinned by a test)."""
    return Decision(entrant, kind, prompt, fields, partial, complete, required, example, [] if info is None else info)


@dataclass(slots=True)
class Validated(Light):
    """A normalised order and whether it is complete for this step."""

    order: Order
    complete: bool = True


def validated(order: Order, complete: bool) -> Validated:
    """A :class:`Validated`, built by position."""
    return Validated(order, complete)


class Standing(BaseModel):
    """One line of a result: who, which riders, which place, and the system's own figures."""

    entrant: str
    riders: list[str] = Field(default_factory=list)
    place: int
    figures: dict[str, Any] = Field(default_factory=dict)


ColumnKind = Literal["place", "round", "time", "minutes", "count", "points", "medals", "rating", "square", "status"]
"""What a figure measures, so a front end may add a unit or an icon without knowing the system."""

ColumnFormat = Literal["number", "text", "list", "per_rider"]
"""How a figure's value is shaped: one number, one word (a status), a list of numbers or words (stage
times, medal names), or one value per rider of the entrant (``{"blue-r": 3}``)."""


class Column(BaseModel):
    """One figure of the standings as a table shows it: which key of :attr:`Standing.figures` it reads,
    its heading (a :class:`Message`, so a translator reaches it), what it measures and how its value is
    shaped. A figure a standing lacks (a status only some riders have) is shown empty; ``None`` too."""

    key: str
    label: Message
    kind: ColumnKind
    format: ColumnFormat = "number"
    words: dict[str, Message] = Field(default_factory=dict)
    """How a player reads the words a ``text`` or ``list`` figure holds (a status, a medal's name), by the
    code the figure stores: the figures stay plain codes for the database and the league, and a front end
    translates them without knowing the system. A code missing here is shown as it is."""


def column(key: str, label_key: str, text: str, kind: ColumnKind, fmt: ColumnFormat = "number") -> Column:
    """A :class:`Column` whose heading is the message ``label_key`` with the English ``text``."""
    return Column(key=key, label=Message(label_key, {}, text), kind=kind, format=fmt)


class Result(BaseModel):
    """Where a race stands: finished or not, provisional or final, and its standings.

    ``columns`` describe the figures in the order a table shows them (after the place and the entrant,
    which every standing has), so the terminal, the result card and the bot's posts print standings
    without knowing the system; a figure no column names is bookkeeping (kept for the database and
    the league, not printed)."""

    finished: bool
    provisional: bool = False
    standings: list[Standing] = Field(default_factory=list)
    notes: list[Message] = Field(default_factory=list)
    columns: list[Column] = Field(default_factory=list)


class Announcement(BaseModel):
    """News a finished race holds back for later (Tabella's Gazzetta): what it is and when it is due.

    ``delay`` is ``"immediate"`` or ``"next_morning"`` (at ``hour`` o'clock, server time); the engine
    reads no clock, so the bot schedules it and terminal front ends publish it at once."""

    kind: str
    delay: str
    hour: int | None = None


class Preset(BaseModel):
    """A named stage a lobby or the CLI can offer, with a one-line summary and its status label."""

    name: str
    summary: Message
    label: Message | None = None
    """The preset's status (``default``, ``origin unverified``), shown beside its name, never part of it:
    the name alone finds the preset, and so does the name as a listing shows it with its label."""
    title: Message | None = None
    """How a player reads the preset's name where the name is a code (``itemised_108`` -> "Itemised deck,
    108 cards"); ``None``: the name is already a name (Flamme Rouge's stages). The name still finds it."""


class Ruleset(ABC, Generic[S]):
    """A rule system behind the common interface. One instance per system, stateless."""

    id: ClassVar[str]
    name: ClassVar[str]
    options_model: ClassVar[type[BaseModel]]
    stage_model: ClassVar[type[BaseModel]]
    setup_model: ClassVar[type[BaseModel]]
    strategies: ClassVar[tuple[str, ...]]
    """Names accepted as an entrant's ``bot`` (strategies and official bot teams)."""
    default_strategy: ClassVar[str]

    # --- catalogue -------------------------------------------------------------------------------
    @abstractmethod
    def presets(self) -> list[Preset]:
        """The named stages of this system."""

    @abstractmethod
    def summary(self) -> Message:
        """A short rules summary (``gregario rules``, ``/rules``), as a message a translator can reach."""

    def guide(self, locale: str = "en") -> str | None:
        """The player's guide shipped with the system, in ``locale`` when the package has it
        (``guide.<locale>.md``, then the bare language: ``pt-BR`` -> ``pt``), else in English
        (``guide.md``); ``None`` for a system without a guide. Read from the package's own data files,
        like its presets, so it ships in the wheel."""
        package = resources.files(type(self).__module__.rsplit(".", 1)[0])
        names = [f"guide.{locale}.md", f"guide.{locale.replace('_', '-').split('-')[0].lower()}.md", "guide.md"]
        for name in dict.fromkeys(names):
            source = package.joinpath(name)
            if source.is_file():
                return source.read_text(encoding="utf-8")
        return None

    def message_keys(self) -> frozenset[str]:
        """Every message key this system may emit (events, prompts, labels, refusals, columns, summaries),
        so a translation catalogue can be checked for completeness. Each system lists its own; its tests
        check the list against what its races emit and what its source names."""
        return frozenset()

    def default_entrants(self, humans: list[Entrant], options: Mapping[str, Any]) -> list[Entrant]:
        """The seats a lobby or the CLI uses when nobody chooses: the humans plus the system's default
        bot seats (Flamme Rouge D22). Systems without default bot seats return the humans."""
        return list(humans)

    @abstractmethod
    def stage_board(self, stage: Mapping[str, Any] | str | None, options: Mapping[str, Any]) -> Message:
        """A stage drawn as text (the terminal and ``/stages``): a message whose template carries the legend
        and whose parameters carry the drawing."""

    @abstractmethod
    def stage_data(self, stage: Mapping[str, Any] | str | None) -> dict[str, Any]:
        """The explicit stage, in this system's own stage schema (what a record's ``stage`` accepts), that
        ``stage`` stands for: a preset's name or ``None`` (the default stage) becomes the preset's data, an
        explicit stage comes back normalised. A race copies it in, so a preset changed in a later release
        never changes how an old race replays: ``new_race(stage_data(s), ...)`` plays exactly as
        ``new_race(s, ...)``. Parts the race seed draws (a random table row, rocks given as a count) stay
        as they are: the seed still draws them. Raises ``ValueError`` for an unknown preset or a bad stage."""

    @abstractmethod
    def player_limits(self, stage: Mapping[str, Any] | str | None, options: Mapping[str, Any]) -> PlayerLimits:
        """How many entrants a race on ``stage`` with ``options`` may have (the CLI, ``/rules`` and the lobby
        ask this; :func:`check_entrants` enforces it). A system may still refuse a particular mix inside
        these bounds (Flamme Rouge's bot teams take two riders each) with its own message. Raises
        ``ValueError`` (pydantic) for a bad stage or options."""

    # --- a race ----------------------------------------------------------------------------------
    def start_race(
        self,
        stage: Mapping[str, Any] | str | None,
        options: Mapping[str, Any],
        entrants: list[Entrant],
        seed: int,
        setup: Mapping[str, Any] | None = None,
    ) -> tuple[S, list[Event]]:
        """A new race ready for its first step, and the events of its opening (a first deal, the bots'
        grid, the first round's start line): the common checks (:func:`check_entrants`), then the system's
        :meth:`open_race`. Raises ``ValueError`` for a bad stage, options, setup or entrants
        (:class:`EntrantError` naming the field for the common checks)."""
        check_entrants(self, stage, options, entrants)
        return self.open_race(stage, options, entrants, seed, setup)

    def new_race(
        self,
        stage: Mapping[str, Any] | str | None,
        options: Mapping[str, Any],
        entrants: list[Entrant],
        seed: int,
        setup: Mapping[str, Any] | None = None,
    ) -> S:
        """:meth:`start_race` without its opening events (tests and tools that only want the state)."""
        return self.start_race(stage, options, entrants, seed, setup)[0]

    @abstractmethod
    def open_race(
        self,
        stage: Mapping[str, Any] | str | None,
        options: Mapping[str, Any],
        entrants: list[Entrant],
        seed: int,
        setup: Mapping[str, Any] | None,
    ) -> tuple[S, list[Event]]:
        """The system's own start, called by :meth:`start_race` once the common checks have passed (so it
        need not check the entrants' ids, count or strategies again)."""

    @abstractmethod
    def awaited(self, state: S, partial: Mapping[str, Order] | None = None) -> list[Decision]:
        """The decisions pending now; empty when the race is finished."""

    def awaited_ids(self, state: S) -> list[str]:
        """The entrants :meth:`awaited` returns decisions for, in the same order, without building them:
        the driver's bot loop asks it at every step (a system may answer it more cheaply; the contract
        tests check the two agree at every step)."""
        return [d.entrant for d in self.awaited(state)]

    @abstractmethod
    def validate(self, state: S, entrant: str, order: Order | str, previous: Order | None = None) -> Validated:
        """Check an order (JSON object or text syntax) against the rules; raise ``OrderError``.

        ``previous`` is what this entrant already sent this step: a new order may add to it or change
        what the rules still allow to change (the merged, normalised result is returned)."""

    @abstractmethod
    def resolve(
        self, state: S, orders: Mapping[str, Order], meta: Mapping[str, OrderMeta] | None = None
    ) -> tuple[S, list[Event]]:
        """Resolve one step with every awaited entrant's complete, validated order (none at all when the
        step awaits nobody). ``meta`` holds each order's bookkeeping keys by entrant (the driver splits them
        off); most systems ignore it."""

    def advance(
        self,
        state: S,
        orders: Mapping[str, Order],
        meta: Mapping[str, OrderMeta] | None = None,
        events: list[Event] | None = None,
    ) -> S:
        """:meth:`resolve`'s new state, for a rollout (:func:`engine.race.rollout`: ``gregario simulate``,
        ``/stage analyse``). The same rules: the state must be exactly the one ``resolve`` gives (the rollout
        tests compare them on seeded races). Unlike ``resolve``, it may change ``state`` in place and return
        it: a rollout owns its state and never reads the old one again. ``events``: a list the step's events
        (those ``resolve`` gives) are appended to; ``None``, the rollout never reads them and a system may
        skip building them. The default resolves (a copy) and keeps or drops the events; a system may skip
        the copy. Events of an in-place step are read before the next step (the stage analysis counts them
        as they come; the rollout tests dump them at the end and compare)."""
        new, said = self.resolve(state, orders, meta)
        if events is not None:
            events.extend(said)
        return new

    def play_bots(self, state: S, bots: Mapping[str, str]) -> S:
        """One quiet rollout step (no event, no check) of a race whose every entrant is a bot (``bots``: each
        entrant's strategy), not finished: the state :meth:`advance` gives with the :meth:`auto_order` of
        every entrant :meth:`awaited_ids` names, and like it possibly ``state`` itself, changed. The default is
        exactly that; a system may choose and play the bots' moves without writing them as orders first
        (Flamme Rouge: a round's cards straight from each hand), as long as the state is the same (the
        rollout tests and ``bench/identical.py --rollouts`` compare it with the full driver's)."""
        awaited = self.awaited_ids(state)
        auto_order = self.auto_order
        orders = {who: auto_order(state, who, None, bots[who]) for who in awaited}
        meta = {who: {"by": "bot"} for who in awaited}
        return self.advance(state, orders, meta or None)

    @abstractmethod
    def auto_order(self, state: S, entrant: str, partial: Order | None = None, strategy: str | None = None) -> Order:
        """A complete order for ``entrant``: a bot's choice (``strategy``) or the absent-player rule (``None``)."""

    @abstractmethod
    def public_view(self, state: S) -> dict[str, Any]:
        """Everything everyone may see (no hidden information), as JSON."""

    @abstractmethod
    def private_view(self, state: S, entrant: str) -> dict[str, Any]:
        """What ``entrant`` alone may see (its hand, its plan), as JSON."""

    @abstractmethod
    def result(self, state: S) -> Result:
        """Finished or not, and the standings so far."""

    def finished(self, state: S) -> bool:
        """``result(state).finished``, which a system may answer more cheaply (the driver asks it whenever a
        step awaits nobody; the contract tests check the two agree at every step)."""
        return self.result(state).finished

    def leader(self, state: S) -> str | None:
        """Who ``result(state)`` puts first: the entrant of its first standing with the best place, or None
        without standings. A system may answer it more cheaply (``/stage analyse`` asks it after every step
        of hundreds of races; the contract tests check it agrees with ``result`` at every step)."""
        return leader_of(self.result(state))

    @abstractmethod
    def dump(self, state: S) -> dict[str, Any]:
        """The state as JSON data; ``load(dump(s))`` is equivalent to ``s``."""

    @abstractmethod
    def load(self, data: Mapping[str, Any]) -> S:
        """The state back from :meth:`dump`; :class:`StateFormatError` for another format or version."""

    def pending_announcement(self, state: S) -> Announcement | None:
        """What this race still has to publish, if anything; until then its result is provisional."""
        return None

    def publish(self, state: S) -> tuple[S, list[Event]]:
        """Publish the pending announcement: a new state (result no longer provisional) and its events."""
        raise ValueError("this race has nothing to publish")


def leader_of(result: Result) -> str | None:
    """The entrant of the first standing with the best place of ``result`` (None without standings)."""
    standings = result.standings
    return min(standings, key=lambda s: s.place).entrant if standings else None


def check_entrants(
    ruleset: Ruleset[Any], stage: Mapping[str, Any] | str | None, options: Mapping[str, Any], entrants: list[Entrant]
) -> None:
    """The start checks every rule system shares, in one place: unique entrant ids, known strategies, and
    the player count of :meth:`Ruleset.player_limits`. Raises :class:`EntrantError` naming the field
    (positions from 0, as in the record: ``entrants.2.bot``)."""
    seen: dict[str, int] = {}
    for n, e in enumerate(entrants):
        if e.id in seen:
            raise EntrantError(f"entrants.{n}.id", f"{e.id!r} is already the id of entrants.{seen[e.id]}")
        seen[e.id] = n
        if e.bot is not None and e.bot not in ruleset.strategies:
            raise EntrantError(
                f"entrants.{n}.bot",
                f"unknown bot {e.bot!r} for {ruleset.name}; choose one of: {', '.join(ruleset.strategies)}",
            )
    low, high = ruleset.player_limits(stage, options)
    if not low <= len(entrants) <= high:
        allowed = str(low) if low == high else f"{low} to {high}"
        raise EntrantError(
            "entrants",
            f"{ruleset.name} takes {allowed} entrants with this stage and these options, not {len(entrants)}",
        )


def set_path(order: Order, path: list[str], value: Any) -> Order:
    """A copy of ``order`` with ``value`` set at ``path`` (dicts created along the way).

    This is how every front end merges one field of a :class:`Decision` into a partial order. An
    empty path replaces the whole order (a text-syntax order).
    """
    import copy

    if not path:
        return value if isinstance(value, dict) else {"text": value}
    merged = copy.deepcopy(order)
    node = merged
    for key in path[:-1]:
        child = node.get(key)
        if not isinstance(child, dict):
            child = {}
            node[key] = child
        node = child
    node[path[-1]] = value
    return merged
