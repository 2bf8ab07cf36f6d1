"""An independent reference for one orders-mode round, written from the rules text, against the engine.

The reference below re-reads §4-§7 and §9.2 without the engine's modules (only the course built by the
engine is shared): passes (D12), wind, fatigue and trains (§4.2), the movement order and ride chains
(D10), normal moves, attacks and lane-seeking (D4, D14, D23), wheels and relays (D15, D16), feed zones
(D17), crossings (D19) and section exits (D20). Random dense situations with random intents (every form,
legal or not at their turn) must end with the same spaces, bases, finish order and section winners.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.ruleset import Entrant
from tests.logged import LoggedRace

CAP = {
    "sprinter": {"plains": 5, "sprint": 7, "mountain": 3},
    "domestique": {"plains": 7, "sprint": 5, "mountain": 5},
    "climber": {"plains": 5, "sprint": 3, "mountain": 7},
}
OWN = {"sprinter": "sprint", "domestique": "plains", "climber": "mountain"}
SHIFT = {"F": 0, "FL": -1, "FR": 1}
STRIPS = ["plains", "sprint", "mountain", "plains"]
STRIP = 4


class Reference:
    """One round of the rules, on plain dicts."""

    def __init__(self, race: LoggedRace, intents: dict[str, dict[str, Any]]) -> None:
        state = race.state
        course = state.course
        self.kind = course.section_kind
        self.last, self.lanes = course.last_row, course.lanes
        self.rocks, self.supply = set(course.rocks), set(course.supply)
        self.medals = {k: s for k, s in (("sprint", course.medal_sprint), ("mountain", course.medal_mountain)) if s}
        self.cy = {
            k: {"row": c.row, "lane": c.lane, "role": c.role, "team": c.entrant, "bottle": c.bottle, "road": c.on_road}
            for k, c in state.cyclists.items()
        }
        self.total = len(self.cy)
        self.intents = intents
        self.finish: list[str] = []
        self.sections: dict[str, str] = {}
        self.over = False

    def free(self, row: int, lane: int) -> bool:
        if not 1 <= lane <= self.lanes:
            return False
        if row > self.last:
            return True
        taken = any(c["road"] and (c["row"], c["lane"]) == (row, lane) for c in self.cy.values())
        return (row, lane) not in self.rocks and not taken

    def play(self) -> None:
        cy = self.cy
        start_bottle = {k: c["bottle"] for k, c in cy.items()}
        passes = []
        for k, intent in self.intents.items():
            to = intent.get("pass_to")
            giver = cy[k]
            receiver = cy.get(f"{giver['team']}#{to}") if to else None
            if (
                receiver is not None
                and giver["role"] == "domestique"
                and start_bottle[k]
                and receiver["road"]
                and not start_bottle[f"{giver['team']}#{to}"]
                and (receiver["row"], receiver["lane"]) == (giver["row"] - 1, giver["lane"])
            ):
                passes.append((k, f"{giver['team']}#{to}"))
        for giver_key, receiver_key in passes:
            cy[giver_key]["bottle"], cy[receiver_key]["bottle"] = False, True
        road = [k for k, c in cy.items() if c["road"]]
        self.start = {k: (cy[k]["row"], cy[k]["lane"]) for k in road}
        at_start = {v: k for k, v in self.start.items()}
        self.front = {k: at_start[(r + 1, la)] for k, (r, la) in self.start.items() if (r + 1, la) in at_start}
        self.behind = {v: k for k, v in self.front.items()}
        self.wind = {k for k in road if k not in self.front}
        self.fatigued = {k for k in road if cy[k]["role"] == "domestique" and not cy[k]["bottle"]}
        self.acted: set[str] = set()
        self.attacked: set[str] = set()
        self.crossed: set[str] = set()
        self.declined: set[str] = set()
        for k in sorted(road, key=lambda k: (-self.start[k][0], self.start[k][1])):
            if self.over:
                break
            if k in self.acted or not cy[k]["road"]:
                continue
            self.own_place(k)
            self.chain(k)

    def train(self, k: str) -> list[str]:
        head = k
        while head in self.front:
            head = self.front[head]
        members = [head]
        while members[-1] in self.behind:
            members.append(self.behind[members[-1]])
        return members

    def cross(self, k: str) -> None:
        self.cy[k]["road"] = False
        self.crossed.add(k)
        self.finish.append(k)

    def after(self, k: str) -> None:
        self.acted.add(k)
        c = self.cy[k]
        for name, section in self.medals.items():
            if name not in self.sections and (not c["road"] or c["row"] > section.last):
                self.sections[name] = k
        if len(self.finish) >= min(12, self.total):
            self.over = True

    def seek(self, row: int, lane: int, target: int) -> str | None:
        tries = ("F", "FL", "FR") if lane == target else ("FR", "F", "FL") if lane < target else ("FL", "F", "FR")
        return next((s for s in tries if self.free(row + 1, lane + SHIFT[s])), None)

    def ride(self, k: str, n: int, path: list[str] | None, lane: int | None, attack: bool) -> None:
        c = self.cy[k]
        refill = c["role"] == "domestique" and not c["bottle"] and not attack
        plan = (path or [])[:n]
        target = c["lane"] + sum(SHIFT[s] for s in plan) if plan else (lane or c["lane"])
        seeking = not plan
        for i in range(n):
            if not seeking and i < len(plan) and self.free(c["row"] + 1, c["lane"] + SHIFT[plan[i]]):
                step: str | None = plan[i]
            else:
                seeking = True
                step = self.seek(c["row"], c["lane"], target)
                if step is None:
                    break
            row, new_lane = c["row"] + 1, c["lane"] + SHIFT[step]
            if row > self.last:
                c["lane"] = new_lane
                self.cross(k)
                break
            c["row"], c["lane"] = row, new_lane
            if refill and (row, new_lane) in self.supply:
                c["bottle"], refill = True, False
        if attack:
            c["bottle"] = False

    def may_ride(self, k: str) -> bool:
        c = self.cy[k]
        if k not in self.front or k in self.declined or k in self.fatigued or self.front[k] in self.attacked:
            return False
        if c["role"] == "sprinter" and self.kind(self.start[k][0]) == "mountain":
            return False
        members = self.train(k)
        return not any(m in self.crossed for m in members[: members.index(k)])

    def destination(self, k: str, action: str) -> tuple[int, int] | None:
        if not self.may_ride(k):
            return None
        if action == "wheel":
            leader = self.cy[self.front[k]]
            dest = (leader["row"] - 1, leader["lane"])
            return dest if dest == (self.cy[k]["row"], self.cy[k]["lane"]) or self.free(*dest) else None
        members = self.train(k)
        if members.index(k) > 3:
            return None
        first = min(
            (m for m in members if m != k and self.cy[m]["road"]),
            key=lambda m: (-self.cy[m]["row"], self.cy[m]["lane"]),
        )
        dest = (self.cy[first]["row"] + 1, self.cy[first]["lane"])
        return dest if self.free(*dest) else None

    def own_place(self, k: str) -> None:
        intent = self.intents.get(k, {"action": "move"})
        action, c = intent.get("action", "move"), self.cy[k]
        top = CAP[c["role"]][self.kind(c["row"])] - (k in self.wind) - (k in self.fatigued)
        if action in ("wheel", "relay"):
            self.ride(k, top, None, intent.get("lane") or c["lane"], False)
        elif action == "attack" and c["bottle"] and self.kind(c["row"]) == OWN[c["role"]]:
            wanted = intent.get("distance", len(intent["path"]) if intent.get("path") else top + 3)
            self.attacked.add(k)
            self.ride(k, min(wanted, top + 3), intent.get("path"), intent.get("lane"), True)
        else:
            wanted = intent.get("distance", len(intent["path"]) if intent.get("path") else top)
            self.ride(k, min(wanted, top), intent.get("path"), intent.get("lane"), False)
        self.after(k)

    def chain(self, leader: str) -> None:
        follower = self.behind.get(leader)
        while follower is not None and not self.over:
            action = self.intents.get(follower, {}).get("action")
            if follower in self.acted or not self.cy[follower]["road"] or action not in ("wheel", "relay"):
                return
            dest = self.destination(follower, action)
            if dest is None:
                self.declined.add(follower)
                return
            if dest[0] > self.last:
                self.cy[follower]["lane"] = dest[1]
                self.cross(follower)
            else:
                self.cy[follower]["row"], self.cy[follower]["lane"] = dest
            self.after(follower)
            follower = self.behind.get(follower)


def _situation(seed: int) -> tuple[LoggedRace, dict[str, dict[str, Any]], dict[str, Any]] | None:
    """A dense random situation on a 16-row course, with random intents for every rider."""
    rnd = random.Random(seed)
    lanes = rnd.choice([3, 4])
    last = len(STRIPS) * STRIP
    rocks = {(rnd.randint(1, last), rnd.randint(1, lanes)) for _ in range(rnd.randint(0, 3))}
    supply = {(rnd.randint(1, last), rnd.randint(1, lanes)) for _ in range(rnd.randint(0, 4))} - rocks
    players, size = rnd.choice([["a", "b"], ["a", "b", "c"]]), rnd.choice([3, 4, 5])
    base = rnd.randint(0, last - 3)
    spaces = [(r, la) for r in range(base - 6, base + 6) for la in range(1, lanes + 1) if (r, la) not in rocks]
    spaces = [s for s in spaces if s[0] <= last]
    rnd.shuffle(spaces)
    if rnd.random() < 0.4:  # long trains: the riders fill one or two lanes first
        columns = set(rnd.sample(range(1, lanes + 1), rnd.choice([1, 2])))
        spaces = [s for s in spaces if s[1] in columns] + [s for s in spaces if s[1] not in columns]
    if len(spaces) < len(players) * size:
        return None
    setup = []
    for i, (p, n) in enumerate((p, n) for p in players for n in range(1, size + 1)):
        row, lane = spaces[i]
        setup.append(
            {"entrant": p, "number": n, "row": row, "lane": lane, "base": rnd.choice(["blue", "blue", "black"])}
        )
    stage = {"course": STRIPS, "strip_length": STRIP, "rocks": sorted(rocks), "supply_spaces": sorted(supply)}
    try:
        race = LoggedRace.start(
            "mind_cycling",
            [Entrant(id=p, name=p.upper()) for p in players],
            seed,
            stage=stage,
            options={"team_size": size, "lanes": lanes},
            setup={"cyclists": setup},
        )
    except ValueError:  # rocks that close the road
        return None
    intents: dict[str, dict[str, Any]] = {}
    orders: dict[str, Any] = {p: {"intents": {}} for p in players}
    for c in race.state.cyclists.values():
        action = rnd.choice(["move", "move", "attack", "wheel", "relay", "wheel", "relay"])
        intent: dict[str, Any] = {"action": action}
        if action in ("move", "attack"):
            x = rnd.random()
            if x < 0.3:
                path = [rnd.choice(["F", "F", "FL", "FR"]) for _ in range(rnd.randint(0, 10))]
                ends = [c.lane + sum(SHIFT[s] for s in path[: i + 1]) for i in range(len(path))]
                if all(1 <= la <= lanes for la in ends):
                    intent.update(path=path, distance=len(path))
            elif x < 0.6:
                intent["distance"] = rnd.randint(0, 10)
            if "path" not in intent and rnd.random() < 0.5:
                intent["lane"] = rnd.randint(1, lanes)
        elif rnd.random() < 0.5:
            intent["lane"] = rnd.randint(1, lanes)
        if c.role == "domestique" and rnd.random() < 0.5:
            intent["pass_to"] = rnd.choice([n for n in range(1, size + 1) if n != c.number])
        intents[c.key] = intent
        orders[c.entrant]["intents"][str(c.number)] = intent
    return race, intents, orders


@pytest.mark.rules("D10", "D12", "D15", "D16", "D17", "D20", "D23")
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**31))
def test_an_orders_round_ends_as_the_reference_reading_of_the_rules_says(seed: int) -> None:
    """Same spaces, bases, finish order and section winners as the reference, whatever the intents."""
    made = _situation(seed)
    if made is None:
        return
    race, intents, orders = made
    reference = Reference(race, intents)
    reference.play()
    race.play_step(orders)
    state = race.state
    for key, c in state.cyclists.items():
        ref = reference.cy[key]
        expected = (ref["lane"], ref["bottle"], not ref["road"], ref["row"] if ref["road"] else None)
        assert (c.lane, c.bottle, c.crossed, c.row if c.on_road else None) == expected, key
    assert state.finish_order == reference.finish
    assert {k: v for k, v in state.section_winners.items() if v} == reference.sections
