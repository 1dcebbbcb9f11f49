"""The DuckDB store: its tables, connections, the staging of rows, Parquet partitions.

Rows are staged in CSV files while a file streams through the audit, a folder per
batch of sessions (staging.py), then bulk-loaded with ``read_csv``, a transaction per
batch (load.py), so a session lands whole or not at all and memory does not grow
with the file.
"""

from __future__ import annotations

import csv
import hashlib
import os
import tempfile
import time

import duckdb

from ..record import printable

SCHEMA_VERSION = 3
UPDATABLE = (2,)  # stores of these versions are brought up to date when opened (tables added)

# The personal record of every player, per group of hands: {scope} picks the hands (a
# query of hand_id and grp, the group's name); names are as the aliases make them (the
# named_ views).
PLAYER_RECORD = """
WITH scope AS ({scope}),
hp AS (SELECT scope.grp, x.* FROM named_hand_players x JOIN scope USING (hand_id)),
v AS (SELECT grp, player, sum(n) FILTER (WHERE kind <> 'recall') AS violations,
             string_agg(kind || ' ' || n, ', ' ORDER BY kind) FILTER (WHERE kind <> 'recall') AS by_kind,
             sum(n) FILTER (WHERE kind = 'recall') AS recalls
      FROM (SELECT scope.grp, f.player, f.kind, count(*) AS n
            FROM named_findings f JOIN scope USING (hand_id)
            WHERE f.class = 'play' GROUP BY ALL)
      GROUP BY grp, player),
fo AS (SELECT x.hand_id, coalesce(a.player, x.player) AS player, count(*) AS forfeits
       FROM forfeits x JOIN scope USING (hand_id) LEFT JOIN aliases a ON a.alias = x.player GROUP BY ALL)
SELECT hp.grp,
       hp.player,
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
       coalesce(any_value(v.by_kind), '') AS violations_by_kind,
       coalesce(any_value(v.recalls), 0) AS recalls,
       coalesce(sum(fo.forfeits), 0) AS deals_forfeited
FROM hp LEFT JOIN v ON v.grp IS NOT DISTINCT FROM hp.grp AND v.player = hp.player
        LEFT JOIN fo ON fo.hand_id = hp.hand_id AND fo.player = hp.player
GROUP BY hp.grp, hp.player
"""
ALL_HANDS = "SELECT hand_id, NULL::VARCHAR AS grp FROM hands"

TABLES = {
    "imports": ("path VARCHAR, sha256 VARCHAR, imported_at TIMESTAMPTZ, hands INTEGER, duplicates INTEGER, "
                "settings VARCHAR, replaced INTEGER"),
    # origin: the file's absolute path, ordinal: the session's place in it; settings: the
    # rules forced and the cinch budget it was audited under; root, head: the chains of its
    # first and last hands (see load.py)
    "sessions": ("session_id VARCHAR PRIMARY KEY, event VARCHAR, site VARCHAR, date DATE, profile VARCHAR, "
                 "ante INTEGER, pot_limit BIGINT, overrides VARCHAR, tags VARCHAR, file VARCHAR, "
                 "origin VARCHAR, ordinal INTEGER, settings VARCHAR, root VARCHAR, head VARCHAR, "
                 "tags_text VARCHAR"),
    # chain: the hash of the session's tags and hands up to this one; text: the hand in
    # canonical BHH; state: the pot chain after it (what the next hand's audit resumes from)
    "hands": ("hand_id VARCHAR PRIMARY KEY, session_id VARCHAR, number INTEGER, dealer VARCHAR, "
              "trump VARCHAR, pot HUGEINT, winner VARCHAR, carry HUGEINT, complete BOOLEAN, "
              "chain VARCHAR, text VARCHAR, state VARCHAR"),
    "hand_players": ("hand_id VARCHAR, player VARCHAR, seat INTEGER, status VARCHAR, discards INTEGER, "
                     "tricks INTEGER, won_pot HUGEINT, bourre BOOLEAN, ante INTEGER, penalty HUGEINT, "
                     "net HUGEINT"),
    "plays": ("hand_id VARCHAR, trick INTEGER, seq INTEGER, player VARCHAR, card VARCHAR, suit VARCHAR, "
              "rank INTEGER, won BOOLEAN"),
    "findings": ("hand_id VARCHAR, trick INTEGER, player VARCHAR, kind VARCHAR, class VARCHAR, "
                 "card VARCHAR, message VARCHAR, evidence VARCHAR, rule VARCHAR"),
    "rulings": "hand_id VARCHAR, player VARCHAR, kind VARCHAR, trick INTEGER, ruling VARCHAR, evidence VARCHAR",
    # another name a player goes by (`booray-audit alias`): stats, ledger and the views use `player`
    "aliases": "alias VARCHAR PRIMARY KEY, player VARCHAR",
    # beyond docs/output.md, the database: duties the audit could not judge (a cinch past the search budget)
    "undecidable": "hand_id VARCHAR, trick INTEGER, player VARCHAR, kind VARCHAR, card VARCHAR, reason VARCHAR",
    # a turn to deal forfeited (docs/rules.md, forfeits): cause `declared early` (a `forfeits
    # deal` line) or `recall` (a card taken back, under recall=forfeit)
    "forfeits": "hand_id VARCHAR, player VARCHAR, cause VARCHAR",
}
STAGED_EXTRA = {"hands": ", source VARCHAR"}  # a hand audited before: the stored hand to copy
CHILDREN = ("hand_players", "plays", "findings", "rulings", "undecidable", "forfeits")

VIEWS = {  # in the order they are made: the first two are what the others read
    # hand_players and findings with each player under the name its aliases give
    "named_hand_players": """
        SELECT coalesce(a.player, x.player) AS player, x.* EXCLUDE (player)
        FROM hand_players x LEFT JOIN aliases a ON a.alias = x.player""",
    "named_findings": """
        SELECT coalesce(a.player, x.player) AS player, x.* EXCLUDE (player)
        FROM findings x LEFT JOIN aliases a ON a.alias = x.player""",
    # one row per player: the personal record (the query `stats` runs, unfiltered)
    "player_stats": f"SELECT * EXCLUDE (grp) FROM ({PLAYER_RECORD.format(scope=ALL_HANDS)}) ORDER BY net DESC, player",
    "ledger": """
        SELECT h.session_id, hp.player, sum(hp.net) AS net
        FROM named_hand_players hp JOIN hands h USING (hand_id) GROUP BY ALL""",
    "violations": """
        SELECT player, kind, count(*) AS n FROM named_findings WHERE class = 'play' AND kind <> 'recall'
        GROUP BY ALL""",
    "recalls": """
        SELECT player, hand_id, trick, card, evidence FROM named_findings WHERE kind = 'recall'""",
}


BUSY = "the database is in use by another process"
LOAD_MEMORY = "128MB"  # what DuckDB keeps while an import loads: the batches spill past it, the store's pages go


class StoreError(Exception):
    """The database cannot be used: locked, corrupt, foreign, old, or the disk is full."""


# A query connection (`sql` without --write) reads the store and nothing else: no other
# file (read_csv, COPY TO, ATTACH), no extension installed or loaded, no secret kept,
# and the settings locked so a query cannot lift any of this.
LOCKS = ("enable_external_access", "allow_persistent_secrets", "lock_configuration")  # in this order


def _literal(value) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else "'" + str(value).replace("'", "''") + "'"


NO_EXTENSIONS = {"autoinstall_known_extensions": False, "autoload_known_extensions": False}
SANDBOX = {"max_temp_directory_size": "0B",  # no spilling to <db>.tmp: past --memory, the query fails
           "enable_external_access": False, "autoinstall_known_extensions": False,
           "autoload_known_extensions": False, "allow_persistent_secrets": False,
           "lock_configuration": True}


def connect(path: str, read_only: bool = False, create: bool = True,
            sandbox: dict | None = None, memory: str | None = None) -> duckdb.DuckDBPyConnection:
    """Open (and, for writing, create) the store; every failure becomes a ``StoreError``.
    ``sandbox``: DuckDB settings for a connection that runs a user's query (``SANDBOX``
    plus a memory limit); ``memory``: the most memory DuckDB keeps (past it, it writes
    to a folder beside the store and drops the pages it has read)."""
    if read_only and not os.path.exists(path):
        raise StoreError(f"{path}: no such database (run `booray-audit import` first)")
    # no connection installs or loads an extension: a file of another kind (SQLite, say)
    # would make DuckDB fetch one from the network to read it
    # A sandbox's settings that close the file system are set once the connection is open,
    # after the temporary folder is turned off (once they are set, it can no longer be):
    # no query may spill to, or COPY into, a folder beside the store
    config = dict(NO_EXTENSIONS, **({"temp_directory": "", **{k: v for k, v in sandbox.items() if k not in LOCKS}}
                                    if sandbox else {}), **({"memory_limit": memory} if memory else {}))
    try:
        con = duckdb.connect(path, read_only=read_only, config=config)
        for key in LOCKS if sandbox else ():
            if key in sandbox:
                con.execute(f"SET {key} = {_literal(sandbox[key])}")
    except duckdb.IOException as e:
        text = str(e)
        if "lock" in text.lower():
            raise StoreError(f"{path}: {BUSY}") from None
        if "extension" in text.lower() or "not a valid duckdb database" in text.lower():
            raise StoreError(f"{path}: not a booray-audit store (another kind of file)") from None
        raise StoreError(f"{path}: cannot open the database: {text.splitlines()[0]}") from None
    except duckdb.InterruptException:  # Ctrl-C: DuckDB turns SIGINT into this
        raise KeyboardInterrupt from None
    except duckdb.Error as e:
        if "extension" in str(e).lower():  # DuckDB would need one to read this kind of file
            raise StoreError(f"{path}: not a booray-audit store (another kind of file)") from None
        raise StoreError(f"{path}: not a booray-audit database ({str(e).splitlines()[0]})") from None
    try:
        old = _check_schema(con, path, read_only and not create)
        if old and read_only:  # brought up to date by a connection that may write, then read
            con.close()
            connect(path).close()
            return connect(path, read_only=True, create=create, sandbox=sandbox)
        if not read_only:
            create_tables(con)
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


def _check_schema(con, path: str, must_exist: bool) -> bool:
    """Refuse a file that is not a store of this version; True for a store of an older
    version this one updates (``UPDATABLE``: only tables added)."""
    tables = {r[0] for r in con.execute("SELECT table_name FROM information_schema.tables").fetchall()}
    if not tables:
        if must_exist:
            raise StoreError(f"{path}: the database is empty (run `booray-audit import` first)")
        return False
    if "booray_meta" not in tables:
        raise StoreError(f"{path}: a DuckDB file, but not a booray-audit store")
    row = con.execute("SELECT value FROM booray_meta WHERE key = 'schema_version'").fetchone()
    version = int(row[0]) if row else 0
    if version in UPDATABLE:
        return True
    if version != SCHEMA_VERSION:
        raise StoreError(f"{path}: made by another version of booray-audit (schema {version}, "
                         f"this one reads {SCHEMA_VERSION}); import the files into a new database")


def create_tables(con) -> None:
    con.execute("BEGIN")
    con.execute("CREATE TABLE IF NOT EXISTS booray_meta (key VARCHAR PRIMARY KEY, value VARCHAR)")
    con.execute("INSERT INTO booray_meta VALUES ('schema_version', ?) ON CONFLICT DO UPDATE SET value = excluded.value",
                [str(SCHEMA_VERSION)])
    for name, cols in TABLES.items():
        con.execute(f"CREATE TABLE IF NOT EXISTS {name} ({cols})")
    for name, sql in VIEWS.items():
        con.execute(f"CREATE OR REPLACE VIEW {name} AS {sql}")
    con.execute("COMMIT")


class Stage:
    """CSV files, one per table, in a temporary folder named after the process; folders
    left by a process that was killed are removed by the next stage."""

    def __init__(self):
        _sweep()
        self.dir = tempfile.TemporaryDirectory(prefix=f"booray-stage-{os.getpid()}-")
        self.files = {t: open(os.path.join(self.dir.name, f"{t}.csv"), "w", newline="", encoding="utf-8")
                      for t in TABLES if t not in ("imports", "aliases")}
        # every text quoted, a missing value an empty unquoted field: no text a record can
        # hold (`\\N`, "") reads back as NULL
        self.writers = {t: csv.writer(f, quoting=csv.QUOTE_NONNUMERIC, lineterminator="\n")
                        for t, f in self.files.items()}

    def row(self, table: str, seq: int, values) -> None:
        self.writers[table].writerow([seq] + [_NULL if v is None else v for v in values])

    def close(self) -> None:
        for f in self.files.values():
            f.close()

    def path(self, table: str) -> str:
        return self.files[table].name

    def cleanup(self) -> None:
        self.close()
        self.dir.cleanup()


def staged(table: str, paths: list[str]) -> str:
    """The SQL that reads a table's rows staged in these files, typed as the store's."""
    cols = "stage_seq INTEGER, " + TABLES[table] + STAGED_EXTRA.get(table, "")
    types = ", ".join(f"'{c.split()[0]}': '{c.split()[1]}'" for c in cols.split(", "))
    where = ", ".join("'" + p.replace("'", "''") + "'" for p in paths)
    return (f"read_csv([{where}], header=false, auto_detect=false, delim=',', quote='\"', escape='\"', "
            f"nullstr='', allow_quoted_nulls=false, columns={{{types}}})")


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


def exact(table: str) -> str:
    """The table's columns, chips as DECIMAL(38,0): Parquet has no HUGEINT (DuckDB would
    write a double, rounding past 2^53); every amount a record may hold fits exactly."""
    cols = [c.split() for c in TABLES[table].split(", ")]
    return ", ".join(f"CAST({name} AS DECIMAL(38,0)) AS {name}" if kind == "HUGEINT" else name
                     for name, kind, *_ in cols)


def columns(table: str) -> list[str]:
    """The names of a table's columns, in order."""
    return [c.split()[0] for c in TABLES[table].split(", ")]


def imported_shas(con, settings: str) -> set[str]:
    """The content hashes of every file imported so far under these settings."""
    return {r[0] for r in con.execute("SELECT DISTINCT sha256 FROM imports WHERE sha256 <> '' AND settings = ?",
                                      [settings]).fetchall()}


def file_sha(path: str) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def parquet_source(path: str) -> str:
    """A file's partition key: its name and a hash of its absolute path, so two files of
    the same name in different folders never share a partition, and the same file
    exported again replaces its own."""
    where = os.path.abspath(path)
    digest = hashlib.sha256(os.fsencode(where)).hexdigest()[:10]
    name = printable(os.path.basename(where)).replace("'", "").replace("/", "_")
    # a folder name holds 255 bytes: a long file name is cut (the hash keeps it apart)
    name = name.encode("utf-8")[:80].decode("utf-8", "ignore")
    return f"{name}~{digest}"


def claim_partition(out_dir: str, source: str, path: str) -> None:
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
