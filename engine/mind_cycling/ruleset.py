"""Mind Cycling behind the common :class:`~engine.ruleset.Ruleset` interface.

The modules hold the rules (``course``, ``movement``, ``rounds``, ``resolution``, ``scoring``); this one
turns a state into the decisions awaited now and routes orders to them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from pydantic import BaseModel

from engine.messages import Message, OrderError, msg
from engine.mind_cycling import bots, orders, resolution, scoring
from engine.mind_cycling.board import draw_board, draw_stage
from engine.mind_cycling.course import OWN_SECTION, build_course, preview_course
from engine.mind_cycling.models import OptionsModel, SetupModel, StageModel, load_presets, stage_from
from engine.mind_cycling.movement import ATTACK_BONUS, explain_maximum, may_attack, planned_maximum, sheltered
from engine.mind_cycling.rounds import (
    begin_round,
    maximum,
    next_actor,
    possible_passes,
    relay_target,
    wheel_target,
)
from engine.mind_cycling.state import Cyclist, MindState, RoundContext, cyclist_key, role_of
from engine.rng import Rng
from engine.ruleset import (
    PROGRESS_KEY,
    Choice,
    Decision,
    Entrant,
    Event,
    InputField,
    Order,
    OrderMeta,
    PlayerLimits,
    Preset,
    Result,
    Ruleset,
    Validated,
    check_state_format,
    progress_marker,
)

STATE_FORMAT = "mind_cycling.state/1"

SOLO_TEAM = 5
"""D25: the solo team always has five cyclists."""


def _m(key: str, text: str, **params: Any) -> Message:
    return msg(f"mc.{key}", text, **params)


def _group(c: Cyclist) -> Message:
    """The group label of the fields about cyclist ``c`` (:attr:`InputField.group`)."""
    return _m("group_cyclist", "#{n} {role}", n=c.number, role=c.role)


class MindCycling(Ruleset[MindState]):
    id: ClassVar[str] = "mind_cycling"
    name: ClassVar[str] = "Mind Cycling"
    options_model: ClassVar[type[BaseModel]] = OptionsModel
    stage_model: ClassVar[type[BaseModel]] = StageModel
    setup_model: ClassVar[type[BaseModel]] = SetupModel
    strategies: ClassVar[tuple[str, ...]] = bots.STRATEGIES
    default_strategy: ClassVar[str] = "steady"

    # --- catalogue -------------------------------------------------------------------------------
    def presets(self) -> list[Preset]:
        return [Preset(name=name, summary=p.summary) for name, p in load_presets().items()]

    def summary(self) -> str:
        return (
            "Mind Cycling: no dice, no cards. Each player runs a team of a sprinter, a climber and domestiques. "
            "Each round cyclists move in order from the leader back, up to a maximum set by role and section "
            "(sprinter 5/7/3, domestique 7/5/5, climber 5/3/7 on plains/sprint/mountain), -1 in the wind, -1 for "
            "a domestique without a bottle. Cyclists in a train may wheel (follow the one in front) or relay (jump "
            "to the front); a bottle buys an attack (+3) in the rider's own section; domestiques pass bottles and "
            "refill at feed zones. Medals: race winner, first out of the sprint, first out of the mountains, best "
            "team (12..1 points for places 1-12); most medals wins. Solo: get four across in the fewest rounds."
        )

    def stage_board(self, stage: Mapping[str, Any] | str | None, options: Mapping[str, Any]) -> str:
        opts = OptionsModel.model_validate(dict(options))
        model = stage_from(dict(stage) if isinstance(stage, Mapping) else stage)
        course = preview_course(model, opts.lanes, opts.medal_section)
        text = draw_stage(course)
        counts = [f"{n} {name}" for n, name in ((model.rocks, "rocks"), (model.supply_spaces, "supply spaces"))]
        random = [
            c for c, n in zip(counts, (model.rocks, model.supply_spaces), strict=True) if isinstance(n, int) and n
        ]
        if random and course.medal_mountain:
            climb = course.medal_mountain
            text += f"\n{' and '.join(random)} placed at random (race seed) on rows {climb.first}-{climb.last}."
        return text

    def stage_data(self, stage: Mapping[str, Any] | str | None) -> dict[str, Any]:
        """The course's strips, length, rocks and supply spaces; counts stay counts (the seed places them)."""
        return stage_from(dict(stage) if isinstance(stage, Mapping) else stage).model_dump(mode="json")

    def player_limits(self, stage: Mapping[str, Any] | str | None, options: Mapping[str, Any]) -> PlayerLimits:
        """1 (solo, D25) to 6 teams, on every course and with every option."""
        OptionsModel.model_validate(dict(options))
        return PlayerLimits(1, 6)

    # --- a race ----------------------------------------------------------------------------------
    def open_race(
        self,
        stage: Mapping[str, Any] | str | None,
        options: Mapping[str, Any],
        entrants: list[Entrant],
        seed: int,
        setup: Mapping[str, Any] | None,
    ) -> tuple[MindState, list[Event]]:
        """When the set-up places every cyclist, the first round starts at once: its start line (order,
        wind, fatigue, trains) is the opening event."""
        opts = OptionsModel.model_validate(dict(options))
        stage_model = stage_from(dict(stage) if isinstance(stage, Mapping) else stage)
        setup_model = SetupModel.model_validate(dict(setup or {}))
        course = build_course(stage_model, opts.lanes, opts.medal_section, seed)
        solo = len(entrants) == 1 and opts.solo
        size = SOLO_TEAM if solo else opts.team_size  # D25
        ids = [e.id for e in entrants]
        if opts.placement_order == "random":
            order = list(ids)
            Rng.from_seed(seed, "placement").shuffle(order)  # D9
        else:
            order = list(opts.placement_order)
            if sorted(order) != sorted(ids):
                raise ValueError("placement_order must list every entrant exactly once: " + ", ".join(ids))
        cyclists = {
            cyclist_key(e, n): Cyclist(key=cyclist_key(e, n), entrant=e, number=n, role=role_of(n))
            for e in ids
            for n in range(1, size + 1)
        }
        state = MindState(
            course=course,
            options=opts.model_dump(mode="json"),
            entrants=ids,
            names={e.id: e.name for e in entrants},
            solo=solo,
            team_size=size,
            cyclists=cyclists,
            phase="place",
            placement_order=order,
            round=setup_model.round,
            section_winners={"sprint": None, "mountain": None},
        )
        self._apply_setup(state, setup_model)
        events: list[Event] = []
        if resolution.placer(state) is None:
            begin_round(state, events)
        return state, events

    def _apply_setup(self, state: MindState, setup: SetupModel) -> None:
        for i, s in enumerate(setup.cyclists):
            where = f"setup.cyclists.{i}"
            key = cyclist_key(s.entrant, s.number)
            if key not in state.cyclists:
                raise ValueError(f"{where}: there is no cyclist #{s.number} in {s.entrant!r}'s team")
            c = state.cyclists[key]
            if c.placed:
                raise ValueError(f"{where}: {key} is set up twice")
            if s.place is not None:
                if s.row is not None or s.lane is not None:
                    raise ValueError(f"{where}: a cyclist already across (place) has no row or lane")
                c.placed, c.crossed, c.place, c.bottle = True, True, s.place, s.base == "blue"
                continue
            if s.row is None or s.lane is None:
                raise ValueError(f"{where}: row and lane are needed (or place, for a cyclist already across)")
            if s.row > state.course.last_row or s.lane > state.course.lanes:
                raise ValueError(f"{where}: row {s.row}, lane {s.lane} is not on the course")
            if (s.row, s.lane) in state.course.rocks or state.at(s.row, s.lane) is not None:
                raise ValueError(f"{where}: row {s.row}, lane {s.lane} is not free")
            c.row, c.lane, c.placed, c.bottle = s.row, s.lane, True, s.base == "blue"
        if setup.only_listed:
            state.cyclists = {k: c for k, c in state.cyclists.items() if c.placed}
            missing = [e for e in state.entrants if not state.team(e)]
            if missing:
                raise ValueError(f"setup.only_listed: {', '.join(missing)} would have no cyclist; list at least one")
        across = sorted((c for c in state.cyclists.values() if c.crossed), key=lambda c: c.place or 0)
        if [c.place for c in across] != list(range(1, len(across) + 1)):
            raise ValueError(f"setup.cyclists: the places of the cyclists already across must be 1 to {len(across)}")
        state.finish_order = [c.key for c in across]
        for kind, key in (setup.medals or {}).items():
            if key not in state.cyclists:
                raise ValueError(f"setup.medals.{kind}: no cyclist {key!r} in this race")
            state.section_winners[kind] = key

    # --- decisions -------------------------------------------------------------------------------
    def awaited(self, state: MindState, partial: Mapping[str, Order] | None = None) -> list[Decision]:
        partial = partial or {}
        if state.phase == "done":
            return []
        if state.phase == "place":
            found = resolution.placer(state)
            assert found is not None
            return [self._place_decision(state, found[0], partial.get(found[0], {}))]
        if state.phase == "passes":
            givers = sorted({state.cyclists[k].entrant for k in possible_passes(state)}, key=state.entrants.index)
            return [self._passes_decision(state, e, partial.get(e, {})) for e in givers]
        if state.options["mode"] == "orders":
            return [
                self._intents_decision(state, e, partial.get(e, {}))
                for e in state.entrants
                if orders.on_road_numbers(state, e)
            ]
        ctx = state.ctx
        assert ctx is not None
        if ctx.prompt is not None:
            c = state.cyclists[ctx.prompt]
            return [self._prompt_decision(state, ctx, c, partial.get(c.entrant, {}))]
        key = next_actor(state, ctx)
        assert key is not None
        c = state.cyclists[key]
        return [self._turn_decision(state, ctx, c, partial.get(c.entrant, {}))]

    def _place_decision(self, state: MindState, entrant: str, partial: Order) -> Decision:
        row, lane = resolution.next_slot(state)
        unplaced = [c for c in state.team(entrant) if not c.placed]
        field = InputField(
            path=["cyclist"],
            label=_m("field_cyclist", "Cyclist"),
            kind="choice",
            choices=[Choice(value=c.number, label=f"#{c.number} {c.role}") for c in unplaced],
        )
        chosen = "cyclist" in partial
        return Decision(
            entrant=entrant,
            kind="place",
            prompt=_m(
                "prompt_place", "Choose the cyclist for the grid slot on row {row}, lane {lane}", row=row, lane=lane
            ),
            fields=[] if chosen else [field],
            partial=dict(partial),
            complete=chosen,
            example=f"#{unplaced[0].number}",
        )

    def _intents_decision(self, state: MindState, entrant: str, partial: Order) -> Decision:
        """Orders mode: each cyclist's action first, then its optional steps, lane and bottle pass."""
        road = [c for c in state.team(entrant) if c.on_road]
        intents: dict[str, Any] = dict(partial.get("intents", {}))
        bottles = orders.projected_bottles(state, entrant, intents)
        info = [
            _m(
                "info_cyclist",
                "#{n} {role}: row {row}, lane {lane}, {base} base, maximum {top}",
                n=c.number,
                role=c.role,
                row=c.row,
                lane=c.lane,
                base="blue" if bottles[c.number] else "black",
                top=explain_maximum(
                    state, c, not sheltered(state, c), c.role == "domestique" and not bottles[c.number]
                ),
            )
            for c in road
        ]
        undecided = [c for c in road if "action" not in intents.get(str(c.number), {})]
        if undecided:
            fields = [self._action_field(state, undecided[0], bottles[undecided[0].number])]
        else:
            # Every cyclist's optional parts at once, each field grouped by its cyclist (a panel pages them).
            fields = [f for c in road for f in self._detail_fields(state, c, intents[str(c.number)], bottles[c.number])]
        if fields:
            fields.append(InputField(path=[], label=_m("field_text", "Orders as text"), kind="text", required=False))
        return Decision(
            entrant=entrant,
            kind="intents",
            prompt=_m(
                "prompt_intents",
                "Round {round}: give an intent to each of your cyclists on the road",
                round=state.round,
            )
            if len(undecided) == len(road) or not undecided
            else _m(
                "prompt_intents_missing",
                "Round {round}: still to give an intent to {missing}",
                round=state.round,
                missing=", ".join(f"#{c.number} {c.role}" for c in undecided),
            ),
            fields=fields,
            partial=dict(partial),
            complete=not undecided,
            example="; ".join(f"#{c.number} move" for c in road),
            info=info,
        )

    def _action_field(self, state: MindState, c: Cyclist, bottle: bool) -> InputField:
        """The actions worth offering from the positions at the start of the round."""
        actions = ["move"]
        if bottle and state.course.section_kind(c.row) == OWN_SECTION[c.role]:
            actions.append("attack")
        ahead = 0
        while state.at(c.row + ahead + 1, c.lane) is not None:
            ahead += 1
        fatigued = c.role == "domestique" and not bottle
        climbing_sprinter = c.role == "sprinter" and state.course.section_kind(c.row) == "mountain"
        if ahead and not fatigued and not climbing_sprinter:
            actions += ["wheel", "relay"] if ahead <= 3 else ["wheel"]  # §6.2: the front four relay
        return InputField(
            path=["intents", str(c.number), "action"],
            label=_m("field_action", "#{n} {role}: action", n=c.number, role=c.role),
            kind="choice",
            choices=[Choice(value=a, label=a) for a in actions],
            group=_group(c),
        )

    def _detail_fields(self, state: MindState, c: Cyclist, intent: dict[str, Any], bottle: bool) -> list[InputField]:
        """The optional parts of one cyclist's intent still open: steps, lane, bottle pass."""
        n = str(c.number)
        fields: list[InputField] = []
        if intent["action"] in ("move", "attack") and "distance" not in intent:
            top = planned_maximum(state, c, bottle) + (ATTACK_BONUS if intent["action"] == "attack" else 0)
            fields.append(
                InputField(
                    path=["intents", n, "distance"],
                    label=_m("field_distance", "#{n} {role}: steps", n=c.number, role=c.role),
                    kind="number",
                    minimum=0,
                    maximum=top,
                    required=False,
                    group=_group(c),
                )
            )
        if "lane" not in intent and "path" not in intent:
            fields.append(
                InputField(
                    path=["intents", n, "lane"],
                    label=_m("field_lane", "#{n} {role}: lane to seek", n=c.number, role=c.role),
                    kind="choice",
                    choices=[Choice(value=k, label=f"L{k}") for k in range(1, state.course.lanes + 1)],
                    required=False,
                    group=_group(c),
                )
            )
        receiver = possible_passes(state).get(c.key)
        if receiver is not None and "pass_to" not in intent:
            to = state.cyclists[receiver].number
            fields.append(
                InputField(
                    path=["intents", n, "pass_to"],
                    label=_m("field_pass", "#{n}: pass the bottle?", n=c.number),
                    kind="choice",
                    choices=[Choice(value=to, label=f"to #{to}"), Choice(value=0, label="keep")],
                    required=False,
                    group=_group(c),
                )
            )
        return fields

    def _passes_decision(self, state: MindState, entrant: str, partial: Order) -> Decision:
        passes = dict(partial.get("passes", {}))
        fields = []
        for giver, receiver in possible_passes(state).items():
            g, r = state.cyclists[giver], state.cyclists[receiver]
            if g.entrant == entrant and str(g.number) not in passes:
                fields.append(
                    InputField(
                        path=["passes", str(g.number)],
                        label=_m("field_pass", "#{n}: pass the bottle?", n=g.number),
                        kind="choice",
                        choices=[Choice(value=r.number, label=f"to #{r.number}"), Choice(value=0, label="keep")],
                        group=_group(g),
                    )
                )
        return Decision(
            entrant=entrant,
            kind="passes",
            prompt=_m("prompt_passes", "Round {round}: pass water bottles before the round?", round=state.round),
            fields=fields[:1],
            partial=dict(partial),
            complete=not fields,
            example="pass",
        )

    def _turn_decision(self, state: MindState, ctx: RoundContext, c: Cyclist, partial: Order) -> Decision:
        top = maximum(state, ctx, c.key)
        fields: list[InputField] = []
        action = partial.get("action")
        if action is None:
            choices = [Choice(value="move", label="move")]
            if may_attack(state, c):
                choices.append(Choice(value="attack", label="attack"))
            fields.append(
                InputField(
                    path=["action"],
                    label=_m("field_action_live", "Action"),
                    kind="choice",
                    choices=choices,
                    group=_group(c),
                )
            )
        elif "path" not in partial:
            most = top + (ATTACK_BONUS if action == "attack" else 0)
            if "distance" not in partial:
                fields.append(
                    InputField(
                        path=["distance"],
                        label=_m("field_steps", "Steps"),
                        kind="number",
                        minimum=0,
                        maximum=most,
                        required=False,
                        group=_group(c),
                    )
                )
            if "lane" not in partial:
                fields.append(
                    InputField(
                        path=["lane"],
                        label=_m("field_lane_live", "Lane to seek"),
                        kind="choice",
                        choices=[Choice(value=k, label=f"L{k}") for k in range(1, state.course.lanes + 1)],
                        required=False,
                        group=_group(c),
                    )
                )
        if fields:
            fields.append(
                InputField(path=[], label=_m("field_text_live", "Answer as text"), kind="text", required=False)
            )
        return Decision(
            entrant=c.entrant,
            kind="turn",
            prompt=_m(
                "prompt_turn",
                "{who} is next: move or attack (maximum {top})",
                who=state.label(c.key),
                top=explain_maximum(state, c, c.key in ctx.wind, c.key in ctx.fatigued),
            ),
            fields=fields,
            partial=dict(partial),
            complete=action is not None,
            example="move F,F,FL,F",
            info=[_m("info_where", "Row {row}, lane {lane}", row=c.row, lane=c.lane)],
        )

    def _prompt_decision(self, state: MindState, ctx: RoundContext, c: Cyclist, partial: Order) -> Decision:
        choices = []
        if wheel_target(state, ctx, c.key)[0] is not None:
            choices.append(Choice(value="wheel", label="wheel"))
        if relay_target(state, ctx, c.key)[0] is not None:
            choices.append(Choice(value="relay", label="relay"))
        choices.append(Choice(value="later", label="later"))
        done = "action" in partial
        return Decision(
            entrant=c.entrant,
            kind="wheel_or_relay",
            prompt=_m(
                "prompt_ride",
                "{leader} has moved: does {who} wheel or relay now, or act later?",
                leader=state.label(ctx.front[c.key]),
                who=state.label(c.key),
            ),
            fields=[]
            if done
            else [
                InputField(
                    path=["action"],
                    label=_m("field_ride", "Wheel or relay"),
                    kind="choice",
                    choices=choices,
                    group=_group(c),
                )
            ],
            partial=dict(partial),
            complete=done,
            example="wheel",
        )

    # --- orders ----------------------------------------------------------------------------------
    def _awaited_entrants(self, state: MindState) -> set[str]:
        """Who :meth:`awaited` asks now, without building the decisions (``validate`` runs on every order)."""
        if state.phase == "done":
            return set()
        if state.phase == "place":
            found = resolution.placer(state)
            return {found[0]} if found else set()
        if state.phase == "passes":
            return {state.cyclists[k].entrant for k in possible_passes(state)}
        if state.options["mode"] == "orders":
            return {c.entrant for c in state.cyclists.values() if c.on_road}
        ctx = state.ctx
        assert ctx is not None
        key = ctx.prompt or next_actor(state, ctx)
        return {state.cyclists[key].entrant} if key else set()

    def validate(self, state: MindState, entrant: str, order: Order | str, previous: Order | None = None) -> Validated:
        awaited = self._awaited_entrants(state)
        if entrant not in awaited:
            if entrant not in state.entrants:
                raise OrderError.of("mc.not_entrant", "{who} is not riding in this race.", who=entrant)
            waiting = ", ".join(state.names.get(e, e) for e in sorted(awaited)) or "nobody"
            raise OrderError.of("mc.not_your_turn", "It's not your turn: waiting for {waiting}.", waiting=waiting)
        if not isinstance(order, (str, dict)):
            raise OrderError.of(
                "mc.bad_order",
                "An order is an object or a line of text, like '#3 move 5' (got {got}).",
                got=repr(order),
            )
        text = orders.text_of(order)
        body: dict[str, Any] = {}
        if isinstance(order, dict) and text is None:
            body = dict(order)
        previous = dict(previous or {})
        if state.phase == "place":
            if text is not None:
                words = text.split()
                if len(words) != 1:
                    raise OrderError.of("mc.bad_place", "Name one cyclist for the grid slot, like #3.")
                body = {"cyclist": orders._number(state, entrant, words[0], "Your answer")}
            return Validated(order=self._check_place(state, entrant, body), complete=True)
        if state.phase == "passes":
            if text is not None:
                body = orders.parse_passes(state, entrant, text)
                body["passes"] = {**previous.get("passes", {}), **body["passes"]}
            checked, complete = orders.check_passes(state, entrant, body)
            return Validated(order=checked, complete=complete)
        if state.options["mode"] == "orders":
            if text is not None:
                parsed = orders.parse_intents(state, entrant, text)["intents"]
                merged = {k: dict(v) for k, v in previous.get("intents", {}).items()}
                for n, intent in parsed.items():
                    base = (
                        merged.get(n, {})
                        if set(intent) == {"pass_to"}
                        else {k: v for k, v in merged.get(n, {}).items() if k == "pass_to"}
                    )
                    merged[n] = {**base, **intent}
                body = {"intents": merged}
            checked_intents, complete = orders.check_intents(state, entrant, body)
            return Validated(order={"intents": checked_intents}, complete=complete)
        ctx = state.ctx
        assert ctx is not None
        if text is not None:
            body = orders.parse_live(text)
        if ctx.prompt is not None:
            return Validated(order=orders.check_prompt(state, ctx, state.cyclists[ctx.prompt], body), complete=True)
        key = next_actor(state, ctx)
        assert key is not None
        if "action" not in body:
            if set(body) - {"distance", "lane"}:
                raise OrderError.of("mc.bad_turn", "Choose move or attack.")
            return Validated(order=body, complete=False)
        return Validated(order=orders.check_turn(state, ctx, state.cyclists[key], body), complete=True)

    def _check_place(self, state: MindState, entrant: str, body: dict[str, Any]) -> dict[str, Any]:
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

    def resolve(
        self, state: MindState, orders_in: Mapping[str, Order], meta: Mapping[str, OrderMeta] | None = None
    ) -> tuple[MindState, list[Event]]:
        new = state.copy()
        events: list[Event] = []
        clean = dict(orders_in)
        if new.phase == "place":
            ((entrant, order),) = clean.items()
            resolution.place(new, entrant, int(order["cyclist"]), events)
        elif new.phase == "passes":
            resolution.resolve_live_passes(new, clean, events)
        elif new.options["mode"] == "orders":
            resolution.resolve_orders_round(new, clean, events)
        else:
            ((entrant, order),) = clean.items()
            assert new.ctx is not None
            if new.ctx.prompt is not None:
                resolution.resolve_live_prompt(new, entrant, order, events)
            else:
                resolution.resolve_live_turn(new, entrant, order, events)
        return new, events

    def auto_order(
        self, state: MindState, entrant: str, partial: Order | None = None, strategy: str | None = None
    ) -> Order:
        base = dict(partial or {})
        if orders.text_of(base) is not None or (base and state.phase != "place"):
            base = self.validate(state, entrant, base).order if base else {}
        return bots.auto(state, entrant, base, strategy)

    # --- views -----------------------------------------------------------------------------------
    def public_view(self, state: MindState) -> dict[str, Any]:
        ctx = state.ctx
        awaiting = [d.entrant for d in self.awaited(state)]
        view: dict[str, Any] = {
            "phase": state.phase,
            "round": state.round,
            "mode": state.options["mode"],
            "solo": state.solo,
            "course": state.course.to_json(),
            "last_row": state.course.last_row,
            "cyclists": [
                {
                    "id": c.key,
                    "entrant": c.entrant,
                    "number": c.number,
                    "role": c.role,
                    "row": c.row if c.placed else None,
                    "lane": c.lane if c.placed else None,
                    "base": "blue" if c.bottle else "black",
                    "crossed": c.crossed,
                    "place": c.place,
                }
                for c in state.cyclists.values()
            ],
            "finish_order": list(state.finish_order),
            "section_winners": dict(state.section_winners),
            "awaiting": awaiting,
            "solo_score": state.solo_score,
            PROGRESS_KEY: progress_marker("round", state.round, None, awaiting[0] if len(awaiting) == 1 else None),
        }
        if ctx is not None:
            view["round_context"] = {
                "order": list(ctx.order),
                "wind": list(ctx.wind),
                "fatigued": list(ctx.fatigued),
                "acted": list(ctx.acted),
                "attacked": list(ctx.attacked),
                "prompt": ctx.prompt,
                "next": next_actor(state, ctx),
            }
        return view

    def private_view(self, state: MindState, entrant: str) -> dict[str, Any]:
        view = self.public_view(state)
        if state.phase == "round" and state.options["mode"] == "orders":
            view["team"] = [
                {
                    "id": c.key,
                    "maximum": planned_maximum(state, c, c.bottle),
                    "may_attack": may_attack(state, c),
                }
                for c in state.team(entrant)
                if c.on_road
            ]
        return view

    def result(self, state: MindState) -> Result:
        return scoring.race_result(state)

    def dump(self, state: MindState) -> dict[str, Any]:
        return {"format": STATE_FORMAT, **state.to_json()}

    def load(self, data: Mapping[str, Any]) -> MindState:
        check_state_format(data, STATE_FORMAT)
        return MindState.from_json({k: v for k, v in data.items() if k != "format"})

    def board_text(self, state: MindState) -> str:
        return draw_board(state)
