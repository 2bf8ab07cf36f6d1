"""What players see of a Mind Cycling race: the public and private views, and the course drawn as text."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.messages import Message, msg
from engine.mind_cycling.board import draw_stage, stage_frame
from engine.mind_cycling.course import preview_course
from engine.mind_cycling.decisions import awaited_ids
from engine.mind_cycling.models import Options, stage_from
from engine.mind_cycling.movement import may_attack, planned_maximum
from engine.mind_cycling.rounds import next_actor
from engine.mind_cycling.state import RaceState
from engine.ruleset import PROGRESS_KEY, progress_marker


def public_view(state: RaceState) -> dict[str, Any]:
    """Everything everyone may see: the course, every cyclist, the round's context and who is awaited."""
    ctx = state.ctx
    awaiting = awaited_ids(state)
    view: dict[str, Any] = {
        "ruleset": "mind_cycling",  # as every system's view names itself (a front end picks its renderer by it)
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


def private_view(state: RaceState, entrant: str) -> dict[str, Any]:
    """The public view plus, in an orders-mode round, each of ``entrant``'s cyclists' maximum and attack."""
    view = public_view(state)
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


def stage_board(stage: Mapping[str, Any] | str | None, options: Mapping[str, Any]) -> Message:
    """The whole course as text for the terminal and ``/stages``: a message whose template is the legend
    (and, when the race seed places rocks or supply spaces in the climb, where), the drawing a parameter."""
    opts = Options.model_validate(dict(options))
    model = stage_from(dict(stage) if isinstance(stage, Mapping) else stage)
    course = preview_course(model, opts.lanes, opts.medal_section)
    board = draw_stage(course)
    frame = stage_frame(course)
    rocks = model.rocks if isinstance(model.rocks, int) else 0
    supply = model.supply_spaces if isinstance(model.supply_spaces, int) else 0
    climb = course.medal_mountain
    if climb is None or not (rocks or supply):
        return msg("mc.stage_board", FRAME + LEGEND, board=board, **frame)
    where = {"board": board, "first": climb.first, "last": climb.last, **frame}
    if rocks and supply:
        return msg(
            "mc.stage_board_random",
            FRAME + LEGEND + "\nPlaced at random by the race seed on rows {first} to {last}: "
            "rocks {rocks}, supply spaces {supply}.",
            rocks=rocks,
            supply=supply,
            **where,
        )
    if rocks:
        return msg(
            "mc.stage_board_random_rocks",
            FRAME + LEGEND + "\nPlaced at random by the race seed on rows {first} to {last}: rocks {rocks}.",
            rocks=rocks,
            **where,
        )
    return msg(
        "mc.stage_board_random_supply",
        FRAME + LEGEND + "\nPlaced at random by the race seed on rows {first} to {last}: supply spaces {supply}.",
        supply=supply,
        **where,
    )


FRAME = "  FINISH {finish}\n{board}\n   START {start}\n"
"""The stage board's frame: the finish line on top, the rows (``board``), the start line."""

LEGEND = "P plains, S sprint, M mountain; ## rock, ++ supply space (a feed zone)."
"""The stage board's legend (part of each ``mc.stage_board*`` template)."""
