"""What the players see of a race: the catalogue (presets, summary, stage board), the public and private
views, the text board, the lap line and the result (the general classification of D19)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.messages import Message, msg
from engine.ruleset import PROGRESS_KEY, Preset, Result, Standing, column, progress_marker
from engine.wyscig import texts
from engine.wyscig.classification import general_classification, stage_wins
from engine.wyscig.deck import deck_presets
from engine.wyscig.start import read_stage
from engine.wyscig.state import RaceState

RULESET_ID = "wyscig"


def presets() -> list[Preset]:
    """Every deck of D1 as a race of the default number of stages (D2; a bare preset name in a record); the
    first deck is the default, labelled so."""
    return [
        Preset(
            name=name,
            summary=texts.preset_summary(name, d, read_stage(name).stages),
            label=texts.default_label() if i == 0 else None,
            title=texts.preset_title(name),
        )
        for i, (name, d) in enumerate(deck_presets().items())
    ]


def summary() -> Message:
    return texts.summary()


def stage_board(stage: Mapping[str, Any] | str | None, options: Mapping[str, Any]) -> Message:
    model = read_stage(stage)
    return texts.stage_board(model.deck, deck_presets()[model.deck], model.stages)


def public_view(state: RaceState) -> dict[str, Any]:
    gc = {g.entrant: g for g in general_classification([state.player(e) for e in state.seats])}
    return {
        "ruleset": RULESET_ID,
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
        "lap": _dumped(lap_line(state)),
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


def _dumped(message: Message | None) -> dict[str, Any] | None:
    """A message in a view as its JSON form (``key``, ``params``, ``text``), so a front end translates it."""
    return None if message is None else message.model_dump()


def private_view(state: RaceState, entrant: str) -> dict[str, Any]:
    view = public_view(state)
    player = state.player(entrant)
    view["hand"] = {"speeds": list(player.speeds), "descents": player.descents}
    view["you"] = entrant
    return view


def result(state: RaceState) -> Result:
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
            column("total_time", "wk.column.total_time", "Total time", "time"),
            column("stage_wins", "wk.column.stage_wins", "Stage wins", "count"),
            column("stage_times", "wk.column.stage_times", "Stage times", "time", "list"),
            column("penalty_minutes", "wk.column.penalty_minutes", "Penalty", "minutes"),
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


def lap_number(state: RaceState) -> int:
    """The lap of turns this stage is in (from 1): turns go round the seats, each lap one turn each, so
    the lap is the turn holder's turn number (counted when his turn begins); once the race is over, the
    last lap played."""
    if state.turn is not None:
        return max(1, state.player(state.turn).turns)
    return max([1, *(state.player(e).turns for e in state.seats)])


def lap_line(state: RaceState) -> Message | None:
    """The cards of the last lap as the table sees them: "Anna 47 (leader) · Bob 46 · Carla 42 +5 min"
    (None before the first card); each card's words are a key's own, by its outcome."""
    return texts.lap(
        [
            texts.lap_card(
                state.player(card["entrant"]).name,
                card["speed"],
                card["outcome"],
                bool(card.get("blocked")),
                card["minutes"],
            )
            for card in state.played[-(len(state.seats) - 1) :]
        ]
    )
