"""Whether discord.py will hand a component or modal interaction to any of the bot's views, modals or
dynamic items, decided the way discord.py's ``ViewStore`` decides it.

discord.py drops, without a word, a click whose custom id no view or dynamic item knows, a form whose
modal is gone (it timed out, or the bot restarted while it was open), and a dynamic item's click whose
custom id is not among the components of the message it came from (a panel edited while the person
clicked: ``ViewStore.schedule_dynamic_item_call`` finds no ``base_item`` and returns). Discord then shows
"This interaction failed". Nothing public says which interactions are dropped, so this reads the store
(``ConnectionState._view_store``) with the same lookups as ``ViewStore.dispatch_view``,
``dispatch_dynamic_items`` and ``dispatch_modal`` in discord.py 2.7; the end-to-end tests of
``tests/bot/exts/fallback/test_cog.py`` pin that behaviour, so an upgrade that changes it fails there.
"""

from __future__ import annotations

from typing import Any

import discord

COMPONENT, MODAL_SUBMIT = discord.InteractionType.component, discord.InteractionType.modal_submit


def _store(client: discord.Client) -> Any:
    return client._connection._view_store


def will_be_handled(client: discord.Client, interaction: discord.Interaction[Any]) -> bool:
    """True when discord.py dispatches ``interaction`` to a view, a modal or a dynamic item of the bot
    (which then answers it); False when it drops it. Other interaction types are never ours to answer."""
    data: dict[str, Any] = dict(interaction.data or {})
    custom_id = str(data.get("custom_id", ""))
    if interaction.type == MODAL_SUBMIT:
        return custom_id in _store(client)._modals
    if interaction.type != COMPONENT:
        return True
    kind = int(data.get("component_type", 0))
    return _a_view_has(client, interaction, kind, custom_id) or _a_dynamic_item_takes(
        client, interaction, kind, custom_id
    )


def _a_view_has(client: discord.Client, interaction: discord.Interaction[Any], kind: int, custom_id: str) -> bool:
    """``ViewStore.dispatch_view``: the item by the message's id, else a persistent view's; a live view."""
    views = _store(client)._views
    message_id = interaction.message.id if interaction.message is not None else None
    item = views.get(message_id, {}).get((kind, custom_id)) if message_id is not None else None
    if item is None:
        item = views.get(None, {}).get((kind, custom_id))
    return item is not None and item.view is not None and not item.view.is_finished()


def _a_dynamic_item_takes(
    client: discord.Client, interaction: discord.Interaction[Any], kind: int, custom_id: str
) -> bool:
    """``ViewStore.schedule_dynamic_item_call``: a template matches and the message holds that component."""
    if interaction.message is None:
        return False
    if not any(pattern.fullmatch(custom_id) for pattern in _store(client)._dynamic_items):
        return False
    message = interaction.message
    layout = discord.ui.LayoutView if message.flags.components_v2 else discord.ui.View
    view = layout.from_message(message, timeout=None)
    return any(
        item.type.value == kind and getattr(item, "custom_id", None) == custom_id for item in view.walk_children()
    )
