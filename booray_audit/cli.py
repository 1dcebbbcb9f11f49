"""The command line (CLI.md): a thin skin over the library.

Exit codes: 0 clean · 1 findings · 2 a file could not be read or parsed ·
3 bad usage.  No command prints a Python traceback for bad input.
"""

from __future__ import annotations

import json
import math
import os
import sys
import time
from enum import Enum
from pathlib import Path
from typing import Iterator, List, Optional

import typer

# click's UsageError, whether typer vendors click (recent releases) or uses it.
UsageError = next(c for c in typer.BadParameter.__mro__ if c.__name__ == "UsageError")

from . import notation
from .audit import HandReport, audit
from .cinch import NODES
from .record import SyntaxProblem, Trick, printable
from .rules import PROFILES, TOGGLES, Rules, RulesError, profile, resolve, with_toggle

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="Settle Bourré (Booray) arguments: check, replay, store and query hand histories. "
                       "New here? `booray-audit new` prints a commented hand to start from.")


def _plain_help_types() -> None:
    """Help shows a flag without a type and a value by its metavar (FILE, N), not as
    `<bool>` or `<list[str]>`.  Recent typer releases show those; a release without
    the hook is left as it is."""
    try:
        from typer.core import TyperArgument, TyperOption
    except ImportError:  # pragma: no cover
        return

    def shown(param, ctx):
        if getattr(param, "is_flag", False) or isinstance(param, TyperArgument):
            return None  # an argument's metavar is its name, shown already
        return param.metavar

    for cls in (TyperOption, TyperArgument):
        if hasattr(cls, "display_type_rich"):
            cls.display_type_rich = shown


_plain_help_types()

CLEAN, FINDINGS, UNREADABLE, USAGE, DIFFERS = 0, 1, 2, 3, 4


def _version(value: bool) -> None:
    if value:
        from . import __version__
        from .cinch import SOLVER
        print(f"booray-audit {__version__} (cinch search: {SOLVER})")
        raise typer.Exit(CLEAN)


@app.callback()
def _main(version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                       help="print the version and the cinch search in use, and exit")):
    pass

def _memory(megabytes: Optional[int]) -> Optional[int]:
    if megabytes is not None:
        from .cinch import set_memory
        set_memory(megabytes)
    return megabytes


FILES = typer.Argument(..., metavar="FILE", help="files or folders (every *.bhh inside), or - for stdin")
WAIT = typer.Option(30.0, "--wait", min=0.0, metavar="SECONDS",
                    help="how long to wait for the database while another process holds it")
RULES = typer.Option(None, "--rules", metavar="NAME|FILE.toml",
                     help="judge every session under this profile or house file (its own Rule tags still apply)")
JOBS = typer.Option(1, "--jobs", min=1, metavar="N", help="replay hands in N processes (same output)")
DB = typer.Option("booray.duckdb", "--db", metavar="PATH", help="the database file")
NO_COLOR = typer.Option(False, "--no-color", help="no colours")
ASCII = typer.Option(False, "--ascii", help="suits as letters (s h d c) even where symbols show")
QUIET = typer.Option(False, "--quiet", help="only session headers, hands with something to report, and the summary")

CINCH_MEMORY = typer.Option(
    None, "--cinch-memory", min=1, callback=_memory, metavar="MB",
    help="the most memory the cinch search's memos may use, in MB (default about 256 for the "
         "compiled search, 800 for the Python one); past it they start afresh, which costs time, "
         "never an answer")
CINCH_NODES = typer.Option(
    NODES, "--cinch-nodes", min=0, metavar="N",
    help="the exact cinch search's budget per decision, in positions (default 200,000 for the "
         "compiled search, 3,000 for the Python one; the cheaper steps before it have fixed "
         "shares); a decision past it is reported as undecidable (0: no budget, exact however "
         "long it takes)")


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
    from rich.console import Console  # imported only where text is printed (not for JSON)
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
            cinch_nodes: int = NODES, known=None):
    """The audit stream of one file, with ``jobs`` processes when more than one, and a
    progress bar (hands audited, bytes read) when asked and stderr is a terminal;
    ``cinch_nodes`` is the cinch search's budget per decision (0: none); ``known`` filters
    the reader's stream (the store's hands audited before)."""
    if jobs > 1 and path != "-":
        from .parallel import audit_parallel
        items = audit_parallel(path, jobs, override, cinch_nodes, known)
    else:
        items = read_items(path)
        items = audit(known(items) if known else items, override, cinch_nodes)
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
def check(files: List[str] = FILES, rules: Optional[str] = RULES,
          fmt: Fmt = typer.Option(Fmt.text, "--format", metavar="text|json|parquet",
                                  help="text for people, json for scripts, parquet (with --out) for big logs"),
          quiet: bool = QUIET, no_color: bool = NO_COLOR, ascii: bool = ASCII, jobs: int = JOBS,
          cinch_nodes: int = CINCH_NODES, cinch_memory: Optional[int] = CINCH_MEMORY,
          out: Optional[str] = typer.Option(None, "--out", metavar="DIR",
                                            help="with --format parquet: the folder to write")):
    """Check hands: findings, rulings on disputes, settlement and the ledger."""
    override = _rules(rules)
    if fmt == Fmt.parquet and not out:
        raise UsageProblem("--format parquet needs --out DIR")
    if out and fmt != Fmt.parquet:
        raise UsageProblem("--out DIR is for --format parquet; text and json go to stdout")
    if fmt == Fmt.parquet:
        return _parquet(files, override, out, jobs, cinch_nodes)
    if fmt == Fmt.json:
        from .report import JsonStream
        doc = JsonStream(sys.stdout)
        code = run_check(files, override, doc, jobs, cinch_nodes=cinch_nodes)
        doc.close()
        return code
    from .text_report import TextReport
    console = _console(no_color=no_color)
    report = TextReport(console, quiet, _console(no_color=no_color, stderr=True), symbols=_symbols(console, ascii),
                        files=len(files) > 1 or any(os.path.isdir(f) for f in files))
    # a full report is its own progress
    code = run_check(files, override, report, jobs, progress=quiet, cinch_nodes=cinch_nodes)
    report.summary()
    return code


def _symbols(console: Console, ascii: bool) -> bool:
    """Suit symbols on a terminal that can show them, letters otherwise or when asked."""
    encoding = (getattr(console.file, "encoding", None) or "").lower().replace("-", "")
    return not ascii and console.is_terminal and encoding in ("utf8", "utf16", "utf32")


def _parquet(files: List[str], override, out: str, jobs: int, cinch_nodes: int) -> int:
    import duckdb
    from .load import export_parquet
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
        except _store().StoreError as e:  # a partition that holds another file
            _err(str(e))
            code = UNREADABLE
            continue
        if counts["problems"]:
            code = UNREADABLE
        elif counts["findings"] and code == CLEAN:
            code = FINDINGS
    return code


@app.command()
def fmt(file: str = typer.Argument(..., metavar="FILE", help="a .bhh file, or - for stdin"),
        check_only: bool = typer.Option(False, "--check",
                                        help="print nothing but the differences; exit 1 if there are any")):
    """Print a file in the tidy form: numbered hands and tricks, `Ts` for tens, comments kept."""
    from .writer import Comments, write
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
    original = raw.decode("utf-8", "replace").replace("\r\n", "\n")
    text = write(sessions, Comments(original))
    hands = _read_otherwise(raw, file, sessions, text)
    if hands:
        _err(f"{printable(file)}: {'hands' if len(hands) > 1 else 'hand'} {', '.join(map(str, hands))}: `check` "
             "reads the tidy form otherwise than the file (it writes out trick numbers, or the players of "
             "seat-order tricks, that the record only implies); check the file as written")
    if check_only:
        if original == text:
            return CLEAN
        import difflib
        sys.stdout.writelines(difflib.unified_diff(original.splitlines(keepends=True), text.splitlines(keepends=True),
                                                   printable(file), f"{printable(file)} (tidy)"))
        _err(f"{printable(file)}: not in the tidy form (the differences are above; `booray-audit fmt` prints it)")
        return FINDINGS
    sys.stdout.write(text)
    return CLEAN


def _read_otherwise(raw: bytes, file: str, sessions, tidy: str) -> list[int]:
    """The hands whose findings or undecidable checks differ between the file and its tidy
    form.  The tidy form writes every trick numbered and with its players' names, where the
    record may only imply them (an unnumbered trick, a seat-order one); `check` reads what is
    written out as given, and what is implied with care.  Asked only of a file with such a
    trick (a log written out in full reads the same)."""
    if all(t.written and not t.by_seat for s in sessions for h in s.hands for t in h.events if isinstance(t, Trick)):
        return []
    import io

    def verdicts(data: bytes) -> dict:
        return {(item.session, item.hand.number): (
            sorted((f.kind, f.trick or 0, f.player or "") for f in item.findings),
            sorted((u.kind, u.trick or 0, u.player or "") for u in item.replay.undecidable))
            for item in audit(notation.read(io.BytesIO(data), file)) if isinstance(item, HandReport)}
    before, after = verdicts(raw), verdicts(tidy.encode("utf-8"))
    return sorted({number for (session, number), got in before.items() if after.get((session, number)) != got})


@app.command()
def new():
    """Print a commented hand to start a record from (copy it into a .bhh file)."""
    from .template import TEMPLATE
    sys.stdout.write(TEMPLATE)
    return CLEAN


@app.command("rules")
def rules_cmd(name: Optional[str] = typer.Argument(None, metavar="[NAME|FILE.toml]",
                                                   help="a profile or house file to show")):
    """List the rule profiles, or show one profile's house rules with their meaning."""
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
def generate(hands: int = typer.Option(..., "--hands", min=1, metavar="N", help="how many hands"),
             players: str = typer.Option("4-6", "--players", metavar="N|LO-HI",
                                         help="players per session, 2 to 8"),
             seed: int = typer.Option(0, "--seed", metavar="N", help="the same seed gives the same file"),
             violations: float = typer.Option(0.0, "--violations", min=0.0, max=1.0, metavar="RATE",
                                              help="share of hands with one injected play violation"),
             rules: Optional[str] = typer.Option(None, "--rules", metavar="NAME|FILE.toml",
                                                 help="the rules to play by (default: standard with a pot "
                                                      "limit of 25)"),
             out: Optional[str] = typer.Option(None, "--out", metavar="FILE", help="write here instead of stdout"),
             answers: Optional[str] = typer.Option(None, "--answers", metavar="FILE",
                                                   help="write the injected violations here, as JSON lines")):
    """Random legal sessions for tests, demos and benchmarks; with a rate, known violations."""
    from .generate import generate as gen
    lo, _, hi = players.partition("-")
    try:
        span = (int(lo), int(hi or lo))
    except ValueError:
        raise UsageProblem(f"--players takes N or LO-HI, like 4 or 2-8, not `{players}`") from None
    if span[0] > span[1]:
        raise UsageProblem(f"--players {players}: the range is reversed; write {span[1]}-{span[0]}")
    if not 2 <= span[0] <= span[1] <= 8:
        raise UsageProblem(f"--players {players}: a table has 2 to 8 players")
    # a pot limit by default: without one, pots double for ever and demo records are unreadable
    chosen = _rules(rules) or with_toggle(profile("standard"), "limit", "25")
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
                f.write(json.dumps({"session": i.session + 1, "hand": i.hand, "trick": i.trick,
                                    "player": i.player, "kind": i.kind}) + "\n")
    return CLEAN


@app.command()
def replay(file: Optional[str] = typer.Argument(None, metavar="FILE", help="a .bhh file, or - for stdin"),
           hand: Optional[int] = typer.Option(None, "--hand", metavar="N", help="the hand number"),
           session: int = typer.Option(1, "--session", min=1, metavar="N",
                                       help="which session of the file (1 = the first)"),
           hand_id: Optional[str] = typer.Option(None, "--id", metavar="HAND_ID",
                                                 help="instead of FILE and --hand: a stored hand, by its id "
                                                      "(as sql shows it, or its first characters)"),
           db: str = DB, wait: float = WAIT,
           rules: Optional[str] = RULES,
           cinch_nodes: int = CINCH_NODES, cinch_memory: Optional[int] = CINCH_MEMORY,
           no_color: bool = NO_COLOR):
    """One hand trick by trick: each play, what the player was obliged to do and why."""
    from .explain import explain_hand
    override = _rules(rules)
    console = _console(no_color=no_color)
    if hand_id is not None:
        if file is not None or hand is not None:
            raise UsageProblem("give either --id HAND_ID or FILE --hand N, not both")
        items, session, hand, file = _stored_hand(db, hand_id, wait)
    elif file is None or hand is None:
        raise UsageProblem("give FILE --hand N (a hand of a file), or --id HAND_ID (a stored hand)")
    else:
        items = read_items(file)
    found = None
    problems = []
    try:
        for item in audit(items, override, cinch_nodes, explain=True):
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


def _stored_hand(db: str, hand_id: str, wait: float):
    """(the reader's stream, session, hand number, where) for a stored hand: its session's
    tags, the hands before it as audited before (not replayed: the pot chain takes their
    stored state), then the hand."""
    import io
    import json

    from .audit import Resume
    from .queries import session_hands
    from .record import Hand
    found = _query(db, session_hands, hand_id, wait=wait)
    if found is None:
        raise UsageProblem(f"no stored hand has the id {hand_id} (or more than one starts so); "
                           "`booray-audit sql \"SELECT hand_id, number FROM hands\"` lists them")
    tags, hands, number = found
    where = f"hand {hand_id}"
    text = tags + "\n\n" + "\n\n".join(t for t, _ in hands) + "\n"
    states = iter([json.loads(s) if s else None for _, s in hands[:-1]])

    def items():
        for it in notation.read(io.BytesIO(text.encode("utf-8")), where):
            state = next(states, None) if isinstance(it, Hand) else None
            yield it if state is None else Resume(it, state, "")

    return items(), 1, number, where


class TableFmt(str, Enum):
    text = "text"
    table = "table"  # the same as text (the name older scripts use)
    csv = "csv"
    json = "json"

TABLE_FORMAT = typer.Option(TableFmt.text, "--format", metavar="text|csv|json",
                            help="a table for people, csv or json for scripts")



def _store():
    from . import store
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


@app.command("import")
def import_cmd(files: List[str] = FILES, db: str = DB, rules: Optional[str] = RULES,
               quiet: bool = typer.Option(False, "--quiet", help="only errors and the hands not stored"),
               jobs: int = JOBS, cinch_nodes: int = CINCH_NODES, cinch_memory: Optional[int] = CINCH_MEMORY,
               wait: float = WAIT,
               again: bool = typer.Option(False, "--again",
                                          help="audit again what was imported before (still storing no "
                                               "hand twice)"),
               replace: bool = typer.Option(False, "--replace",
                                            help="a session stored before that the file now tells otherwise "
                                                 "(an edited hand or tag, other --rules or --cinch-nodes): "
                                                 "replace it"),
               watch: bool = typer.Option(False, "--watch",
                                          help="keep going: import each new or changed .bhh file in the "
                                               "folders given once it has stopped growing (Ctrl-C stops)"),
               interval: float = typer.Option(10.0, "--interval", min=0.1, metavar="SECONDS",
                                              help="with --watch: how often to look")):
    """Check and store into DuckDB; re-importing the same hands changes nothing.

    Hands stored before are not audited again: a file imported before is skipped, a log
    that grew adds its new hands to its session.  A session the file now tells otherwise
    (an edited hand or tag) is reported hand by hand and changes nothing (exit 4) unless
    --replace.  The database is held only while one file's rows are loaded (one
    transaction), so stats, ledger and sql answer during a long import; --watch imports
    new files as they appear, and `import logs/` from cron imports each new file once."""
    from .load import settings_of
    store = _store()
    override = _rules(rules)
    if watch and ("-" in files or not all(os.path.isdir(f) for f in files)):
        raise UsageProblem("--watch takes folders to watch")
    settings = settings_of(_rules_name(rules, override), cinch_nodes)
    con = _open(db, read_only=False, wait=wait)  # created, and usable, before any audit
    try:
        seen = store.imported_shas(con, settings)
    finally:
        con.close()
    job = dict(db=db, override=override, quiet=quiet, jobs=jobs, cinch_nodes=cinch_nodes, wait=wait,
               again=again, replace=replace, seen=seen, settings=settings)
    if not watch:
        return _import_files(expand(files), **job)
    done: dict[str, tuple] = {}  # path -> (size, mtime) when imported
    last: dict[str, tuple] = {}  # path -> (size, mtime) at the previous look
    while True:  # ends with Ctrl-C (exit 130)
        ready = []
        for folder in files:
            for path in sorted(str(f) for f in Path(folder).rglob("*.bhh")):
                try:
                    st = os.stat(path)
                except OSError:
                    continue
                now = (st.st_size, st.st_mtime_ns)
                if done.get(path) != now and last.get(path) == now:  # new or changed, and settled
                    ready.append(path)
                    done[path] = now
                last[path] = now
        if ready:
            _import_files(iter(ready), **job)
        time.sleep(interval)


def _rules_name(option: Optional[str], override: Optional[Rules]) -> Optional[str]:
    """``--rules`` as the store remembers it: the profile, and a digest of a house-rules file."""
    if override is None:
        return None
    import hashlib
    return f"{override.profile} ({hashlib.sha256(repr(override).encode()).hexdigest()[:8]})"


def _import_files(paths, db, override, quiet, jobs, cinch_nodes, wait, again, replace, seen: set,
                  settings: str) -> int:
    import duckdb
    from .load import Chains, Known, import_file
    from .text_report import count
    store = _store()
    code = CLEAN

    def con():
        return store.connect_waiting(db, wait=wait)

    def reader():
        return store.connect_waiting(db, read_only=True, wait=wait)

    for path in paths:
        if path is None:
            code = UNREADABLE
            continue
        try:
            sha = store.file_sha(path) if path != "-" else ""
            if sha and sha in seen and not again and not replace:
                if not quiet:
                    print(f"{printable(path)}: imported before (the same content): skipped")
                continue
            chains = Chains()
            known = None if again else Known(reader, settings, chains)
            items = _said(audited(path, override, jobs, progress=not quiet, cinch_nodes=cinch_nodes,
                                  known=known))
            res = import_file(con, path, items, sha, settings, replace, chains)
        except notation.ReadError as e:
            _err(str(e))
            code = UNREADABLE
            continue
        except store.StoreError as e:  # the store stayed busy (or broke) while this file waited
            _err(f"{printable(path)}: not imported: {e}")
            code = UNREADABLE
            continue
        except OSError as e:  # reading the file, or staging its rows (a full disk)
            _err(f"{path}: not imported, the database is unchanged: {e.strerror or e}")
            code = UNREADABLE
            continue
        except duckdb.InterruptException:  # Ctrl-C while DuckDB worked (it turns SIGINT into this)
            raise KeyboardInterrupt from None
        except duckdb.Error as e:  # this file only: the files after it are still imported
            _err(f"{db}: the import of {printable(path)} failed and was rolled back: "
                 f"{str(e).splitlines()[0]}")
            code = UNREADABLE
            continue
        if res.refused:
            for e in res.edits:
                _err(f"{res.path}: {e}")
            _err(f"{res.path}: not imported, the database is unchanged (--replace replaces "
                 f"{'that session' if len(res.edits) == 1 else 'those sessions'})")
            code = max(code, DIFFERS) if code != UNREADABLE else code
            continue
        if sha:
            seen.add(sha)
        if res.problems:
            code = UNREADABLE
        elif res.findings and code == CLEAN:
            code = FINDINGS
        if not quiet:
            for e in res.edits:
                print(f"{res.path}: session {e.ordinal} replaced the stored session {e.session_id} "
                      f"({e.changes()})")
            print(f"{res.path}: {count(res.hands, 'hand')}, {res.new:,} new, {res.unchanged:,} already stored, "
                  + (f"{res.replaced:,} replaced, " if res.edits else "")
                  + f"{count(res.findings, 'finding')}"
                  + (f", {count(res.problems, 'syntax error')}" if res.problems else ""))
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
        from rich import box
        from rich.table import Table
        table = Table(title=title, header_style="bold", box=box.SIMPLE_HEAD, title_justify="left",
                      show_edge=False, pad_edge=False, collapse_padding=True)
        cells = [["" if v is None else str(v) for v in r] for r in rows]
        for i, c in enumerate(columns):
            values = [r[i] for r in rows if r[i] is not None]
            numeric = bool(values) and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values)
            widest = max([len(cell[i]) for cell in cells] + [max(map(len, str(c).split("\n")))])
            # numbers, ids and names are never cut: only long free text (an event's name) folds
            whole = numeric or widest <= 24
            table.add_column(str(c), justify="right" if numeric else "left", no_wrap=whole,
                             min_width=widest if whole else 16, overflow="fold")
        for r in cells:
            table.add_row(*r)
        _console().print(table)


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
    from .queries import Scope
    return Scope(_date(since, "--since"), _date(until, "--until", end=True), event, source, session)


RECORD_LABELS = {"hands": "hands dealt in", "played": "hands played", "passed": "hands passed",
                 "chips_paid": "chips paid (bourré, penalties)", "antes_paid": "chips anted",
                 "net": "net (won - paid - anted)", "win_rate": "win rate (pots won / hands played)",
                 "bourre_rate": "bourré rate (bourrés / hands played)"}


class GroupBy(str, Enum):
    month = "month"
    event = "event"
    session = "session"


@app.command()
def stats(player: Optional[str] = typer.Option(None, "--player", metavar="NAME",
                                              help="one player's record (a name or an alias)"),
          since: Optional[str] = SINCE, until: Optional[str] = UNTIL, event: Optional[str] = EVENT,
          source: Optional[str] = SOURCE, session: Optional[str] = SESSION_ID,
          by: Optional[GroupBy] = typer.Option(None, "--by", metavar="month|event|session",
                                               help="a record per month, event or session"),
          sort: str = typer.Option("net", "--sort", metavar="COLUMN",
                                   help="order by this column, largest first: net, hands, pots_won, "
                                        "bourres, win_rate, violations, ... (player: by name)"),
          db: str = DB, fmt: TableFmt = TABLE_FORMAT, wait: float = WAIT):
    """Personal records: hands, pots won, chips, bourrés, penalties, net, violations."""
    from .queries import RECORD_COLUMNS
    from .queries import stats as query
    if sort not in RECORD_COLUMNS:
        raise UsageProblem(f"--sort takes one of {', '.join(RECORD_COLUMNS)}; not `{sort}`")
    scope = _scope(since, until, event, source, session)
    columns, rows = _query(db, query, player, scope, by.value if by else None, sort, wait=wait)
    if player and not rows:
        from .queries import players_like
        like = _query(db, players_like, player, wait=wait)
        _err(f"no hands stored for {player}" + (" in that scope" if scope != type(scope)() else "")
             + (f"; did you mean {' or '.join(like)}?" if like else ""))
        return USAGE
    if fmt not in (TableFmt.text, TableFmt.table):
        _emit(columns, rows, fmt)
    elif player and not by:  # one player's record, a field a line
        _emit(["", rows[0][0]], [(RECORD_LABELS.get(c, c.replace("_", " ")), v) for c, v in zip(columns, rows[0])],
              fmt)
    else:
        keep = ([by.value] if by else []) + ["player", "hands", "played", "pots_won", "bourres", "chips_won",
                                             "chips_paid", "antes_paid", "net", "violations"]
        if sort not in keep:
            keep.append(sort)
        idx = [columns.index(c) for c in keep]
        _emit([c.replace("_", "\n") for c in keep], [[r[i] for i in idx] for r in rows], fmt,
              f"by {by.value}" if by else "leaderboard")
    return CLEAN


@app.command()
def ledger(session: Optional[str] = typer.Option(None, "--session", metavar="ID",
                                                help="one session (its id as the ledger shows it)"),
           settle: bool = typer.Option(False, "--settle",
                                       help="who pays whom: the fewest payments that square each session"),
           since: Optional[str] = SINCE, until: Optional[str] = UNTIL, event: Optional[str] = EVENT,
           source: Optional[str] = SOURCE,
           db: str = DB, fmt: TableFmt = TABLE_FORMAT, wait: float = WAIT):
    """Who owes what, per session and overall; the pot left on the table."""
    from .queries import ledger as query
    scope = _scope(since, until, event, source, None)
    rows, pots, overall = _query(db, query, session, scope, wait=wait)
    if session and not rows:
        _err(f"no session {session} in {db}" + (" in that scope" if scope != type(scope)() else ""))
        return USAGE
    if settle:
        return _settle_up(rows, fmt)
    if fmt not in (TableFmt.text, TableFmt.table):
        cols = ["session_id", "event", "date", "player", "net", "pot_left"]
        _emit(cols, [r + (pots.get(r[0]),) for r in rows], fmt)
        return CLEAN
    _emit(["session", "event", "date", "player", "net"], rows, fmt, "per session")
    _emit(["session", "pot left on the table"], sorted(pots.items()), fmt)
    _emit(["player", "net overall"], overall, fmt, "overall")
    return CLEAN


@app.command()
def alias(player: Optional[str] = typer.Argument(None, metavar="PLAYER", help="the name to keep"),
          names: Optional[List[str]] = typer.Argument(None, metavar="ALIAS...",
                                                      help="other names the same player was written as"),
          remove: bool = typer.Option(False, "--remove", help="forget the names given (all of them aliases)"),
          db: str = DB, fmt: TableFmt = TABLE_FORMAT, wait: float = WAIT):
    """Other names a player goes by: `alias Judy judy "J. Boudreaux"` counts them all as Judy
    in stats, ledger and the store's views.  With no names, lists the aliases."""
    from . import queries
    if player is None:
        rows = _query(db, queries.aliases, wait=wait)
        _emit(["player", "alias"], rows, fmt, "aliases")
        return CLEAN
    con = _open(db, read_only=False, wait=wait)
    try:
        if remove:
            unknown = queries.remove_aliases(con, [player] + list(names or []))
            for n in unknown:
                _err(f"{n} is not an alias")
            return USAGE if unknown else CLEAN
        if not names:
            raise UsageProblem("give the name to keep and at least one alias: alias Judy judy \"J. Boudreaux\"")
        problems = queries.set_aliases(con, player, list(names))
    finally:
        con.close()
    for p in problems:
        _err(p)
    return USAGE if problems else CLEAN


@app.command()
def find(player: Optional[str] = typer.Option(None, "--player", metavar="NAME",
                                             help="hands this player was dealt in (a name or an alias)"),
         kind: Optional[str] = typer.Option(None, "--kind", metavar="KIND",
                                            help="hands with this finding: renege, failed-beat, wrong-pot, ..."),
         min_pot: Optional[int] = typer.Option(None, "--min-pot", metavar="CHIPS", help="pots of at least this"),
         disputed: bool = typer.Option(False, "--disputed", help="hands with a Dispute line"),
         since: Optional[str] = SINCE, until: Optional[str] = UNTIL, event: Optional[str] = EVENT,
         source: Optional[str] = SOURCE, session: Optional[str] = SESSION_ID,
         split: Optional[str] = typer.Option(None, "--split", metavar="FOLDER",
                                             help="a file per session in this folder, instead of one stream"),
         db: str = DB, wait: float = WAIT):
    """Pick stored hands out as BHH (each under its session's tags), to share, check again
    or keep: the disputed hands, a player's reneges, one session of a long log, ...

    Every hand comes out once (the store holds no hand twice) and in the tidy form."""
    from .queries import find as query
    from .replay import FINDING_KINDS
    if kind is not None and kind not in FINDING_KINDS:
        from .record import closest
        like = closest(kind, list(FINDING_KINDS))
        raise UsageProblem(f"no finding is called `{kind}`" + (f"; did you mean {' or '.join(like)}?" if like
                                                                 else f" (they are: {', '.join(FINDING_KINDS)})"))
    scope = _scope(since, until, event, source, session)
    import duckdb
    con = _open(db, read_only=True, wait=wait)
    hands = sessions = 0
    out = None
    current = None
    try:
        if split:
            os.makedirs(split, exist_ok=True)
        for session_id, date, event_name, tags, text in query(con, scope, player, kind, min_pot, disputed):
            if session_id != current:
                current = session_id
                sessions += 1
                if split:
                    if out is not None:
                        out.close()
                    out = open(os.path.join(split, _session_file(session_id, date, event_name)), "w",
                               encoding="utf-8")
                    out.write(tags + "\n")
                else:
                    sys.stdout.write(("\n" if sessions > 1 else "") + tags + "\n")
            (out or sys.stdout).write("\n" + text + "\n")
            hands += 1
    except duckdb.InterruptException:
        raise KeyboardInterrupt from None
    except duckdb.Error as e:
        _err(f"{db}: the store cannot answer: {str(e).splitlines()[0]}")
        return UNREADABLE
    except BrokenPipeError:
        raise  # the reader stopped (`| head`): not an error
    except OSError as e:
        _err(f"{split or 'stdout'}: cannot write: {e.strerror or e}")
        return UNREADABLE
    finally:
        if out is not None:
            out.close()
        con.close()
    from .text_report import count
    where = f" into {split}" if split else ""
    _err(f"{count(hands, 'hand')} of {count(sessions, 'session')} written{where}" if hands
         else "no stored hand matches")
    return CLEAN


def _session_file(session_id: str, date, event) -> str:
    import re
    name = re.sub(r"[^A-Za-z0-9]+", "-", event or "session").strip("-").lower()[:40] or "session"
    return f"{date or 'undated'}-{name}-{session_id[:8]}.bhh"


def _settle_up(rows, fmt: TableFmt) -> int:
    """Per session, the fewest payments that square every net; the chips the players lost
    into the pot left on the table are paid to "(the pot)"."""
    from .settle import POT, transfers
    sessions: dict = {}
    for session_id, event, date, player, net in rows:
        sessions.setdefault((session_id, event, date), {})[player] = int(net)
    out = []
    for (session_id, event, date), nets in sessions.items():
        nets[POT] = -sum(nets.values())  # the pot's change squares the players' nets
        for payer, payee, chips in transfers(nets):
            out.append((session_id, event, date, payer, payee, chips))
    if fmt in (TableFmt.text, TableFmt.table):
        _emit(["session", "event", "date", "pays", "to", "chips"], out, fmt, "who pays whom")
    else:
        _emit(["session_id", "event", "date", "payer", "payee", "chips"], out, fmt)
    return CLEAN


@app.command()
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
