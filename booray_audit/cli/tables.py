"""What the store commands share: opening the database, the scope options, and printing a
table as text, CSV or JSON."""

from __future__ import annotations

import json
import math
import sys
from enum import Enum
from typing import Optional

import typer

from .shared import UNREADABLE, UsageProblem, _console, _err


class TableFmt(str, Enum):
    text = "text"
    table = "table"  # the same as text (the name older scripts use)
    csv = "csv"
    json = "json"

TABLE_FORMAT = typer.Option(TableFmt.text, "--format", metavar="text|csv|json",
                            help="a table for people, csv or json for scripts")



def _store():
    from ..store import schema as store
    return store


def _open(db: str, read_only: bool, sandbox: dict | None = None, wait: float = 30.0):
    store = _store()
    try:
        return store.connect_waiting(db, read_only=read_only, wait=wait, create=not read_only, sandbox=sandbox)
    except store.StoreError as e:
        _err(str(e))
        raise typer.Exit(UNREADABLE) from None


def _query(db: str, fn, *args, wait: float = 30.0):
    """Run a report on the store, read-only; a damaged store is a one-line error (exit 2)."""
    import duckdb
    con = _open(db, read_only=True, wait=wait)
    try:
        return fn(con, *args)
    except duckdb.InterruptException:  # Ctrl-C
        raise KeyboardInterrupt from None
    except duckdb.Error as e:
        _err(f"{db}: the store cannot answer: {str(e).splitlines()[0]}")
        raise typer.Exit(UNREADABLE) from None
    finally:
        con.close()


def _emit(columns, rows, fmt: TableFmt, title: str | None = None):
    if fmt == TableFmt.json:
        json.dump([dict(zip(columns, map(_plain, r))) for r in rows], sys.stdout, ensure_ascii=False, indent=1,
                  allow_nan=False)
        sys.stdout.write("\n")
    elif fmt == TableFmt.csv:
        import csv
        w = csv.writer(sys.stdout, lineterminator="\n")
        w.writerow(columns)
        if sys.stdout.isatty():  # read by a person after all: no control character reaches the terminal
            from ..record import shown
            w.writerows([[shown(v) if isinstance(v, str) else _plain(v) for v in r] for r in rows])
        else:
            w.writerows([[_plain(v) for v in r] for r in rows])
    else:
        _text_table(columns, rows, title)


def _text_table(columns, rows, title: str | None) -> None:
    """The table for people: as a table where its widest row fits the console; else one
    record per block (a column a line, every value whole), saying so.  A table never
    drops a column or cuts a value (docs/output.md, tables)."""
    from rich import box
    from rich.measure import Measurement
    from rich.table import Table
    from rich.text import Text
    console = _console()
    table = Table(title=title, header_style="bold", box=box.SIMPLE_HEAD, title_justify="left",
                  show_edge=False, pad_edge=False, collapse_padding=True)
    cells = [["" if v is None else str(v) for v in r] for r in rows]
    for i, c in enumerate(columns):
        values = [r[i] for r in rows if r[i] is not None]
        numeric = bool(values) and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values)
        table.add_column(str(c), justify="right" if numeric else "left", no_wrap=True)
    for r in cells:
        table.add_row(*r)
    if Measurement.get(console, console.options.update_width(1 << 20), table).maximum <= console.width:
        console.print(table)
        return
    labels = [" ".join(str(c).split()) for c in columns]
    width = max(map(len, labels))
    lines = [Text(title, style="bold")] if title else []
    lines.append(Text(f"(wider than {console.width} columns: one record a block; --format csv for one "
                      "line a record)", style="dim"))
    for r in cells:
        lines.append(Text(""))
        lines += [Text.assemble((f"{label:>{width}}", "bold"), f"  {value}" if value else "")
                  for label, value in zip(labels, r)]
    for line in lines:
        console.print(line, soft_wrap=True)


def _plain(v):
    """A value JSON and CSV can hold: a float that is not finite becomes the string
    `NaN`, `Infinity` or `-Infinity` (JSON has no such numbers)."""
    if isinstance(v, float) and not math.isfinite(v):
        return "NaN" if v != v else "Infinity" if v > 0 else "-Infinity"
    if v is None or isinstance(v, (int, float, str, bool)):
        return v
    return str(v)


def _date(text: Optional[str], flag: str, end: bool = False) -> Optional[str]:
    """An ISO date from a date or a relative form: `30d`, `4w` (days or weeks back),
    `today`, `yesterday`, `this-month`, `last-month`, `this-year`, `last-year` (for
    --until, a month or year means its last day)."""
    if text is None:
        return None
    import re
    from datetime import date, timedelta
    today = date.today()
    word = text.strip().lower()
    m = re.fullmatch(r"(\d{1,5})([dw])", word)
    if m:
        return (today - timedelta(days=int(m.group(1)) * (7 if m.group(2) == "w" else 1))).isoformat()
    month = today.replace(day=1)
    last_month = (month - timedelta(days=1)).replace(day=1)
    spans = {"today": (today, today), "yesterday": (today - timedelta(days=1),) * 2,
             "this-month": (month, (month + timedelta(days=32)).replace(day=1) - timedelta(days=1)),
             "last-month": (last_month, month - timedelta(days=1)),
             "this-year": (today.replace(month=1, day=1), today.replace(month=12, day=31)),
             "last-year": (today.replace(year=today.year - 1, month=1, day=1),
                           today.replace(year=today.year - 1, month=12, day=31))}
    if word in spans:
        return spans[word][1 if end else 0].isoformat()
    try:
        return date.fromisoformat(text.replace(".", "-")).isoformat()
    except ValueError:
        raise UsageProblem(f"{flag} takes a date like 2026-11-26, or 30d, 4w, today, yesterday, this-month, "
                           f"last-month, this-year, last-year; not `{text}`") from None


SINCE = typer.Option(None, "--since", metavar="DATE",
                     help="from this date: 2026-11-26, or 30d, 4w, today, this-month, last-month, this-year")
UNTIL = typer.Option(None, "--until", metavar="DATE", help="up to this date (the same forms)")
EVENT = typer.Option(None, "--event", metavar="NAME", help="sessions of this [Event] (any case)")
SOURCE = typer.Option(None, "--source", metavar="FILE", help="sessions imported from this file")
SESSION_ID = typer.Option(None, "--session", metavar="ID", help="one session (its id, or its first characters)")


def _scope(since, until, event, source, session):
    from ..store.queries import Scope
    return Scope(_date(since, "--since"), _date(until, "--until", end=True), event, source, session)


RECORD_LABELS = {"hands": "hands dealt in", "played": "hands played", "passed": "hands passed",
                 "chips_paid": "chips paid (bourré, penalties)", "antes_paid": "chips anted",
                 "net": "net (won - paid - anted)", "win_rate": "win rate (pots won / hands played)",
                 "bourre_rate": "bourré rate (bourrés / hands played)",
                 "violations": "play violations", "violations_by_kind": "violations by kind",
                 "recalls": "cards taken back (recalls)", "deals_forfeited": "turns to deal forfeited"}


class GroupBy(str, Enum):
    month = "month"
    event = "event"
    session = "session"
