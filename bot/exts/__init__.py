"""Feature extensions: one package per feature, its ``__init__`` only loads the cog.

Every package here whose name does not start with ``_`` is loaded at start-up.
"""

from __future__ import annotations

import pkgutil


def _find_extensions() -> tuple[str, ...]:
    return tuple(
        f"{__name__}.{module.name}"
        for module in pkgutil.iter_modules(__path__)
        if module.ispkg and not module.name.startswith("_")
    )


EXTENSIONS: tuple[str, ...] = _find_extensions()
"""The dotted names of every feature extension, in a stable order."""
