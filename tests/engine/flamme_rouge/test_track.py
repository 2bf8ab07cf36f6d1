"""The track: tiles, stage presets pinned to the rules document, custom stages (D12), more than 8 riders (D13)."""

from __future__ import annotations

import re

import pytest

from engine.flamme_rouge.start import build_track, normalise_stage
from engine.flamme_rouge.track import catalogue, from_profile, from_tiles, parse_profile, tile_box
from tests.conformance import rules_document

from .helpers import record, start

_ROW = re.compile(r"^\|\s*([^|]+?)\s*\|(.*)\|\s*`([^`]+)`\s*\|\s*(\d+)\s*\|\s*`([^`]+)`\s*\|\s*$", re.M)


def _document_stages() -> list[tuple[str, bool, str, int, str]]:
    """(name, 5-6-player version?, tiles, squares, run-lengths) of every stage row of §3.3."""
    doc = rules_document("flamme-rouge.md")
    section = doc.split("### 3.3", 1)[1].split("### 3.4", 1)[0]
    rows = []
    for name, middle, tiles, squares, profile in _ROW.findall(section):
        name = name.split(" (also published")[0]
        large = "5–6" in middle
        rows.append((name, large, tiles, int(squares), profile))
    return rows


@pytest.mark.rules("3.3", "D12")
def test_every_stage_of_the_document_is_a_preset_with_its_tiles_and_run_lengths() -> None:
    """Each stage row of §3.3 is in the catalogue data file with the same tiles and run-lengths."""
    rows = _document_stages()
    assert len(rows) == 14 + 12
    entries = {s.name: s for s in catalogue().stages}
    for name, large, tiles, _squares, profile in rows:
        entry = entries[name]
        version = entry.large if large else entry
        assert version is not None, name
        assert (version.tiles, version.profile) == (tiles, profile), name
    assert len(entries) == 14 + 6


@pytest.mark.rules("3.2", "3.3")
def test_every_preset_decodes_tile_by_tile_to_the_documented_run_lengths() -> None:
    """Decoding each tile string with the tiles of §3.2 gives exactly the table's run-lengths and square count."""
    for name, _large, tiles, squares, profile in _document_stages():
        track = from_tiles(tiles)
        assert track.profile() == profile, name
        assert track.last == squares, name
        assert track.squares() == parse_profile(profile), name


@pytest.mark.rules("3.2")
def test_the_tile_box_holds_every_documented_side() -> None:
    """21 base tiles on both sides, Peloton 1-9 (light 6 unusable), and the 3-lane finish v/V."""
    box = tile_box()
    base = set("abcdefghijklmnopqrstu")
    assert base | {c.upper() for c in base} <= set(box.tiles)
    assert {str(n) for n in range(1, 10)} - {"6"} <= set(box.tiles)
    assert {f"_{n}" for n in range(1, 10)} <= set(box.tiles)
    assert {"v", "V"} <= set(box.tiles)
    assert "6" in box.unusable
    assert box.tiles["N"].terrain == "uuuuuu"
    assert box.tiles["5"].lanes == [1, 2, 1, 2, 1, 1]
    assert box.tiles["_6"].lanes == [1, 1, 1, 2, 1, 2]
    assert sum(len(box.tiles[t].terrain) for t in "abcdefghijklmnopqrstu") == 78


@pytest.mark.rules("D12")
def test_the_default_stage_is_avenue_corso_paseo() -> None:
    """No stage given: Avenue Corso Paseo, 5 start squares, the line after square 73."""
    race = start(record(stage=None))  # type: ignore[arg-type]
    track = race.state.track
    assert track.name == "Avenue Corso Paseo"
    assert (track.start_squares, track.finish, track.last) == (5, 74, 78)


@pytest.mark.rules("D12")
def test_a_custom_tile_string_must_start_and_finish_properly_and_use_each_tile_once() -> None:
    """A custom stage: start tile first, finish tile last, each physical tile once (c and C are one tile)."""
    assert from_tiles("abcu").last == 6 + 6 + 6 + 6
    with pytest.raises(ValueError, match="starts with a start tile"):
        from_tiles("bcu")
    with pytest.raises(ValueError, match="ends with a finish tile"):
        from_tiles("abc")
    with pytest.raises(ValueError, match="used twice"):
        from_tiles("acCu")
    with pytest.raises(ValueError, match="used twice"):
        from_tiles("a3_3u")
    with pytest.raises(ValueError, match="cannot be used"):
        from_tiles("a6u")


@pytest.mark.rules("D12")
def test_a_terrain_profile_builds_lanes_and_terrain_square_by_square() -> None:
    """'S5 _2 P2 C1 C2 u1 d1 _[3L]×2 F5': supply has 3 lanes, C1/C2 are single cobbles with 1/2 lanes."""
    track = from_profile("S5 _2 P2 C1 C2 u1 d1 _[3L]×2 F5")
    assert track.terrain[1:].startswith("SSSSS__PPCCud__FFFFF")
    assert [track.lanes[n] for n in range(6, 16)] == [2, 2, 3, 3, 1, 2, 2, 2, 3, 3]
    assert track.finish == 16
    with pytest.raises(ValueError, match="not a run"):
        from_profile("S5 _2 Z3 F5")
    with pytest.raises(ValueError, match="finish area"):
        from_profile("S5 _10")


@pytest.mark.rules("D12")
def test_a_bare_stage_string_is_a_preset_a_tile_string_or_a_profile() -> None:
    """Names are forgiving about case and dashes; other strings are tiles or a profile."""
    assert normalise_stage("firenze milano") == {"preset": "Firenze-Milano"}
    assert normalise_stage("abcu") == {"tiles": "abcu"}
    assert normalise_stage("S5 _10 F5") == {"profile": "S5 _10 F5"}
    with pytest.raises(ValueError, match="unknown stage preset"):
        normalise_stage({"preset": "Tour of Nowhere"})


@pytest.mark.rules("D13", "3.4")
def test_more_than_eight_riders_use_the_five_six_player_version_of_a_peloton_stage() -> None:
    """Stage 7 with 9+ riders is its 81-square version; with 8 it is the 78-square one."""
    assert build_track({"preset": "Stage 7"}, large=False).last == 78
    large = build_track({"preset": "Stage 7"}, large=True)
    assert large.last == 81
    assert large.profile().startswith("S[3L]×5 _[3L]×6 _1 P5")
    five_teams = start(record(players=5, stage="Stage 7"))
    assert five_teams.state.track.last == 81  # 10 riders
    four_teams = start(record(players=4, stage="Stage 7"))
    assert four_teams.state.track.last == 78  # 8 riders


@pytest.mark.rules("D13", "3.4")
def test_more_than_eight_riders_on_a_base_stage_get_the_three_lane_start_tile() -> None:
    """a -> _1 (5 start squares + 1 flat, 3 lanes); A -> 1 (4 + 2); the rest is unchanged."""
    small = build_track({"preset": "Avenue Corso Paseo"}, large=False)
    large = build_track({"preset": "Avenue Corso Paseo"}, large=True)
    assert [large.lanes[n] for n in range(1, 8)] == [3, 3, 3, 3, 3, 3, 2]
    assert large.terrain == small.terrain
    col = build_track({"preset": "Le Col du Ballon"}, large=True)
    assert col.start_squares == 4 and col.lanes[6] == 3 and col.lanes[7] == 2


def test_a_preset_is_found_by_its_name_as_a_listing_shows_it() -> None:
    """'Sprint de Montagne [origin unverified]', as listed, is Sprint de Montagne; an unknown name stays unknown."""
    from engine.flamme_rouge.track import find_preset

    for written in ("Sprint de Montagne [origin unverified]", "sprint de montagne (default)", "Sprint de Montagne"):
        found = find_preset(written)
        assert found is not None and found.name == "Sprint de Montagne"
    assert find_preset("Nowhere [origin unverified]") is None
    assert find_preset("Sprint [de Montagne]") is None
