"""Meteo (§7.6, D10): weather tokens on the straight tiles; crosswind, tailwind, headwind.

Tokens are drawn with the race seed (``"random"``: 9 clear + 4 events, one per straight tile in track
order, at most 13) or listed by the stage designer. "Wet" has no known rule text and counts as clear.
"""

from __future__ import annotations

from engine.flamme_rouge.track import Track
from engine.rng import Rng

TOKENS: tuple[str, ...] = ("clear",) * 9 + ("crosswind", "tailwind", "headwind", "wet")
EFFECTIVE = ("crosswind", "tailwind", "headwind")


def draw_tokens(track: Track, meteo: str | list[str], rng: Rng) -> list[str]:
    """The token of each straight tile (or profile run), in track order."""
    n = len(track.straight)
    if meteo == "off":
        return []
    if meteo == "random":
        bag = list(TOKENS)
        rng.shuffle(bag)
        return bag[: min(n, len(bag))]
    listed = list(meteo)[:n]  # D10: extra entries are ignored, missing ones are clear
    return listed + ["clear"] * (n - len(listed))


def weathered(track: Track, tokens: list[str]) -> Track:
    """The track with the tokens' effects: D10, wet is clear."""
    per_tile = {track.straight[i]: tok for i, tok in enumerate(tokens) if i < len(track.straight) and tok in EFFECTIVE}
    return track.with_weather(per_tile) if per_tile else track
