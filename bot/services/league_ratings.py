"""Skill ratings with openskill's Plackett-Luce model (Weng-Lin), one rating per player and rule system.

Every entrant of a race is its own team of one, ranked by its place (a shared place is a tie). The
displayed rating is openskill's ordinal, ``mu - 3 * sigma``: it starts at 0 and rises as the model grows
sure of a player's skill, so a newcomer is never shown above a proven player by luck. The trend is the
change of that figure at the player's last rated race.
"""

from __future__ import annotations

from dataclasses import dataclass

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
"""openskill's defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300."""


@dataclass(frozen=True)
class Skill:
    mu: float
    sigma: float

    @property
    def shown(self) -> float:
        """The displayed rating: openskill's ordinal (``mu - 3 sigma``)."""
        return self.mu - 3 * self.sigma


def initial() -> Skill:
    start = MODEL.rating()
    return Skill(float(start.mu), float(start.sigma))


def rate(skills: list[Skill], places: list[int]) -> list[Skill]:
    """The skills after one race where entrant ``i`` (``skills[i]``) finished at ``places[i]``."""
    teams = [[MODEL.rating(mu=s.mu, sigma=s.sigma)] for s in skills]
    rated = MODEL.rate(teams, ranks=[float(p) for p in places])
    return [Skill(float(team[0].mu), float(team[0].sigma)) for team in rated]
