"""A panel rendered as its layout (a container: text displays, then action rows), read back as the text a
player reads and the action rows it holds, for tests of the panel's screens."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.exts.race import _panel
from bot.services.outcomes import PanelView
from tests.fakediscord.limits import message_problem
from tests.fakediscord.world import COMPONENTS_V2, Channel, Message, User, walk_components


@dataclass(frozen=True)
class Rows:
    """A panel's action rows (``to_components()``, as a plain view's were)."""

    rows: list[dict[str, Any]]

    def to_components(self) -> list[dict[str, Any]]:
        return self.rows


def rendered(panel: PanelView, **options: Any) -> tuple[str, Rows]:
    """The panel's text and its action rows; the layout is checked as Discord checks a v2 message."""
    layout = _panel.render(panel, **options).to_components()
    message = Message(0, Channel(0, "dm"), User(0, "bot"), components=layout, flags=COMPONENTS_V2)
    problem = message_problem(message, allow_empty=False)
    assert problem is None, problem
    (container,) = layout
    assert container["type"] == 17, "the panel is one container"
    text = "\n".join(c["content"] for c in walk_components(layout) if c.get("type") == 10)
    return text, Rows([c for c in container["components"] if c.get("type") == 1])
