"""The command line (CLI.md): a thin skin over the library.

Exit codes: 0 clean · 1 findings · 2 a file could not be read or parsed ·
3 bad usage.  No command prints a Python traceback for bad input.
"""

from __future__ import annotations

import json
import math
import os
import sys
from enum import Enum
from pathlib import Path
from typing import Iterator, List, Optional

import typer
from rich.console import Console

# click's UsageError, whether typer vendors click (recent releases) or uses it.
UsageError = next(c for c in typer.BadParameter.__mro__ if c.__name__ == "UsageError")

from . import notation
from .audit import HandReport, audit
from .cinch import NODES
from .record import SyntaxProblem, printable
from .rules import PROFILES, TOGGLES, Rules, RulesError, profile, resolve

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="Settle Bourré (Booray) arguments: check, replay, store and query hand histories.")

CLEAN, FINDINGS, UNREADABLE, USAGE = 0, 1, 2, 3

def _memory(megabytes: Optional[int]) -> Optional[int]:
    if megabytes is not None:
        from .cinch import set_memory
        set_memory(megabytes)
    return megabytes


CINCH_MEMORY = typer.Option(
    None, "--cinch-memory", min=1, callback=_memory, metavar="MB",
    help="the most memory the cinch search's memos may use, in MB (default about 800); past it "
         "they start afresh, which costs time, never an answer")
CINCH_NODES = typer.Option(
    NODES, "--cinch-nodes", min=0,
    help="the exact cinch search's budget per decision, in positions (the cheaper steps before it "
         "have fixed shares); a decision past it is reported as undecidable (0: no budget, exact "
         "however long it takes)")


class Fmt(str, Enum):
    text = "text"
    json = "json"
    parquet = "parquet"


class UsageProblem(Exception):
    pass


def _console(**kw) -> Console:
    """A console that prints every string as it is: names, events and file names come
    from records and users, and rich markup in them (`[bold]x`) is text, never style.
    Off a terminal, lines are not wrapped."""
    stream = sys.stderr if kw.get("stderr") else sys.stdout
    # not on a terminal: no hard wrapping, so a reason stays on one line for grep
    kw.setdefault("soft_wrap", not stream.isatty())
    return Console(markup=False, highlight=False, **kw)


def _err(message: str) -> None:
    print(f"booray-audit: {message}", file=sys.stderr)


def expand(paths: List[str]) -> Iterator[Optional[str]]:
    """Files as given; folders recursively for *.bhh; `-` for stdin.  A folder with no
    .bhh file is said on stderr and yields None (the caller exits 2)."""
    for p in paths:
        if p != "-" and os.path.isdir(p):
            found = sorted(str(f) for f in Path(p).rglob("*.bhh"))
            if not found:
                _err(f"{printable(p)}: no .bhh files in this folder")
                yield None
            yield from found
        else:
            yield p


def _said(items):
    """Pass the audit stream on, printing each syntax error on stderr as `check` does."""
    for item in items:
        if isinstance(item, SyntaxProblem):
            print(item, file=sys.stderr)
        yield item


def read_items(path: str):
    if path == "-":
        return notation.read(sys.stdin.buffer, "<stdin>")
    return notation.read(path)


def _rules(option: Optional[str]) -> Optional[Rules]:
    if option is None:
        return None
    try:
        return resolve(option)
    except RulesError as e:
        raise UsageProblem(str(e)) from None


def audited(path: str, override: Optional[Rules], jobs: int = 1, progress: bool = False,
            cinch_nodes: int = NODES):
    """The audit stream of one file, with ``jobs`` processes when more than one, and a
    progress bar (hands audited, bytes read) when asked and stderr is a terminal;
    ``cinch_nodes`` is the cinch search's budget per decision (0: none)."""
    if jobs > 1 and path != "-":
        from .parallel import audit_parallel
        items = audit_parallel(path, jobs, override, cinch_nodes)
    else:
        items = audit(read_items(path), override, cinch_nodes)
    # CLI.md §1: on a terminal only, never in json mode (callers pass progress=False)
    if progress and sys.stderr.isatty() and sys.stdout.isatty() and path != "-" and os.path.isfile(path):
        return _with_progress(items, path)
    return items


def _with_progress(items, path: str):
    from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn
    size = os.path.getsize(path) or 1
    lines = 0
    with Progress(TextColumn("{task.description}", markup=False), BarColumn(),
                  TextColumn("{task.fields[hands]} hands", markup=False),
                  TimeRemainingColumn(), console=_console(stderr=True), transient=True) as bar:
        task = bar.add_task(os.path.basename(path), total=size, hands=0)
        hands = 0
        for item in items:
            if isinstance(item, HandReport):
                hands += 1
                if hands % 50 == 0:
                    line = getattr(item.hand, "line", 0)
                    lines = max(lines, line)
                    # bytes are not tracked per hand: estimate from the line reached
                    bar.update(task, completed=min(size, size * lines / max(_line_count(path), 1)),
                               hands=hands)
            yield item


_LINES: dict[str, int] = {}


def _line_count(path: str) -> int:
    if path not in _LINES:
        with open(path, "rb") as f:
            _LINES[path] = sum(block.count(b"\n") for block in iter(lambda: f.read(1 << 20), b""))
    return _LINES[path]


def run_check(paths: List[str], override: Optional[Rules], sink, jobs: int = 1,
              progress: bool = False, cinch_nodes: int = NODES) -> int:
    """Audit the files into ``sink`` (a report with ``add``); return the exit code."""
    code = CLEAN
    for path in expand(paths):
        if path is None:
            code = UNREADABLE
            continue
        if hasattr(sink, "start_file"):
            sink.start_file(printable(path))
        try:
            for item in audited(path, override, jobs, progress, cinch_nodes):
                sink.add(item)
                if isinstance(item, SyntaxProblem):
                    code = UNREADABLE
                elif isinstance(item, HandReport) and item.findings and code == CLEAN:
                    code = FINDINGS
                elif getattr(item, "problems", None):
                    code = UNREADABLE
        except notation.ReadError as e:
            _err(str(e))
            code = UNREADABLE
    return code


@app.command()
def check(files: List[str] = typer.Argument(..., help="files or folders (*.bhh), or - for stdin"),
          rules: Optional[str] = typer.Option(None, "--rules", help="profile name or house FILE.toml for every session"),
          fmt: Fmt = typer.Option(Fmt.text, "--format", help="text for people, json for scripts"),
          quiet: bool = typer.Option(False, "--quiet", help="only findings and the summary"),
          no_color: bool = typer.Option(False, "--no-color"),
          jobs: int = typer.Option(1, "--jobs", min=1, help="audit sessions in this many processes"),
          cinch_nodes: int = CINCH_NODES, cinch_memory: Optional[int] = CINCH_MEMORY,
          out: Optional[str] = typer.Option(None, "--out", help="with --format parquet: the folder to write")):
    """Parse, replay and settle: findings, rulings and the ledger."""
    override = _rules(rules)
    if fmt == Fmt.parquet:
        if not out:
            raise UsageProblem("--format parquet needs --out DIR")
        return _parquet(files, override, out, jobs, cinch_nodes)
    if fmt == Fmt.json:
        from .report import JsonDocument
        doc = JsonDocument()
        code = run_check(files, override, doc, jobs, cinch_nodes=cinch_nodes)
        json.dump(doc.value(), sys.stdout, ensure_ascii=False, indent=1)
        sys.stdout.write("\n")
        return code
    from .report import TextReport
    report = TextReport(_console(no_color=no_color), quiet, _console(no_color=no_color, stderr=True))
    # a full report is its own progress
    code = run_check(files, override, report, jobs, progress=quiet, cinch_nodes=cinch_nodes)
    report.summary()
    return code


def _parquet(files: List[str], override, out: str, jobs: int, cinch_nodes: int) -> int:
    import duckdb
    from .store import export_parquet
    code = CLEAN
    for path in expand(files):
        if path is None:
            code = UNREADABLE
            continue
        try:
            counts = export_parquet(audited(path, override, jobs, cinch_nodes=cinch_nodes), path, out)
        except notation.ReadError as e:
            _err(str(e))
            code = UNREADABLE
            continue
        except (OSError, duckdb.Error) as e:
            _err(f"{out}: cannot write Parquet: {str(e).splitlines()[0]}")
            return UNREADABLE
        if counts["problems"]:
            code = UNREADABLE
        elif counts["findings"] and code == CLEAN:
            code = FINDINGS
    return code


@app.command()
def fmt(file: str = typer.Argument(..., help="a .bhh file, or - for stdin"),
        check_only: bool = typer.Option(False, "--check", help="exit 1 if the file is not canonical")):
    """Print the canonical form (NOTATION.md §6)."""
    from .writer import write
    try:
        if file == "-":
            raw = sys.stdin.buffer.read()
        else:
            with open(file, "rb") as f:
                raw = f.read()
    except OSError as e:
        _err(f"{file}: cannot read: {e.strerror or e}")
        return UNREADABLE
    import io
    sessions, problems = notation.collect(notation.read(io.BytesIO(raw), file))
    for p in problems:
        print(p, file=sys.stderr)
    if problems:
        return UNREADABLE
    text = write(sessions)
    if check_only:
        same = raw.decode("utf-8", "replace").replace("\r\n", "\n") == text
        if not same:
            _err(f"{file}: not in canonical form")
        return CLEAN if same else FINDINGS
    sys.stdout.write(text)
    return CLEAN


@app.command("rules")
def rules_cmd(name: Optional[str] = typer.Argument(None, help="a profile to show")):
    """List the rule profiles, or show one profile's toggles with their meaning."""
    if name is None:
        for key, (what, _) in PROFILES.items():
            print(f"{key:10} {what}")
        return CLEAN
    try:
        r = resolve(name)
    except RulesError as e:
        raise UsageProblem(str(e)) from None
    print(f"profile {r.profile}")
    for key, (field, _, _, meaning) in TOGGLES.items():
        value = getattr(r, field)
        if isinstance(value, bool):
            value = "yes" if value else "no"
        elif key == "max-discard":
            value = ",".join(f"{n}:{m}" for n, m in value if n) or str(value[0][1])
        elif key == "players":
            value = f"{value[0]}-{value[1]}"
        elif value is None:
            value = "none"
        print(f"  {key:28} {str(value):12} {meaning}")
    return CLEAN


@app.command()
def generate(hands: int = typer.Option(..., "--hands", min=1, help="how many hands"),
             players: str = typer.Option("4-6", "--players", help="players per session: N or LO-HI, 2 to 8"),
             seed: int = typer.Option(0, "--seed"),
             violations: float = typer.Option(0.0, "--violations", min=0.0, max=1.0,
                                              help="share of hands with one injected play violation"),
             rules: Optional[str] = typer.Option(None, "--rules", help="profile name or house FILE.toml"),
             out: Optional[str] = typer.Option(None, "--out", help="write here instead of stdout"),
             answers: Optional[str] = typer.Option(None, "--answers",
                                                   help="write the injected violations here, as JSON lines")):
    """Random legal sessions for tests, demos and benchmarks; with a rate, known violations."""
    from .generate import generate as gen
    lo, _, hi = players.partition("-")
    try:
        span = (int(lo), int(hi or lo))
    except ValueError:
        raise UsageProblem(f"--players takes N or LO-HI, not `{players}`") from None
    if not 2 <= span[0] <= span[1] <= 8:
        raise UsageProblem("--players must be between 2 and 8")
    chosen = _rules(rules) or profile("standard")
    try:
        stream = open(out, "w", encoding="utf-8") if out else sys.stdout
    except OSError as e:
        _err(f"{out}: cannot write: {e.strerror or e}")
        return UNREADABLE
    it = gen(hands, players=span, seed=seed, violations=violations, rules=chosen)
    try:
        while True:
            stream.write(next(it) + "\n")
    except StopIteration as stop:
        injected = stop.value
    finally:
        if out:
            stream.close()
    if answers:
        with open(answers, "w", encoding="utf-8") as f:
            for i in injected:
                f.write(json.dumps({"session": i.session, "hand": i.hand, "trick": i.trick,
                                    "player": i.player, "kind": i.kind}) + "\n")
    return CLEAN


@app.command()
def replay(file: str = typer.Argument(..., help="a .bhh file, or - for stdin"),
           hand: int = typer.Option(..., "--hand", help="the hand number"),
           session: int = typer.Option(1, "--session", min=1, help="which session of the file (1 = first)"),
           rules: Optional[str] = typer.Option(None, "--rules"),
           cinch_nodes: int = CINCH_NODES, cinch_memory: Optional[int] = CINCH_MEMORY,
           no_color: bool = typer.Option(False, "--no-color")):
    """One hand trick by trick: each play, what the player was obliged to do and why."""
    from .explain import explain_hand
    override = _rules(rules)
    console = _console(no_color=no_color)
    found = None
    problems = []
    try:
        for item in audit(read_items(file), override, cinch_nodes):
            if isinstance(item, SyntaxProblem):
                problems.append(item)
            elif isinstance(item, HandReport) and item.session == session - 1 and item.replay.number == hand:
                found = item
                break
    except notation.ReadError as e:
        _err(str(e))
        return UNREADABLE
    if found is None:
        for p in problems:
            console.print(str(p))
        _err(f"{file}: no hand {hand} in session {session}" + (" (it may have a syntax error)" if problems else ""))
        return UNREADABLE if problems else USAGE
    explain_hand(found, console)
    return FINDINGS if found.findings else CLEAN


class TableFmt(str, Enum):
    table = "table"
    csv = "csv"
    json = "json"


DEFAULT_DB = "booray.duckdb"


def _store():
    from . import store
    return store


def _open(db: str, read_only: bool):
    store = _store()
    try:
        return store.connect(db, read_only=read_only, create=not read_only)
    except store.StoreError as e:
        _err(str(e))
        raise typer.Exit(UNREADABLE) from None


def _query(db: str, fn, *args):
    """Run a report on the store, read-only; a damaged store is a one-line error (exit 2)."""
    import duckdb
    con = _open(db, read_only=True)
    try:
        return fn(con, *args)
    except duckdb.Error as e:
        _err(f"{db}: the store cannot answer: {str(e).splitlines()[0]}")
        raise typer.Exit(UNREADABLE) from None
    finally:
        con.close()


@app.command("import")
def import_cmd(files: List[str] = typer.Argument(..., help="files or folders (*.bhh), or - for stdin"),
               db: str = typer.Option(DEFAULT_DB, "--db", help="the DuckDB file"),
               rules: Optional[str] = typer.Option(None, "--rules"),
               quiet: bool = typer.Option(False, "--quiet"),
               jobs: int = typer.Option(1, "--jobs", min=1, help="audit sessions in this many processes"),
               cinch_nodes: int = CINCH_NODES, cinch_memory: Optional[int] = CINCH_MEMORY):
    """Check and store into DuckDB; re-importing the same hands changes nothing."""
    import duckdb
    store = _store()
    override = _rules(rules)
    con = _open(db, read_only=False)
    code = CLEAN
    try:
        for path in expand(files):
            if path is None:
                code = UNREADABLE
                continue
            try:
                sha = store.file_sha(path) if path != "-" else ""
                items = _said(audited(path, override, jobs, progress=not quiet, cinch_nodes=cinch_nodes))
                res = store.import_file(con, path, items, sha)
            except notation.ReadError as e:
                _err(str(e))
                code = UNREADABLE
                continue
            except OSError as e:  # reading the file, or staging its rows (a full disk)
                _err(f"{path}: not imported, the database is unchanged: {e.strerror or e}")
                code = UNREADABLE
                continue
            except duckdb.Error as e:  # this file only: the files after it are still imported
                _err(f"{db}: the import of {printable(path)} failed and was rolled back: "
                     f"{str(e).splitlines()[0]}")
                code = UNREADABLE
                continue
            if res.problems:
                code = UNREADABLE
            elif res.findings and code == CLEAN:
                code = FINDINGS
            if not quiet:
                print(f"{res.path}: {res.hands} hands, {res.new} new, {res.duplicates} already stored, "
                      f"{res.findings} findings" + (f", {res.problems} syntax errors" if res.problems else ""))
    finally:
        con.close()
    return code


def _emit(columns, rows, fmt: TableFmt, title: str | None = None):
    if fmt == TableFmt.json:
        json.dump([dict(zip(columns, map(_plain, r))) for r in rows], sys.stdout, ensure_ascii=False, indent=1,
                  allow_nan=False)
        sys.stdout.write("\n")
    elif fmt == TableFmt.csv:
        import csv
        w = csv.writer(sys.stdout, lineterminator="\n")
        w.writerow(columns)
        w.writerows([[_plain(v) for v in r] for r in rows])
    else:
        from rich.table import Table
        table = Table(title=title, header_style="bold")
        for c in columns:
            table.add_column(str(c))
        for r in rows:
            table.add_row(*["" if v is None else str(v) for v in r])
        _console().print(table)


def _plain(v):
    """A value JSON and CSV can hold: a float that is not finite becomes the string
    `NaN`, `Infinity` or `-Infinity` (JSON has no such numbers)."""
    if isinstance(v, float) and not math.isfinite(v):
        return "NaN" if v != v else "Infinity" if v > 0 else "-Infinity"
    if v is None or isinstance(v, (int, float, str, bool)):
        return v
    return str(v)


def _date(text: Optional[str], flag: str) -> Optional[str]:
    if text is None:
        return None
    from datetime import date
    try:
        return date.fromisoformat(text.replace(".", "-")).isoformat()
    except ValueError:
        raise UsageProblem(f"{flag} takes a date like 2026-11-26, not `{text}`") from None


@app.command()
def stats(player: Optional[str] = typer.Option(None, "--player"),
          since: Optional[str] = typer.Option(None, "--since", help="from this date (YYYY-MM-DD)"),
          until: Optional[str] = typer.Option(None, "--until", help="up to this date"),
          db: str = typer.Option(DEFAULT_DB, "--db"),
          fmt: TableFmt = typer.Option(TableFmt.table, "--format")):
    """Personal records: hands, pots won, chips, bourrés, penalties, net, violations."""
    from .queries import stats as query
    since, until = _date(since, "--since"), _date(until, "--until")
    columns, rows = _query(db, query, player, since, until)
    if player and not rows:
        from .queries import players_like
        like = _query(db, players_like, player)
        _err(f"no hands stored for {player}" + (f"; did you mean {' or '.join(like)}?" if like else ""))
        return FINDINGS
    if fmt != TableFmt.table:
        _emit(columns, rows, fmt)
    elif player:  # one player's record, a field a line
        _emit(["", player], [(c.replace("_", " "), v) for c, v in zip(columns, rows[0])], fmt)
    else:
        keep = ("player", "hands", "played", "pots_won", "chips_won", "bourres", "chips_paid", "net",
                "violations")
        idx = [columns.index(c) for c in keep]
        _emit([c.replace("_", " ") for c in keep], [[r[i] for i in idx] for r in rows], fmt, "leaderboard")
    return CLEAN


@app.command()
def ledger(session: Optional[str] = typer.Option(None, "--session", help="a session_id"),
           db: str = typer.Option(DEFAULT_DB, "--db"),
           fmt: TableFmt = typer.Option(TableFmt.table, "--format")):
    """Who owes what, per session and overall; the pot left on the table."""
    from .queries import ledger as query
    rows, pots, overall = _query(db, query, session)
    if session and not rows:
        _err(f"no session {session} in {db}")
        return FINDINGS
    if fmt != TableFmt.table:
        cols = ["session_id", "event", "date", "player", "net", "pot_left"]
        _emit(cols, [r + (pots.get(r[0]),) for r in rows], fmt)
        return CLEAN
    _emit(["session", "event", "date", "player", "net"], rows, fmt, "per session")
    _emit(["session", "pot left on the table"], sorted(pots.items()), fmt)
    _emit(["player", "net overall"], overall, fmt, "overall")
    return CLEAN


@app.command()
def sql(query: str = typer.Argument(..., help="the SQL to run"),
        db: str = typer.Option(DEFAULT_DB, "--db"),
        write: bool = typer.Option(False, "--write", help="allow changes (read-only otherwise)"),
        fmt: TableFmt = typer.Option(TableFmt.table, "--format")):
    """Run SQL on the store."""
    import duckdb
    if not query.strip(" \t\r\n;"):
        raise UsageProblem("the query is empty: give a SQL statement, like \"SELECT * FROM hands LIMIT 5\"")
    con = _open(db, read_only=not write)
    try:
        cur = con.execute(query)
        columns = [d[0] for d in cur.description] if cur is not None and cur.description else []
        rows = cur.fetchall() if columns else []
    except (duckdb.OperationalError, duckdb.InternalError) as e:  # the store, not the query
        _err(f"{db}: the store cannot answer: {str(e).splitlines()[0]}")
        return UNREADABLE
    except duckdb.Error as e:
        _err(f"the query failed: {str(e).splitlines()[0]}")
        return USAGE
    finally:
        con.close()
    _emit(columns, rows, fmt)
    return CLEAN


def main() -> None:
    """Entry point: maps usage errors to exit 3 and keeps tracebacks away from users."""
    try:
        code = app(standalone_mode=False)
    except UsageError as e:
        e.show()
        code = USAGE
    except UsageProblem as e:
        _err(str(e))
        code = USAGE
    except typer.Exit as e:
        code = e.exit_code
    except typer.Abort:
        _err("interrupted")
        code = 130
    except KeyboardInterrupt:
        _err("interrupted")
        code = 130
    except BrokenPipeError:
        code = 0
    sys.exit(code if isinstance(code, int) else 0)


if __name__ == "__main__":
    main()
