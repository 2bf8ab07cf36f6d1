"""The race services: lobbies, orders, resolution, the scheduler. No Discord types inside.

They take and return plain data (dataclasses in :mod:`bot.services.outcomes`), so the Discord layer
only parses interactions, calls a service and renders what happened. :class:`~bot.services.context.Context`
carries what every service needs: the database, the clock, the engine workers and who this process is.
"""
