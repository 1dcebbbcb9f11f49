"""The text report writes each hand's trick table itself (rich's Table is slow per hand):
it must print exactly what rich's Table prints, in colour and without, and hand the
table to rich whenever it does not fit."""

from __future__ import annotations

import io

from hypothesis import given, settings, strategies as st
from rich.console import Console

from booray_audit.report import _table, _table_lines

NAMES = st.text(alphabet="AaBbZz-'é♠ 1", min_size=1, max_size=14).map(str.strip).filter(bool)
CELL = st.tuples(st.sampled_from([">As*", " 7c", " Th*", ">?d", " ??", ">K♥*", " 2♣"]),
                 st.sampled_from(["", "bold green"]))


def _printed(renderable, width: int, colour: bool) -> str:
    buf = io.StringIO()
    console = Console(file=buf, width=width, force_terminal=colour, color_system="truecolor" if colour else None,
                      markup=False, highlight=False)
    console.print(renderable)
    return buf.getvalue()


@settings(max_examples=150, deadline=None)
@given(players=st.lists(NAMES, min_size=2, max_size=8, unique=True), tricks=st.integers(1, 12),
       cells=st.lists(CELL, min_size=96, max_size=96), gaps=st.sets(st.integers(0, 95), max_size=10),
       width=st.sampled_from([20, 40, 60, 80, 120]), colour=st.booleans())
def test_the_trick_table_is_what_rich_prints(players, tricks, cells, gaps, width, colour):
    rows = {t: {p: cells[(t - 1) * 8 + i] for i, p in enumerate(players) if (t - 1) * 8 + i not in gaps}
            for t in range(1, tricks + 1)}
    lines = _table_lines(players, rows, width)
    want = _printed(_table(players, rows), width, colour)
    if lines is None:  # too wide: rich shrinks the columns, so rich must lay it out
        assert len(_printed(_table(players, rows), 1000, False).splitlines()[0]) > width
    else:
        assert "".join(_printed(line, width, colour) for line in lines) == want
