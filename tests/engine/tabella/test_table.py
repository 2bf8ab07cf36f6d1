"""The destiny table and the course read from it (rules §3, §4.2, §4.3)."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.rng import Rng
from engine.tabella import RULESET
from engine.tabella.table import Course, Pair, check_table, classic_table, random_table

from .scenario import scenario

PROJECT_AON = [
    [1, 5, 7, 3, 6, 9, 0, 1, 7, 9],
    [3, 9, 2, 8, 1, 7, 4, 9, 7, 8],
    [6, 1, 0, 7, 3, 0, 5, 4, 6, 7],
    [0, 2, 8, 9, 2, 9, 6, 0, 2, 4],
    [5, 9, 6, 4, 8, 2, 8, 5, 6, 3],
    [0, 3, 1, 3, 9, 7, 5, 0, 1, 5],
    [5, 8, 2, 5, 1, 3, 6, 4, 3, 9],
    [7, 0, 4, 8, 6, 4, 5, 1, 4, 2],
    [4, 6, 8, 3, 2, 0, 1, 7, 2, 5],
    [8, 3, 7, 0, 9, 6, 2, 4, 8, 1],
]


@pytest.mark.rules("4.3", "D3")
def test_the_classic_table_is_the_project_aon_table_digit_for_digit() -> None:
    """The data file holds exactly the table printed in §4.3."""
    assert classic_table() == PROJECT_AON


@pytest.mark.rules("4.3")
def test_the_classic_table_is_balanced_and_has_no_flat_pair() -> None:
    """Each digit appears ten times, and no pair has two equal digits."""
    table = classic_table()
    assert Counter(d for row in table for d in row) == dict.fromkeys(range(10), 10)
    assert all(row[2 * i] != row[2 * i + 1] for row in table for i in range(5))


@pytest.mark.rules("D3", "D5")
def test_a_random_table_holds_each_digit_ten_times_and_follows_the_seed() -> None:
    """A random table is a shuffled multiset of 100 digits, the same for the same seed."""
    one = random_table(Rng.from_seed(5))
    assert Counter(d for row in one for d in row) == dict.fromkeys(range(10), 10)
    assert one == random_table(Rng.from_seed(5))
    assert one != random_table(Rng.from_seed(6))


@pytest.mark.rules("D3")
def test_an_explicit_table_is_raced_and_a_malformed_one_is_refused() -> None:
    """An explicit 10x10 table is used as given; a digit out of 0-9 names its spot."""
    table = [[(r + c) % 10 for c in range(10)] for r in range(10)]
    state = RULESET.new_race({"table": table, "rows": 2}, {}, _two(), seed=1)
    assert state.table == table and state.table_source == "explicit"
    bad = [row[:] for row in table]
    bad[3][4] = 12
    with pytest.raises(ValueError, match="row 4, column 5"):
        RULESET.new_race({"table": bad, "rows": 2}, {}, _two(), seed=1)


@pytest.mark.rules("D4", "D5")
def test_the_rows_option_picks_three_consecutive_rows_or_draws_them_from_the_seed() -> None:
    """rows=8 gives rows 8-10; random rows are 1-8 and the same for the same seed; 9 is refused."""
    course = Course.of(classic_table(), 8)
    assert course.table_rows[2] == tuple(PROJECT_AON[9])
    firsts = {RULESET.new_race({"rows": "random"}, {}, _two(), seed=s).first_row for s in range(40)}
    assert firsts <= set(range(1, 9)) and len(firsts) > 3
    assert RULESET.new_race(None, {}, _two(), seed=3).first_row == RULESET.new_race(None, {}, _two(), seed=3).first_row
    with pytest.raises(ValueError):
        RULESET.new_race({"rows": 9}, {}, _two(), seed=1)


@pytest.mark.rules("3", "D18", "example:10.2")
def test_the_constructed_course_reads_as_the_table_of_10_2() -> None:
    """Rows 1-3 of the classic table give the pairs, terrain and kinds listed in §10.2."""
    course = Course.of(classic_table(), 1)
    expected = {
        (0, 1): (1, 5, "climb", False, True),
        (0, 2): (7, 3, "descent", False, False),
        (0, 3): (6, 9, "climb", False, False),
        (0, 4): (0, 1, "climb", True, True),
        (0, 5): (7, 9, "climb", False, False),
        (1, 1): (3, 9, "climb", False, False),
        (1, 2): (2, 8, "climb", False, False),
        (1, 3): (1, 7, "climb", False, True),
        (1, 4): (4, 9, "climb", False, False),
        (1, 5): (7, 8, "climb", False, False),
        (2, 1): (6, 1, "descent", False, True),
        (2, 2): (0, 7, "climb", True, False),
        (2, 3): (3, 0, "descent", True, False),
        (2, 4): (5, 4, "descent", False, False),
        (2, 5): (6, 7, "climb", False, False),
    }
    for (row, pair), (a, b, terrain, curvone, strettoia) in expected.items():
        cell = course.pair(row, pair)
        assert (cell.a, cell.b, cell.terrain, cell.curvone, cell.strettoia) == (a, b, terrain, curvone, strettoia)


@pytest.mark.rules("3", "D18")
def test_a_pair_with_both_a_0_and_a_1_is_a_curvone_and_a_strettoia_with_room_for_one() -> None:
    """(0,1) doubles damage and lets one rider through; equal digits are flat; zero counts as zero."""
    both = Pair(0, 1)
    assert both.curvone and both.strettoia and both.capacity == 1
    assert Pair(4, 4).terrain == "flat" and Pair(4, 4).capacity == 2
    assert Pair(3, 0).terrain == "descent"


@pytest.mark.rules("4.2")
def test_the_stage_of_a_record_takes_a_preset_name_or_an_object_and_refuses_unknown_keys() -> None:
    """``classic-3`` fixes rows 3-5; an unknown stage key is named in the error."""
    assert scenario({"anna": {}, "bob": {}}, stage="classic-3").state.first_row == 3
    with pytest.raises(ValueError, match="colour"):
        RULESET.new_race({"table": "classic", "colour": "pink"}, {}, _two(), seed=1)
    with pytest.raises(ValueError, match="unknown Tabella stage"):
        RULESET.new_race("nowhere", {}, _two(), seed=1)


def _two() -> list:  # type: ignore[type-arg]
    from engine.ruleset import Entrant

    return [Entrant(id="anna", name="Anna"), Entrant(id="bob", name="Bob")]


def test_the_presets_file_pins_ten_named_stages() -> None:
    """``classic``, ``random`` and ``classic-1`` ... ``classic-8`` with their rows."""
    from engine.tabella.presets import PRESETS

    assert list(PRESETS) == ["classic", "random", *[f"classic-{n}" for n in range(1, 9)]]
    assert (PRESETS["classic"].stage.table, PRESETS["classic"].stage.rows) == ("classic", "random")
    assert (PRESETS["random"].stage.table, PRESETS["random"].stage.rows) == ("random", "random")
    assert [PRESETS[f"classic-{n}"].stage.rows for n in range(1, 9)] == list(range(1, 9))


@pytest.mark.rules("D3")
def test_a_table_is_ten_rows_of_ten_digits_each_a_whole_number_from_0_to_9() -> None:
    """Nine rows, a row of nine digits, a 10 or a true in row 2, column 3: each is refused, saying where."""
    table = [[(r + c) % 10 for c in range(10)] for r in range(10)]
    assert check_table(table) == table
    with pytest.raises(ValueError, match="the table must have 10 rows, this one has 9"):
        check_table(table[:9])
    short = [row[:] for row in table]
    short[3] = short[3][:9]
    with pytest.raises(ValueError, match="row 4 of the table must have 10 digits, it has 9"):
        check_table(short)
    for digit in (10, True):
        bad = [row[:] for row in table]
        bad[1][2] = digit
        with pytest.raises(ValueError, match="row 2, column 3 of the table must be a digit 0-9"):
            check_table(bad)
