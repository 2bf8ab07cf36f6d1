"""``python -m bot.cli`` is the ``gregario`` command."""

from bot.cli import entry

entry()
