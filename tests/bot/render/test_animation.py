"""The whole race as an animated GIF: one frame a round (a lap for Wyścig), within the upload limit."""

from __future__ import annotations

import io
from typing import Any

import pytest
from PIL import Image, ImageChops

from bot.render import race_animation
from bot.render.animation import frames_of, sample
from engine.race import Race
from engine.registry import get_ruleset
from engine.ruleset import Entrant, Event


def race_steps(ruleset_id: str, players: int, stage: Any = None) -> list[tuple[dict[str, Any], list[Event]]]:
    ruleset = get_ruleset(ruleset_id)
    seats = [Entrant(id=f"p{i}", name=f"Rider {i}", bot=ruleset.default_strategy) for i in range(players)]
    race = Race.start(ruleset_id, ruleset.default_entrants(seats, {}), 21, stage=stage)
    steps = []
    while not race.finished:
        events = race.play_step({}).events
        steps.append((ruleset.public_view(race.state), events))
    return steps


@pytest.fixture(scope="module")
def flamme_rouge_steps() -> list[tuple[dict[str, Any], list[Event]]]:
    return race_steps("flamme_rouge", 2)


def gif(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    assert image.format == "GIF"
    return image


def test_one_frame_a_round(flamme_rouge_steps: list[tuple[dict[str, Any], list[Event]]]) -> None:
    """With room to spare, the animation has one frame per distinct round of the race."""
    rounds = len({view["round"] for view, _ in flamme_rouge_steps})
    animation = race_animation("flamme_rouge", flamme_rouge_steps, 8_000_000)
    assert animation.rounds == rounds
    assert animation.frames == rounds
    assert gif(animation.data).n_frames == rounds
    assert animation.scale == 1.0


def test_a_tight_budget_is_kept_by_dropping_frames(
    flamme_rouge_steps: list[tuple[dict[str, Any], list[Event]]],
) -> None:
    """Three quarters of the room the full race needs: rounds are dropped at full size, the GIF fits the
    budget and keeps the last round."""
    full = race_animation("flamme_rouge", flamme_rouge_steps, 8_000_000)
    budget = len(full.data) * 3 // 4
    tight = race_animation("flamme_rouge", flamme_rouge_steps, budget)
    assert len(tight.data) <= budget
    assert tight.frames < full.frames
    assert tight.scale == 1.0
    image = gif(tight.data)
    assert image.n_frames == tight.frames
    image.seek(image.n_frames - 1)
    last = image.convert("RGB")
    full_image = gif(full.data)
    full_image.seek(full_image.n_frames - 1)
    # The finish is always the last frame (palettes may differ by a shade: compare loosely).
    assert far_apart(last, full_image.convert("RGB")) < 0.001
    full_image.seek(0)
    assert far_apart(last, full_image.convert("RGB")) > 0.001  # ...which the first frame is not


def far_apart(a: Image.Image, b: Image.Image) -> float:
    """The share of pixels whose colours differ by more than 40 in a channel."""
    diff = ImageChops.difference(a, b).convert("L").point(lambda v: 255 if v > 40 else 0)
    return diff.histogram()[255] / (a.width * a.height)


def test_a_very_small_budget_shrinks_the_picture(flamme_rouge_steps: list[tuple[dict[str, Any], list[Event]]]) -> None:
    """A budget for a handful of frames only also scales the boards down, and still fits."""
    animation = race_animation("flamme_rouge", flamme_rouge_steps, 40_000)
    assert len(animation.data) <= 40_000
    assert animation.scale < 1.0
    assert gif(animation.data).width == round(832 * animation.scale)


def test_an_impossible_budget_is_refused(flamme_rouge_steps: list[tuple[dict[str, Any], list[Event]]]) -> None:
    """A budget no single frame fits in is an error, not a broken file."""
    with pytest.raises(ValueError, match="limit is 500"):
        race_animation("flamme_rouge", flamme_rouge_steps, 500)


def test_wyscig_gets_a_frame_per_lap() -> None:
    """Three players in a one-stage Wyścig: each frame gathers one lap, three turns."""
    steps = race_steps("wyscig", 3, {"stages": 1})
    frames = frames_of("wyscig", steps)
    assert len(frames) < len(steps)
    first_view, first_events = frames[0]
    assert len(first_view["played"]) == 3
    assert (
        len([e for e in first_events if e.kind in ("wk.lead", "wk.pace", "wk.peloton", "wk.penalty", "wk.blocked")])
        == 3
    )


def test_sampling_keeps_the_ends_and_spreads_evenly() -> None:
    """Five of eleven frames: 0, 2/3, 5, 7/8, 10, always with the first and the last."""
    picked = sample(11, 5)
    assert picked == [0, 2, 5, 8, 10]
    assert sample(3, 10) == [0, 1, 2]
    assert sample(7, 1) == [6]
