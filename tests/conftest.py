"""Shared test configuration: the fake Discord's fixtures are available to every test package."""

pytest_plugins = ["tests.fakediscord.plugin", "pytester"]
