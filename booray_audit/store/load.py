"""What one file adds to the store: which sessions are new, grown, unchanged or edited.

Identity.  A hand's *chain* is a hash of its session's tags and of every hand of the
session up to and including it (canonical text, so a re-spelt copy hashes the same).
Equal chains mean equal audits (under the same rules and cinch budget), so:

- a session whose every hand is stored (in one session) is stored already: a renamed or
  re-spelt copy of a file stores nothing twice;
- a session that continues a stored session from the same file (a log that grew) adds
  its new hands to that session;
- a session at the same place of the same file as a stored one, sharing its tags or a
  hand, whose hands differ (an edited file) is reported hand by hand and replaces the
  stored session only when asked (``replace``);
- anything else is a new session, even when its first hands equal another session's
  (two evenings that open with the same all-pass hand stay two sessions).

A new session's id hashes its tags and its last chain when first stored; a hand's id
hashes its session's id and its chain, so both stay put as a session grows.  Hands
whose chain is stored are not audited again (``Known``, staging.py); their rows are
copied.

Batches.  The file's rows are staged in batches of whole sessions (staging.py), and
each batch is committed in a transaction of its own (``load``): memory follows the
batch, not the file, and readers never see part of a session.
"""

from __future__ import annotations

import copy
import os
import shutil
import tempfile
from dataclasses import dataclass, field
from typing import Iterable

import duckdb

from .. import record as r
from .schema import CHILDREN, claim_partition, columns, create_tables, exact, parquet_source, staged
from .staging import Chains, Staged, digest, stage_file


def settings_of(rules: str | None, cinch_nodes: int) -> str:
    """What an audit depends on besides the record: the rules forced and the cinch budget."""
    return f"rules={rules or '(the tags)'}; cinch-nodes={cinch_nodes}"


@dataclass
class Edit:
    """A session of the file at the place of a stored session, with other hands."""
    ordinal: int
    session_id: str
    changed: list[int] = field(default_factory=list)
    added: list[int] = field(default_factory=list)
    removed: list[int] = field(default_factory=list)
    unchanged: int = 0
    settings: str | None = None  # the stored session's, when it was audited otherwise
    tags_changed: bool = False
    # the stored session's last hand, whose lines go on in the file now (a log being
    # written, read when that hand was cut off): the log grew, no edit (``grew``)
    went_on: int | None = None
    went_on_finished: bool = False  # that hand was stored finished: lines added after its last trick
    copy_of: str | None = None  # stored from another file: this session is mostly its hands (``_copies``)

    @property
    def grew(self) -> bool:
        """Only the stored last hand went on, and hands may follow it: stored again without
        ``--replace``, as a log that grew (the whole session, keeping its id)."""
        return self.went_on is not None and not (self.tags_changed or self.settings or self.removed or self.copy_of)

    def changes(self) -> str:
        parts = [f"a copy of the session stored from {self.copy_of}, mostly the same hands"] if self.copy_of else []
        parts += ["the session's tags changed"] if self.tags_changed else []
        if self.settings:
            parts.append(f"stored as audited with {self.settings}")
        if self.went_on is not None:
            parts.append(f"hand {self.went_on} went on " + (
                "(lines were added after its last trick since the file was imported)" if self.went_on_finished
                else "(it was cut off when the file was imported before)"))
        for what, numbers in (("changed", [n for n in self.changed if n != self.went_on]), ("new", self.added),
                              ("gone", self.removed)):
            if numbers:
                parts.append(f"{_numbers(numbers)} {what}")
        if self.unchanged:
            parts.append(f"{self.unchanged:,} unchanged")
        return ", ".join(parts)

    def __str__(self) -> str:
        return f"session {self.ordinal} differs from the stored session {self.session_id}: {self.changes()}"


def _numbers(ns: list[int]) -> str:
    shown = ", ".join(map(str, ns[:8])) + (f" and {len(ns) - 8} more" if len(ns) > 8 else "")
    return ("hand " if len(ns) == 1 else "hands ") + shown


@dataclass
class Loaded:
    new: int = 0
    unchanged: int = 0
    replaced: int = 0
    findings: int = 0  # of the hands copied from earlier audits
    edits: list[Edit] = field(default_factory=list)
    refused: bool = False  # edits found and not to be replaced: nothing changed


class Batch:
    """The staged rows of whole sessions that go into the store in one transaction."""

    def __init__(self, stages: list):
        self.stages = stages

    def read(self, table: str) -> str:
        return staged(table, [s.path(table) for s in self.stages])


@dataclass
class Placing:
    """What placing a batch's sessions leaves for the next batches to know."""
    lasts: set = field(default_factory=set)  # the last chains of the file's sessions placed so far
    claimed: set = field(default_factory=set)  # the stored sessions a session of the file has claimed


def load(con, staged: Staged, path: str, sha: str, origin: str, settings: str, replace: bool,
         as_new: bool = False) -> Loaded:
    """Bulk-load one staged file, a batch of whole sessions per transaction.

    First every batch is placed against the store as it stands (each in a transaction
    rolled back), so an edit to refuse refuses the whole file, nothing changed.  Then the
    batches are committed in turn, the connection held from first to last; the file's row
    in ``imports`` goes in with the last, so an import killed meanwhile leaves the store as
    it was after one of its batches, and a re-run, the file not yet taken for imported,
    finds the stored batches' hands stored and stores the rest.  A batch copies the hands
    audited before from the store; when a later batch copies from a session an earlier one
    replaces (a file that edits a stored session and repeats its hands in a new one), the
    whole file goes in one transaction, as the copies must be made before the replacing."""
    staged.close()
    out = Loaded()
    batches = [Batch(stages) for stages in staged.batches()]
    placing = Placing()
    plans = []
    for batch in batches:
        def plan(batch=batch):
            con.execute("BEGIN")
            try:
                _stage_tables(con, batch)
                placed, replaced = _place(con, origin, settings, out, placing, None if as_new else batch)
                copied = {s for (s,) in con.execute(
                    "SELECT DISTINCT h.session_id FROM sh JOIN hands h ON h.hand_id = sh.source").fetchall()}
                return placed, replaced, copied
            finally:
                _rollback(con)
        plans.append(_roomy(con, plan, out, placing))
    if not replace and any(not e.grew for e in out.edits):
        out.refused = True
        return out
    gone: set = set()
    for _, replaced, copied in plans:
        if copied & gone:
            batches = [Batch([s for b in batches for s in b.stages])]
            plans = [([x for p in plans for x in p[0]], [x for p in plans for x in p[1]], set())]
            break
        gone.update(replaced)
    for k, (batch, (placed, replaced, _)) in enumerate(zip(batches, plans)):
        def commit(k=k, batch=batch, placed=placed, replaced=replaced):
            try:
                con.execute("BEGIN")
                _stage_tables(con, batch)
                _insert(con, batch, placed, replaced, out)
                if k == len(batches) - 1:
                    con.execute("INSERT INTO imports VALUES (?, ?, now(), ?, ?, ?, ?)",
                                [path, sha, out.new, out.unchanged, settings, out.replaced])
                for t in ("sh", "ss", "tail", "placed", "moved"):
                    con.execute(f"DROP TABLE IF EXISTS {t}")
                con.execute("COMMIT")
            except BaseException:
                _rollback(con)
                raise
        _roomy(con, commit, out)
    return out


def _roomy(con, step, *state):
    """``step()``, a transaction of its own; where DuckDB runs out of memory (the store's
    indexes grow with it: a store of a million sessions needs more than LOAD_MEMORY), it
    was rolled back, so ``state`` (what the step adds to) is put back as it was and the
    step runs again with twice the memory, up to most of the machine's."""
    kept = [copy.deepcopy(vars(x)) for x in state]
    while True:
        try:
            return step()
        except duckdb.OutOfMemoryException:
            if not _more_memory(con):
                raise
            for x, was in zip(state, kept):
                vars(x).update(copy.deepcopy(was))


_UNITS = {"b": 1, "kib": 2**10, "mib": 2**20, "gib": 2**30, "tib": 2**40, "kb": 10**3, "mb": 10**6, "gb": 10**9,
          "tb": 10**12}


def _more_memory(con) -> bool:
    """Double the connection's memory limit, up to four fifths of the machine's memory
    (DuckDB's own default); False where it is there already."""
    value, unit = con.execute("SELECT current_setting('memory_limit')").fetchone()[0].split()
    now = float(value) * _UNITS.get(unit.lower(), 2**20)
    try:
        most = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") * 4 // 5
    except (ValueError, OSError, AttributeError):
        most = 8 * 2**30
    if now >= most:
        return False
    con.execute(f"SET memory_limit = '{int(min(2 * now, most)) // 2**20}MiB'")
    return True


def _stage_tables(con, batch: Batch) -> None:
    """The batch's hands (``sh``, with each one's place in its session), sessions (``ss``)
    and each session's count of hands and last chain (``tail``), as temporary tables."""
    con.execute(f"""CREATE TEMP TABLE sh AS SELECT *, row_number() OVER (PARTITION BY session_id
                    ORDER BY stage_seq) AS pos FROM {batch.read('hands')}""")
    con.execute(f"CREATE TEMP TABLE ss AS SELECT * FROM {batch.read('sessions')}")
    con.execute("""CREATE TEMP TABLE tail AS SELECT session_id AS skey, count(*) AS m,
                   arg_max(chain, stage_seq) AS chain FROM sh GROUP BY session_id""")


def _rollback(con) -> None:
    try:
        con.execute("ROLLBACK")
    except Exception:  # no transaction open (BEGIN failed), or the connection broke
        pass


def _place(con, origin: str, settings: str, out: Loaded, placing: Placing,
           batch: Batch | None = None) -> tuple[list, list]:
    """Decide, session by session, where the file's hands go: [(skey, session id, from
    position)] (hands after the position are stored) and the stored sessions replaced.
    With ``batch``, a session that is neither stored nor of this file's sessions, but
    whose hands are mostly those of a stored session (the same cards and plays), is an
    edit of that session, whatever file it came from (``_copies``)."""
    incoming = con.execute("""SELECT ss.stage_seq, ss.tags, ss.tags_text, t.m, t.chain FROM ss
                              JOIN tail t ON t.skey = ss.stage_seq::VARCHAR ORDER BY ss.stage_seq""").fetchall()
    contained: dict[int, list] = {}
    for skey, sid, st in con.execute("""SELECT t.skey::INTEGER, h.session_id, s.settings FROM tail t
                                        JOIN hands h ON h.chain = t.chain JOIN sessions s USING (session_id)"""
                                     ).fetchall():
        contained.setdefault(skey, []).append((sid, st))
    grown: dict[int, tuple] = {}
    for skey, pos, sid, st, where in con.execute(
            """SELECT sh.session_id::INTEGER, sh.pos, s.session_id, s.settings, s.origin FROM sh
               JOIN sessions s ON s.head = sh.chain ORDER BY sh.pos""").fetchall():
        if where == origin and origin:
            grown[skey] = (pos, sid, st)
    claimed, lasts = placing.claimed, placing.lasts
    here = {o: (sid, tags, st) for sid, o, tags, st in con.execute(  # the stored sessions at the batch's places
        """SELECT session_id, ordinal, tags, settings FROM sessions WHERE origin = ?
           AND ordinal IN (SELECT stage_seq FROM ss)""", [origin]).fetchall()}
    placed, replaced = [], []
    alone = [skey for skey, *_ in incoming if skey not in contained and skey not in grown and skey not in here]
    copies = _copies(con, batch, alone) if batch is not None else {}
    for skey, tags, tags_text, m, last in incoming:
        if last in lasts:  # the same session twice in this file
            out.unchanged += m
            continue
        lasts.add(last)
        same = [sid for sid, st in contained.get(skey, []) if st == settings]
        if same:
            out.unchanged += m
            claimed.add(same[0])
            continue
        if skey in grown and grown[skey][2] == settings:
            pos, sid, _ = grown[skey]
            placed.append((str(skey), sid, pos))
            out.unchanged += pos
            claimed.add(sid)
            continue
        stored = contained.get(skey) or ([grown[skey][1:]] if skey in grown else [])
        if stored:
            sid, st = stored[0]
            edit = _edit(con, skey, sid, st if st != settings else None)
        elif skey in here and here[skey][0] not in claimed and _overlaps(con, skey, *here[skey][:2], tags):
            sid, stored_tags, st = here[skey]
            edit = _edit(con, skey, sid, st if st != settings else None)
            edit.tags_changed = stored_tags != tags
        elif skey in copies and copies[skey][0] not in claimed:
            sid, st, where = copies[skey]
            edit = _edit(con, skey, sid, st if st != settings else None)
            edit.copy_of = where
            edit.tags_changed = con.execute("SELECT tags FROM sessions WHERE session_id = ?",
                                            [sid]).fetchone()[0] != tags
        else:
            placed.append((str(skey), digest("session", tags_text, last), 0))
            continue
        out.edits.append(edit)
        claimed.add(sid)
        placed.append((str(skey), sid, 0))
        replaced.append(sid)
    return placed, replaced


def _copies(con, batch: Batch, skeys: list[int]) -> dict[int, tuple[str, str, str]]:
    """For each of these incoming sessions: the stored session that shares two hands or more,
    more than half of its hands and of the stored session's, by number, cards and plays (who
    played which card, trick by trick), as (session id, its settings, the file it came
    from).  A league's night saved again under another name (a dispute added, a hand more)
    is such a session; two nights never share every card and play of a hand, and a file
    of one disputed hand is no copy of the night it came from.  Hands the reader found
    stored already (the same chain) count as shared; of the others, only stored hands whose
    first card matches are compared in full."""
    if not skeys:
        return {}
    fingerprint = "string_agg(p.trick || ' ' || p.player || ' ' || p.card, '|' ORDER BY p.trick, p.seq)"
    con.execute(f"""CREATE TEMP TABLE sp AS
                    SELECT sh.session_id::INTEGER AS skey, sh.number, {fingerprint} AS f,
                           arg_min(p.player || ' ' || p.card, p.trick * 1000 + p.seq) AS first
                    FROM {batch.read('plays')} p JOIN sh USING (stage_seq)
                    WHERE sh.session_id::INTEGER IN (SELECT unnest(?::INTEGER[])) GROUP BY ALL""", [skeys])
    rows = con.execute(f"""
        WITH cand AS (SELECT DISTINCT h.hand_id, h.session_id, h.number
                      FROM sp JOIN hands h ON h.number = sp.number
                      JOIN plays x ON x.hand_id = h.hand_id AND x.trick = 1 AND x.seq = 0
                                  AND x.player || ' ' || x.card = sp.first),
             hp AS (SELECT c.session_id, c.number, {fingerprint} AS f FROM cand c JOIN plays p USING (hand_id)
                    GROUP BY ALL),
             shared AS (SELECT sp.skey, hp.session_id FROM sp JOIN hp ON sp.number = hp.number AND sp.f = hp.f
                        UNION ALL
                        SELECT sh.session_id::INTEGER, h.session_id FROM sh JOIN hands h ON h.hand_id = sh.source
                        WHERE sh.session_id::INTEGER IN (SELECT unnest(?::INTEGER[])))
        SELECT skey, session_id, count(*) AS n,
               (SELECT count(*) FROM hands WHERE hands.session_id = shared.session_id) AS stored
        FROM shared GROUP BY ALL ORDER BY n DESC, session_id""", [skeys]).fetchall()
    sizes = dict(con.execute("""SELECT skey, count(*) FROM (SELECT skey FROM sp UNION ALL
                                SELECT session_id::INTEGER FROM sh WHERE source IS NOT NULL) GROUP BY skey""").fetchall())
    con.execute("DROP TABLE sp")
    out: dict[int, tuple[str, str, str]] = {}
    for skey, sid, n, stored in rows:
        if skey not in out and n >= 2 and 2 * n > sizes.get(skey, 0) and 2 * n > stored:
            st, where = con.execute("SELECT settings, file FROM sessions WHERE session_id = ?", [sid]).fetchone()
            out[skey] = (sid, st, where)
    return out


def _overlaps(con, skey: int, sid: str, stored_tags: str, tags: str) -> bool:
    """Is the stored session the same session, edited: the same tags, or a hand in common?"""
    if stored_tags == tags:
        return True
    return con.execute("""SELECT count(*) FROM hands h JOIN sh ON sh.session_id = ? AND h.number = sh.number
                          AND h.text = sh.text WHERE h.session_id = ?""", [str(skey), sid]).fetchone()[0] > 0


def _edit(con, skey: int, sid: str, other_settings: str | None) -> Edit:
    e = Edit(skey, sid, settings=other_settings)
    rows = con.execute("""SELECT coalesce(a.number, b.number) AS n, a.number IS NULL, b.number IS NULL,
                                 coalesce(a.text = b.text, false)
                          FROM (SELECT DISTINCT number, text FROM sh WHERE session_id = ?) a
                          FULL JOIN (SELECT DISTINCT number, text FROM hands WHERE session_id = ?) b
                          ON a.number = b.number ORDER BY n""", [str(skey), sid]).fetchall()
    for n, gone, added, same in rows:
        if gone:
            e.removed.append(n)
        elif added:
            e.added.append(n)
        elif not same:
            e.changed.append(n)
        else:
            e.unchanged += 1
    last = max((n for n, gone, added, _ in rows if not added), default=None)
    if e.changed == [last]:
        # the file's lines of it go on where the stored ones stop: cut off while it was being
        # written, in its tricks or after them (its `Tricks` and `Net` lines still to come, or
        # half written); nothing stored is changed, only added to, as by new hands
        old = con.execute("SELECT text, complete FROM hands WHERE session_id = ? AND number = ?",
                          [sid, last]).fetchall()
        now = con.execute("SELECT DISTINCT text FROM sh WHERE session_id = ? AND number = ?",
                          [str(skey), last]).fetchall()
        if len(old) == len(now) == 1 and now[0][0].startswith(old[0][0]):
            e.went_on, e.went_on_finished = last, bool(old[0][1])
    return e


def _insert(con, batch: Batch, placed: list, replaced: list, out: Loaded) -> None:
    con.execute("CREATE TEMP TABLE placed (skey VARCHAR, session_id VARCHAR, from_pos BIGINT)")
    if placed:
        con.execute("INSERT INTO placed SELECT unnest(?::VARCHAR[]), unnest(?::VARCHAR[]), unnest(?::BIGINT[])",
                    [list(c) for c in zip(*placed)])
    # every hand that goes in, with its new id and the stored hand it was copied from
    con.execute("""CREATE TEMP TABLE moved AS
                   SELECT sh.stage_seq, p.session_id, left(sha256(p.session_id || '|' || sh.chain), 20) AS hand_id,
                          sh.source, p.session_id IN (SELECT session_id FROM sessions) AS known_session
                   FROM sh JOIN placed p ON sh.session_id = p.skey WHERE sh.pos > p.from_pos""")
    out.findings += con.execute("""SELECT count(*) FROM findings WHERE hand_id IN
                                  (SELECT source FROM sh WHERE source IS NOT NULL)""").fetchone()[0]
    cols = columns("hands")
    fresh = ", ".join("m.hand_id" if c == "hand_id" else "m.session_id" if c == "session_id" else f"s.{c}"
                      for c in cols)
    copied = ", ".join("m.hand_id" if c == "hand_id" else "m.session_id" if c == "session_id"
                       else f"s.{c}" if c in ("chain", "text") else f"h.{c}" for c in cols)
    con.execute(f"""CREATE TEMP TABLE new_hands AS
                    SELECT {fresh} FROM sh s JOIN moved m USING (stage_seq) WHERE s.source IS NULL
                    UNION ALL
                    SELECT {copied} FROM sh s JOIN moved m USING (stage_seq) JOIN hands h ON h.hand_id = s.source""")
    for table in CHILDREN:
        cs = columns(table)
        pick = ", ".join("m.hand_id" if c == "hand_id" else f"c.{c}" for c in cs)
        con.execute(f"""CREATE TEMP TABLE new_{table} AS
                        SELECT {pick} FROM {batch.read(table)} c JOIN moved m ON m.stage_seq = c.stage_seq
                        WHERE m.source IS NULL
                        UNION ALL
                        SELECT {pick} FROM {table} c JOIN moved m ON c.hand_id = m.source""")
    if replaced:
        gone = "(SELECT hand_id FROM hands WHERE session_id IN (SELECT unnest(?::VARCHAR[])))"
        out.replaced += con.execute(f"SELECT count(*) FROM {gone}", [replaced]).fetchone()[0]
        for table in CHILDREN:
            con.execute(f"DELETE FROM {table} WHERE hand_id IN {gone}", [replaced])
        con.execute("DELETE FROM hands WHERE session_id IN (SELECT unnest(?::VARCHAR[]))", [replaced])
        con.execute("DELETE FROM sessions WHERE session_id IN (SELECT unnest(?::VARCHAR[]))", [replaced])
    out.new += con.execute("SELECT count(*) FROM new_hands").fetchone()[0]
    for table in ("hands",) + CHILDREN:
        con.execute(f"INSERT INTO {table} SELECT * FROM new_{table}")
        con.execute(f"DROP TABLE new_{table}")
    scols = columns("sessions")
    pick = ", ".join("p.session_id" if c == "session_id" else "t.chain" if c == "head" else f"ss.{c}"
                     for c in scols)
    con.execute(f"""INSERT INTO sessions SELECT {pick} FROM ss JOIN placed p ON p.skey = ss.stage_seq::VARCHAR
                    JOIN tail t ON t.skey = p.skey WHERE p.session_id NOT IN (SELECT session_id FROM sessions)""")
    con.execute("""UPDATE sessions SET head = t.chain FROM placed p JOIN tail t ON t.skey = p.skey
                   WHERE sessions.session_id = p.session_id""")


@dataclass
class ImportResult:
    path: str
    hands: int
    new: int
    unchanged: int
    replaced: int
    findings: int
    problems: int
    edits: list[Edit]
    refused: bool


def import_file(con, path: str, items: Iterable, sha: str | None = None, settings: str = "",
                replace: bool = False, chains: Chains | None = None, as_new: bool = False) -> ImportResult:
    """Audit stream → staged rows → a transaction per batch (``load``).  ``con`` is a
    connection, or a function that opens one: then the store is opened only once the file
    is audited and staged, and closed after its last transaction, so other processes can
    read it meanwhile."""
    origin = os.path.abspath(path) if path != "-" else ""
    path = r.printable(path)
    stage = Staged()
    try:
        counts = stage_file(items, stage, r.printable(origin), settings, chains)
        opened = con() if callable(con) else con
        try:
            res = load(opened, stage, path, sha or "", r.printable(origin), settings, replace, as_new)
        finally:
            if callable(con):
                opened.close()
    finally:
        stage.cleanup()
    return ImportResult(path, counts["hands"], res.new, res.unchanged, res.replaced,
                        counts["findings"] + res.findings, counts["problems"], res.edits, res.refused)


PARQUET_TABLES = {"hands": "hands", "players": "hand_players", "findings": "findings", "plays": "plays",
                  "undecidable": "undecidable"}


def export_parquet(items: Iterable, path: str, out_dir: str, settings: str = "") -> dict:
    """Write one file's audit as Parquet under ``out_dir/<table>/source=<key>/`` (the key:
    ``parquet_source``): hands, players, findings, plays and undecidable checks, for DuckDB,
    Spark or Trino to query in place.  Chips are DECIMAL(38,0), exact; ids as a fresh
    import into an empty store gives them."""

    source = parquet_source(path)
    origin = os.path.abspath(path)
    stage = Staged()
    try:
        counts = stage_file(items, stage, r.printable(origin), settings)
        stage.close()
        os.makedirs(out_dir, exist_ok=True)
        claim_partition(out_dir, source, path)
        # every table is written beside the partitions first, then moved into place: a
        # failure (a full disk) leaves the file's partitions as they were, all of them
        staging = tempfile.mkdtemp(prefix=".writing-", dir=out_dir)
        try:
            con = duckdb.connect(config={"autoinstall_known_extensions": False,
                                         "autoload_known_extensions": False})
            try:
                create_tables(con)
                load(con, stage, r.printable(path), "", r.printable(origin), settings, False)
                for name, table in PARQUET_TABLES.items():
                    target = os.path.join(staging, name).replace("'", "''")
                    order = "ORDER BY session_id, number" if table == "hands" else ""
                    con.execute(f"""COPY (SELECT {exact(table)}, '{source}' AS source FROM {table} {order})
                                    TO '{target}' (FORMAT PARQUET, PARTITION_BY (source), OVERWRITE_OR_IGNORE)""")
            finally:
                con.close()
            for name in PARQUET_TABLES:
                for part in os.listdir(os.path.join(staging, name)):
                    final = os.path.join(out_dir, name, part)
                    os.makedirs(os.path.dirname(final), exist_ok=True)
                    if os.path.exists(final):
                        os.rename(final, os.path.join(staging, name, part + ".old"))
                    os.rename(os.path.join(staging, name, part), final)
        finally:
            shutil.rmtree(staging, ignore_errors=True)
    finally:
        stage.cleanup()
    return counts
