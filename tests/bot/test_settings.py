"""Settings come from the environment and .env, and .env.example documents every one of them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pydantic import ValidationError

from bot.settings import Settings, describe_settings_error

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _clean_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No developer's GREGARIO_* variables or .env leak into these tests."""
    import os

    for name in list(os.environ):
        if name.startswith("GREGARIO_") or name == "DISCORD_TOKEN":
            monkeypatch.delenv(name)
    monkeypatch.chdir(tmp_path)


def test_defaults_need_no_configuration() -> None:
    """With nothing set, there is no token, INFO logging and Discord's own API address."""
    settings = Settings()
    assert settings.token is None
    assert settings.log_level == "INFO"
    assert settings.api_base_url == "https://discord.com/api/v10"
    assert settings.test_guild_id is None
    assert settings.sync_commands is True


def test_the_token_comes_from_gregario_token_or_discord_token(monkeypatch: pytest.MonkeyPatch) -> None:
    """GREGARIO_TOKEN is read, DISCORD_TOKEN too, and the first wins."""
    monkeypatch.setenv("DISCORD_TOKEN", "from-discord")
    assert Settings().token is not None and Settings().token.get_secret_value() == "from-discord"  # type: ignore[union-attr]
    monkeypatch.setenv("GREGARIO_TOKEN", "from-gregario")
    assert Settings().token.get_secret_value() == "from-gregario"  # type: ignore[union-attr]


def test_the_token_never_shows_in_reprs(monkeypatch: pytest.MonkeyPatch) -> None:
    """A logged settings object does not leak the token."""
    monkeypatch.setenv("GREGARIO_TOKEN", "very-secret")
    assert "very-secret" not in repr(Settings())


def test_a_dot_env_file_is_read_and_blank_values_mean_unset(tmp_path: Path) -> None:
    """.env in the working folder sets values; an empty token or guild line means none."""
    (tmp_path / ".env").write_text(
        "GREGARIO_TOKEN=\nGREGARIO_TEST_GUILD_ID=\nGREGARIO_SYNC_COMMANDS=false\nGREGARIO_LOG_LEVEL=DEBUG\n"
    )
    settings = Settings()
    assert settings.token is None and settings.test_guild_id is None
    assert settings.sync_commands is False and settings.log_level == "DEBUG"


def test_bad_values_name_the_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    """A server id that is not a number is refused with the setting's name."""
    monkeypatch.setenv("GREGARIO_TEST_GUILD_ID", "soon")
    with pytest.raises(ValidationError, match="test_guild_id"):
        Settings()


@pytest.mark.parametrize("written", ["debug", "Warning", " error ", "INFO"])
def test_log_levels_are_accepted_in_any_case(monkeypatch: pytest.MonkeyPatch, written: str) -> None:
    """GREGARIO_LOG_LEVEL=debug means DEBUG."""
    monkeypatch.setenv("GREGARIO_LOG_LEVEL", written)
    assert Settings().log_level == written.strip().upper()


def test_a_bad_log_level_names_the_variable_and_the_accepted_values(monkeypatch: pytest.MonkeyPatch) -> None:
    """GREGARIO_LOG_LEVEL=chatty is told as the variable the user wrote, with DEBUG, INFO, WARNING, ERROR."""
    monkeypatch.setenv("GREGARIO_LOG_LEVEL", "chatty")
    with pytest.raises(ValidationError) as info:
        Settings()
    text = describe_settings_error(info.value)
    assert text.startswith("GREGARIO_LOG_LEVEL=chatty:")
    assert all(level in text for level in ("DEBUG", "INFO", "WARNING", "ERROR"))
    assert "log_level" not in text and len(text.splitlines()) == 1


def test_many_bad_values_still_fit_in_two_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    """Three bad settings: the first is named, the others counted."""
    monkeypatch.setenv("GREGARIO_LOG_LEVEL", "chatty")
    monkeypatch.setenv("GREGARIO_API_BASE_URL", "discord.com")
    monkeypatch.setenv("GREGARIO_SYNC_COMMANDS", "maybe")
    with pytest.raises(ValidationError) as info:
        Settings()
    assert describe_settings_error(info.value).splitlines()[1] == "(and 2 more settings that are not valid)"


def test_the_api_base_url_must_be_a_web_address(monkeypatch: pytest.MonkeyPatch) -> None:
    """GREGARIO_API_BASE_URL is an http(s) URL; a trailing slash is dropped."""
    monkeypatch.setenv("GREGARIO_API_BASE_URL", "http://127.0.0.1:9/api/v10/")
    assert Settings().api_base_url == "http://127.0.0.1:9/api/v10"
    monkeypatch.setenv("GREGARIO_API_BASE_URL", "127.0.0.1:9")
    with pytest.raises(ValidationError, match="http"):
        Settings()


def test_env_example_documents_every_setting_with_its_default() -> None:
    """Every setting appears in .env.example with its default value and a comment above it."""
    text = (ROOT / ".env.example").read_text()
    lines = dict(re.findall(r"^(GREGARIO_[A-Z_]+)=(.*)$", text, re.M))
    defaults = Settings.model_fields
    assert set(lines) == {f"GREGARIO_{name.upper()}" for name in defaults}
    for name, field in defaults.items():
        value = lines[f"GREGARIO_{name.upper()}"]
        default = field.default
        expected = "" if default is None else str(default).lower() if isinstance(default, bool) else str(default)
        assert value == expected, f"{name}: .env.example says {value!r}, the default is {expected!r}"
        assert re.search(rf"^#.*\n(#.*\n)*GREGARIO_{name.upper()}=", text, re.M), f"{name} has no comment"


def test_a_stand_in_for_discord_gets_its_gateway_on_the_same_host() -> None:
    """GREGARIO_API_BASE_URL on 127.0.0.1 puts the gateway there too; Discord's own API keeps Discord's."""
    assert Settings(_env_file=None).gateway_url() is None
    local = Settings(_env_file=None, api_base_url="https://127.0.0.1:8443/api/v10")
    assert local.gateway_url() == "wss://127.0.0.1:8443/"


def test_the_ca_file_must_exist(tmp_path: Path, fake_discord_certificate: tuple[Path, Path]) -> None:
    """GREGARIO_CA_FILE names a PEM file that is there and holds a certificate; an empty value means none."""
    pem = str(fake_discord_certificate[0])
    assert Settings(_env_file=None, ca_file=pem).ca_file == pem
    for content in ("", "-----BEGIN CERTIFICATE-----\nnot base64\n"):
        (tmp_path / "bad.pem").write_text(content)
        with pytest.raises(ValidationError, match="holds no PEM certificate"):
            Settings(_env_file=None, ca_file=str(tmp_path / "bad.pem"))
    assert Settings(_env_file=None, ca_file=" ").ca_file is None
    with pytest.raises(ValidationError, match="no such file"):
        Settings(_env_file=None, ca_file=str(tmp_path / "missing.pem"))


def test_a_process_names_its_shard_range_and_bad_ranges_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """Unsharded, the process is ``main`` and holds every shard; with a count and a range it owns that range;
    a range without a count, one past it, or backwards is refused in one line naming the variable."""
    assert Settings().owner() == "main" and Settings().shard_ids() == []
    monkeypatch.setenv("GREGARIO_SHARD_COUNT", "4")
    monkeypatch.setenv("GREGARIO_SHARDS", "2-3")
    assert Settings().owner() == "shards 2-3 of 4" and Settings().shard_ids() == [2, 3]
    monkeypatch.setenv("GREGARIO_SHARDS", "1")
    assert Settings().shard_ids() == [1]
    for shards, count, said in (
        ("3-4", "4", "goes past GREGARIO_SHARD_COUNT=4"),
        ("3-1", "4", "last shard comes before its first"),
        ("a-b", "4", "first-last"),
        ("0-1", "", "needs GREGARIO_SHARD_COUNT"),
    ):
        monkeypatch.setenv("GREGARIO_SHARDS", shards)
        monkeypatch.setenv("GREGARIO_SHARD_COUNT", count)
        with pytest.raises(ValidationError) as refused:
            Settings()
        message = describe_settings_error(refused.value)
        assert said in message and len(message.splitlines()) == 1, message
