"""What every command shares: the app, its options, reading and auditing files, exit codes.

Exit codes: 0 clean · 1 findings · 2 a file could not be read or parsed ·
3 bad usage.  No command prints a Python traceback for bad input.
"""

from __future__ import annotations

import os
import sys
from enum import Enum
from pathlib import Path
from typing import Iterator, List, Optional

import typer

# click's UsageError, whether typer vendors click (recent releases) or uses it.
UsageError = next(c for c in typer.BadParameter.__mro__ if c.__name__ == "UsageError")

from ..notation import reader as notation
from ..judge.audit import HandReport, SessionStart, audit
from ..cinch.compiled import NODES
from ..record import SyntaxProblem, printable, shown
from ..rules.profiles import Rules, RulesError, resolve

app = typer.Typer(add_completion=True, no_args_is_help=True,
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
    try:  # typer 0.28 shows an argument's type as `<str>` when the type names no metavar
        from typer._click.types import ParamType
    except ImportError:  # pragma: no cover
        return
    named = ParamType.get_metavar

    def get_metavar(self, param, ctx):
        got = named(self, param, ctx)
        return "" if got is None and isinstance(param, TyperArgument) else got

    ParamType.get_metavar = get_metavar


_plain_help_types()

CLEAN, FINDINGS, UNREADABLE, USAGE, DIFFERS = 0, 1, 2, 3, 4


def _version(value: bool) -> None:
    if value:
        from .. import __version__
        from ..cinch.compiled import SOLVER
        from ..judge.audit import PLAIN_SETTLE
        from ..notation.strict import COMPILED
        from ..report.document import PLAIN_JSON
        built = ["pure Python", "compiled"]
        print(f"booray-audit {__version__} (cinch search: {SOLVER}; reader: {built[COMPILED is not None]}; "
              f"settlement: {built[PLAIN_SETTLE is not None]}; JSON: {built[PLAIN_JSON is not None]})")
        raise typer.Exit(CLEAN)


@app.callback()
def _main(version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                       help="print the version and the cinch search in use, and exit")):
    pass

def _memory(megabytes: Optional[int]) -> Optional[int]:
    if megabytes is not None:
        from ..cinch.judge import set_memory
        set_memory(megabytes)
    return megabytes


FILES = typer.Argument(..., metavar="FILE", help="files (.bhh; .jsonl BHH-JSON; .json a mondaynightpoker game log) "
                       "or folders (every *.bhh and *.jsonl inside), or - for stdin")
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
    None, "--cinch-memory", min=1, max=10_000_000, callback=_memory, metavar="MB",
    help="the most memory the cinch search's memos may use, in MB (default about 85 for the "
         "compiled search, 800 for the Python one); past it they start afresh, which costs time "
         "(and within the budget can leave a play undecidable), never a wrong answer")
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
    return _safe_console_class()(markup=False, highlight=False, **kw)


def _safe_console_class():
    """A rich Console that escapes control characters in the text it is given (a record's
    names and tags, file names: ``record.shown``), and only there: its own styling stays."""
    from rich.console import Console

    class SafeConsole(Console):
        def _render_buffer(self, buffer):
            return super()._render_buffer(
                seg if seg.control or seg.text.isprintable() else seg._replace(text=shown(seg.text))
                for seg in buffer)
    return SafeConsole


def to_stdout(text: str) -> str:
    """Data (BHH text) on its way to stdout: as it is for a file or a pipe; with its control
    characters escaped (``record.shown``) when a person's terminal shows it."""
    return shown(text) if sys.stdout.isatty() else text


def _err(message: str) -> None:
    print(shown(f"booray-audit: {message}"), file=sys.stderr)


def expand(paths: List[str]) -> Iterator[Optional[str]]:
    """Files as given; folders recursively for *.bhh and *.jsonl (BHH-JSON); `-` for
    stdin.  A folder with no such file is said on stderr and yields None (the caller exits 2)."""
    for p in paths:
        if p != "-" and os.path.isdir(p):
            skipped: list[str] = []
            found = records_in(p, skipped)
            for q in skipped:
                _err(f"{printable(q)}: not a regular file (a pipe or a device), skipped")
                yield None  # not read: the command exits 2
            if not found:
                _err(f"{printable(p)}: no .bhh or .jsonl files in this folder")
                yield None
            yield from found
        elif p != "-" and notation.irregular(p):
            _err(f"{printable(p)}: not a regular file (a pipe or a device), not read")
            yield None
        else:
            yield p


def records_in(folder: str, skipped: list | None = None) -> list[str]:
    """The record files in a folder and its subfolders, in name order: regular files only
    (a FIFO would block the read, a device never end it); the others go to ``skipped``."""
    found = sorted(str(f) for pattern in ("*.bhh", "*.jsonl") for f in Path(folder).rglob(pattern))
    odd = {f for f in found if notation.irregular(f)}  # one stat a file
    if skipped is not None:
        skipped += [f for f in found if f in odd]
    return [f for f in found if f not in odd]


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
            cinch_nodes: int = NODES, known=None, render=None):
    """The audit stream of one file, with ``jobs`` processes when more than one, and a
    progress bar (hands audited, bytes read) when asked and stderr is a terminal;
    ``cinch_nodes`` is the cinch search's budget per decision (0: none); ``known`` filters
    the reader's stream (the store's hands audited before).  With ``render`` (a module's
    function of a list of items, giving a list), a BHH file's parts are read and audited
    by the workers, which hand back what it makes of each part's items (``judge.parallel``)."""
    if jobs > 1 and path != "-":
        from ..judge import parallel
        cuts = None
        if render and known is None and not path.lower().endswith((".jsonl", ".json")):
            cuts = parallel.parts(path, jobs)
        items = (parallel.audit_parts(path, cuts, jobs, override, cinch_nodes, render) if cuts
                 else parallel.audit_parallel(path, jobs, override, cinch_nodes, known))
    else:
        items = read_items(path)
        items = audit(known(items) if known else items, override, cinch_nodes)
    # docs/output.md, the report: on a terminal only, never in json mode (callers pass progress=False)
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
              progress: bool = False, cinch_nodes: int = NODES, render=None) -> int:
    """Audit the files into ``sink`` (a report with ``add``); return the exit code.
    ``render``: see ``audited`` (the sink takes what it makes)."""
    code = CLEAN
    for path in expand(paths):
        if path is None:
            code = UNREADABLE
            continue
        if hasattr(sink, "start_file"):
            sink.start_file(printable(path))
        try:
            for item in audited(path, override, jobs, progress, cinch_nodes, render=render):
                sink.add(item)
                if isinstance(item, SyntaxProblem):
                    code = UNREADABLE
                elif isinstance(item, SessionStart):
                    if item.problems:  # tags the rules cannot use
                        code = UNREADABLE
                elif getattr(item, "findings", None) and code == CLEAN:  # a hand's report, or its rendering
                    code = FINDINGS
        except notation.ReadError as e:
            _err(str(e))
            code = UNREADABLE
    return code
