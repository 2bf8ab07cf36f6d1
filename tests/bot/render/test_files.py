"""Pictures as Discord attachments: drawn off the loop, named, and with their alt text."""

from __future__ import annotations

from PIL import Image

from bot.render import alt_text
from bot.render.files import ALT_TEXT_LIMIT, animation_file, board_file, shorten
from tests.bot.render.test_animation import race_steps
from tests.bot.render.test_layout import fr_view


async def test_a_board_attachment_carries_its_alt_text() -> None:
    """The board file is a PNG named as asked, described by the same text a screen reader reads."""
    file = await board_file("flamme_rouge", fr_view(), names={"anna": "Anna"}, filename="round-4.png")
    assert file.filename == "round-4.png"
    assert Image.open(file.fp).format == "PNG"
    assert file.description == alt_text("flamme_rouge", fr_view(), names={"anna": "Anna"})
    assert "R1 black Rouleur (Anna): square 7, lane 1 (flat)" in file.description


def test_long_alt_text_is_cut_to_discords_limit() -> None:
    """A description longer than 1,024 characters ends in an ellipsis at exactly the limit."""
    cut = shorten("x" * 5000)
    assert len(cut) == ALT_TEXT_LIMIT and cut.endswith("…")
    assert shorten("short") == "short"


async def test_the_race_animation_fits_the_servers_limit_or_is_left_out() -> None:
    """Within a 10 MiB limit the race comes as a GIF; with a 300-byte limit there is no file at all."""
    steps = race_steps("mind_cycling", 1)
    file = await animation_file("mind_cycling", steps, 10 * 1024 * 1024, description="The race, round by round.")
    assert file is not None and file.filename == "race.gif"
    assert Image.open(file.fp).format == "GIF"
    assert await animation_file("mind_cycling", steps, 300, description="-") is None
