"""Every message key the engine may say: the driver's own and each rule system's, in one set.

A translation catalogue is checked for completeness against :func:`message_keys`. It lives apart from the
registry because it reads the driver (:mod:`engine.race`), which itself asks the registry for its rule
systems: the registry stays below both.
"""

from __future__ import annotations

from engine.race import MESSAGE_KEYS
from engine.registry import available_rulesets


def message_keys() -> frozenset[str]:
    """Every message key the engine may emit: the driver's and each rule system's, so a translation
    catalogue can be checked for completeness."""
    keys = set(MESSAGE_KEYS)
    for ruleset in available_rulesets():
        keys |= ruleset.message_keys()
    return frozenset(keys)
