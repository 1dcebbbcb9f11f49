"""The DuckDB store: idempotent imports, whole-or-nothing files, failure messages."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import duckdb
import pytest

from booray_audit.generate import generate_text

from .conftest import CORPUS, ROOT, cli_command, run_cli

COUNTS = ("SELECT (SELECT count(*) FROM hands), (SELECT count(*) FROM plays), (SELECT count(*) FROM findings), "
          "(SELECT count(*) FROM hand_players), (SELECT count(*) FROM sessions), (SELECT count(*) FROM rulings)")


def counts(db):
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute(COUNTS).fetchone()
    finally:
        con.close()


def test_importing_the_corpus_twice_stores_it_once(tmp_path):
    db = tmp_path / "b.duckdb"
    first = run_cli("import", CORPUS, "--db", db)
    assert first.returncode == 2  # the corpus has a file with syntax errors
    once = counts(db)
    assert once[0] == 21  # 22 hands in the corpus, minus the one spoiled by syntax errors
    second = run_cli("import", CORPUS, "--db", db, "--again")  # audited again, not skipped
    assert b"0 new" in second.stdout
    assert counts(db) == once


def test_the_same_hand_from_another_file_is_not_stored_twice(tmp_path):
    db = tmp_path / "b.duckdb"
    text = (CORPUS / "09-session-chain.bhh").read_bytes()
    (tmp_path / "a.bhh").write_bytes(text)
    (tmp_path / "b.bhh").write_bytes(text + text.split(b"\n\n", 1)[1])  # hands repeated in one file too
    run_cli("import", tmp_path / "a.bhh", "--db", db)
    p = run_cli("import", tmp_path / "b.bhh", "--db", db)
    assert b"0 new" in p.stdout
    assert counts(db)[0] == 4


def test_store_queries_on_the_corpus(tmp_path):
    """The reports and queries an operator runs, with their answers on the corpus."""
    db = tmp_path / "b.duckdb"
    run_cli("import", CORPUS, "--db", db)
    p = run_cli("stats", "--player", "Dave", "--db", db, "--format", "json")
    dave = json.loads(p.stdout)[0]
    assert (dave["hands"], dave["bourres"], dave["net"], dave["violations"]) == (2, 1, -6, 2)
    assert dave["violations_by_kind"] == "failed-trump 1, renege 1"
    p = run_cli("stats", "--db", db, "--format", "csv", "--since", "2026-11-27")
    rows = p.stdout.decode().splitlines()
    assert rows[0].startswith("player,hands,played") and len(rows) == 5  # the 09 session's four players
    p = run_cli("ledger", "--db", db, "--format", "json")
    ledger = json.loads(p.stdout)
    chain = {r["player"]: r["net"] for r in ledger if r["event"] == "Session chain"}
    assert chain == {"Ann": 0, "Ben": -4, "Cal": 4, "Dee": -3}
    assert {r["pot_left"] for r in ledger if r["event"] == "Session chain"} == {3}
    p = run_cli("sql", "SELECT kind, count(*) AS n FROM findings GROUP BY kind ORDER BY n DESC, kind LIMIT 1",
                "--db", db, "--format", "json")
    assert json.loads(p.stdout) == [{"kind": "failed-beat", "n": 4}]
    p = run_cli("sql", "SELECT player, kind, n FROM violations WHERE player = 'Ann' ORDER BY kind",
                "--db", db, "--format", "csv")
    assert p.stdout.decode().splitlines()[1:] == ["Ann,cinch-lead,1", "Ann,failed-beat,1"]


def test_sql_is_read_only_unless_write(tmp_path):
    db = tmp_path / "b.duckdb"
    run_cli("import", CORPUS / "01-spec-example.bhh", "--db", db)
    p = run_cli("sql", "DELETE FROM hands", "--db", db)
    assert p.returncode == 3 and b"read-only" in p.stderr.lower()
    assert counts(db)[0] == 1
    assert run_cli("sql", "DELETE FROM findings", "--db", db, "--write").returncode == 0


def test_bad_databases_get_a_message_not_a_traceback(tmp_path):
    junk = tmp_path / "junk.duckdb"
    junk.write_bytes(b"this is not a database at all" * 100)
    foreign = tmp_path / "foreign.duckdb"
    con = duckdb.connect(str(foreign))
    con.execute("CREATE TABLE t (x INTEGER)")
    con.close()
    old = tmp_path / "old.duckdb"
    run_cli("import", CORPUS / "01-spec-example.bhh", "--db", old)
    con = duckdb.connect(str(old))
    con.execute("UPDATE booray_meta SET value = '0'")
    con.close()
    for db, words in ((junk, b"not a booray-audit store"), (foreign, b"not a booray-audit store"),
                      (old, b"another version"), (tmp_path / "none.duckdb", b"no such database")):
        for args in (("stats",), ("import", CORPUS / "01-spec-example.bhh")):
            if args[0] == "import" and db.name == "none.duckdb":
                continue
            p = run_cli(*args, "--db", db)
            assert p.returncode == 2, (db, args, p.stderr)
            assert words in p.stderr and b"Traceback" not in p.stderr, p.stderr


def test_a_locked_database(tmp_path):
    db = tmp_path / "b.duckdb"
    run_cli("import", CORPUS / "01-spec-example.bhh", "--db", db)
    holder = subprocess.Popen([sys.executable, "-c",
                               f"import duckdb,time; c=duckdb.connect({str(db)!r}); print('ok', flush=True); "
                               "time.sleep(60)"], stdout=subprocess.PIPE)
    try:
        assert holder.stdout.readline().strip() == b"ok"
        p = run_cli("import", CORPUS / "03-must-beat-in-suit.bhh", "--db", db, "--wait", "1")
        assert p.returncode == 2 and b"in use by another process" in p.stderr and b"waited 1 s" in p.stderr
    finally:
        holder.kill()
        holder.wait()


def _store_and_big_file(tmp_path):
    """A store holding one hand, and a file of 30,000 more (ten copies of 3,000, each its
    own sessions: many seconds to audit, on a fast machine too; the tests using it stop
    the import well before its end)."""
    db = tmp_path / "b.duckdb"
    big = tmp_path / "big.bhh"
    text, _ = generate_text(3000, players=(2, 4), seed=9)
    big.write_text("\n".join(text.replace('[Event "Generated session', f'[Event "Copy {k} session')
                             for k in range(10)))
    run_cli("import", CORPUS / "01-spec-example.bhh", "--db", db)
    return db, big


def test_an_import_killed_midway_leaves_the_database_as_it_was(tmp_path):
    db, big = _store_and_big_file(tmp_path)
    before = counts(db)
    proc = subprocess.Popen(cli_command() + ["import", str(big), "--db", str(db)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    time.sleep(2.5)  # well into the audit and the staging of the big file
    assert proc.poll() is None, "the import finished too soon to be interrupted"
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert counts(db) == before
    p = run_cli("import", CORPUS / "03-must-beat-in-suit.bhh", "--db", db)  # and it takes the next import
    assert p.returncode in (0, 1) and counts(db)[0] > before[0]


def test_a_full_disk_while_staging_changes_nothing(tmp_path, monkeypatch, capsys):
    import errno

    from booray_audit.cli import main as cli
    from booray_audit.store import schema as store

    db = tmp_path / "b.duckdb"
    run_cli("import", CORPUS / "01-spec-example.bhh", "--db", db)
    before = counts(db)
    written = [0]
    real_row = store.Stage.row

    def row(self, table, seq, values):
        written[0] += 1
        if written[0] > 20:
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_row(self, table, seq, values)

    monkeypatch.setattr(store.Stage, "row", row)
    monkeypatch.setattr(sys, "argv", ["booray-audit", "import", str(CORPUS / "09-session-chain.bhh"), "--db", str(db)])
    with pytest.raises(SystemExit) as stop:
        cli.main()
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "No space left on device" in err and "unchanged" in err and "Traceback" not in err
    assert counts(db) == before


def test_a_damaged_store_answers_with_a_message(tmp_path):
    db = tmp_path / "b.duckdb"
    run_cli("import", CORPUS / "01-spec-example.bhh", "--db", db)
    assert run_cli("sql", "DROP TABLE hand_players CASCADE", "--db", db, "--write").returncode == 0
    for args in (("stats",), ("ledger",), ("stats", "--player", "Dave")):
        p = run_cli(*args, "--db", db)
        assert p.returncode == 2 and b"Traceback" not in p.stderr and b"cannot answer" in p.stderr, p.stderr


def test_a_query_reads_the_store_and_nothing_else(tmp_path):
    db = tmp_path / "b.duckdb"
    run_cli("import", CORPUS / "01-spec-example.bhh", "--db", db)
    secret = tmp_path / "secret.csv"
    secret.write_text("a,b\n1,2\n")
    other = tmp_path / "other.duckdb"
    run_cli("sql", "--db", other, "--write", "CREATE TABLE t AS SELECT 1 AS x")
    link = tmp_path / "link.duckdb"
    os.link(db, link)
    out_file = tmp_path / "out.csv"
    refused = [f"SELECT * FROM read_csv('{secret}')", f"SELECT * FROM read_text('{secret}')",
               f"COPY hands TO '{out_file}'", f"ATTACH '{other}' AS o (READ_WRITE)",
               f"ATTACH '{link}' AS l (READ_WRITE)", "SET enable_external_access = true",
               "SET lock_configuration = false", "INSTALL httpfs", "DELETE FROM hands",
               "CREATE PERSISTENT SECRET s (TYPE http, BEARER_TOKEN 'x')"]
    for query in refused:
        p = run_cli("sql", "--db", db, query)
        assert p.returncode == 3 and b"Traceback" not in p.stderr, (query, p.stderr)
    assert not out_file.exists()
    p = run_cli("sql", "--db", db, "--format", "csv", "SELECT count(*) AS n FROM hands")
    assert p.returncode == 0 and p.stdout.decode().split() == ["n", "1"]  # the store still answers, whole
    p = run_cli("sql", "--db", db, "--timeout", "1", "SELECT count(*) FROM range(1000000000000)")
    assert p.returncode == 3 and b"longer than 1 seconds" in p.stderr
    p = run_cli("sql", "--db", db, "--write", f"COPY (SELECT 1 AS x) TO '{out_file}'")
    assert p.returncode == 0 and out_file.exists()  # --write is the way around, and says so in --help


def test_no_text_a_record_can_hold_is_stored_as_null(tmp_path):
    f = tmp_path / "n.bhh"
    f.write_text('[Event ""]\n[Site "\\\\N"]\n[Seats "Ann \\\\N"]\n\nHand 1\nDealer Ann\nTrump h\n'
                 '"\\\\N" play\nAnn play\nTrick "\\\\N" As, Ann 2s\n')
    db = tmp_path / "n.duckdb"
    assert run_cli("import", f, "--db", db).returncode == 0
    got = json.loads(run_cli("sql", "--db", db, "--format", "json",
                             "SELECT player, seat FROM hand_players ORDER BY seat").stdout)
    assert got == [{"player": "Ann", "seat": 0}, {"player": "\\N", "seat": 1}]
    got = json.loads(run_cli("sql", "--db", db, "--format", "json", "SELECT event, site FROM sessions").stdout)
    assert got == [{"event": "", "site": "\\N"}]
    p = run_cli("check", "--format", "parquet", "--out", tmp_path / "pq", f)
    assert p.returncode == 0
    rows = duckdb.sql(f"SELECT DISTINCT player FROM read_parquet('{tmp_path}/pq/players/*/*.parquet') "
                      "ORDER BY player").fetchall()
    assert rows == [("Ann",), ("\\N",)]


def test_parquet_keeps_files_of_the_same_name_apart_and_chips_exact(tmp_path):
    from booray_audit.record import CHIPS
    hand = ("Hand 1\nDealer Ben\nPot {pot}\nTrump s\nAnn play\nBen play\n"
            "Trick Ann As, Ben Ks\nTrick Ann Ah, Ben Kh\nTrick Ann Ad, Ben Kd\n"
            "Trick Ann Ac, Ben Kc\nTrick Ann Qh, Ben Jh\n")
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    big = CHIPS - 1  # the largest pot a record may hold
    (tmp_path / "a" / "day.bhh").write_text('[Seats "Ann Ben"]\n\n' + hand.format(pot=big))
    (tmp_path / "b" / "day.bhh").write_text('[Seats "Ann Ben"]\n\n' + hand.format(pot=2**53 + 1))
    out = tmp_path / "pq"
    p = run_cli("check", "--format", "parquet", "--out", out, tmp_path / "a", tmp_path / "b")
    assert p.returncode == 0, p.stderr
    rows = duckdb.sql(f"SELECT source, pot FROM read_parquet('{out}/hands/*/*.parquet', hive_partitioning=true) "
                      "ORDER BY pot").fetchall()
    assert [int(pot) for _, pot in rows] == [2**53 + 1, big]  # both files, to the chip
    assert len({source for source, _ in rows}) == 2 and all(s.startswith("day.bhh~") for s, _ in rows)
    # the same file again replaces its own partition; a partition of another file is never written over
    assert run_cli("check", "--format", "parquet", "--out", out, tmp_path / "a").returncode == 0
    assert duckdb.sql(f"SELECT count(*) FROM read_parquet('{out}/hands/*/*.parquet')").fetchall() == [(2,)]
    (source_a,) = [s for s, pot in rows if int(pot) == big]
    (out / "_sources" / source_a).write_text("/elsewhere/day.bhh")
    p = run_cli("check", "--format", "parquet", "--out", out, tmp_path / "a")
    assert p.returncode == 2 and b"holds /elsewhere/day.bhh" in p.stderr


def test_readers_get_in_while_an_import_audits(tmp_path):
    db, big = _store_and_big_file(tmp_path)
    proc = subprocess.Popen(cli_command() + ["import", str(big), "--db", str(db)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        time.sleep(1.5)  # well into the audit of the big file
        for args in (["stats"], ["ledger"], ["sql", "SELECT count(*) FROM hands"]):
            p = run_cli(*args, "--db", db, "--wait", "0")
            assert p.returncode == 0, (args, p.stderr)
        assert proc.poll() is None, "the import finished before the readers came: make the file bigger"
    finally:
        proc.kill()  # mid-audit: the store must still hold exactly what it held
        proc.wait()
    assert counts(db)[0] == 1


def test_a_folder_imported_again_skips_what_it_has(tmp_path):
    db = tmp_path / "b.duckdb"
    first = run_cli("import", CORPUS, "--db", db)
    before = counts(db)
    again = run_cli("import", CORPUS, "--db", db)
    assert again.returncode == 0  # nothing audited, nothing to report
    lines = again.stdout.decode().splitlines()
    assert lines and all(line.endswith("imported before (the same content): skipped") for line in lines)
    assert counts(db) == before
    forced = run_cli("import", CORPUS / "01-spec-example.bhh", "--db", db, "--again")
    assert b"1 hand, 0 new, 1 already stored" in forced.stdout
    assert first.returncode == 2  # the corpus holds a file with syntax errors; the rest is stored


def test_watch_imports_each_new_file_once(tmp_path):
    db = tmp_path / "b.duckdb"
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    # as from a terminal: the test runner's workers ignore SIGINT, which a child would inherit
    proc = subprocess.Popen(cli_command() + ["import", "--watch", str(inbox), "--db", str(db), "--interval", "0.3"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))

    def stored() -> int:
        p = run_cli("sql", "--db", db, "--format", "csv", "SELECT count(*) FROM hands")
        return int(p.stdout.split()[-1]) if p.returncode == 0 else 0

    def until(n: int) -> int:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and stored() < n:
            time.sleep(0.3)
        return stored()

    try:
        (inbox / "a.bhh").write_bytes((CORPUS / "01-spec-example.bhh").read_bytes())
        assert until(1) == 1
        (inbox / "b.bhh").write_bytes((CORPUS / "09-session-chain.bhh").read_bytes())
        total = until(4)
        time.sleep(1.5)  # a few more looks: nothing is imported twice
        assert stored() == total >= 4
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            out, err = proc.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            out, err = proc.communicate()
            raise AssertionError(f"Ctrl-C did not stop the watch: {out[-800:]!r} {err[-800:]!r}") from None
    assert proc.returncode == 130 and b"Traceback" not in err, err
    shas = run_cli("sql", "--db", db, "--format", "csv", "SELECT count(*), count(DISTINCT sha256) FROM imports")
    assert shas.stdout.decode().split()[-1] == "2,2"


def test_ledger_settle_squares_each_session_with_the_fewest_payments(tmp_path):
    db = tmp_path / "b.duckdb"
    run_cli("import", ROOT / "samples" / "home-game.bhh", "--db", db)
    nets = {r["player"]: r["net"] for r in json.loads(run_cli("ledger", "--db", db, "--format", "json").stdout)}
    paid = json.loads(run_cli("ledger", "--settle", "--db", db, "--format", "json").stdout)
    balance = dict.fromkeys(nets, 0)
    for t in paid:
        balance[t["payer"]] = balance.get(t["payer"], 0) - t["chips"]
        balance[t["payee"]] = balance.get(t["payee"], 0) + t["chips"]
    pot = balance.pop("(the pot)")
    assert balance == nets and pot == -sum(nets.values()) == 50  # the pot left on the table
    # seven parties (six players and the pot); Alice, Heidi and Eve square among themselves
    assert len(paid) == 5
    p = run_cli("ledger", "--settle", "--since", "2026-12-01", "--db", db, "--format", "csv")
    assert p.returncode == 0 and p.stdout.decode().splitlines() == ["session_id,event,date,payer,payee,chips"]
