"""`gregario db check` only looks (a missing file stays missing, a damaged one is called damaged), and
`gregario db backup` copies a SQLite database whole."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.cli import main


def _url(path: Path) -> str:
    return f"sqlite:///{path}"


def _told(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err
    assert "Traceback" not in err and 1 <= len(err.strip().splitlines()) <= 3, err
    return err


@pytest.fixture
def database(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """A current database, closed (no write-ahead log beside it)."""
    path = tmp_path / "races.sqlite3"
    assert main(["db", "upgrade", "--url", _url(path)]) == 0
    capsys.readouterr()
    return path


def test_check_on_a_path_with_no_file_creates_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """No file there: "no database at PATH", exit 2, and the folder is still empty."""
    path = tmp_path / "typo.sqlite3"
    assert main(["db", "check", "--url", _url(path)]) == 2
    assert f"no database at {path}" in _told(capsys)
    assert list(tmp_path.iterdir()) == []


def test_check_on_a_current_database_writes_nothing(database: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A current database: exit 0, and neither the file nor its folder changed."""
    before = database.read_bytes()
    assert main(["db", "check", "--url", _url(database)]) == 0
    assert "current" in capsys.readouterr().out
    assert database.read_bytes() == before
    assert sorted(p.name for p in database.parent.iterdir()) == ["races.sqlite3"]


def test_check_reports_a_damaged_file_as_corrupted(database: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Pages overwritten with garbage: "corrupted", exit 2 (not "current")."""
    with database.open("r+b") as file:
        file.seek(4096 * 3)
        file.write(b"\xff" * 4096 * 2)
    assert main(["db", "check", "--url", _url(database)]) == 2
    assert "corrupted" in _told(capsys)


def test_check_reports_a_text_file_as_not_a_database(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A text file: "not a SQLite database", exit 2, the file untouched."""
    notes = tmp_path / "notes.sqlite3"
    notes.write_text("hello\n")
    assert main(["db", "check", "--url", _url(notes)]) == 2
    assert "not a SQLite database" in _told(capsys)
    assert notes.read_text() == "hello\n"


def test_backup_copies_every_committed_row_even_from_the_log(
    tmp_path: Path, database: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A row committed into the write-ahead log (a connection still open, as in a running bot) is in the copy."""
    live = sqlite3.connect(database)
    try:
        live.execute("PRAGMA journal_mode=WAL")
        live.execute("PRAGMA wal_autocheckpoint=0")
        live.execute("INSERT INTO servers (id, created_at) VALUES (42, '2026-12-02 10:00:00')")
        live.commit()
        assert (tmp_path / "races.sqlite3-wal").stat().st_size > 0
        copy = tmp_path / "backup.sqlite3"
        assert main(["db", "backup", str(copy), "--url", _url(database)]) == 0
        assert "Backed up" in capsys.readouterr().out
    finally:
        live.close()
    with sqlite3.connect(copy) as conn:
        assert conn.execute("SELECT id FROM servers").fetchall() == [(42,)]
    assert main(["db", "check", "--url", _url(copy)]) == 0


def test_backup_never_overwrites(tmp_path: Path, database: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An existing target is refused, and left as it was."""
    target = tmp_path / "old.sqlite3"
    target.write_text("keep me")
    assert main(["db", "backup", str(target), "--url", _url(database)]) == 2
    assert "already exists" in _told(capsys) and target.read_text() == "keep me"


def test_backup_of_postgresql_points_at_pg_dump(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """PostgreSQL: pg_dump is the tool; exit 2; the password is not shown."""
    url = "postgresql://gregario:hunter2@db.example.org/gregario"
    assert main(["db", "backup", str(tmp_path / "x.dump"), "--url", url]) == 2
    err = _told(capsys)
    assert "pg_dump" in err and "hunter2" not in err


def test_backup_needs_a_file(capsys: pytest.CaptureFixture[str]) -> None:
    """`gregario db backup` alone says what it needs."""
    assert main(["db", "backup"]) == 2
    assert "needs the file" in _told(capsys)
