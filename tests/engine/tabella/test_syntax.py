"""The text syntax of §8.3 and the validation of §8.2: what players write, and what they are told."""

from __future__ import annotations

import pytest

from engine.messages import OrderError
from engine.ruleset import Entrant
from engine.tabella import RULESET
from engine.tabella.syntax import format_order
from tests.logged import LoggedRace

from .scenario import CLASSIC_1


def _plan_race() -> LoggedRace:
    names = ["Anna", "Luca", "Marco", "Anna Maria"]
    entrants = [Entrant(id=n.lower().replace(" ", "_"), name=n) for n in names]
    return LoggedRace.start("tabella", entrants, seed=1, stage=CLASSIC_1)


def _live_race(round: int) -> LoggedRace:
    riders = {"anna": {"row": "B"}, "luca": {"row": "B"}, "marco": {"row": "B"}}
    entrants = [Entrant(id=r, name=r.capitalize()) for r in riders]
    setup = {"round": round, "riders": riders if round else {}}
    return LoggedRace.start("tabella", entrants, seed=1, stage=CLASSIC_1, options={"mode": "live"}, setup=setup)


def _error(race: LoggedRace, text: str, who: str = "anna") -> str:
    with pytest.raises(OrderError) as caught:
        race.validate(who, text)
    return caught.value.message.text


@pytest.mark.rules("8.3")
def test_the_compact_forum_plan_of_the_ux_sketch_reads_as_the_typed_order() -> None:
    """``A · 3R 2S 1D 5R 4R · 4 1 2 · V@m3 bibitone, G@m2 @Luca down``."""
    order = _plan_race().validate("anna", "A · 3R 2S 1D 5R 4R · 4 1 2 · V@m3 bibitone, G@m2 @Luca down")
    assert order == {
        "start": "A",
        "m1": {"effort": 3, "dir": "R"},
        "m2": {"effort": 2, "dir": "S"},
        "m3": {"effort": 1, "dir": "D"},
        "m4": {"effort": 5, "dir": "R"},
        "m5": {"effort": 4, "dir": "R"},
        "s1": 4,
        "s2": 1,
        "s3": 2,
        "bibitone": True,
        "specials": [
            {"code": "G", "round": "m2", "target": "luca", "dir": "down"},
            {"code": "V", "round": "m3"},
        ],
    }


@pytest.mark.rules("8.3")
def test_the_labelled_plan_of_8_3_with_specials_over_two_lines_reads_the_same_way() -> None:
    """Fields on one line or several, ``;`` separators, ``target=`` and ``dir=``, lower-case letters."""
    text = """start: aggressiva
m1: 3R   m2: 2S   m3: 1d   m4: 5R   m5: 4R
s1: 4    s2: 1    s3: 2
specials: V@m3 bibitone ; G@m2 target=@Luca dir=down ; J@m1 target=@Anna Maria ;
          B@s2 target=@marco ; X@m4 ; P@s3"""
    order = _plan_race().validate("anna", text)
    assert order["start"] == "A" and order["m3"] == {"effort": 1, "dir": "D"} and order["bibitone"] is True
    assert order["specials"] == [
        {"code": "J", "round": "m1", "target": "anna_maria"},
        {"code": "G", "round": "m2", "target": "luca", "dir": "down"},
        {"code": "V", "round": "m3"},
        {"code": "X", "round": "m4"},
        {"code": "B", "round": "s2", "target": "marco"},
        {"code": "P", "round": "s3"},
    ]


@pytest.mark.rules("8.3")
def test_a_bibitone_line_marks_the_bottle_without_a_planned_vigorilla() -> None:
    """``bibitone: yes`` alone reinforces the bottle (it matters if the bottle is stolen)."""
    order = _plan_race().validate("anna", "start: C m1: 1R m2: 1R m3: 1R m4: 1R m5: 1R s1: 0 s2: 0 s3: 0 bibitone: yes")
    assert order["bibitone"] is True and "specials" not in order


@pytest.mark.rules("8.3")
def test_the_live_examples_of_8_3_read_as_one_round_orders() -> None:
    """``start: A ; bibitone ; P``, ``m2: 3R ; G target=@Luca dir=down ; X``, ``s1: 4 ; V ; B target=@Marco``."""
    assert _live_race(0).validate("anna", "start: A ; bibitone ; P") == {
        "start": "A",
        "bibitone": True,
        "specials": [{"code": "P", "round": "start"}],
    }
    assert _live_race(2).validate("anna", "m2: 3R ; G target=@Luca dir=down ; X") == {
        "m2": {"effort": 3, "dir": "R"},
        "specials": [{"code": "G", "round": "m2", "target": "luca", "dir": "down"}, {"code": "X", "round": "m2"}],
    }
    assert _live_race(6).validate("anna", "s1: 4 ; V ; B target=@Marco") == {
        "s1": 4,
        "specials": [{"code": "V", "round": "s1"}, {"code": "B", "round": "s1", "target": "marco"}],
    }
    assert _live_race(2).validate("anna", "2s") == {"m2": {"effort": 2, "dir": "S"}}


@pytest.mark.rules("8.2", "8.3")
@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("A · 3R 2S 7R 5R 4R · 4 1 2", "move 3: effort must be 1 to 5, you wrote 7"),
        ("A · 3R 2S 1X 5R 4R · 4 1 2", "move 3: direction must be S, D or R, you wrote X"),
        ("A · 3R 2S 1D 5R 4R · 4 -1 2", "sprint 2: intensity must be a whole number 0 or more, you wrote -1"),
        ("Q · 3R 2S 1D 5R 4R · 4 1 2", "start: choose A (Aggressiva), B (Bersagliera) or C (Cavaliera), you wrote Q"),
        ("A · 3R 2S 1D 5R · 4 1 2", "the plan has 4 route moves; it needs 5, like 3R 2S 1D 5R 4R"),
        ("A · 3R 2S 1D 5R 4R 2R · 4 1 2", "sprint 1: intensity must be a whole number 0 or more, you wrote 2R"),
        ("A · 3R 2S 1D 5R 4R · 4 1", "the plan has 2 sprint values; it needs 3, like 4 1 2"),
        ("A · 3R 2S 1D 5R 4R · 4 1 2 · G@m2 @Lucca down", "there is no rider called Lucca in this race"),
        ("A · 3R 2S 1D 5R 4R · 4 1 2 · G@m2 @Luca", "G@m2: say which way you push, up (towards A) or down"),
        (
            "A · 3R 2S 1D 5R 4R · 4 1 2 · J@m5 @Luca",
            "J@m5: the Gancio di traino can't be used in m5; it is allowed in m1, m2",
        ),
        ("A · 3R 2S 1D 5R 4R · 4 1 2 · X@s1", "X@s1: the Scia can't be used in s1"),
        ("A · 3R 2S 1D 5R 4R · 4 1 2 · V2@start", "V2@start: the stolen Vigorilla (V2) can't be used in start"),
        ("A · 3R 2S 1D 5R 4R · 4 1 2 · V@m1, V@s1", "V appears twice (m1 and s1): each special is used once per race"),
        ("A · 3R 2S 1D 5R 4R · 4 1 2 · B@s1 @Anna", "B@s1: you can't target yourself"),
        ("A · 3R 2S 1D 5R 4R · 4 1 2 · B@s1", "B@s1: name the rider to target, like @Luca"),
        ("A · 3R 2S 1D 5R 4R · 4 1 2 · V", "V: say in which round, like V@m3"),
        ("A · 3R 2S 1D 5R 4R · 4 1 2 · P@m9", "P: say in which round, like P@m3 (start, m1-m5, s1-s3); you wrote m9"),
        ("A · 3R 2S 1D 5R 4R · 4 1 2 · @Luca", "@Luca must follow the special it belongs to"),
        ("A · 3R 2S 1D 5R 4R · 4 1 2 · hello", "I don't understand hello"),
        ("", "the order is empty"),
    ],
)
def test_every_mistake_gets_a_message_that_says_what_and_where(text: str, message: str) -> None:
    """The player reads the part, the rule and what they wrote."""
    assert message in _error(_plan_race(), text)


@pytest.mark.rules("8.2", "D9")
def test_in_live_mode_a_special_already_used_or_for_another_round_is_refused() -> None:
    """Bibitone after the start, a special for another round, a special used earlier in the race."""
    race = _live_race(2)
    assert "the Bibitone is declared with the start" in _error(race, "m2: 1R ; bibitone")
    assert "this order is for m2" in _error(race, "m2: 1R ; X@m3")
    race.state.rider("anna").used.append("X")
    assert "you have already used your Scia" in _error(race, "m2: 1R ; X")


@pytest.mark.rules("8.2")
def test_a_rejected_order_changes_nothing() -> None:
    """The state is the same after a refused order."""
    race = _plan_race()
    before = RULESET.dump(race.state)
    _error(race, "A · 3R 2S 9D 5R 4R · 4 1 2")
    assert RULESET.dump(race.state) == before


@pytest.mark.rules("8.3")
def test_targets_are_display_names_matched_case_insensitively_including_spaces() -> None:
    """``@anna maria`` and ``@LUCA`` find their riders; ids work too."""
    order = _plan_race().validate("marco", "C · 1R 1R 1R 1R 1R · 0 0 0 · B@s1 @anna maria, G@s2 @LUCA, J@m1 @anna")
    assert [e["target"] for e in order["specials"]] == ["anna", "anna_maria", "luca"]


@pytest.mark.rules("8.3")
def test_a_normalised_order_prints_back_in_forum_syntax_and_reads_the_same() -> None:
    """The confirmation echo is itself a valid order, equal to the original."""
    race = _plan_race()
    text = "B · 1R 2D 3S 4R 5R · 0 3 9 · P@start, J@m1 @Anna Maria, G@m2 @Luca up, V@m3 bibitone, B2@s2 @Marco"
    order = race.validate("anna", text)
    echo = format_order(order, {r.id: r.name for r in race.state.riders})
    assert echo == text
    assert race.validate("anna", echo) == order
    assert RULESET.validate(race.state, "anna", order).order == order


@pytest.mark.rules("8.1")
def test_the_json_order_accepts_move_strings_and_upper_or_lower_case() -> None:
    """``{"m1": "3r"}`` and ``{"m1": {"effort": "3", "dir": "r"}}`` both become ``{"effort": 3, "dir": "R"}``."""
    race = _live_race(1)
    assert race.validate("anna", {"m1": "3r"}) == {"m1": {"effort": 3, "dir": "R"}}
    assert race.validate("anna", {"m1": {"effort": "3", "dir": "r"}}) == {"m1": {"effort": 3, "dir": "R"}}
    with pytest.raises(OrderError, match="unknown part of the order: colour"):
        race.validate("anna", {"m1": "3R", "colour": "red"})


# D9's table, copied by hand from §6: where each special may be used.
D9_TABLE = {
    "V": {"start", "m1", "m2", "m3", "m4", "m5", "s1", "s2", "s3"},
    "G": {"start", "m1", "m2", "m3", "m4", "m5", "s1", "s2", "s3"},
    "J": {"m1", "m2", "m3", "m4"},
    "B": {"start", "m1", "m2", "m3", "m4", "m5", "s1", "s2", "s3"},
    "X": {"m1", "m2", "m3", "m4", "m5"},
    "P": {"start", "m1", "m2", "m3", "m4", "m5", "s1", "s2", "s3"},
    "V2": {"m1", "m2", "m3", "m4", "m5", "s1", "s2", "s3"},
    "B2": {"m1", "m2", "m3", "m4", "m5", "s1", "s2", "s3"},
}


@pytest.mark.rules("D9", "6")
@pytest.mark.parametrize("code", sorted(D9_TABLE))
def test_each_special_is_accepted_exactly_in_the_rounds_of_the_d9_table(code: str) -> None:
    """A plan placing the special in every round: accepted where D9 allows it, refused elsewhere."""
    race = _plan_race()
    base = "A · 3R 2S 1D 5R 4R · 4 1 2 · "
    extra = {"G": " @Luca up", "J": " @Luca", "B": " @Luca", "B2": " @Luca"}.get(code, "")
    accepted = set()
    for label in ("start", "m1", "m2", "m3", "m4", "m5", "s1", "s2", "s3"):
        try:
            race.validate("anna", f"{base}{code}@{label}{extra}")
        except OrderError as exc:
            assert "can't be used in" in exc.message.text
        else:
            accepted.add(label)
    assert accepted == D9_TABLE[code]


@pytest.mark.rules("8.3")
def test_two_riders_with_the_same_name_must_be_targeted_by_id() -> None:
    """``@Luca`` is ambiguous when two riders are called Luca; the message lists their ids."""
    entrants = [Entrant(id="anna", name="Anna"), Entrant(id="l1", name="Luca"), Entrant(id="l2", name="luca")]
    race = LoggedRace.start("tabella", entrants, seed=1, stage=CLASSIC_1)
    assert "2 riders are called Luca; write the rider's id instead (l1, l2)" in _error(
        race, "A · 3R 2S 1D 5R 4R · 4 1 2 · B@s1 @Luca"
    )
    assert race.validate("anna", "A · 3R 2S 1D 5R 4R · 4 1 2 · B@s1 @l2")["specials"][0]["target"] == "l2"


@pytest.mark.rules("8.3")
def test_a_gomitata_takes_its_target_and_direction_in_either_order_with_or_without_the_at() -> None:
    """``G@m2 down @Luca``, ``G@m2 Luca giù`` and ``G@m2 @Luca down`` are the same push."""
    race = _plan_race()
    expected = [{"code": "G", "round": "m2", "target": "luca", "dir": "down"}]
    for specials in ("G@m2 down @Luca", "G@m2 Luca giù", "G@m2 @Luca down"):
        assert race.validate("anna", f"A · 3R 2S 1D 5R 4R · 4 1 2 · {specials}")["specials"] == expected


@pytest.mark.rules("8.3", "R-TDD-5")
def test_an_effort_and_its_direction_may_be_written_apart() -> None:
    """``m1: 3 R`` (as in ``Start: Bersagliera; M1: 3 R``) is the move 3R, in a plan and in a live order."""
    plan = "Start: Bersagliera; M1: 3 R; m2: 2S; m3: 1 d; m4: 5R; m5: 4R; S1: 4; s2: 1; s3: 2"
    order = _plan_race().validate("anna", plan)
    assert (order["start"], order["m1"], order["m3"]) == ("B", {"effort": 3, "dir": "R"}, {"effort": 1, "dir": "D"})
    assert _live_race(2).validate("anna", "3 R ; X") == {
        "m2": {"effort": 3, "dir": "R"},
        "specials": [{"code": "X", "round": "m2"}],
    }


@pytest.mark.rules("8.3", "R-TDD-5")
def test_a_live_order_may_give_its_value_first_and_labels_after() -> None:
    """``C ; bibitone: no`` at the start and ``V@ m3``-style spacing of a special's round are read as meant."""
    assert _live_race(0).validate("anna", "C ; bibitone: no") == {"start": "C", "bibitone": False}
    order = _plan_race().validate("anna", "A · 3R 2S 1D 5R 4R · 4 1 2 · V@ m3")
    assert order["specials"] == [{"code": "V", "round": "m3"}]


@pytest.mark.rules("8.2", "8.3", "R-TDD-5")
@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("start: A start: B m1: 1R", "start is written twice (first A, then B)"),
        ("start: A m1: 3R m1: 2R", "move 1 is written twice (first 3R, then 2R)"),
        ("start A m1 3R", "write start: with a colon before its value"),
        ("A · 3R 2S 1D 5R 4R · 4 1 2 3", "the plan has more than 3 sprint values; it needs 3, like 4 1 2"),
        ("A · 3R 2S 1D 5R 4R · 4 1 2 · G@m2 @Luca @Marco down", "G@m2: two targets (Luca and Marco); name one rider"),
        ("A · 3R 2S 1D 5R 4R · 4 1 2 · G@m2 @Luca up down", "G@m2: two directions (up and down); choose one"),
        ("A · 3R 2S 1D 5R 4R · 4 1 2 · X@m2 @Luca", "X@m2: the Scia takes no target (you wrote Luca)"),
        ("A · 3R 2S 1D 5R 4R · 4 1 2 · B@s2 @Luca down", "B@s2: only a Gomitata takes a direction (you wrote down)"),
    ],
)
def test_a_repeated_or_misplaced_part_is_named_in_the_message(text: str, message: str) -> None:
    """Nothing is silently dropped or overwritten: a second value, a stray target or direction is refused."""
    assert message in _error(_plan_race(), text)


@pytest.mark.rules("8.2", "8.3", "R-TDD-5")
@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("3R 2R", "move 2 is written twice (first 3R, then 2R)"),
        ("s2 4", "write s2: with a colon before its value"),
        ("3R ; V @Luca", "V@m2: the Vigorilla takes no target (you wrote Luca)"),
    ],
)
def test_a_live_order_with_two_values_or_a_stray_target_is_refused(text: str, message: str) -> None:
    """One move per live order; a Vigorilla names nobody."""
    assert message in _error(_live_race(2), text)


@pytest.mark.rules("8.3", "R-TDD-5")
def test_no_specials_may_be_said_in_words() -> None:
    """``specials: none`` (or ``nessuna``, ``-``) is a plan without specials, not a mistake."""
    for word in ("none", "nessuna", "-"):
        order = _plan_race().validate("anna", f"C · 1R 1R 1R 1R 1R · 0 0 9 · {word}")
        assert "specials" not in order and order["s3"] == 9
        labelled = f"start: C m1: 1R m2: 1R m3: 1R m4: 1R m5: 1R s1: 0 s2: 0 s3: 9 specials: {word}"
        assert "specials" not in _plan_race().validate("anna", labelled)


@pytest.mark.rules("8.1", "R-TDD-5")
def test_a_json_special_with_a_target_or_direction_it_cannot_take_is_refused() -> None:
    """The object form gets the same refusal as the text: X names nobody, only G has a direction."""
    race = _live_race(2)
    with pytest.raises(OrderError, match="the Scia takes no target"):
        race.validate("anna", {"m2": "1R", "specials": [{"code": "X", "target": "luca"}]})
    with pytest.raises(OrderError, match="only a Gomitata takes a direction"):
        race.validate("anna", {"m2": "1R", "specials": [{"code": "B", "target": "luca", "dir": "up"}]})
    assert race.validate("anna", {"m2": "1R", "specials": [{"code": "X", "target": None}]})["specials"] == [
        {"code": "X", "round": "m2"}
    ]


@pytest.mark.rules("8.3", "R-TDD-5")
def test_a_bare_bibitone_may_be_followed_by_yes_or_no() -> None:
    """``A ; bibitone no`` at a live start and ``… · bibitone sì`` in a plan say what they mean."""
    assert _live_race(0).validate("anna", "A ; bibitone no") == {"start": "A", "bibitone": False}
    assert _plan_race().validate("anna", "A · 1R 1R 1R 1R 1R · 0 0 9 · bibitone sì")["bibitone"] is True
