"""`gregario run` checks its settings, then its database, then Discord: each mistake is named in at most
three lines with exit status 2, and the database is never blamed on Discord."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from tests.bot.cli.test_mistakes import assert_told_briefly, gregario


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


def _run(tmp_path: Path, **env: str) -> str:
    """`gregario run` with a token and an unreachable Discord, plus ``env``; its stderr once it stopped."""
    settings = {
        "GREGARIO_TOKEN": "a.b.c",
        "GREGARIO_API_BASE_URL": f"http://127.0.0.1:{_closed_port()}/api/v10",
        **env,
    }
    return assert_told_briefly(gregario(tmp_path, "run", **settings))


def test_postgresql_unreachable_is_the_databases_fault_not_discords(tmp_path: Path) -> None:
    """A PostgreSQL URL on a closed port: the database is named, with the setting to check; Discord is not."""
    url = f"postgresql://postgres:hunter2@127.0.0.1:{_closed_port()}/gregario"
    err = _run(tmp_path, GREGARIO_DATABASE_URL=url)
    assert "Cannot reach the database" in err and "GREGARIO_DATABASE_URL" in err
    assert "Discord" not in err and "hunter2" not in err


def test_a_text_file_as_the_database_is_named(tmp_path: Path) -> None:
    """A file that is not SQLite's: said so, with its path, and left as it was."""
    notes = tmp_path / "races.sqlite3"
    notes.write_text("my shopping list\n")
    err = _run(tmp_path, GREGARIO_DATABASE_URL=f"sqlite:///{notes}")
    assert f"{notes} is not a SQLite database" in err
    assert notes.read_text() == "my shopping list\n"


def test_a_missing_folder_is_named_and_not_created(tmp_path: Path) -> None:
    """A database in a folder that does not exist: the folder is named; nothing is created."""
    missing = tmp_path / "nowhere"
    err = _run(tmp_path, GREGARIO_DATABASE_URL=f"sqlite:///{missing / 'races.sqlite3'}")
    assert f"the folder {missing} does not exist" in err
    assert not missing.exists()


def test_a_mysql_url_is_refused_as_a_setting(tmp_path: Path) -> None:
    """mysql:// is named as the setting's value (password hidden) with the two databases Gregario knows."""
    err = _run(tmp_path, GREGARIO_DATABASE_URL="mysql://gregario:hunter2@db.example.org/gregario")
    assert "GREGARIO_DATABASE_URL=mysql://gregario:***@db.example.org/gregario" in err
    assert "SQLite or PostgreSQL" in err and "hunter2" not in err


@pytest.mark.parametrize("content", ["", "-----BEGIN CERTIFICATE-----\nMIIBnotbase64\n-----END CERTIFICATE-----\n"])
def test_a_ca_file_without_a_certificate_is_refused(tmp_path: Path, content: str) -> None:
    """An empty or garbled GREGARIO_CA_FILE is named before anything connects anywhere."""
    pem = tmp_path / "ca.pem"
    pem.write_text(content)
    err = _run(tmp_path, GREGARIO_CA_FILE=str(pem))
    assert f"GREGARIO_CA_FILE={pem}" in err and "no PEM certificate" in err


def test_an_api_url_without_its_version_is_refused(tmp_path: Path) -> None:
    """GREGARIO_API_BASE_URL=http://127.0.0.1:9 (no /api/v10): the setting and the missing part are named."""
    err = _run(tmp_path, GREGARIO_API_BASE_URL="http://127.0.0.1:9")
    assert "GREGARIO_API_BASE_URL=http://127.0.0.1:9" in err and "/api/v10" in err
