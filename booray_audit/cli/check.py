"""`check`, `fmt` and `replay`: a file audited, tidied, or shown trick by trick."""

from __future__ import annotations

import os
import sys
from typing import List, Optional

import typer

from ..judge.audit import HandReport, audit
from ..notation import reader as notation
from ..record import SyntaxProblem, Trick, printable
from .shared import (ASCII, CINCH_MEMORY, CINCH_NODES, CLEAN, DB, FILES, FINDINGS, Fmt, JOBS, NO_COLOR, QUIET,
                     RULES, UNREADABLE, USAGE, UsageProblem, WAIT, _console, _err, _rules, audited, expand,
                     read_items, run_check, to_stdout)
from .tables import _query, _store


def check(files: List[str] = FILES, rules: Optional[str] = RULES,
          fmt: Fmt = typer.Option(Fmt.text, "--format", metavar="text|json|parquet",
                                  help="text for people, json for scripts, parquet (with --out) for big logs"),
          quiet: bool = QUIET, no_color: bool = NO_COLOR, ascii: bool = ASCII, jobs: int = JOBS,
          cinch_nodes: int = CINCH_NODES, cinch_memory: Optional[int] = CINCH_MEMORY,
          out: Optional[str] = typer.Option(None, "--out", metavar="DIR",
                                            help="with --format parquet: the folder to write"),
          by_kind: bool = typer.Option(False, "--by-kind",
                                       help="text: no hands, one line per kind of finding (how many hands "
                                            "show it, and the first) - where a log departs from the rules")):
    """Check hands: findings, rulings on disputes, settlement and the ledger."""
    override = _rules(rules)
    if fmt == Fmt.parquet and not out:
        raise UsageProblem("--format parquet needs --out DIR")
    if out and fmt != Fmt.parquet:
        raise UsageProblem("--out DIR is for --format parquet; text and json go to stdout")
    if by_kind and fmt != Fmt.text:
        raise UsageProblem("--by-kind is for the text report; json and parquet list every finding")
    if fmt == Fmt.parquet:
        return _parquet(files, override, out, jobs, cinch_nodes)
    if fmt == Fmt.json:
        from ..report.document import JsonStream, rendered
        doc = JsonStream(sys.stdout)
        code = run_check(files, override, doc, jobs, cinch_nodes=cinch_nodes, render=rendered)
        doc.close()
        return code
    from ..report.text import TextReport
    console = _console(no_color=no_color)
    report = TextReport(console, quiet, _console(no_color=no_color, stderr=True), symbols=_symbols(console, ascii),
                        files=len(files) > 1 or any(os.path.isdir(f) for f in files), by_kind=by_kind)
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
    from ..store.load import export_parquet
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
        except (OSError, duckdb.Error) as e:  # this file's partitions stay as they were; the next goes on
            _err(f"{printable(path)}: not exported, {out} unchanged for it: cannot write Parquet: "
                 f"{str(e).splitlines()[0]}")
            code = UNREADABLE
            continue
        except _store().StoreError as e:  # a partition that holds another file
            _err(str(e))
            code = UNREADABLE
            continue
        if counts["problems"]:
            code = UNREADABLE
        elif counts["findings"] and code == CLEAN:
            code = FINDINGS
    return code


def fmt(file: str = typer.Argument(..., metavar="FILE", help="a .bhh or .jsonl file, or - for stdin"),
        check_only: bool = typer.Option(False, "--check",
                                        help="print nothing but the differences; exit 1 if there are any"),
        to: Optional[str] = typer.Option(None, "--to", metavar="bhh|jsonl",
                                         help="the form to write: BHH text (the default), or BHH-JSON lines")):
    """Print a file in the tidy form: numbered hands and tricks, `Ts` for tens, comments kept.
    A .jsonl file (BHH-JSON) is printed as BHH text; `--to jsonl` prints BHH-JSON."""
    from ..notation.writer import Comments, write
    if to not in (None, "bhh", "jsonl"):
        raise UsageProblem(f"--to takes bhh or jsonl, not `{to}`")
    try:
        if file == "-":
            raw = sys.stdin.buffer.read()
        else:
            notation.regular(file)
            with open(file, "rb") as f:
                raw = f.read()
    except notation.ReadError as e:
        _err(str(e))
        return UNREADABLE
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
    from_json = file.lower().endswith(".jsonl")
    if to == "jsonl":
        from ..notation import jsonl
        text = jsonl.write(sessions)
    else:
        text = write(sessions, None if from_json else Comments(original))
    hands = [] if from_json or to == "jsonl" else _read_otherwise(raw, file, sessions, text)
    if hands:
        _err(f"{printable(file)}: {'hands' if len(hands) > 1 else 'hand'} {', '.join(map(str, hands))}: `check` "
             "reads the tidy form otherwise than the file (it writes out trick numbers, or the players of "
             "seat-order tricks, that the record only implies); check the file as written")
    if check_only:
        if original == text:
            return CLEAN
        import difflib
        sys.stdout.writelines(to_stdout(x) for x in difflib.unified_diff(original.splitlines(keepends=True), text.splitlines(keepends=True),
                                                   printable(file), f"{printable(file)} (tidy)"))
        _err(f"{printable(file)}: not in the tidy form (the differences are above; `booray-audit fmt` prints it)")
        return FINDINGS
    sys.stdout.write(to_stdout(text))
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
    from ..report.explain import explain_hand
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

    from ..judge.audit import Resume
    from ..store.queries import session_hands
    from ..record import Hand
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
