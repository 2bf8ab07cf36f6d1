"""Wyścig kolarski behind the common :class:`~engine.ruleset.Ruleset` interface.

Turns are sequential: one step is one player's turn, and ``awaited`` names exactly that player.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, TypeVar

from pydantic import BaseModel, ValidationError

from engine.messages import Message, OrderError, msg
from engine.record import describe_validation_error
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
    Standing,
    Validated,
    check_state_format,
    column,
    progress_marker,
)
from engine.wyscig import bots
from engine.wyscig.classification import WINNER_TIME, general_classification, stage_wins
from engine.wyscig.deck import Card, deck_presets, describe_hand, is_speed, stacked_deal
from engine.wyscig.models import OptionsModel, SetupModel, StageModel
from engine.wyscig.orders import check_order, check_turn, partial_of
from engine.wyscig.pace import Verdict, hint, judge
from engine.wyscig.stage import advance, deal
from engine.wyscig.state import Player, State, dump_state, load_state
from engine.wyscig.turn import play

M = TypeVar("M", bound=BaseModel)


STATE_FORMAT = "wyscig.state/1"


class WyscigRuleset(Ruleset[State]):
    """The Polish card race over several stages (``docs/rules/wyscig-kolarski.md``)."""

    id: ClassVar[str] = "wyscig"
    name: ClassVar[str] = "Wyścig kolarski"
    options_model = OptionsModel
    stage_model = StageModel
    setup_model = SetupModel
    strategies: ClassVar[tuple[str, ...]] = bots.STRATEGIES
    default_strategy: ClassVar[str] = bots.DEFAULT_STRATEGY

    # --- catalogue -------------------------------------------------------------------------------
    def presets(self) -> list[Preset]:
        """Every deck of D1 as a stage of 6 stages (a bare preset name in a record)."""
        return [
            Preset(name=name, summary=f"{d.size} cards, 6 stages. {d.summary}", label="default" if i == 0 else None)
            for i, (name, d) in enumerate(deck_presets().items())
        ]

    def summary(self) -> str:
        return (
            "Wyścig kolarski: a card race over several stages. On your turn draw a 7th card and play one "
            "speed card (39-50 km/h), with any number of descents (+2 each). Beat the leader's speed while "
            "free of penalty minutes to take the yellow token; stay within 2 km/h to ride in the peloton; "
            "further behind costs a minute per km/h, which you win back by playing above the leader. "
            "A climb removes the tolerance and forbids overtaking. The yellow token wins the stage (57 min), "
            "the peloton records 60, the others 60 + minutes; the lowest total time wins."
        )

    def stage_board(self, stage: Mapping[str, Any] | str | None, options: Mapping[str, Any]) -> str:
        model = _stage(stage)
        d = deck_presets()[model.deck]
        return (
            f"{model.stages} stage(s) with the {model.deck} deck ({d.size} cards): "
            f"{d.per_speed} of each speed {d.speed_values[0]}-{d.speed_values[-1]}, "
            f"{d.climbs} climbs, {d.descents} descents."
        )

    def stage_data(self, stage: Mapping[str, Any] | str | None) -> dict[str, Any]:
        """The deck (a deck of D1, named by the rules) and the number of stages."""
        return _stage(stage).model_dump(mode="json")

    def player_limits(self, stage: Mapping[str, Any] | str | None, options: Mapping[str, Any]) -> PlayerLimits:
        """2 to the option ``max_players`` (6 by default, D3); 7 or 8 only with the itemised_108 deck (a
        smaller deck with ``max_players`` above its own limit is refused as bad options)."""
        model = _stage(stage)
        opts = _checked(OptionsModel, options, "options")
        preset = deck_presets()[model.deck]
        if opts.max_players > preset.max_players:
            raise ValueError(
                f"max_players {opts.max_players} needs the itemised_108 deck: the {model.deck} deck "
                f"allows at most {preset.max_players} players (D3)"
            )
        return PlayerLimits(2, opts.max_players)

    # --- a race ----------------------------------------------------------------------------------
    def open_race(
        self,
        stage: Mapping[str, Any] | str | None,
        options: Mapping[str, Any],
        entrants: list[Entrant],
        seed: int,
        setup: Mapping[str, Any] | None,
    ) -> tuple[State, list[Event]]:
        """The first deal, its opening-hand climbs and the first turn (a climb the leader draws at turn 1)
        are the opening events."""
        model = _stage(stage)
        plan = _checked(SetupModel, setup or {}, "setup")
        preset = deck_presets()[model.deck]
        ids = [e.id for e in entrants]
        rng = Rng.from_seed(seed, "wyscig")
        seats = _seats(plan, ids, rng)
        leader = plan.leader if plan.leader is not None else rng.choice(seats)  # D4: first leader by lot
        if leader not in ids:
            raise ValueError(f"setup.leader {leader!r} is not an entrant")
        number = plan.stage_number or 1
        if number > model.stages:
            raise ValueError(f"setup.stage_number {number} is past the last stage ({model.stages})")
        players = {e.id: Player(id=e.id, name=e.name) for e in entrants}
        _earlier_times(plan, players, number)
        state = State(deck=model.deck, stages=model.stages, seats=seats, players=players, rng=0)
        state.stage_number = number
        state.leader = leader
        pile, hands = _first_deal(plan, preset.cards(), ids, rng)
        state.stacked = _later_deals(plan, preset.cards(), ids, number, model.stages)
        state.rng = rng.state
        events: list[Event] = []
        deal(state, pile, events, hands)
        for e, minutes in (plan.minutes or {}).items():
            if e not in players:
                raise ValueError(f"setup.minutes names {e!r}, who is not an entrant")
            if minutes < 0:
                raise ValueError(f"setup.minutes.{e} must be 0 or more")
            if minutes and e == leader:
                raise ValueError("setup.minutes: the leader never holds penalty minutes (D11)")
            players[e].minutes = minutes
        _check_first_card(state)
        advance(state, leader, events)
        return state, events

    def awaited(self, state: State, partial: Mapping[str, Order] | None = None) -> list[Decision]:
        if state.finished or state.turn is None:
            return []
        entrant = state.turn
        player = state.player(entrant)
        chosen = partial_of(state, entrant, partial)
        sent = partial.get(entrant) if partial else None
        # A text order is a whole order (its descents are chosen); a JSON one may still lack them.
        raw = sent if isinstance(sent, dict) and "text" not in sent else chosen
        descents = int(chosen.get("descents", 0))
        fields: list[InputField] = []
        if "card" not in chosen:
            fields.append(
                InputField(
                    path=["card"],
                    label=msg("wk.field.card", "Speed card"),
                    kind="choice",
                    choices=[
                        Choice(
                            value=card,
                            label=str(card),
                            hint=hint(card, descents, _verdict(state, player, card, descents), state.on_climb),
                        )
                        for card in sorted(set(player.speeds))
                    ],
                )
            )
        if player.descents and ("card" not in chosen or "descents" not in raw):
            fields.append(
                InputField(
                    path=["descents"],
                    label=msg("wk.field.descents", "Descent cards (+2 km/h each)"),
                    kind="number",
                    minimum=0,
                    maximum=player.descents,
                    required=False,
                )
            )
        return [
            Decision(
                entrant=entrant,
                kind="turn",
                prompt=_prompt(state, player),
                fields=fields,
                partial=chosen,
                complete="card" in chosen,
                example=f"play {player.speeds[-1]}" + (" +1" if player.descents else ""),
                info=_info(state, player),
            )
        ]

    def validate(self, state: State, entrant: str, order: Order | str, previous: Order | None = None) -> Validated:
        normal, complete = check_order(state, entrant, order, previous)
        return Validated(order=normal, complete=complete)

    def resolve(
        self, state: State, orders: Mapping[str, Order], meta: Mapping[str, OrderMeta] | None = None
    ) -> tuple[State, list[Event]]:
        check_turn(state, state.turn or "")
        entrant = state.turn
        assert entrant is not None
        if entrant not in orders:
            raise OrderError.of("wk.missing_order", "No card from {entrant}, whose turn it is.", entrant=entrant)
        normal, complete = check_order(state, entrant, orders[entrant])
        if not complete:
            raise OrderError.of("wk.no_card", "Choose a speed card to play.")
        new = state.copy()
        events: list[Event] = []
        play(new, entrant, int(normal["card"]), int(normal["descents"]), events)
        advance(new, new.next_seat(entrant), events)
        return new, events

    def auto_order(
        self, state: State, entrant: str, partial: Order | None = None, strategy: str | None = None
    ) -> Order:
        check_turn(state, entrant)
        chosen = partial_of(state, entrant, {entrant: partial} if partial else None)
        player = state.player(entrant)
        if strategy is None:
            return bots.absent_order(state, player, chosen)
        if strategy not in bots.PLAYERS:
            raise ValueError(f"unknown Wyścig strategy {strategy!r}; choose one of: {', '.join(self.strategies)}")
        return bots.PLAYERS[strategy](state, player, chosen)

    # --- views -----------------------------------------------------------------------------------
    def public_view(self, state: State) -> dict[str, Any]:
        gc = {g.entrant: g for g in general_classification([state.player(e) for e in state.seats])}
        return {
            "ruleset": self.id,
            "deck": state.deck,
            "stages": state.stages,
            "stage_number": state.stage_number,
            "finished": state.finished,
            "seats": list(state.seats),
            "leader": state.leader,
            "reference": state.reference,
            "on_climb": state.on_climb,
            "climbs": [{"owner": c.owner, "ends_at_turn": c.ends_at_turn, "opening": c.opening} for c in state.climbs],
            "pile": len(state.pile),
            "discards": state.discards,
            "turn": state.turn,
            PROGRESS_KEY: progress_marker("stage", state.stage_number, state.stages, state.turn, lap=lap_number(state)),
            "played": [dict(p) for p in state.played],
            "lap": lap_text(state),
            "players": [
                {
                    "id": p.id,
                    "name": p.name,
                    "cards": p.hand_size,
                    "minutes": p.minutes,
                    "turns": p.turns,
                    "last": dict(p.last) if p.last else None,
                    "times": list(p.times),
                    "total": p.total,
                    "stage_wins": stage_wins(p),
                    "place": gc[p.id].place,
                }
                for p in (state.player(e) for e in state.seats)
            ],
            "stage_results": [dict(r) for r in state.stage_results],
        }

    def private_view(self, state: State, entrant: str) -> dict[str, Any]:
        view = self.public_view(state)
        player = state.player(entrant)
        view["hand"] = {"speeds": list(player.speeds), "descents": player.descents}
        view["you"] = entrant
        return view

    def board_text(self, state: State) -> str:
        lines = [f"Wyścig kolarski · stage {state.stage_number}/{state.stages} · {state.deck}"]
        if state.finished:
            lines[0] += " · finished"
        road = "CLIMB (−2 km/h, no overtaking, no tolerance)" if state.on_climb else "flat"
        ref = "—" if state.reference is None else str(state.reference)
        lines.append(
            f"Leader: {state.player(state.leader).name} · L = {ref} km/h · road: {road} · pile {len(state.pile)}"
        )
        for e in state.seats:
            p = state.player(e)
            mark = "[Y]" if e == state.leader else "   "
            last = "" if not p.last else f"last {p.last['speed']}"
            turn = " <- to play" if e == state.turn else ""
            times = " ".join(str(t) for t in p.times) or "-"
            lines.append(
                f"{mark} {p.name:<16} {p.minutes:>3} min · {p.hand_size} cards · {last:<8} · "
                f"times {times} (total {p.total}){turn}"
            )
        return "\n".join(lines)

    def result(self, state: State) -> Result:
        lines = general_classification([state.player(e) for e in state.seats])
        return Result(
            finished=state.finished,
            provisional=not state.finished,
            standings=[
                Standing(
                    entrant=g.entrant,
                    place=g.place,
                    figures={
                        "total_time": g.total,
                        "stage_wins": g.stage_wins,
                        "last_stage_time": g.last_time,
                        "stage_times": g.times,
                        "penalty_minutes": g.penalty_minutes,
                        "stages_raced": len(g.times),
                    },
                )
                for g in lines
            ],
            columns=[
                column("total_time", "wk.column.total_time", "Total time (min)", "time"),
                column("stage_wins", "wk.column.stage_wins", "Stage wins", "count"),
                column("stage_times", "wk.column.stage_times", "Stage times (min)", "time", "list"),
                column("penalty_minutes", "wk.column.penalty_minutes", "Penalty minutes", "minutes"),
            ],
            notes=[
                msg(
                    "wk.result.note",
                    "General classification after {done} of {stages} stages: lowest total time; ties go to "
                    "more stage wins, then the lower time in the latest stage.",
                    done=len(state.stage_results),
                    stages=state.stages,
                )
            ],
        )

    def dump(self, state: State) -> dict[str, Any]:
        return {"format": STATE_FORMAT, **dump_state(state)}

    def load(self, data: Mapping[str, Any]) -> State:
        check_state_format(data, STATE_FORMAT)
        return load_state({k: v for k, v in data.items() if k != "format"})


# --- helpers --------------------------------------------------------------------------------------
def _stage(stage: Mapping[str, Any] | str | None) -> StageModel:
    """The stage object; a bare string is a deck preset of D1 with 6 stages."""
    if stage is None:
        return StageModel()
    if isinstance(stage, str):
        if stage not in deck_presets():
            raise ValueError(f"unknown Wyścig stage {stage!r}; choose one of: {', '.join(deck_presets())}")
        return StageModel.model_validate({"deck": stage})
    return _checked(StageModel, stage, "stage")


def _checked(model: type[M], data: Mapping[str, Any], where: str) -> M:
    """Validate a record section; the error names the section and the field (``stage.stages: ...``)."""
    try:
        return model.model_validate(dict(data))
    except ValidationError as exc:
        raise ValueError(describe_validation_error(exc, where)) from exc


def _seats(plan: SetupModel, ids: list[str], rng: Rng) -> list[str]:
    """D4: the seat order is drawn from the seed, unless the setup gives it."""
    if plan.seats is None:
        seats = list(ids)
        rng.shuffle(seats)
        return seats
    if sorted(plan.seats) != sorted(ids):
        raise ValueError("setup.seats must list every entrant exactly once")
    return list(plan.seats)


def _earlier_times(plan: SetupModel, players: dict[str, Player], number: int) -> None:
    times = plan.earlier_times or {}
    if number == 1 and not times:
        return
    if sorted(times) != sorted(players):
        raise ValueError("setup.earlier_times must give every entrant's times of the stages before stage_number")
    for e, row in times.items():
        if len(row) != number - 1:
            raise ValueError(f"setup.earlier_times.{e} must hold {number - 1} stage time(s)")
        if any(t != WINNER_TIME and t < 60 for t in row):
            raise ValueError(f"setup.earlier_times.{e}: a stage time is 57 (the winner), 60 or more")
    for stage in range(number - 1):
        winners = [e for e in times if times[e][stage] == WINNER_TIME]
        if len(winners) != 1:
            raise ValueError(f"setup.earlier_times: stage {stage + 1} must have exactly one winner on 57")
    for e, row in times.items():
        players[e].times = list(row)
        players[e].penalties = [0 if t == WINNER_TIME else t - 60 for t in row]


def _first_deal(
    plan: SetupModel, deck: list[Card], ids: list[str], rng: Rng
) -> tuple[list[Card], dict[str, list[Card]]]:
    """The first stage's pile and explicit hands: stacked by the setup, or shuffled from the seed."""
    hands: dict[str, list[Card]] = {e: list(h) for e, h in (plan.hands or {}).items()}
    for e in hands:
        if e not in ids:
            raise ValueError(f"setup.hands names {e!r}, who is not an entrant")
    if plan.pile is None and not hands:
        rng.shuffle(deck)
        return deck, hands
    pile: list[Card] | None = None if plan.pile is None else list(plan.pile)
    return stacked_deal(deck, hands, pile, rng), hands


def _later_deals(
    plan: SetupModel, deck: list[Card], ids: list[str], first: int, last: int
) -> dict[str, dict[str, Any]]:
    """The setup's stacked deals of later stages, checked now (entrants, stage numbers, cards against the
    deck), for the state to deal when each stage starts."""
    stacked: dict[str, dict[str, Any]] = {}
    for number, given in sorted((plan.stage_deals or {}).items()):
        where = f"setup.stage_deals.{number}"
        if not first < number <= last:
            raise ValueError(f"{where}: the stages after the first one played are {first + 1} to {last}")
        hands: dict[str, list[Card]] = {e: list(h) for e, h in (given.hands or {}).items()}
        for e in hands:
            if e not in ids:
                raise ValueError(f"{where}.hands names {e!r}, who is not an entrant")
        pile: list[Card] | None = None if given.pile is None else list(given.pile)
        stacked_deal(deck, hands, pile, Rng.from_seed(0, "check"), where)  # only to check the cards
        stacked[str(number)] = {"hands": hands, "pile": pile}
    return stacked


def _check_first_card(state: State) -> None:
    """§4 and D11: the stage starts with the leader's card, so a setup must let him play one.

    Were he skipped, the first card would meet no L and make its rider leader, minutes and all.
    """
    leader = state.player(state.leader)
    if not leader.speeds and not any(is_speed(card) for card in state.pile):
        raise ValueError(
            f"setup: the leader {state.leader!r} must play the stage's first card, but neither his hand "
            "nor the pile holds a speed card"
        )


def _verdict(state: State, player: Player, card: int, descents: int) -> Verdict:
    return judge(card + 2 * descents, state.reference, player.minutes, player.id == state.leader, state.on_climb)


def _prompt(state: State, player: Player) -> Message:
    if player.id == state.leader:
        return msg(
            "wk.prompt.leader",
            "Your turn, {name}: you lead. Play a speed card to set the pace.",
            name=player.name,
        )
    return msg(
        "wk.prompt.turn",
        "Your turn, {name}: play a speed card against the leader's {reference} km/h.",
        name=player.name,
        reference=state.reference,
    )


def _info(state: State, player: Player) -> list[Message]:
    info = [
        msg(
            "wk.info.hand",
            "Your hand: {hand}.",
            hand=describe_hand(player.speeds, player.descents),
        ),
        msg(
            "wk.info.stage",
            "Stage {stage}/{stages} · leader {leader} · L = {reference} · {pile} cards in the pile.",
            stage=state.stage_number,
            stages=state.stages,
            leader=state.player(state.leader).name,
            reference="—" if state.reference is None else state.reference,
            pile=len(state.pile),
        ),
    ]
    lap = lap_text(state)
    if lap:
        info.append(msg("wk.info.lap", "This lap: {lap}.", lap=lap))
    if player.minutes:
        info.append(
            msg(
                "wk.info.minutes",
                "You hold {minutes} penalty minute(s): play above the leader to give them back.",
                minutes=player.minutes,
            )
        )
    if state.on_climb:
        info.append(msg("wk.info.climb", "On a climb: no overtaking, and every km/h below the leader costs a minute."))
    return info


_TAGS = {"pace": " (leader)", "lead": " (takes the lead)", "peloton": "", "penalty": " +{m} min"}


def lap_number(state: State) -> int:
    """The lap of turns this stage is in (from 1): turns go round the seats, each lap one turn each, so
    the lap is the turn holder's turn number (counted when his turn begins); once the race is over, the
    last lap played."""
    if state.turn is not None:
        return max(1, state.player(state.turn).turns)
    return max([1, *(state.player(e).turns for e in state.seats)])


def lap_text(state: State) -> str:
    """The cards of the last lap as the table sees them: "Anna 47 (leader) · Bob 46 · Carla 42 +5 min"."""
    parts = []
    for card in state.played[-(len(state.seats) - 1) :]:
        outcome = card["outcome"]
        if outcome == "give_back":
            tag = f" −{-card['minutes']} min"
        elif card.get("blocked"):
            tag = " (no overtaking)"
        else:
            tag = _TAGS.get(outcome, "").format(m=card["minutes"])
        parts.append(f"{state.player(card['entrant']).name} {card['speed']}{tag}")
    return " · ".join(parts)
