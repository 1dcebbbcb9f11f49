"""`sql`: a query of the user's own over the store, read-only unless `--write`."""

from __future__ import annotations

import os
import sys
import time

import typer

from .shared import CLEAN, DB, UNREADABLE, USAGE, UsageProblem, WAIT, _err
from .tables import TABLE_FORMAT, TableFmt, _emit, _open, _store


def _closed(con, duckdb) -> bool:
    """Close the connection; a stopped query may keep it busy a moment."""
    for _ in range(40):
        try:
            con.close()
            return True
        except duckdb.Error:
            time.sleep(0.05)
    return False


def sql(query: str = typer.Argument(..., metavar="QUERY", help="the SQL to run"),
        db: str = DB,
        write: bool = typer.Option(False, "--write",
                                   help="let the query change the store and read or write other files, "
                                        "attach databases and load extensions (without it: read the store only)"),
        timeout: float = typer.Option(300, "--timeout", min=0.1, metavar="SECONDS",
                                      help="stop a query that runs longer (read-only queries; inf: never)"),
        memory: int = typer.Option(2048, "--memory", min=64, metavar="MB",
                                   help="the most memory a read-only query may use"),
        fmt: TableFmt = TABLE_FORMAT, wait: float = WAIT):
    """Run SQL on the store (tables: sessions, hands, hand_players, plays, findings, ...)."""
    import math
    import threading

    import duckdb
    if not query.strip(" \t\r\n;"):
        raise UsageProblem("the query is empty: give a SQL statement, like \"SELECT * FROM hands LIMIT 5\"")
    sandbox = None if write else dict(_store().SANDBOX, memory_limit=f"{memory}MB")
    con = _open(db, read_only=not write, sandbox=sandbox, wait=wait)
    # the query runs in a thread of its own: the main thread stays free to stop it at once,
    # on Ctrl-C or at the timeout (DuckDB looks at no signal while it works)
    answer: dict = {}

    def run():
        try:
            cur = con.execute(query)
            answer["columns"] = [d[0] for d in cur.description] if cur is not None and cur.description else []
            answer["rows"] = cur.fetchall() if answer["columns"] else []
        except BaseException as e:  # noqa: BLE001 - handed to the main thread
            answer["error"] = e

    worker = threading.Thread(target=run, daemon=True)
    deadline = None if write or math.isinf(timeout) else time.monotonic() + timeout
    timed_out = False
    try:
        worker.start()
        while worker.is_alive():
            worker.join(0.05)
            if deadline is not None and not timed_out and time.monotonic() > deadline:
                timed_out = True
                con.interrupt()
    except KeyboardInterrupt:
        con.interrupt()
        worker.join(10)
        if not _closed(con, duckdb):  # DuckDB still winding the query down: leave without its clean-up
            _err("interrupted")
            sys.stderr.flush()
            os._exit(130)
        raise
    _closed(con, duckdb)
    e = answer.get("error")
    interrupted = isinstance(e, duckdb.InterruptException) or (
        isinstance(e, RuntimeError) and "interrupt" in str(e).lower())
    if interrupted and timed_out:
        _err(f"the query ran longer than {timeout:g} seconds and was stopped (--timeout sets the limit)")
        return USAGE
    if interrupted:
        raise KeyboardInterrupt
    if isinstance(e, duckdb.OutOfMemoryException):
        _err(f"the query needs more than --memory {memory} MB (a read-only query never spills to disk): "
             f"{str(e).splitlines()[0]}")
        return USAGE
    if isinstance(e, (duckdb.OperationalError, duckdb.InternalError)):  # the store, not the query
        _err(f"{db}: the store cannot answer: {str(e).splitlines()[0]}")
        return UNREADABLE
    if isinstance(e, duckdb.Error):
        why = str(e).splitlines()[0]
        if not write and isinstance(e, duckdb.PermissionException):
            why += " (a query reads the store only; --write lifts this)"
        _err(f"the query failed: {why}")
        return USAGE
    if e is not None:
        raise e
    columns, rows = answer["columns"], answer["rows"]
    _emit(columns, rows, fmt)
    return CLEAN
