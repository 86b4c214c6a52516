"""The README's Python examples run as written."""

import re
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"


def test_readme_python_examples_run():
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    assert blocks, "README.md has no python examples"
    for block in blocks:
        exec(compile(block, "README.md", "exec"), {})


def test_readme_quick_start_has_two_commands():
    text = README.read_text(encoding="utf-8")
    quick = text.split("## Quick start", 1)[1].split("```sh", 1)[1].split("```", 1)[0]
    commands = [line for line in quick.strip().splitlines() if line.strip()]
    assert len(commands) == 2
    assert commands[1] == 'pip install ".[test]" && pytest'


def test_the_notation_sections_example_is_a_hand():
    """README's "Notation" opens with a hand showing every part of the notation: it must parse (it
    once held six East tiles and eleven concealed tiles beside three melds)."""
    import re

    import mahjong_core as mc

    section = README.read_text(encoding="utf-8").split("## Notation", 1)[1]
    example = re.match(r"\s*`([^`]+)`", section).group(1)
    hand = mc.parse(example)
    assert len(hand.melds) == 3 and hand.context is not None and hand.win_tile is not None
    assert mc.shanten(hand) == -1 and repr(hand) == example
