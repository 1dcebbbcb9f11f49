"""The text report writes each hand's trick table itself (rich's Table is slow per hand):
it must print exactly what rich's Table prints, in colour and without, and hand the
table to rich whenever it does not fit.  The JSON document is written as the run goes:
it must read back as the document built whole in memory."""

from __future__ import annotations

import io
import json
from pathlib import Path

from hypothesis import given, settings, strategies as st
from rich.console import Console

from booray_audit.notation import reader as notation
from booray_audit.judge.audit import HandReport, SessionEnd, SessionStart, audit
from booray_audit.record import SyntaxProblem
from booray_audit.report.document import JsonStream, hand_json, tags_json
from booray_audit.report.text import _table, _table_lines

ROOT = Path(__file__).parent.parent

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
    rows = [(t, {p: cells[(t - 1) * 8 + i] for i, p in enumerate(players) if (t - 1) * 8 + i not in gaps})
            for t in range(1, tricks + 1)]
    lines = _table_lines(players, rows, width)
    want = _printed(_table(players, rows), width, colour)
    if lines is None:  # too wide: rich shrinks the columns, so rich must lay it out
        assert len(_printed(_table(players, rows), 1000, False).splitlines()[0]) > width
    else:
        assert "".join(_printed(line, width, colour) for line in lines) == want


def _whole(paths) -> dict:
    """The document built in memory, item by item (what the stream must read back as)."""
    files, sessions = [], []
    for path in paths:
        files.append({"path": path, "errors": []})
        for it in audit(notation.read(path)):
            if isinstance(it, SyntaxProblem):
                files[-1]["errors"].append({"line": it.line, "column": it.column, "message": it.message})
            elif isinstance(it, SessionStart):
                files[-1]["errors"] += [{"line": it.session.line, "column": 1, "message": p} for p in it.problems]
                sessions.append({"file": path, "index": it.session.index, "session": it.session.index + 1,
                                 "tags": tags_json(it.session.tags), "rules": it.rules.describe(), "hands": []})
            elif isinstance(it, HandReport):
                sessions[-1]["hands"].append(hand_json(it))
            elif isinstance(it, SessionEnd):
                sessions[-1].update(ledger=it.ledger, pot=it.pot)
    return {"version": 1, "files": files, "sessions": sessions}


def _streamed(paths) -> str:
    out = io.StringIO()
    doc = JsonStream(out)
    for path in paths:
        doc.start_file(path)
        for it in audit(notation.read(path)):
            doc.add(it)
    doc.close()
    return out.getvalue()


def test_the_streamed_json_reads_back_as_the_whole_document():
    paths = sorted(str(p) for p in (ROOT / "samples").glob("*.bhh")) + \
        sorted(str(p) for p in (ROOT / "tests" / "conformance").glob("*.bhh"))
    text = _streamed(paths)
    want = _whole(paths)
    assert json.loads(text) == want
    assert len(want["sessions"]) > 20 and any(f["errors"] for f in want["files"])
    # a line per hand: each reads alone as that hand
    hands = [h for s in want["sessions"] for h in s["hands"]]
    lines = [json.loads(line.rstrip(",")) for line in text.splitlines() if line.startswith('{"hand": ')]
    assert lines == hands and len(hands) > 500


def test_a_session_cut_short_still_ends_the_document():
    path = str(ROOT / "samples" / "home-game.bhh")
    items = [it for it in audit(notation.read(path)) if not isinstance(it, SessionEnd)]
    out = io.StringIO()
    doc = JsonStream(out)
    doc.start_file(path)
    for it in items[:3]:
        doc.add(it)
    doc.start_file("next.bhh")
    doc.close()
    value = json.loads(out.getvalue())
    assert [f["path"] for f in value["files"]] == [path, "next.bhh"]
    assert value["sessions"][0]["ledger"] == {} and value["sessions"][0]["pot"] is None
    assert len(value["sessions"][0]["hands"]) == sum(isinstance(it, HandReport) for it in items[:3]) > 0
