"""The race state: its hand-written copy shares nothing mutable with the original."""

from __future__ import annotations

from engine.mind_cycling import RULESET

from .scenario import race


def test_a_copied_state_dumps_the_same_and_changing_it_leaves_the_original_alone() -> None:
    """Positions, bases, the round context's progress and the results are all copied."""
    r = race([("a", 3, 12, 3), ("a", 2, 11, 3)], options={"mode": "live"})
    state = r.state
    assert state.ctx is not None
    twin = state.copy()
    assert RULESET.dump(twin) == RULESET.dump(state)
    before = RULESET.dump(state)
    assert twin.ctx is not None
    twin.cyclists["a#3"].row = 40
    twin.cyclists["a#2"].bottle = False
    twin.ctx.acted.append("a#3")
    twin.ctx.train["a#3"].append("x")
    twin.ctx.front["a#3"] = "x"
    twin.finish_order.append("a#3")
    twin.section_winners["sprint"] = "a#3"
    twin.options["lanes"] = 6
    assert RULESET.dump(state) == before
