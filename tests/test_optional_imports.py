"""A feature whose optional library is missing says so and names the pip line (mahjong_core/_extras.py).

Each case blocks its library (`sys.modules[name] = None`, so importing it raises ImportError) and
calls the feature; the message must name the feature, the library and the install line. (The
environments', the server's, plotting's and Ray's own tests check the same for their extras.)"""

import sys

import pytest

from mahjong_core._extras import install_line, require


def test_require_imports_or_names_the_install_line(monkeypatch):
    import json

    assert require("json", "anything", extra="numpy") is json
    monkeypatch.setitem(sys.modules, "json", None)
    with pytest.raises(ImportError) as info:
        require("json", "the feature", extra="plot", library="JSON", otherwise="or use text")
    assert str(info.value) == f'the feature needs JSON: {install_line("plot")} (or use text)'
    assert isinstance(info.value.__cause__, ImportError)
    with pytest.raises(ImportError, match="^x needs no_such_library: pip install it$"):
        require("no_such_library.sub", "x", install="pip install it")


def _encode_batch():
    from mahjong_core.rules import mcr

    mcr.encode_batch(["[555p,1]123m67s88sEEE"])


def _to_pandas():
    from mahjong_core.game.simulate import simulate

    simulate("sichuan", 2, seed=1).to_pandas()


def _progress(kind):
    from mahjong_core.game.progress import make_progress

    return lambda: make_progress(kind, 4)


def _rgb_render():
    from mahjong_core.env.render import table_rgb
    from mahjong_core.game import new_game

    table_rgb(new_game("mcr", seed=1))


@pytest.mark.parametrize("blocked, call, phrase", [
    ("numpy", _encode_batch, 'mcr.score_batch / encode_batch needs NumPy: pip install "mahjong_core[numpy]"'),
    ("pandas", _to_pandas, 'to_pandas() needs pandas: pip install "mahjong_core[numpy]" pandas'),
    ("tqdm", _progress("tqdm"), "--progress tqdm needs tqdm: pip install tqdm (or use --progress plain)"),
    ("rich.progress", _progress("rich"), "--progress rich needs rich: pip install rich (or use --progress plain)"),
    ("cairosvg", _rgb_render, 'needs CairoSVG and Pillow: pip install cairosvg pillow (or use render_mode="ansi"'),
], ids=["numpy", "pandas", "tqdm", "rich", "cairosvg"])
def test_a_missing_library_names_its_install_line(monkeypatch, blocked, call, phrase):
    monkeypatch.setitem(sys.modules, blocked, None)
    with pytest.raises(ImportError) as info:
        call()
    assert phrase in str(info.value)
