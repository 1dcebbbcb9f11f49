"""`sql`: a query of the user's own over the store, read-only unless `--write`."""

from __future__ import annotations


import typer

from .shared import CLEAN, DB, UNREADABLE, USAGE, UsageProblem, WAIT, _err
from .tables import TABLE_FORMAT, TableFmt, _emit, _open, _store


def sql(query: str = typer.Argument(..., metavar="QUERY", help="the SQL to run"),
        db: str = DB,
        write: bool = typer.Option(False, "--write",
                                   help="let the query change the store and read or write other files, "
                                        "attach databases and load extensions (without it: read the store only)"),
        timeout: float = typer.Option(300, "--timeout", min=0.1, metavar="SECONDS",
                                      help="stop a query that runs longer (read-only queries)"),
        memory: int = typer.Option(2048, "--memory", min=64, metavar="MB",
                                   help="the most memory a read-only query may use"),
        fmt: TableFmt = TABLE_FORMAT, wait: float = WAIT):
    """Run SQL on the store (tables: sessions, hands, hand_players, plays, findings, ...)."""
    import threading

    import duckdb
    if not query.strip(" \t\r\n;"):
        raise UsageProblem("the query is empty: give a SQL statement, like \"SELECT * FROM hands LIMIT 5\"")
    sandbox = None if write else dict(_store().SANDBOX, memory_limit=f"{memory}MB")
    con = _open(db, read_only=not write, sandbox=sandbox, wait=wait)
    timed_out = threading.Event()

    def stop():
        timed_out.set()
        con.interrupt()

    timer = None if write else threading.Timer(timeout, stop)
    try:
        if timer:
            timer.start()
        cur = con.execute(query)
        columns = [d[0] for d in cur.description] if cur is not None and cur.description else []
        rows = cur.fetchall() if columns else []
    except (duckdb.OperationalError, duckdb.InternalError) as e:  # the store, not the query
        _err(f"{db}: the store cannot answer: {str(e).splitlines()[0]}")
        return UNREADABLE
    except duckdb.InterruptException:
        if not timed_out.is_set():
            raise KeyboardInterrupt from None  # Ctrl-C
        _err(f"the query ran longer than {timeout:g} seconds and was stopped (--timeout sets the limit)")
        return USAGE
    except duckdb.Error as e:
        why = str(e).splitlines()[0]
        if not write and isinstance(e, duckdb.PermissionException):
            why += " (a query reads the store only; --write lifts this)"
        _err(f"the query failed: {why}")
        return USAGE
    finally:
        if timer:
            timer.cancel()
        con.close()
    _emit(columns, rows, fmt)
    return CLEAN
