"""Views (contract 10, 11): the public board (no hands, no deck order) and a player's private additions.

Hands are not part of any view: a hand exists only through the order being made (D27: the second hand is
drawn once the first card is chosen), so the energy Decision carries it as its card choices.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from engine.flamme_rouge import cards as C
from engine.flamme_rouge.state import RaceState, Rider
from engine.flamme_rouge.track import TERRAIN_NAMES, Track
from engine.ruleset import PROGRESS_KEY, progress_marker


def _counts(cards: Sequence[int]) -> dict[str, int]:
    """Card contents as label -> count (never the order)."""
    return {C.label(c): n for c, n in sorted(Counter(cards).items(), key=lambda kv: C.value(kv[0]))}


def _rider_view(state: RaceState, r: Rider, show_deck: bool) -> dict[str, Any]:
    out: dict[str, Any] = {
        "id": r.id,
        "team": r.team,
        "type": r.type_name,
        "owner": r.owner,
        "bot": r.bot or None,
        "square": r.square,
        "lane": r.lane,
        "terrain": TERRAIN_NAMES[state.track.terrain[r.square]] if r.square else None,
        "deck_size": len(r.deck),
        "recycled": [C.label(c) for c in r.recycled],  # 5.1: the recycled pile is public
        "exhaustion": r.exhaustion,
        "crossed_round": r.crossed or None,
        "past_line": r.past if r.crossed else None,
        "on_track": r.square > 0 and not r.off,
        "breakaway": r.breakaway,
    }
    if show_deck:
        out["deck_contents"] = _counts(r.deck)  # D24
    return out


def track_view(track: Track) -> dict[str, Any]:
    return {
        "name": track.name,
        "squares": track.last,
        "start_squares": track.start_squares,
        "finish": track.finish,
        "profile": track.profile(),
        "tiles": "".join(track.tokens),
        "weather": {str(n): track.wind[n] for n in range(1, track.last + 1) if track.wind[n]},
    }


def public_view(state: RaceState) -> dict[str, Any]:
    show = bool(state.options.get("show_deck_contents"))
    bids = {
        e: {"rider": v[0], "cards": [C.value(c) for c in v[1:]]} for e, v in state.bids.items()
    }  # revealed after each bidding round
    return {
        "ruleset": "flamme_rouge",
        "phase": state.phase,
        "round": state.round,
        "turn_order": list(state.turn_order),
        "turn": state.turn_order[state.cursor] if state.phase in ("place", "choose") else None,
        "stage": dict(state.stage),
        "track": track_view(state.track),
        "options": {k: list(v) if isinstance(v, list) else v for k, v in state.options.items()},
        "weather_tokens": list(state.weather),
        "riders": [_rider_view(state, r, show) for r in state.riders],
        "bids": bids,
        PROGRESS_KEY: progress_marker(
            "round",
            state.round,
            None,
            state.turn_order[state.cursor] if state.phase in ("place", "choose") else None,
        ),
    }


def private_view(state: RaceState, entrant: str) -> dict[str, Any]:
    view = public_view(state)
    mine = [r for r in state.riders if r.owner == entrant]
    view["you"] = {
        "entrant": entrant,
        "riders": [r.id for r in mine],
        "decks": {r.id: {"size": len(r.deck), "contents": _counts(r.deck)} for r in mine},
    }
    return view
