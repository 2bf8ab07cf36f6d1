"""The race services: lobbies, orders, resolution, the scheduler. No Discord types inside.

They take and return plain data (dataclasses in :mod:`bot.services.outcomes`), so the Discord layer
only parses interactions, calls a service and renders what happened; a refusal is a
:class:`~bot.services.outcomes.Refusal` carrying a typed message for ``bot.i18n.t``. Every call takes a
:class:`~bot.services.context.Context` (the database, the clock, the engine workers, who this process is,
and the sink that receives what happens in the background).

- :mod:`~bot.services.lobby`: ``open_lobby``, ``join``, ``leave``, ``add_bot``, ``remove_bot``, ``start``,
  ``cancel``, ``view``;
- :mod:`~bot.services.orders`: ``submit_order`` (checked, committed, answered with what was recorded),
  ``panel`` (a player's pending decision and private view);
- :mod:`~bot.services.resolution`: ``resolve``, ``resolve_if_ready``, ``publish_announcement`` (exactly once);
- :mod:`~bot.services.scheduler`: deadlines, the reminder, announcements, lobby timeouts; ``start_up``;
- :mod:`~bot.services.watch`: the owner hears of orders stored by other processes;
- :mod:`~bot.services.records`: the race record rebuilt from the database;
- :mod:`~bot.services.posts`: posted messages and members' locales;
- :mod:`~bot.services.runtime`: all of it started for one process;
- :mod:`~bot.services.stepping`: the one module that talks to the engine's race driver;
- :mod:`~bot.services.server_settings`: each server's settings, declared once with defaults (``get_settings``);
- :mod:`~bot.services.permissions`: ``may_manage``, the one permission check, and ``check_may_open``;
- :mod:`~bot.services.stages`: a server's saved stages (``stage_choices``, ``resolve_stage``, files);
- :mod:`~bot.services.analysis`: ``/stage analyse``'s all-bot races in a low-priority process.
"""
