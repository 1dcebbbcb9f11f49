"""Every table a command prints, at 60, 80 and 120 columns: every column's header and
every cell's whole value is shown.  A table wider than the console is printed one
record a block, and says so; none drops a column or cuts a value."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from booray_audit.cli import main  # noqa: F401 - registers the commands on the app
from booray_audit.cli import tables
from booray_audit.cli.shared import app

from .conftest import ROOT, run_cli

COMMANDS = [
    ["stats"], ["stats", "--player", "Judy"], ["stats", "--by", "event"], ["stats", "--by", "month"],
    ["stats", "--by", "session"], ["stats", "--sort", "win_rate"], ["ledger"], ["ledger", "--ids"],
    ["ledger", "--settle"], ["ledger", "--settle", "--ids"], ["alias"],
    ["sql", "SELECT * FROM findings LIMIT 6"], ["sql", "SELECT * FROM sessions"],
]


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    db = tmp_path_factory.mktemp("tables") / "league.duckdb"
    p = run_cli("import", "--db", db, ROOT / "samples" / "home-game.bhh", ROOT / "samples" / "partial-from-memory.bhh")
    assert p.returncode in (0, 1), p.stderr
    assert run_cli("alias", "Judy", "J. Boudreaux", "--db", db).returncode == 0
    return db


@pytest.mark.parametrize("width", [60, 80, 120])
@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_no_table_drops_a_column_or_cuts_a_value(store, command, width, monkeypatch):
    shown: list[tuple[list, list]] = []
    draw = tables._text_table

    def keep(columns, rows, title):
        shown.append((list(columns), [list(r) for r in rows]))
        draw(columns, rows, title)
    monkeypatch.setattr(tables, "_text_table", keep)
    result = CliRunner().invoke(app, command + ["--db", str(store)], env={"COLUMNS": str(width), "NO_COLOR": "1"})
    assert result.exit_code == 0, result.output
    assert shown, "no table printed"
    out = result.output
    lines = out.splitlines()
    for columns, rows in shown:
        for c in columns:
            for word in str(c).split():
                assert word in out, (word, width)
        for r in rows:
            for v in r:
                for part in ("" if v is None else str(v)).splitlines():  # a text of several lines: each
                    assert any(part.rstrip() in line for line in lines), (part, width, out)
    if any(len(line) > width for line in result.stdout.splitlines()):  # only in one record a block
        assert "one record a block" in out


def test_a_table_too_wide_says_how_to_see_it_whole(store):
    result = CliRunner().invoke(app, ["sql", "SELECT * FROM findings LIMIT 2", "--db", str(store)],
                                env={"COLUMNS": "60", "NO_COLOR": "1"})
    assert "(wider than 60 columns: one record a block; --format csv for one line a record)" in result.output
