"""Every mistake a user can make on the command line: at most three lines, no traceback, exit status 2.

Each test runs the real ``gregario`` command in a fresh interpreter, in an empty folder (no ``.env``),
with no ``GREGARIO_*`` variables, and looks at what a person would see. Ctrl-C is a real SIGINT.
"""

from __future__ import annotations

import os
import selectors
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.cli import main

ROOT = Path(__file__).resolve().parents[3]


def clean_env(**extra: str) -> dict[str, str]:
    """The environment without the developer's Gregario settings, plus ``extra``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GREGARIO_") and k != "DISCORD_TOKEN"}
    env["PYTHONPATH"] = str(ROOT)
    env.update(extra)
    return env


def gregario(cwd: Path, *args: str, stdin: str = "", **env: str) -> subprocess.CompletedProcess[str]:
    """``gregario ARGS`` in a fresh interpreter, in ``cwd``."""
    return subprocess.run(
        [sys.executable, "-m", "bot.cli", *args],
        cwd=cwd,
        env=clean_env(**env),
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


def assert_told_briefly(done: subprocess.CompletedProcess[str], status: int = 2) -> str:
    """The exit status, no traceback, and at most three lines on stderr; returns stderr."""
    assert done.returncode == status, (done.returncode, done.stderr[-2000:])
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert 1 <= len(lines) <= 3, done.stderr
    return done.stderr


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["play", "--option", "foo=bar"], "options.foo"),
        (["play", "--ruleset", "tabella", "--option", "foo=bar"], "options.foo"),
        (["play", "--option", "foo"], "KEY=VALUE"),
        (["play", "--stage", "{not json"], "--stage is not valid JSON"),
        (["simulate", "--stage", '{"stages": }', "--ruleset", "wyscig"], "--stage is not valid JSON"),
        (["simulate", "--races", "0"], "--races"),
        (["simulate", "--races", "-5"], "--races"),
        (["simulate", "--players", "0"], "--players"),
        (["play", "--opponents", "-1"], "--opponents"),
        (["play", "--opponents", "two"], "--opponents"),
        (["simulate", "--bots", "heuristik"], "choose from"),
        (["play", "--ruleset", "wyscig", "--stage", "nowhere"], "nowhere"),
        (["replay", "no-such-record.json"], "cannot read"),
    ],
)
def test_a_usage_mistake_gets_a_short_message_and_exit_status_2(tmp_path: Path, args: list[str], said: str) -> None:
    """The mistake is named in at most three lines; nothing is played."""
    done = gregario(tmp_path, *args, stdin="1\n" * 200)
    assert said in assert_told_briefly(done)
    assert "Final standings" not in done.stdout and "races per second" not in done.stdout


def test_a_record_into_a_missing_folder_is_refused_before_the_race(tmp_path: Path) -> None:
    """--record /missing/x.json: exit 2 at once, naming the folder; the race is not played and lost."""
    missing = str(tmp_path / "missing" / "x.json")
    done = gregario(tmp_path, "play", "--seed", "1", "--record", missing, stdin="1\n" * 3000)
    assert "missing" in assert_told_briefly(done)
    assert done.stdout == ""
    done = gregario(tmp_path, "simulate", "--races", "2", "--record", str(tmp_path / "missing" / "x.json"))
    assert "does not exist" in assert_told_briefly(done)
    assert done.stdout == ""


def test_a_record_that_is_a_folder_is_refused(tmp_path: Path) -> None:
    """--record naming a folder: exit 2, with an example of a file name."""
    done = gregario(tmp_path, "play", "--record", str(tmp_path), stdin="quit\n")
    assert "is a folder" in assert_told_briefly(done)


def test_a_non_utf8_record_is_refused_from_a_file_and_from_standard_input(tmp_path: Path) -> None:
    """Bytes that are not UTF-8: one line saying so, exit 2, for `replay FILE` and `replay -`."""
    path = tmp_path / "photo.json"
    path.write_bytes(b"\xff\xd8\xff\xe0 not a record")
    assert "not UTF-8" in assert_told_briefly(gregario(tmp_path, "replay", str(path)))
    done = subprocess.run(
        [sys.executable, "-m", "bot.cli", "replay", "-"],
        cwd=tmp_path,
        env=clean_env(),
        input=path.read_bytes(),
        capture_output=True,
        timeout=120,
    )
    text = done.stderr.decode()
    assert done.returncode == 2 and "Traceback" not in text and "standard input is not UTF-8" in text


def test_replay_reads_a_record_from_standard_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`gregario replay -` replays a record piped in, as the README says."""
    record = tmp_path / "race.json"
    assert main(["simulate", "-r", "tabella", "--races", "1", "--seed", "5", "--record", str(record)]) == 0
    capsys.readouterr()
    done = gregario(tmp_path, "replay", "-", stdin=record.read_text(encoding="utf-8"))
    assert done.returncode == 0, done.stderr
    assert "Standings (finished" in done.stdout


def test_a_reader_that_closes_the_pipe_early_gets_no_traceback(tmp_path: Path) -> None:
    """`replay --json big.json | head -c 10`: the output stops quietly, exit status 2, nothing on stderr."""
    record = tmp_path / "wyscig.json"
    assert main(["simulate", "-r", "wyscig", "--races", "1", "--seed", "3", "--record", str(record)]) == 0
    with subprocess.Popen(
        [sys.executable, "-m", "bot.cli", "replay", "--json", str(record)],
        cwd=tmp_path,
        env=clean_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    ) as proc:
        assert proc.stdout is not None and proc.stderr is not None
        head = proc.stdout.read(10)
        proc.stdout.close()
        err = proc.stderr.read().decode()
        status = proc.wait(timeout=120)
    assert head.startswith(b"{")
    assert status == 2 and err == ""
    full = gregario(tmp_path, "replay", "--json", str(record))
    assert len(full.stdout) > 2**16  # larger than a pipe's buffer, so the writer really met a closed pipe


def _wait_for(proc: subprocess.Popen[bytes], text: bytes, timeout: float = 60) -> bytes:
    """Read the process's stdout until ``text`` appears; everything read so far."""
    assert proc.stdout is not None
    seen = b""
    with selectors.DefaultSelector() as selector:
        selector.register(proc.stdout, selectors.EVENT_READ)
        deadline = time.monotonic() + timeout
        while text not in seen:
            assert time.monotonic() < deadline, f"never saw {text!r}: {seen[-500:]!r}"
            if selector.select(timeout=1):
                chunk = os.read(proc.stdout.fileno(), 65536)
                assert chunk, f"the process ended before {text!r}: {seen[-500:]!r}"
                seen += chunk
    return seen


def test_ctrl_c_in_play_saves_the_record_and_exits_130(tmp_path: Path) -> None:
    """SIGINT at a prompt: "Race interrupted", the record so far is saved, exit 130, no traceback."""
    record = tmp_path / "race.json"
    with subprocess.Popen(
        [sys.executable, "-m", "bot.cli", "play", "--seed", "2", "--record", str(record)],
        cwd=tmp_path,
        env=clean_env(),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    ) as proc:
        assert proc.stdin is not None and proc.stderr is not None
        _wait_for(proc, b"> ")
        proc.stdin.write(b"1\n")
        proc.stdin.flush()
        _wait_for(proc, b"> ")
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err.decode()
    assert b"Traceback" not in err and b"KeyboardInterrupt" not in err
    assert b"Race interrupted." in out and b"Race record saved" in out
    from engine.record import parse_record

    saved = parse_record(record.read_text(encoding="utf-8"))
    assert saved.ruleset == "flamme_rouge" and saved.seed == 2


def test_ctrl_c_in_simulate_saves_the_last_race_and_exits_130(tmp_path: Path) -> None:
    """SIGINT during a long simulation: one line on stderr, the last finished race saved, exit 130."""
    record = tmp_path / "last.json"
    with subprocess.Popen(
        [sys.executable, "-m", "bot.cli", "simulate", "--races", "1000000", "--seed", "1", "--record", str(record)],
        cwd=tmp_path,
        env=clean_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        # As from a terminal: a suite started in the background (`pytest &`) hands its children SIGINT
        # ignored, and Python then installs no Ctrl-C handler at all.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    ) as proc:
        assert proc.stderr is not None
        try:
            _wait_for(proc, b"races, stage")
            time.sleep(1.5)  # a few races finish
            proc.send_signal(signal.SIGINT)
            _out, err = proc.communicate(timeout=60)
        finally:
            if proc.poll() is None:
                proc.kill()  # a million races would keep the suite waiting
    text = err.decode()
    assert proc.returncode == 130, text
    assert "Traceback" not in text and 1 <= len(text.strip().splitlines()) <= 3
    assert "interrupted after" in text
    assert record.exists()


def _closed_port() -> int:
    """A port on 127.0.0.1 that nothing listens on (bound, then released)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


def test_run_with_a_token_but_no_discord_says_so_in_one_line(tmp_path: Path) -> None:
    """Discord unreachable (a closed local port): one line saying so and what to check, exit 2."""
    url = f"http://127.0.0.1:{_closed_port()}/api/v10"
    done = gregario(tmp_path, "run", GREGARIO_TOKEN="a.b.c", GREGARIO_API_BASE_URL=url)
    err = assert_told_briefly(done)
    assert len(err.strip().splitlines()) == 1
    assert "Cannot reach Discord" in err and url in err and "GREGARIO_API_BASE_URL" in err


def test_a_bad_value_in_dot_env_names_the_variable_and_the_accepted_values(tmp_path: Path) -> None:
    """GREGARIO_LOG_LEVEL=chatty in .env: the variable, the accepted values and where to fix it; exit 2."""
    (tmp_path / ".env").write_text("GREGARIO_TOKEN=a.b.c\nGREGARIO_LOG_LEVEL=chatty\n", encoding="utf-8")
    err = assert_told_briefly(gregario(tmp_path, "run"))
    assert "GREGARIO_LOG_LEVEL=chatty" in err
    assert all(level in err for level in ("DEBUG", "INFO", "WARNING", "ERROR"))
    assert ".env" in err and "log_level" not in err


def test_run_without_a_token_exits_2_and_points_to_play(tmp_path: Path) -> None:
    """No token anywhere: exit 2, the way to get one, and `gregario play` as the way to play now."""
    done = gregario(tmp_path, "run")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "gregario play" in done.stderr
