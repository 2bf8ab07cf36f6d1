"""What the player whose turn it is decides (§8.1): a speed card, with a hint of what each would mean
against L, and how many descent cards go with it; the prompt and what the player needs to know."""

from __future__ import annotations

from collections.abc import Mapping

from engine.messages import Message, msg, plural
from engine.ruleset import Choice, Decision, InputField, Order
from engine.wyscig import texts
from engine.wyscig.orders import partial_of
from engine.wyscig.pace import Verdict, hint, judge
from engine.wyscig.state import Player, RaceState
from engine.wyscig.texts import card_label, descents_label
from engine.wyscig.views import lap_line


def awaited_ids(state: RaceState) -> list[str]:
    """Who :func:`awaited` asks, without building the decision: the player whose turn it is (§4)."""
    return [] if state.finished or state.turn is None else [state.turn]


def awaited(state: RaceState, partial: Mapping[str, Order] | None = None) -> list[Decision]:
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
                        label=card_label(card),
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
                kind="choice",
                # Each count says what it does, on a button: "No descent", "2 descents: +4 km/h".
                choices=[Choice(value=n, label=descents_label(n)) for n in range(player.descents + 1)],
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


def _verdict(state: RaceState, player: Player, card: int, descents: int) -> Verdict:
    return judge(card + 2 * descents, state.reference, player.minutes, player.id == state.leader, state.on_climb)


def _prompt(state: RaceState, player: Player) -> Message:
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


def _info(state: RaceState, player: Player) -> list[Message]:
    speeds = ", ".join(str(v) for v in player.speeds) or "—"
    hand = texts.hand(player.speeds, player.descents)
    info = [
        plural(
            "wk.info.hand",
            player.descents,
            "Your hand: {speeds} and 1 descent.",
            "Your hand: {speeds} and {count} descents.",
            speeds=speeds,
            hand=hand,
        )
        if player.descents
        else msg("wk.info.hand_speeds", "Your hand: {speeds}.", speeds=speeds, hand=hand),
        plural(
            "wk.info.stage",
            len(state.pile),
            "Stage {stage}/{stages} · leader {leader} · L = {reference} · 1 card in the pile.",
            "Stage {stage}/{stages} · leader {leader} · L = {reference} · {count} cards in the pile.",
            stage=state.stage_number,
            stages=state.stages,
            leader=state.player(state.leader).name,
            reference="—" if state.reference is None else state.reference,
            pile=len(state.pile),
        ),
    ]
    lap = lap_line(state)
    if lap is not None:
        info.append(msg("wk.info.lap", "This lap: {lap}.", lap=lap))
    if player.minutes:
        info.append(
            plural(
                "wk.info.minutes",
                player.minutes,
                "You hold 1 penalty minute: play above the leader to give it back.",
                "You hold {count} penalty minutes: play above the leader to give them back.",
                minutes=player.minutes,
            )
        )
    if state.on_climb:
        info.append(msg("wk.info.climb", "On a climb: no overtaking, and every km/h below the leader costs a minute."))
    return info
