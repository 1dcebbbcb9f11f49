"""`stats`, `ledger`, `alias`, `find` and `forget`: players' records, who owes whom, one player under
several names, hands picked out as BHH, and sessions removed."""

from __future__ import annotations

import os
import sys
from dataclasses import replace
from typing import List, Optional

import typer

from ..record import CHIPS
from ..record import shown
from .shared import CLEAN, DB, UNREADABLE, USAGE, UsageProblem, WAIT, _err, to_stdout
from .tables import (EVENT, GroupBy, RECORD_LABELS, SESSION_ID, SINCE, SOURCE, TABLE_FORMAT, TableFmt, UNTIL,
                     _emit, _open, _query, _scope)


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
    from ..store.queries import RECORD_COLUMNS
    from ..store.queries import stats as query
    if sort not in RECORD_COLUMNS:
        raise UsageProblem(f"--sort takes one of {', '.join(RECORD_COLUMNS)}; not `{sort}`")
    scope = _scope(since, until, event, source, session)
    columns, rows = _query(db, query, player, scope, by.value if by else None, sort, wait=wait)
    if not rows and _names_nothing(db, scope, player, wait, answered=bool(scope.since or scope.until)):
        return USAGE
    if not rows and player and not by and fmt in (TableFmt.text, TableFmt.table):
        _err(f"no hands stored for {player} in those dates")  # an answer, not a mistake
        return CLEAN
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


def ledger(session: Optional[str] = typer.Option(None, "--session", metavar="ID",
                                                help="one session (its id, or its first characters: `ledger --ids` shows them)"),
           settle: bool = typer.Option(False, "--settle",
                                       help="who pays whom: the fewest payments that square each session"),
           since: Optional[str] = SINCE, until: Optional[str] = UNTIL, event: Optional[str] = EVENT,
           source: Optional[str] = SOURCE,
           ids: bool = typer.Option(False, "--ids", help="text: name each session by its id too"),
           db: str = DB, fmt: TableFmt = TABLE_FORMAT, wait: float = WAIT):
    """Who owes what, per session and overall; the pot left on the table."""
    from ..store.queries import ledger as query
    scope = _scope(since, until, event, source, None)
    rows, pots, overall = _query(db, query, session, scope, wait=wait)
    if not rows and _names_nothing(db, replace(scope, session=session), None, wait,
                                   answered=bool(scope.since or scope.until)):
        return USAGE
    if settle:
        return _settle_up(rows, fmt, ids)
    if fmt not in (TableFmt.text, TableFmt.table):
        cols = ["session_id", "event", "date", "player", "net", "pot_left"]
        _emit(cols, [r + (pots.get(r[0]),) for r in rows], fmt)
        return CLEAN
    label = _labels(rows)
    head = ["id"] * ids + ["session"]
    _emit(head + ["player", "net"], [[sid] * ids + [label[sid], player, net] for sid, _, _, player, net in rows],
          fmt, "per session")
    _emit(head + ["pot left on the table"],
          [[sid] * ids + [label[sid], pot] for sid, pot in sorted(pots.items(), key=lambda kv: label[kv[0]])],
          fmt)
    _emit(["player", "net overall"], overall, fmt, "overall")
    return CLEAN


def _names_nothing(db: str, scope, player: Optional[str], wait: float, answered: bool) -> bool:
    """For a report with nothing in it: whether its scope names something the store does
    not hold (a `--player`, `--session`, `--event` or `--source` that matches nothing), said
    with the names close to it; or, unless something else may be what left it empty
    (``answered``: dates, or filters), names that match only apart.  A usage error (exit 3)."""
    if not (player or scope.event or scope.source or scope.session):
        return False
    from ..store.queries import APART, unmatched
    why = _query(db, unmatched, scope, player, wait=wait)
    if why or not answered:
        _err(why or APART)
        return True
    return False


def _labels(rows) -> dict[str, str]:
    """Each session as people know it: its date and event; its id's start where two
    sessions would read the same, the whole id where it has neither."""
    named = {sid: " ".join(shown(str(x)) for x in (date, event) if x) for sid, event, date, *_ in rows}
    seen: dict[str, int] = {}
    for name in named.values():
        seen[name] = seen.get(name, 0) + 1
    return {sid: (name + f" #{sid[:8]}" if seen[name] > 1 else name) if name else sid
            for sid, name in named.items()}


def alias(player: Optional[str] = typer.Argument(None, metavar="PLAYER", help="the name to keep"),
          names: Optional[List[str]] = typer.Argument(None, metavar="ALIAS...",
                                                      help="other names the same player was written as"),
          remove: bool = typer.Option(False, "--remove", help="forget the names given (all of them aliases)"),
          db: str = DB, fmt: TableFmt = TABLE_FORMAT, wait: float = WAIT):
    """Other names a player goes by: `alias Judy judy "J. Boudreaux"` counts them all as Judy
    in stats, ledger and the store's views.  With no names, lists the aliases."""
    from ..store import queries
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
    if min_pot is not None and not 0 <= min_pot <= CHIPS:
        raise UsageProblem(f"--min-pot takes a number of chips from 0 to {CHIPS:,}")
    from ..store.queries import find as query
    from ..judge.findings import FINDING_KINDS
    if kind is not None and kind not in FINDING_KINDS:
        from ..record import closest
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
                    sys.stdout.write(to_stdout(("\n" if sessions > 1 else "") + tags + "\n"))
            (out or sys.stdout).write("\n" + (text if out else to_stdout(text)) + "\n")
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
    if not hands and _names_nothing(db, scope, player, wait, answered=bool(
            kind or min_pot is not None or disputed or scope.since or scope.until)):
        return USAGE
    from ..report.text import count
    where = f" into {split}" if split else ""
    _err(f"{count(hands, 'hand')} of {count(sessions, 'session')} written{where}" if hands
         else "no stored hand matches")
    return CLEAN


def _session_file(session_id: str, date, event) -> str:
    import re
    name = re.sub(r"[^A-Za-z0-9]+", "-", event or "session").strip("-").lower()[:40] or "session"
    return f"{date or 'undated'}-{name}-{session_id[:8]}.bhh"


def _settle_up(rows, fmt: TableFmt, ids: bool = False) -> int:
    """Per session, the fewest payments that square every net; the chips the players lost
    into the pot left on the table are paid to "(the pot)" (in text, "the pot left on the
    table")."""
    from ..rules.settle import POT, transfers
    sessions: dict = {}
    for session_id, event, date, player, net in rows:
        sessions.setdefault((session_id, event, date), {})[player] = None if net is None else int(net)
    out = []
    label = _labels(rows)
    for (session_id, event, date), nets in sessions.items():
        unknown = [p for p, n in nets.items() if n is None]
        if unknown:  # a session the record does not settle cannot be squared
            _err(f"{label[session_id]}: not squared: the record leaves the net of {', '.join(unknown)} unknown")
            continue
        nets[POT] = -sum(nets.values())  # the pot's change squares the players' nets
        for payer, payee, chips in transfers(nets):
            out.append((session_id, event, date, payer, payee, chips))
    if fmt in (TableFmt.text, TableFmt.table):
        _emit(["id"] * ids + ["session", "pays", "to", "chips"],
              [[sid] * ids + [label[sid], payer, "the pot left on the table" if payee == POT else payee, chips]
               for sid, _, _, payer, payee, chips in out], fmt, "who pays whom")
    else:
        _emit(["session_id", "event", "date", "payer", "payee", "chips"], out, fmt)
    return CLEAN


def forget(session: Optional[str] = SESSION_ID, source: Optional[str] = SOURCE, event: Optional[str] = EVENT,
           since: Optional[str] = SINCE, until: Optional[str] = UNTIL,
           yes: bool = typer.Option(False, "--yes", help="remove without asking"),
           db: str = DB, wait: float = WAIT):
    """Remove stored sessions (a session id or its start, a file imported, an event, dates):
    lists them, asks (or --yes), then removes them and their hands in one transaction."""
    from ..store import queries
    scope = _scope(since, until, event, source, session)
    if scope == type(scope)():
        raise UsageProblem("say which sessions to forget: --session ID, --source FILE, --event NAME or dates")
    con = _open(db, read_only=False, wait=wait)
    try:
        found = queries.forgettable(con, scope)
        if not found:
            _err("no stored session matches; nothing removed")
            return USAGE
        hands = sum(row[4] for row in found)
        for sid, date, event_name, file, n in found:
            print(shown(f"session {sid}  {date or 'undated'}  {event_name or '(no event)'}  "
                        f"{n:,} hand{'s' if n != 1 else ''}  from {file}"))
        what = f"{len(found):,} session{'s' if len(found) != 1 else ''} ({hands:,} hands)"
        if not yes:
            if not sys.stdin.isatty():
                _err(f"would remove {what}: say --yes to remove them")
                return USAGE
            if input(f"Remove {what}? [y/N] ").strip().lower() not in ("y", "yes"):
                _err("nothing removed")
                return USAGE
        removed = queries.forget(con, [row[0] for row in found])
    finally:
        con.close()
    print(f"removed {what}" if removed == hands else f"removed {len(found):,} sessions ({removed:,} hands)")
    return CLEAN
