"""Tabella del Destino behind the common :class:`~engine.ruleset.Ruleset` interface.

Plan mode (D1, the seed's way) is one step: every player sends the whole race plan and the engine
plays the nine rounds at once, reporting them round by round. Live mode is nine steps, one per
round, all riders deciding together. The Gazzetta's front page (D21) comes after the last round and
may be published later: until :meth:`TabellaRuleset.publish` the result is provisional.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any, ClassVar

from engine.messages import Message, OrderError, event, msg
from engine.rng import Rng
from engine.ruleset import (
    PROGRESS_KEY,
    Announcement,
    Decision,
    Entrant,
    Event,
    Order,
    OrderMeta,
    PlayerLimits,
    Preset,
    Result,
    Ruleset,
    Standing,
    Validated,
    check_state_format,
    progress_marker,
)
from engine.tabella import bots
from engine.tabella.context import Intent
from engine.tabella.decisions import decision_for
from engine.tabella.gazzetta import finish_race, publish
from engine.tabella.keys import MESSAGE_KEYS
from engine.tabella.models import Options, Setup, Stage
from engine.tabella.orders import automatic_order, normalise, specials_in
from engine.tabella.presets import preset_list, stage_of
from engine.tabella.ranking import columns, gazzetta_applies, points_for, rank
from engine.tabella.rounds import resolve_round
from engine.tabella.setup import apply_setup
from engine.tabella.state import LAST_ROUND, ROUNDS, RaceState, Rider
from engine.tabella.syntax import format_order, parse_text
from engine.tabella.table import ROW_NAMES, check_table, classic_table, random_table
from engine.tabella.views import LEGEND, course_board, course_data, public_rider, stage_board, summary
from engine.tabella.vocabulary import OrderContext

MIN_PLAYERS, MAX_PLAYERS = 2, 20  # D2


STATE_FORMAT = "tabella.state/1"


def _names(state: RaceState) -> dict[str, str]:
    return {r.id: r.name for r in state.riders}


class TabellaRuleset(Ruleset[RaceState]):
    """The Tabella del Destino rule system (``docs/rules/tabella-del-destino.md``)."""

    id: ClassVar[str] = "tabella"
    name: ClassVar[str] = "Tabella del Destino"
    options_model: ClassVar[type[Options]] = Options
    stage_model: ClassVar[type[Stage]] = Stage
    setup_model: ClassVar[type[Setup]] = Setup
    strategies: ClassVar[tuple[str, ...]] = bots.STRATEGIES
    default_strategy: ClassVar[str] = "cautious"

    # --- catalogue -------------------------------------------------------------------------------
    def presets(self) -> list[Preset]:
        return preset_list()

    def summary(self) -> Message:
        return summary()

    def message_keys(self) -> frozenset[str]:
        return MESSAGE_KEYS

    def default_entrants(self, humans: list[Entrant], options: Mapping[str, Any]) -> list[Entrant]:
        seats = list(humans)
        n = 1
        while len(seats) < MIN_PLAYERS:
            taken = {e.id for e in seats}
            while f"bot{n}" in taken:
                n += 1
            seats.append(Entrant(id=f"bot{n}", name=f"Bot {n}", bot=self.default_strategy))
            n += 1
        return seats

    def stage_board(self, stage: Mapping[str, Any] | str | None, options: Mapping[str, Any]) -> Message:
        return stage_board(stage)

    def stage_data(self, stage: Mapping[str, Any] | str | None) -> dict[str, Any]:
        """The preset's table and rows; ``"classic"`` and ``"random"`` stay (the rules' table, the seed's draw)."""
        return stage_of(stage).model_dump(mode="json")

    def player_limits(self, stage: Mapping[str, Any] | str | None, options: Mapping[str, Any]) -> PlayerLimits:
        """2 to 20 riders, one per player, on every table and in both modes."""
        Options.model_validate(dict(options or {}))
        return PlayerLimits(MIN_PLAYERS, MAX_PLAYERS)

    # --- a race ----------------------------------------------------------------------------------
    def open_race(
        self,
        stage: Mapping[str, Any] | str | None,
        options: Mapping[str, Any],
        entrants: list[Entrant],
        seed: int,
        setup: Mapping[str, Any] | None,
    ) -> tuple[RaceState, list[Event]]:
        opts = Options.model_validate(dict(options or {}))
        chosen = stage_of(stage)
        plan = Setup.model_validate(dict(setup or {}))
        rng = Rng.from_seed(seed, "tabella")
        if isinstance(chosen.table, list):
            table, source = [list(r) for r in check_table(chosen.table)], "explicit"
        elif chosen.table == "random":
            table, source = random_table(rng), "random"  # D3, D5
        else:
            table, source = classic_table(), "classic"
        if chosen.rows == "random":
            first = rng.randint(1, 8)  # D4, D5
        elif isinstance(chosen.rows, int) and 1 <= chosen.rows <= 8:
            first = chosen.rows
        else:
            raise ValueError(f"stage.rows must be 1 to 8 or 'random', not {chosen.rows!r}")
        riders = [Rider(id=e.id, name=e.name) for e in entrants]
        state = RaceState(
            seed=seed,
            options=opts.model_dump(),
            table=table,
            table_source=source,
            first_row=first,
            riders=riders,
            bots={e.id: e.bot for e in entrants},
            rng=rng.state,
            gazzetta_forced=plan.gazzetta_hit,
        )
        apply_setup(state, plan)
        return state, []

    # --- what is awaited -------------------------------------------------------------------------
    def _awaited_ids(self, state: RaceState) -> list[str]:
        if state.over:
            return []
        if state.mode == "plan":
            return [r.id for r in state.riders if r.status in ("waiting", "racing")]
        return [r.id for r in state.riders if r.racing or (r.status == "waiting" and state.round == 0)]

    def _rounds(self, state: RaceState) -> tuple[int, ...]:
        if state.mode == "plan":
            return tuple(range(state.round, LAST_ROUND + 1))
        return (state.round,)

    def _context(self, state: RaceState, entrant: str) -> OrderContext:
        rider = state.rider(entrant)
        return OrderContext(
            entrant=entrant,
            names=_names(state),
            mode=state.mode,
            rounds=self._rounds(state),
            used=frozenset(rider.used),
        )

    def awaited(self, state: RaceState, partial: Mapping[str, Order] | None = None) -> list[Decision]:
        partial = partial or {}
        out = []
        for rid in self._awaited_ids(state):
            mine = partial.get(rid)
            ctx = self._context(state, rid)
            order: Order = {}
            complete = False
            if mine:
                try:
                    checked = self.validate(state, rid, mine)
                except OrderError:
                    pass  # a broken partial shows as nothing chosen yet
                else:
                    order, complete = checked.order, checked.complete
            out.append(decision_for(state, rid, order, complete, ctx))
        return out

    # --- orders ----------------------------------------------------------------------------------
    def validate(self, state: RaceState, entrant: str, order: Order | str, previous: Order | None = None) -> Validated:
        if entrant not in self._awaited_ids(state):
            raise OrderError.of("td.not_awaited", "No order is needed from you now: you are not racing.")
        ctx = self._context(state, entrant)
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
            raw = _merge(previous or {}, dict(order))
        checked, complete = normalise(raw, ctx)
        return Validated(order=checked, complete=complete)

    def auto_order(
        self, state: RaceState, entrant: str, partial: Order | None = None, strategy: str | None = None
    ) -> Order:
        ctx = self._context(state, entrant)
        kept: Order = {}
        if partial:
            try:
                kept, _ = normalise(dict(partial), ctx)
            except OrderError:
                kept = {}
        if strategy is None:
            base = automatic_order(ctx)  # §4.1: Cavaliera, 1R, 0, no specials
        elif strategy in bots.STRATEGIES:
            made = (bots.plan_order if state.mode == "plan" else bots.live_order)(state, entrant, strategy)
            base, _ = normalise(made, ctx)
        else:
            raise ValueError(f"unknown strategy {strategy!r}; choose one of: {', '.join(bots.STRATEGIES)}")
        # What the player already chose stays, a half-chosen move included (its effort or direction).
        return _merge(base, kept)

    # --- resolution ------------------------------------------------------------------------------
    def resolve(
        self, state: RaceState, orders: Mapping[str, Order], meta: Mapping[str, OrderMeta] | None = None
    ) -> tuple[RaceState, list[Event]]:
        """``meta`` gives each order's ``received_at`` (D6's third priority key) and ``auto`` (the plan
        event says an absent player's plan was the automatic one)."""
        new = state.copy()
        events: list[Event] = []
        if new.over:
            raise ValueError("the race is over: nothing to resolve")
        awaited = self._awaited_ids(new)
        strangers = sorted(set(orders) - set(awaited))
        if strangers:
            raise ValueError(f"orders from riders who are not awaited: {', '.join(strangers)}")
        meta = meta or {}
        checked = {rid: self._checked(new, rid, order, meta.get(rid)) for rid, order in orders.items()}
        if new.mode == "plan":
            self._resolve_plan(new, checked, events)
        else:
            self._resolve_live(new, checked, events)
        if new.over:
            finish_race(new, events)
        return new, events

    def _checked(self, state: RaceState, rid: str, order: Order, meta: OrderMeta | None) -> Order:
        """The order as validated (the driver validates already; a direct caller may not have), with its
        bookkeeping (``received_at``, ``auto``) beside it under the same keys, for the round to read."""
        result = self.validate(state, rid, order)
        if not result.complete:
            raise OrderError.of("td.order.incomplete", "The order of {rider} is incomplete.", rider=rid)
        return {**result.order, **meta} if meta else result.order

    def _resolve_plan(self, state: RaceState, orders: Mapping[str, Order], events: list[Event]) -> None:
        names = _names(state)
        for rider in state.riders:
            if rider.status not in ("waiting", "racing"):
                continue
            plan = orders.get(rider.id)
            if plan is None:
                rider.status = "dns"  # D8: no plan, no start
                events.append(
                    event(
                        "td.did_not_start", "{name} sent no plan and does not start.", rider=rider.id, name=rider.name
                    )
                )
                continue
            if plan.get("received_at") is not None:  # else the setup's order_time stands
                rider.order_time = plan["received_at"]
            if state.round == 0:
                rider.status = "racing"
                rider.reinforced = bool(plan.get("bibitone"))  # D20: fixed at the start
            events.append(
                event(
                    "td.plan",
                    "{name}'s plan: {plan_text}",
                    rider=rider.id,
                    name=rider.name,
                    plan_text=format_order(plan, names),
                    auto=bool(plan.get("auto")),
                )
            )
        starters = [r for r in state.riders if r.status in ("racing", "exhausted")]
        if state.round == 0 and len(starters) < MIN_PLAYERS:
            state.void = True  # D8: fewer than 2 starters -> void: the race is not run
            for rider in starters:
                rider.status = "waiting"
            count = len(starters)
            one = "Only {count} rider started: the race is void and awards no points."
            other = "Only {count} riders started: the race is void and awards no points."
            events.append(event("td.void", one if count == 1 else other, count=count))  # plural by count
            return
        for number in range(state.round, LAST_ROUND + 1):
            if state.over:
                break
            intents = {r.id: _intent(orders[r.id], number) for r in state.riders if r.racing}
            events += resolve_round(state, number, intents).events

    def _resolve_live(self, state: RaceState, orders: Mapping[str, Order], events: list[Event]) -> None:
        number = state.round
        ctx_orders: dict[str, Order] = {}
        for rid in self._awaited_ids(state):
            order = orders.get(rid)
            if order is None:
                # D8: live mode plays the automatic order for a missing one.
                order = {**automatic_order(self._context(state, rid)), "auto": True}
            ctx_orders[rid] = order
            rider = state.rider(rid)
            if order.get("received_at") is not None:  # D6: the time of this round's order; until a step
                rider.order_time = order["received_at"]  # gives one, the setup's order_time stands
            if number == 0:
                rider.status = "racing"
                rider.reinforced = bool(order.get("bibitone"))
        intents = {rid: _intent(order, number) for rid, order in ctx_orders.items()}
        events += resolve_round(state, number, intents).events

    def publish(self, state: RaceState) -> tuple[RaceState, list[Event]]:
        """Publish the Gazzetta's front page (D21): the result stops being provisional."""
        if not state.over or state.void:
            raise ValueError("the Gazzetta is published only after a race that was run")
        if state.gazzetta_published:
            raise ValueError("the Gazzetta has already been published")
        new = state.copy()
        return new, [publish(new)]

    def pending_announcement(self, state: RaceState) -> Announcement | None:
        """What the bot must publish later, and when (``next_morning`` = 09:00 the next day), or None."""
        if not state.over or state.void or state.gazzetta_published:
            return None
        return Announcement(kind="td.gazzetta", delay=state.options["gazzetta_delay"], hour=9)

    # --- views -----------------------------------------------------------------------------------
    def public_view(self, state: RaceState) -> dict[str, Any]:
        published = state.gazzetta_published
        return {
            "ruleset": self.id,
            "mode": state.mode,
            "options": dict(state.options),
            "table": state.table_source,
            "rows": state.first_row,
            "course": course_data(state.course),
            "round": min(state.round, LAST_ROUND + 1),
            "round_label": ROUNDS[state.round] if state.round <= LAST_ROUND else "finished",
            PROGRESS_KEY: progress_marker(
                "round",
                min(state.round, LAST_ROUND) + 1,
                LAST_ROUND + 1,
                None,
                ROUNDS[state.round] if state.round <= LAST_ROUND else "finished",
            ),
            "void": state.void,
            "riders": [public_rider(r) for r in state.riders],
            "gazzetta": {
                "published": published,
                "hit": state.gazzetta_hit if published else None,
                "delay": state.options["gazzetta_delay"],
            },
        }

    def private_view(self, state: RaceState, entrant: str) -> dict[str, Any]:
        view = self.public_view(state)
        rider = state.rider(entrant)
        view["you"] = {
            "id": rider.id,
            "bibitone": rider.reinforced,
            "stolen_bottle": (
                {"owner": rider.stolen.owner, "reinforced": rider.stolen.reinforced, "status": rider.stolen.status}
                if rider.stolen
                else None
            ),
            "free_effort": rider.free_effort,
        }
        return view

    def result(self, state: RaceState) -> Result:
        finished = state.over
        if state.void:
            return Result(
                finished=True,
                standings=[
                    Standing(entrant=r.id, riders=[r.id], place=1, figures={"status": "void", "points": 0})
                    for r in state.riders
                ],
                notes=[msg("td.note.void", "The race is void: fewer than 2 riders started.")],
                columns=columns(),
            )
        placed = rank(state.riders, gazzetta_applies(state))
        standings = []
        for p in placed:
            r = p.rider
            status = "exhausted" if r.status == "exhausted" else ("finished" if finished else "racing")
            figures: dict[str, Any] = {
                "points": points_for(p.place) if finished else 0,
                "V": r.v_at_stop if r.status == "exhausted" else r.v,
                "R": r.r,
                "status": status,
            }
            if r.status == "exhausted":
                figures["progress"] = r.progress
            if p.caught:
                figures["gazzetta"] = "caught"
            standings.append(Standing(entrant=r.id, riders=[r.id], place=p.place, figures=figures))
        after = len(placed) + 1
        for r in state.riders:
            if r.status in ("dns", "waiting"):
                # R-TDD-1: non-starters are listed after the classified riders, with no points.
                label = "did_not_start" if r.status == "dns" else "waiting"
                standings.append(
                    Standing(entrant=r.id, riders=[r.id], place=after, figures={"status": label, "points": 0})
                )
        notes: list[Message] = []
        provisional = finished and not state.gazzetta_published
        if provisional:
            notes.append(
                msg(
                    "td.note.provisional",
                    "Provisional until the Gazzetta dello Sport's front page is published.",
                )
            )
        return Result(finished=finished, provisional=provisional, standings=standings, notes=notes, columns=columns())

    def dump(self, state: RaceState) -> dict[str, Any]:
        return {"format": STATE_FORMAT, **state.to_data()}

    def load(self, data: Mapping[str, Any]) -> RaceState:
        check_state_format(data, STATE_FORMAT)
        return RaceState.from_data({k: v for k, v in data.items() if k != "format"})

    def board_text(self, state: RaceState) -> str:
        course = state.course
        lines = [
            f"Tabella del Destino · {state.table_source} table, rows {state.first_row}-{state.first_row + 2} · "
            + (f"next: {ROUNDS[state.round]}" if state.round <= LAST_ROUND and not state.over else "finished"),
            course_board(course),
            LEGEND,
        ]
        for rider in state.riders:
            where = f"{ROW_NAMES[rider.row]}{rider.pair or ''}" if rider.row is not None else "-"
            lines.append(f"  {rider.name:<16} {rider.status:<9} {where:<3} R {rider.r:>2}  V {rider.v:>2}")
        return "\n".join(lines)


# --- helpers ---------------------------------------------------------------------------------------
def _merge(previous: Order, order: Order) -> Order:
    merged = {k: copy.deepcopy(v) for k, v in previous.items()}
    for key, value in order.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = {**merged[key], **value}
        else:
            merged[key] = value
    return merged


def _intent(order: Order, number: int) -> Intent:
    label = ROUNDS[number]
    intent = Intent(specials=specials_in(order, number))
    if number == 0:
        intent.start = order["start"]
    elif number <= 5:
        intent.effort, intent.dir = order[label]["effort"], order[label]["dir"]
    else:
        intent.intensity = order[label]
    return intent
