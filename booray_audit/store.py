"""The DuckDB store (CLI.md §4): audited histories, one transaction per file.

Rows are staged in CSV files while a file streams through the audit, then
bulk-loaded with ``read_csv`` inside one transaction, so an import lands whole
or not at all and memory does not grow with the file.  Ids are hashes of the
canonical text, so the same hand imported again (from any file) is stored once.
"""

from __future__ import annotations

import csv
import hashlib
import json
import os
import tempfile
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Iterable

import duckdb

from .audit import HandReport, SessionStart
from .cards import SUIT_LETTERS, card_str
from .record import SyntaxProblem, printable
from .writer import hand_lines, tag_line

SCHEMA_VERSION = 1

# The personal record of every player; {where} and {where2} filter the hands and the
# violations (by session date, player) for `booray-audit stats`.
PLAYER_RECORD = """
SELECT hp.player,
       count(*) AS hands,
       count(*) FILTER (WHERE hp.status = 'play') AS played,
       count(*) FILTER (WHERE hp.status = 'pass') AS passed,
       count(*) FILTER (WHERE hp.won_pot > 0) AS pots_won,
       coalesce(sum(hp.won_pot), 0) AS chips_won,
       count(*) FILTER (WHERE hp.bourre) AS bourres,
       coalesce(sum(hp.penalty), 0) AS chips_paid,
       coalesce(sum(hp.ante), 0) AS antes_paid,
       coalesce(sum(hp.net), 0) AS net,
       coalesce(max(hp.won_pot), 0) AS biggest_pot,
       round(count(*) FILTER (WHERE hp.won_pot > 0) / nullif(count(*) FILTER (WHERE hp.status = 'play'), 0), 3)
           AS win_rate,
       round(count(*) FILTER (WHERE hp.bourre) / nullif(count(*) FILTER (WHERE hp.status = 'play'), 0), 3)
           AS bourre_rate,
       coalesce(any_value(v.violations), 0) AS violations,
       coalesce(any_value(v.by_kind), '') AS violations_by_kind
FROM hand_players hp
JOIN hands h USING (hand_id)
JOIN sessions s USING (session_id)
LEFT JOIN (
    SELECT player, sum(n) AS violations, string_agg(kind || ' ' || n, ', ' ORDER BY kind) AS by_kind
    FROM (SELECT f.player, f.kind, count(*) AS n
          FROM findings f JOIN hands h2 USING (hand_id) JOIN sessions s2 USING (session_id)
          WHERE f.class = 'play' AND {where2}
          GROUP BY f.player, f.kind)
    GROUP BY player) v ON v.player = hp.player
WHERE {where}
GROUP BY hp.player
ORDER BY net DESC, hp.player
"""

TABLES = {
    "imports": "path VARCHAR, sha256 VARCHAR, imported_at TIMESTAMPTZ, hands INTEGER, duplicates INTEGER",
    "sessions": ("session_id VARCHAR PRIMARY KEY, event VARCHAR, site VARCHAR, date DATE, profile VARCHAR, "
                 "ante INTEGER, pot_limit BIGINT, overrides VARCHAR, tags VARCHAR, file VARCHAR"),
    "hands": ("hand_id VARCHAR PRIMARY KEY, session_id VARCHAR, number INTEGER, dealer VARCHAR, "
              "trump VARCHAR, pot HUGEINT, winner VARCHAR, carry HUGEINT, complete BOOLEAN"),
    "hand_players": ("hand_id VARCHAR, player VARCHAR, seat INTEGER, status VARCHAR, discards INTEGER, "
                     "tricks INTEGER, won_pot HUGEINT, bourre BOOLEAN, ante INTEGER, penalty HUGEINT, "
                     "net HUGEINT"),
    "plays": ("hand_id VARCHAR, trick INTEGER, seq INTEGER, player VARCHAR, card VARCHAR, suit VARCHAR, "
              "rank INTEGER, won BOOLEAN"),
    "findings": ("hand_id VARCHAR, trick INTEGER, player VARCHAR, kind VARCHAR, class VARCHAR, "
                 "card VARCHAR, message VARCHAR, evidence VARCHAR, rule VARCHAR"),
    "rulings": "hand_id VARCHAR, player VARCHAR, kind VARCHAR, trick INTEGER, ruling VARCHAR, evidence VARCHAR",
    # beyond CLI.md §4: duties the audit could not judge (a cinch past the search budget)
    "undecidable": "hand_id VARCHAR, trick INTEGER, player VARCHAR, kind VARCHAR, card VARCHAR, reason VARCHAR",
}
CHILDREN = ("hand_players", "plays", "findings", "rulings", "undecidable")

VIEWS = {
    # one row per player: the personal record (the query `stats` runs, unfiltered)
    "player_stats": PLAYER_RECORD.format(where="TRUE", where2="TRUE"),
    "ledger": """
        SELECT h.session_id, hp.player, sum(hp.net) AS net
        FROM hand_players hp JOIN hands h USING (hand_id)
        GROUP BY h.session_id, hp.player""",
    "violations": """
        SELECT player, kind, count(*) AS n FROM findings WHERE class = 'play' GROUP BY player, kind""",
}


BUSY = "the database is in use by another process"


class StoreError(Exception):
    """The database cannot be used: locked, corrupt, foreign, old, or the disk is full."""


@dataclass
class ImportResult:
    path: str
    hands: int
    new: int
    duplicates: int
    findings: int
    problems: int


# A query connection (`sql` without --write) reads the store and nothing else: no other
# file (read_csv, COPY TO, ATTACH), no extension installed or loaded, no secret kept,
# and the settings locked so a query cannot lift any of this.
SANDBOX = {"enable_external_access": False, "autoinstall_known_extensions": False,
           "autoload_known_extensions": False, "allow_persistent_secrets": False,
           "lock_configuration": True}


def connect(path: str, read_only: bool = False, create: bool = True,
            sandbox: dict | None = None) -> duckdb.DuckDBPyConnection:
    """Open (and, for writing, create) the store; every failure becomes a ``StoreError``.
    ``sandbox``: DuckDB settings for a connection that runs a user's query (``SANDBOX``
    plus a memory limit)."""
    if read_only and not os.path.exists(path):
        raise StoreError(f"{path}: no such database (run `booray-audit import` first)")
    try:
        con = duckdb.connect(path, read_only=read_only, config=sandbox or {})
    except duckdb.IOException as e:
        text = str(e)
        if "lock" in text.lower():
            raise StoreError(f"{path}: {BUSY}") from None
        raise StoreError(f"{path}: cannot open the database: {text.splitlines()[0]}") from None
    except duckdb.InterruptException:  # Ctrl-C: DuckDB turns SIGINT into this
        raise KeyboardInterrupt from None
    except duckdb.Error as e:
        raise StoreError(f"{path}: not a booray-audit database ({str(e).splitlines()[0]})") from None
    try:
        _check_schema(con, path, read_only and not create)
        if not read_only:
            _create(con)
    except duckdb.InterruptException:
        con.close()
        raise KeyboardInterrupt from None
    except duckdb.Error as e:
        con.close()
        raise StoreError(f"{path}: {str(e).splitlines()[0]}") from None
    except StoreError:
        con.close()
        raise
    return con


def connect_waiting(path: str, read_only: bool = False, wait: float = 30.0, **kw) -> duckdb.DuckDBPyConnection:
    """``connect``, waiting up to ``wait`` seconds while another process holds the store
    (an import holds it only while it loads one file; readers only while they query)."""
    deadline = time.monotonic() + wait
    pause = 0.05
    while True:
        try:
            return connect(path, read_only=read_only, **kw)
        except StoreError as e:
            if BUSY not in str(e) or time.monotonic() + pause > deadline:
                if BUSY in str(e):
                    raise StoreError(f"{e} (waited {wait:g} s; --wait waits longer)") from None
                raise
        time.sleep(pause)
        pause = min(pause * 2, 1.0)


def _check_schema(con, path: str, must_exist: bool) -> None:
    tables = {r[0] for r in con.execute("SELECT table_name FROM information_schema.tables").fetchall()}
    if not tables:
        if must_exist:
            raise StoreError(f"{path}: the database is empty (run `booray-audit import` first)")
        return
    if "booray_meta" not in tables:
        raise StoreError(f"{path}: a DuckDB file, but not a booray-audit store")
    row = con.execute("SELECT value FROM booray_meta WHERE key = 'schema_version'").fetchone()
    version = int(row[0]) if row else 0
    if version != SCHEMA_VERSION:
        raise StoreError(f"{path}: made by another version of booray-audit (schema {version}, "
                         f"this one reads {SCHEMA_VERSION}); import the files into a new database")


def _create(con) -> None:
    con.execute("BEGIN")
    con.execute("CREATE TABLE IF NOT EXISTS booray_meta (key VARCHAR PRIMARY KEY, value VARCHAR)")
    con.execute("INSERT INTO booray_meta VALUES ('schema_version', ?) ON CONFLICT DO NOTHING",
                [str(SCHEMA_VERSION)])
    for name, cols in TABLES.items():
        con.execute(f"CREATE TABLE IF NOT EXISTS {name} ({cols})")
    for name, sql in VIEWS.items():
        con.execute(f"CREATE OR REPLACE VIEW {name} AS {sql}")
    con.execute("COMMIT")


def _id(*parts: str) -> str:
    h = hashlib.sha256()
    for p in parts:
        h.update(p.encode("utf-8"))
        h.update(b"\0")
    return h.hexdigest()[:20]


class _Stage:
    """CSV files, one per table, in a temporary folder named after the process; folders
    left by a process that was killed are removed by the next stage."""

    def __init__(self):
        _sweep()
        self.dir = tempfile.TemporaryDirectory(prefix=f"booray-stage-{os.getpid()}-")
        self.files = {t: open(os.path.join(self.dir.name, f"{t}.csv"), "w", newline="", encoding="utf-8")
                      for t in TABLES if t != "imports"}
        # every text quoted, a missing value an empty unquoted field: no text a record can
        # hold (`\\N`, "") reads back as NULL
        self.writers = {t: csv.writer(f, quoting=csv.QUOTE_NONNUMERIC) for t, f in self.files.items()}

    def row(self, table: str, seq: int, values) -> None:
        self.writers[table].writerow([seq] + [_NULL if v is None else v for v in values])

    def read(self, table: str) -> str:
        """The SQL that reads a staged table back, typed as the store's."""
        cols = "stage_seq INTEGER, " + TABLES[table]
        types = ", ".join(f"'{c.split()[0]}': '{c.split()[1]}'" for c in cols.split(", "))
        where = self.path(table).replace("'", "''")
        return (f"read_csv('{where}', header=false, auto_detect=false, delim=',', quote='\"', escape='\"', "
                f"nullstr='', allow_quoted_nulls=false, columns={{{types}}})")

    def close(self) -> None:
        for f in self.files.values():
            f.close()

    def path(self, table: str) -> str:
        return self.files[table].name

    def cleanup(self) -> None:
        self.close()
        self.dir.cleanup()


class _Null(int):
    """A missing value: a number to the csv module (so never quoted), written as nothing."""

    def __str__(self) -> str:
        return ""

    __repr__ = __str__


_NULL = _Null()


def _sweep() -> None:
    """Remove staging folders whose process is gone (an import killed with -9)."""
    import re
    import shutil
    root = tempfile.gettempdir()
    try:
        names = os.listdir(root)
    except OSError:
        return
    for name in names:
        m = re.fullmatch(r"booray-stage-(\d+)-\w+", name)
        if not m or int(m.group(1)) == os.getpid():
            continue
        try:
            os.kill(int(m.group(1)), 0)
        except ProcessLookupError:
            shutil.rmtree(os.path.join(root, name), ignore_errors=True)
        except OSError:
            pass  # alive, or not ours to ask about


def _session_row(start: SessionStart, path: str, session_id: str) -> list:
    s, rules = start.session, start.rules
    date = (s.tag("Date") or "").replace(".", "-")
    try:
        datetime.strptime(date, "%Y-%m-%d")
    except ValueError:
        date = None
    return [session_id, s.tag("Event"), s.tag("Site"), date, rules.profile, rules.ante, rules.limit,
            json.dumps(dict(rules.overrides)), json.dumps(dict(s.tags)), path]


def stage_file(items: Iterable, stage: _Stage, path: str) -> dict:
    """Write the rows of one file's audit stream; return counts."""
    counts = {"hands": 0, "findings": 0, "problems": 0}
    session_row = None
    session_id = None
    tags_text = ""
    for item in items:
        if isinstance(item, SessionStart):
            tags_text = "\n".join(tag_line(k, v) for k, v in item.session.tags)
            session_row, session_id = item, None
        elif isinstance(item, HandReport):
            hand_id = _id(tags_text, "\n".join(hand_lines(item.hand)))
            if session_id is None:
                session_id = _id(tags_text, hand_id)
                stage.row("sessions", counts["hands"], _session_row(session_row, path, session_id))
            _stage_hand(stage, counts["hands"], item, hand_id, session_id)
            counts["hands"] += 1
            counts["findings"] += len(item.findings)
        elif isinstance(item, SyntaxProblem):
            counts["problems"] += 1
    return counts


def _stage_hand(stage: _Stage, seq: int, h: HandReport, hand_id: str, session_id: str) -> None:
    rep, s = h.replay, h.settlement
    trump = SUIT_LETTERS[rep.trump] if rep.trump is not None else None
    stage.row("hands", seq, [hand_id, session_id, rep.number, rep.dealer, trump, s.pot, s.winner, s.carry,
                        rep.complete])
    tricks = rep.tricks if rep.complete else None
    for seat, p in enumerate(rep.seated):
        status = "play" if p in rep.active else "pass" if p in rep.passed else None
        won = s.won if s.winner == p else (0 if s.net is not None else None)
        net = s.net.get(p) if s.net is not None else None
        stage.row("hand_players", seq, [hand_id, p, seat, status, rep.discards.get(p),
                                   tricks.get(p) if tricks and p in rep.active else None, won,
                                   p in s.bourre, s.antes.get(p, 0) if s.pot is not None else None,
                                   s.penalties.get(p, 0) if s.net is not None else None, net])
    for t, order, p, c, won in rep.plays:
        stage.row("plays", seq, [hand_id, t, order, p, card_str(c), SUIT_LETTERS[c >> 4] if c >> 4 < 4 else None,
                            (c & 15) or None, won])
    for f in h.findings:
        stage.row("findings", seq, [hand_id, f.trick, f.player, f.kind, f.cls,
                               card_str(f.card) if f.card is not None else None, f.message, f.evidence, f.rule])
    for r in h.rulings:
        stage.row("rulings", seq, [hand_id, r.player, r.kind, r.trick, r.ruling, r.evidence])
    for u in rep.undecidable:
        stage.row("undecidable", seq, [hand_id, u.trick, u.player, u.kind, card_str(u.card), u.reason])


def load(con, stage: _Stage, path: str, sha: str) -> tuple[int, int]:
    """Bulk-load one staged file in one transaction; returns (new hands, duplicates).

    Each staged row carries the running number of its hand in the file, so a hand
    written twice in one file keeps the rows of its first copy only."""
    stage.close()

    src = stage.read

    try:
        con.execute("BEGIN")
        con.execute(f"CREATE TEMP TABLE staged_hands AS SELECT * FROM {src('hands')}")
        con.execute("""CREATE TEMP TABLE first_copy AS
                       SELECT hand_id, min(stage_seq) AS stage_seq FROM staged_hands
                       WHERE hand_id NOT IN (SELECT hand_id FROM hands) GROUP BY hand_id""")
        staged = con.execute("SELECT count(*) FROM staged_hands").fetchone()[0]
        new = con.execute("SELECT count(*) FROM first_copy").fetchone()[0]
        con.execute(f"""INSERT INTO sessions SELECT {_cols('sessions')} FROM {src('sessions')}
                        WHERE session_id NOT IN (SELECT session_id FROM sessions)
                        QUALIFY row_number() OVER (PARTITION BY session_id ORDER BY stage_seq) = 1""")
        for table in ("hands",) + CHILDREN:
            source = "staged_hands" if table == "hands" else src(table)
            con.execute(f"""INSERT INTO {table} SELECT {_cols(table, 's.')} FROM {source} s
                            JOIN first_copy f ON s.hand_id = f.hand_id AND s.stage_seq = f.stage_seq""")
        con.execute("INSERT INTO imports VALUES (?, ?, ?, ?, ?)",
                    [path, sha, datetime.now(timezone.utc), new, staged - new])
        con.execute("DROP TABLE staged_hands")
        con.execute("DROP TABLE first_copy")
        con.execute("COMMIT")
    except BaseException:
        try:
            con.execute("ROLLBACK")
        except duckdb.Error:
            pass
        raise
    return new, staged - new


def _exact(table: str) -> str:
    """The table's columns, chips as DECIMAL(38,0): Parquet has no HUGEINT (DuckDB would
    write a double, rounding past 2^53); every amount a record may hold fits exactly."""
    cols = [c.split() for c in TABLES[table].split(", ")]
    return ", ".join(f"CAST({name} AS DECIMAL(38,0)) AS {name}" if kind == "HUGEINT" else name
                     for name, kind, *_ in cols)


def _cols(table: str, prefix: str = "") -> str:
    return ", ".join(prefix + c.split()[0] for c in TABLES[table].split(", "))


def imported_shas(con) -> set[str]:
    """The content hashes of every file imported so far."""
    return {r[0] for r in con.execute("SELECT DISTINCT sha256 FROM imports WHERE sha256 <> ''").fetchall()}


def file_sha(path: str) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def import_file(con, path: str, items: Iterable, sha: str | None = None) -> ImportResult:
    """Audit stream → staged rows → one transaction.  ``con`` is a connection, or a function
    that opens one: then the store is opened only once the file is audited and staged, and
    closed after its transaction, so other processes can read it meanwhile."""
    path = printable(path)
    stage = _Stage()
    try:
        counts = stage_file(items, stage, path)
        if callable(con):
            opened = con()
            try:
                new, dup = load(opened, stage, path, sha or "")
            finally:
                opened.close()
        else:
            new, dup = load(con, stage, path, sha or "")
    finally:
        stage.cleanup()
    return ImportResult(path, counts["hands"], new, dup, counts["findings"], counts["problems"])


PARQUET_TABLES = {"hands": "hands", "players": "hand_players", "findings": "findings", "plays": "plays",
                  "undecidable": "undecidable"}


def parquet_source(path: str) -> str:
    """A file's partition key: its name and a hash of its absolute path, so two files of
    the same name in different folders never share a partition, and the same file
    exported again replaces its own."""
    where = os.path.abspath(path)
    digest = hashlib.sha256(os.fsencode(where)).hexdigest()[:10]
    name = printable(os.path.basename(where)).replace("'", "").replace("/", "_")
    return f"{name}~{digest}"


def _claim_partition(out_dir: str, source: str, path: str) -> None:
    """Record which file a partition holds (``out_dir/_sources/<key>``); refuse to write
    over a partition that holds another file."""
    marks = os.path.join(out_dir, "_sources")
    os.makedirs(marks, exist_ok=True)
    mark = os.path.join(marks, source)
    where = os.path.abspath(path)
    if os.path.exists(mark):
        with open(mark, encoding="utf-8", errors="replace") as f:
            held = f.read()
        if held != printable(where):
            raise StoreError(f"{out_dir}: the partition source={source} holds {held}, not "
                             f"{printable(where)}; nothing was written over it")
    with open(mark, "w", encoding="utf-8") as f:
        f.write(printable(where))


def export_parquet(items: Iterable, path: str, out_dir: str) -> dict:
    """Write one file's audit as Parquet under ``out_dir/<table>/source=<key>/`` (the key:
    ``parquet_source``): hands, players, findings, plays and undecidable checks, for DuckDB,
    Spark or Trino to query in place.  Chips are DECIMAL(38,0), exact."""
    source = parquet_source(path)
    path = printable(path)
    stage = _Stage()
    try:
        counts = stage_file(items, stage, path)
        stage.close()
        os.makedirs(out_dir, exist_ok=True)
        _claim_partition(out_dir, source, path)
        con = duckdb.connect()
        for name, table in PARQUET_TABLES.items():
            target = os.path.join(out_dir, name).replace("'", "''")
            con.execute(f"""COPY (SELECT {_exact(table)}, '{source}' AS source FROM {stage.read(table)})
                            TO '{target}' (FORMAT PARQUET, PARTITION_BY (source), OVERWRITE_OR_IGNORE)""")
        con.close()
    finally:
        stage.cleanup()
    return counts
