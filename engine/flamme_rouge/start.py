"""A new race (§4): the stage, the teams and their shuffled decks, the turn order, the bots' grid.

Also the phase changes of the race's set-up part: rider choice -> Breakaway -> grid -> racing.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from engine.flamme_rouge import cards as C
from engine.flamme_rouge.breakaway import bidders
from engine.flamme_rouge.events import event
from engine.flamme_rouge.grid import free_lane, place_bot_teams, place_randomly
from engine.flamme_rouge.meteo import draw_tokens, weathered
from engine.flamme_rouge.models import Options, RiderSetup, Setup, Stage
from engine.flamme_rouge.state import (
    BID,
    BOT_TEAMS,
    CHOOSE,
    COLOURS,
    ENERGY,
    MUSCLE,
    PELOTON,
    PLACE,
    RaceState,
    Rider,
)
from engine.flamme_rouge.track import (
    Track,
    catalogue,
    find_preset,
    from_profile,
    from_tiles,
    large_base_tiles,
    parse_profile,
    riders_make_it_large,
    split_tiles,
)
from engine.rng import Rng
from engine.ruleset import Entrant, Event

PLAYER_STRATEGIES = ("heuristic", "simple", "first")
MAX_TEAMS = 6
MAX_RIDERS = 12


def normalise_stage(stage: Mapping[str, Any] | str | None) -> dict[str, Any]:
    """The stage as ``{"preset": ...}`` / ``{"tiles": ...}`` / ``{"profile": ...}`` (D12)."""
    if stage is None:
        return {"preset": catalogue().default}
    if isinstance(stage, str):
        text = stage.strip()
        entry = find_preset(text)
        if entry is not None:
            return {"preset": entry.name}
        if " " in text:
            try:
                parse_profile(text)
            except ValueError as exc:
                raise ValueError(
                    f"unknown stage {stage!r}: not a catalogue name, and as a terrain profile: {exc}"
                ) from None
            return {"profile": text}
        try:
            split_tiles(text)
        except ValueError:
            raise ValueError(
                f"unknown stage {stage!r}: not a catalogue name, a tile string or a terrain profile"
            ) from None
        return {"tiles": text}
    model = Stage.model_validate(dict(stage))
    if model.preset is not None:
        entry = find_preset(model.preset)
        if entry is None:
            names = ", ".join(s.name for s in catalogue().stages)
            raise ValueError(f"unknown stage preset {model.preset!r}; the catalogue has: {names}")
        return {"preset": entry.name}
    return model.model_dump(exclude_none=True)


def stage_data(stage: Mapping[str, Any] | str | None) -> dict[str, Any]:
    """The explicit stage ``stage`` stands for: a catalogue stage becomes its tiles, name and (Peloton
    stages, D13) 5-6-player tiles; anything else comes back normalised."""
    spec = normalise_stage(stage)
    if "preset" not in spec:
        return spec
    entry = find_preset(spec["preset"])
    assert entry is not None
    data: dict[str, Any] = {"tiles": entry.tiles, "name": entry.name}
    if entry.large is not None:
        data["large_tiles"] = entry.large.tiles
    return data


def build_track(stage: dict[str, Any], large: bool) -> Track:
    """The printed track for a normalised stage; D13 when ``large``."""
    if "preset" in stage:
        entry = find_preset(stage["preset"])
        assert entry is not None
        if large and entry.large is not None:
            return from_tiles(entry.large.tiles, f"{entry.name} (5-6 players)")
        tiles = large_base_tiles(entry.tiles) if large else entry.tiles
        return from_tiles(tiles, entry.name)
    name = stage.get("name", "")
    if large and stage.get("large_tiles"):
        return from_tiles(stage["large_tiles"], f"{name} (5-6 players)")
    if "tiles" in stage:
        return from_tiles(large_base_tiles(stage["tiles"]) if large else stage["tiles"], name)
    return from_profile(stage["profile"], name)


def race_track(stage: dict[str, Any], large: bool, weather: list[str]) -> Track:
    """The track with its weather, cached (a :class:`Track` is frozen, its tables tuples: every state and
    race may share it)."""
    return _race_track(tuple(sorted(stage.items())), large, tuple(weather))


@lru_cache(maxsize=256)
def _race_track(stage: tuple[tuple[str, Any], ...], large: bool, weather: tuple[str, ...]) -> Track:
    return weathered(build_track(dict(stage), large), list(weather))


def new_race(
    stage: Mapping[str, Any] | str | None,
    options: Mapping[str, Any],
    entrants: list[Entrant],
    seed: int,
    setup: Mapping[str, Any] | None,
) -> tuple[RaceState, list[Event]]:
    """A race ready for its first step (and the events of what happened by itself: the bots' grid...).

    The entrants' ids, count and strategies are already checked (``engine.ruleset.check_entrants``)."""
    opts, opts_json = _options(options)
    stage_spec = normalise_stage(stage)
    su = Setup.model_validate(dict(setup)) if setup else _NO_SETUP
    bot_teams = [e for e in entrants if e.bot in BOT_TEAMS]
    players = [e for e in entrants if e.bot not in BOT_TEAMS]
    if not players:
        raise ValueError("a race needs at least one player (a person or a strategy bot), not only bot teams")
    if sum(1 for e in bot_teams if e.bot == PELOTON) > 1:
        raise ValueError("at most one Peloton bot team (D22)")
    one = opts.riders_per_player == 1
    n_riders = len(players) * (1 if one else 2) + 2 * len(bot_teams)
    if not one and len(entrants) > MAX_TEAMS:
        raise ValueError(f"at most {MAX_TEAMS} teams (players and bot teams) race; there are {len(entrants)}")
    if n_riders > MAX_RIDERS:
        raise ValueError(f"at most {MAX_RIDERS} riders race (D22, D23); these entrants need {n_riders}")
    if one and len(bot_teams) >= MAX_TEAMS:
        raise ValueError("one-rider mode needs a colour left for the players")

    rng = Rng.from_seed(seed)
    riders: list[Rider] = []

    def deck(cards: tuple[int, ...]) -> tuple[int, ...]:
        d = list(cards)
        C.shuffle(d, rng)
        return tuple(d)

    if one:
        # D23: bot teams take colours from the end; the players choose among the riders of the rest.
        bot_colours = list(reversed(COLOURS))[: len(bot_teams)]
        free_colours = [c for c in COLOURS if c not in bot_colours]
        team_colour = {e.id: c for e, c in zip(bot_teams, bot_colours, strict=True)}
        for colour in free_colours:
            riders.append(Rider(f"{colour}-r", colour, "r", "", "", deck(C.ROULEUR_DECK)))
            riders.append(Rider(f"{colour}-s", colour, "s", "", "", deck(C.SPRINTEUR_DECK)))
    else:
        team_colour = {e.id: c for e, c in zip(entrants, COLOURS, strict=False)}
        for e in players:
            colour = team_colour[e.id]
            riders.append(Rider(f"{colour}-r", colour, "r", e.id, "", deck(C.ROULEUR_DECK)))
            riders.append(Rider(f"{colour}-s", colour, "s", e.id, "", deck(C.SPRINTEUR_DECK)))
    for e in bot_teams:
        colour = team_colour[e.id]
        if e.bot == PELOTON:
            riders.append(Rider(f"{colour}-p1", colour, "p", e.id, PELOTON, deck(C.PELOTON_DECK)))
            riders.append(Rider(f"{colour}-p2", colour, "p", e.id, PELOTON, ()))
        else:
            riders.append(Rider(f"{colour}-s", colour, "s", e.id, MUSCLE, deck(C.MUSCLE_SPRINTEUR_DECK)))
            riders.append(Rider(f"{colour}-r", colour, "r", e.id, MUSCLE, deck(C.ROULEUR_DECK)))
    # D7: the players' turn order is drawn from the race seed.
    turn_order = [e.id for e in players]
    rng.shuffle(turn_order)
    if su.turn_order is not None:
        if sorted(su.turn_order) != sorted(e.id for e in players):
            raise ValueError("setup.turn_order must list every player (not the bot teams) exactly once")
        turn_order = list(su.turn_order)

    large = riders_make_it_large(n_riders)
    base = build_track(stage_spec, large)
    weather = draw_tokens(base, opts.meteo if isinstance(opts.meteo, str) else list(opts.meteo), rng)
    track = race_track(stage_spec, large, weather)
    if track.start_squares and capacity_of(track) < n_riders:
        raise ValueError(f"the start area holds {capacity_of(track)} riders; this race has {n_riders}")

    state = RaceState(
        stage=stage_spec,
        options=opts_json,
        entrants=[{"id": e.id, "name": e.name, "bot": e.bot} for e in entrants],  # = model_dump(mode="json")
        seed=seed,
        rng=rng.state,
        track=track,
        large=large,
        weather=weather,
        phase=ENERGY,
        round=su.round,
        turn_order=turn_order,
        riders=riders,
    )
    apply_setup(state, su, one)
    check_start_area(state, su, one, bool(setup))
    events: list[Event] = []
    if one and su.owners is None:  # D23: the players choose their riders first
        state.phase = CHOOSE
        state.cursor = 0
        return state, events
    events.extend(after_choice(state))
    return state, events


_NO_SETUP = Setup()


def _options(options: Mapping[str, Any]) -> tuple[Options, dict[str, Any]]:
    """The validated options and their JSON (a fresh copy), cached: a lobby or a benchmark starts many races
    with the same few option sets. Invalid options raise each time (nothing is cached)."""
    try:
        opts, data = _validated_options(_frozen(options))
    except TypeError:  # an unhashable value (a misspelt option holding an object): not cached
        opts = Options.model_validate(dict(options))
        data = opts.model_dump(mode="json")
    return opts, {k: list(v) if isinstance(v, list) else v for k, v in data.items()}


def options_of(options: Mapping[str, Any]) -> Options:
    """The validated options (cached; never handed out of the engine)."""
    return _options(options)[0]


def _frozen(options: Mapping[str, Any]) -> tuple[tuple[str, Any], ...]:
    """A hashable copy of a JSON options object (its lists as tuples), in key order."""
    return tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in options.items()))


@lru_cache(maxsize=256)
def _validated_options(frozen: tuple[tuple[str, Any], ...]) -> tuple[Options, dict[str, Any]]:
    """Only handed out through :func:`_options`, which copies the JSON, and :func:`options_of`."""
    opts = Options.model_validate({k: list(v) if isinstance(v, tuple) else v for k, v in frozen})
    return opts, opts.model_dump(mode="json")


def capacity_of(track: Track) -> int:
    return sum(track.lanes[n] for n in range(1, track.start_squares + 1))


def max_riders(stage: Mapping[str, Any] | str | None) -> int:
    """The most riders a race on ``stage`` can start (D22's 12, or fewer if its start area is smaller; D13:
    more than 8 riders race on the large version). A test track without start squares is not limited by a
    grid: the setup places its riders (R-FR-10)."""
    spec = normalise_stage(stage)
    return _max_riders(tuple(sorted(spec.items())))


@lru_cache(maxsize=256)
def _max_riders(spec: tuple[tuple[str, Any], ...]) -> int:
    stage = dict(spec)
    if not build_track(stage, False).start_squares:
        return MAX_RIDERS
    return max(
        (n for n in range(1, MAX_RIDERS + 1) if capacity_of(build_track(stage, riders_make_it_large(n))) >= n),
        default=0,
    )


def _check_cards(rid: str, rs: RiderSetup, dealt: tuple[int, ...]) -> None:
    """A stacked deck, hand or recycled pile holds only cards this rider's deck can hold: those of its
    starting deck (a Rouleur's 3-7, a Sprinteur's 2-5 and 9, the Peloton's Attack!, the Muscle card) and
    exhaustion cards (R-FR-8); so does a Breakaway round-1 ``bid`` (R-FR-11). Counts are not checked, so a test
    may repeat a card."""
    allowed = set(dealt) | {C.EXHAUSTION}
    for part in ("deck", "hand", "recycled", "bid"):
        given = getattr(rs, part)
        for card in [given] if part == "bid" and given is not None else given or []:
            if C.parse_card(card) not in allowed:
                names = ", ".join(C.label(c) for c in sorted(allowed - {C.EXHAUSTION})) + ", E"
                raise ValueError(f"setup.riders.{rid}.{part}: {rid}'s deck cannot hold {card!r}; its cards are {names}")


def apply_setup(state: RaceState, su: Setup, one: bool) -> None:
    """Explicit owners, positions, decks, hands, recycled piles and exhaustion from ``setup``."""
    known = {r.id: r for r in state.riders}
    players = {e["id"] for e in state.entrants if e.get("bot") not in BOT_TEAMS}
    if su.owners is not None:
        if not one:
            raise ValueError("setup.owners is for one-rider mode (riders_per_player = 1)")
        for rid, owner in su.owners.items():
            if rid not in known or known[rid].bot:
                raise ValueError(f"setup.owners: {rid!r} is not a rider the players can take")
            if owner not in players:
                raise ValueError(f"setup.owners: {owner!r} is not a player")
        if sorted(su.owners.values()) != sorted(players):
            raise ValueError("setup.owners must give every player exactly one rider")
        for rid, owner in su.owners.items():
            known[rid].owner = owner
        state.riders = [r for r in state.riders if r.owner]
        state.teams = {}
        known = {r.id: r for r in state.riders}
    for rid, rs in su.riders.items():
        if rid not in known:
            raise ValueError(f"setup.riders: no rider {rid!r} in this race; riders: {', '.join(known)}")
        r = known[rid]
        _check_cards(rid, rs, r.deck)
        if rs.deck is not None:
            r.deck = tuple(C.parse_card(c) for c in rs.deck)
        if rs.bid is not None:
            _round_one_bid(state, rid, C.parse_card(rs.bid), rs.deck is None, r)
        if rs.hand is not None:
            r.deck = (*[C.parse_card(c) for c in rs.hand], *r.deck)
        if rs.recycled is not None:
            r.recycled = tuple(C.parse_card(c) for c in rs.recycled)
        if rs.exhaustion:
            r.recycled = (*r.recycled, *[C.EXHAUSTION] * rs.exhaustion)
            r.exhaustion = rs.exhaustion
        if rs.crossed is not None or rs.past is not None:
            _across(state, su, rid, rs, r)
            continue
        if rs.square is not None:
            if rs.square > state.track.last and state.options["finish_overflow"] == "clip":
                raise ValueError(f"setup.riders.{rid}.square: the track ends at square {state.track.last}")
            if rs.square >= state.track.finish:
                raise ValueError(f"setup.riders.{rid}.square: a racing rider stands before the finish line")
            lane = rs.lane or free_lane(state, rs.square)
            if not lane or lane > state.track.lanes[rs.square]:
                raise ValueError(f"setup.riders.{rid}: square {rs.square} has no free lane {rs.lane or ''}".strip())
            if any(o.square == rs.square and o.lane == lane for o in state.riders if o is not r):
                raise ValueError(f"setup.riders.{rid}: lane {lane} of square {rs.square} is taken")
            r.square = rs.square
            r.lane = lane
        elif rs.lane is not None:
            raise ValueError(f"setup.riders.{rid}.lane needs a square")
    if state.bids:
        _check_bids(state)


def _round_one_bid(state: RaceState, rid: str, card: int, seeded: bool, r: Rider) -> None:
    """R-FR-11: the card ``r`` bid in Breakaway round 1, set aside (D8: it stays out of the deck during round
    2). A seeded deck gives up one copy of it; a deck the setup wrote is taken as written."""
    where = f"setup.riders.{rid}.bid"
    if state.options["breakaway"] != "on":
        raise ValueError(f"{where}: the Breakaway bidding needs options.breakaway 'on'")
    if r.bot:
        raise ValueError(f"{where}: bot teams do not bid (D8)")
    if not r.owner:
        raise ValueError(f"{where}: in one-rider mode a bid needs setup.owners (who rides {rid})")
    if r.owner in state.bids:
        raise ValueError(f"{where}: {r.owner} bids with one rider only, and {state.bids[r.owner][0]} bids already")
    if seeded and card in r.deck:
        deck = list(r.deck)
        deck.remove(card)
        r.deck = tuple(deck)
    state.bids[r.owner] = [rid, card]


def _check_bids(state: RaceState) -> None:
    """R-FR-11: round-1 bids put the race at bidding round 2, before the grid: every bidding player has one,
    and no player's rider is on the track yet."""
    for r in state.riders:
        if r.owner and not r.bot and r.square:
            field = "crossed" if r.off else "square"
            raise ValueError(
                f"setup.riders.{r.id}.{field}: with round-1 bids the Breakaway bidding is still on, before the "
                "grid, so no player's rider is placed"
            )
    missing = [e for e in bidders(state) if e not in state.bids]
    if missing:
        raise ValueError(
            f"setup.riders: round-1 Breakaway bids are given for every bidding player or none; no bid for "
            f"{', '.join(missing)}"
        )


def _across(state: RaceState, su: Setup, rid: str, rs: RiderSetup, r: Rider) -> None:
    """A rider set up already across the line (R-FR-9): off the track, with its round and distance past."""
    where = f"setup.riders.{rid}"
    if rs.crossed is None:
        raise ValueError(f"{where}.past needs crossed (the round in which it crossed the line)")
    if state.options["finish"] != "all":
        raise ValueError(f"{where}.crossed: with finish 'first' the race ends at the first crossing; use finish 'all'")
    if rs.square is not None or rs.lane is not None:
        raise ValueError(f"{where}: a rider across the line has no square or lane")
    if rs.crossed >= su.round:
        raise ValueError(
            f"{where}.crossed: it crossed before round {su.round}, the first one played, so at most {su.round - 1}"
        )
    r.crossed = rs.crossed
    r.past = rs.past or 1
    r.square = state.track.finish + r.past - 1
    r.lane = 1
    r.off = True


def check_start_area(state: RaceState, su: Setup, one: bool, has_setup: bool) -> None:
    """R-FR-10: a test track without start squares has no grid, so the setup must place every rider (on a
    square, or across the line); in one-rider mode it must also say who rides which (``owners``)."""
    if state.track.start_squares:
        return
    why = "the stage has no start squares (its profile does not begin with S)"
    if not has_setup:
        raise ValueError(f"stage.profile: {why}; only a record whose setup places every rider can race it")
    if one and su.owners is None:
        raise ValueError(f"setup.owners: {why}, so the setup gives each player their rider and places every rider")
    missing = [r.id for r in state.riders if r.square == 0]
    if missing:
        raise ValueError(f"setup.riders: {why}, so the setup must place every rider; not placed: {', '.join(missing)}")


def after_choice(state: RaceState) -> list[Event]:
    """Once riders are chosen: the bot teams' grid, then Breakaway bidding or the players' grid (§4.4)."""
    state.riders = [r for r in state.riders if r.owner]
    state.teams = {}
    events = [_placed(r.id, r.square, r.lane) for r in place_bot_teams(state)]
    players_placed = any(r.square for r in state.riders if not r.bot)
    if state.options["breakaway"] == "on" and not players_placed and bidders(state):
        state.phase = BID
        state.bid_round = 2 if state.bids else 1  # R-FR-11: a setup's round-1 bids
        return events
    return events + start_grid(state)


def start_grid(state: RaceState) -> list[Event]:
    """The players' grid (D6): random placement at once, or one rider at a time in turn order."""
    if state.options["grid"] == "random":
        rng = Rng(state.rng)
        placed = place_randomly(state, rng)
        state.rng = rng.state
        state.phase = ENERGY
        return [_placed(r.id, r.square, r.lane) for r in placed]
    state.cursor = -1
    return next_placer(state)


def next_placer(state: RaceState) -> list[Event]:
    """Move the turn to the next player (in turn order, round and round) with a rider to place."""
    n = len(state.turn_order)
    for step in range(1, n + 1):
        k = (state.cursor + step) % n
        if any(r.square == 0 for r in state.riders_of(state.turn_order[k])):
            state.cursor = k
            state.phase = PLACE
            return []
    state.phase = ENERGY
    return []


def _placed(rider: str, square: int, lane: int) -> Event:
    return event(
        "fr.placed",
        {"rider": rider, "square": square, "lane": lane},
        "{rider} starts on square {square}, lane {lane}.",
        rider=rider,
        square=square,
        lane=lane,
    )


placed_event = _placed
