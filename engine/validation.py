"""Naming what is wrong in a record section or a rule system's model (``stage.stages: ...``).

Shared by the record (``engine.record``) and the rule systems, which check their own ``stage``,
``options`` and ``setup``: a rule system needs only this, not the record module (which imports the
registry, and so every rule system).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

M = TypeVar("M", bound=BaseModel)


def describe_validation_error(exc: ValidationError, prefix: str = "") -> str:
    """One line per problem, each naming the offending field by its path (``entrants.1.id: ...``)."""
    lines = []
    for err in exc.errors():
        loc = ".".join(str(p) for p in err["loc"])
        where = f"{prefix}{'.' if prefix and loc else ''}{loc}"
        lines.append(f"{where or prefix or 'record'}: {err['msg']}")
    return "\n".join(lines)


def checked(model: type[M], data: Mapping[str, Any], where: str) -> M:
    """``data`` validated by ``model``; a ``ValueError`` names the section and the field (``stage.stages: ...``)."""
    try:
        return model.model_validate(dict(data))
    except ValidationError as exc:
        raise ValueError(describe_validation_error(exc, where)) from exc
