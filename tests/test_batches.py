"""An import commits a batch of whole sessions at a time: the store it makes is the one a
single transaction made, a killed import leaves it after a batch, and a re-run completes it.

``BOORAY_AUDIT_BATCH`` sets the hands per batch (a tenth as many sessions): 1 puts every
session in a batch of its own."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import duckdb
import pytest

from booray_audit.generate import generate_text

from .conftest import CORPUS, ROOT, run_cli
from .test_imports import EVENING, HAND_12, HOME, OTHER_EVENING

TABLES = ("sessions", "hands", "hand_players", "plays", "findings", "rulings", "undecidable", "forfeits")


def dump(db) -> dict:
    """Every row of the store, the import log without its times."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        rows = {t: con.execute(f"SELECT * FROM {t} ORDER BY ALL").fetchall() for t in TABLES}
        rows["imports"] = con.execute("SELECT * EXCLUDE (imported_at) FROM imports ORDER BY ALL").fetchall()
        return rows
    finally:
        con.close()


def steps() -> list[tuple[str, str, list[str]]]:
    """Imports in a row, each (file name, its text, options): two sessions opening alike in
    one file, a session twice in a file, a log that grew while a hand was written, an edit
    replaced, an edited copy under a new name, and a file that edits a stored session while
    a new session of it opens with that session's hands (its copies made before the edit)."""
    home = HOME.read_text()
    lines = home.splitlines(keepends=True)
    edited = home.replace("Dealer Alice", "Dealer Judy", 1)
    saved = edited.replace("Sybil +5", "Sybil +4")
    opening = "".join(saved.splitlines(keepends=True)[:HAND_12 + 16])  # the stored hands 1-11, hand 12 cut
    return [("evenings.bhh", EVENING + "\n" + OTHER_EVENING + "\n" + EVENING, []),
            ("log.bhh", "".join(lines[:HAND_12 + 16]), []),
            ("log.bhh", home, []),
            ("log.bhh", edited, ["--replace"]),
            ("saved-again.bhh", saved, ["--replace"]),
            ("saved-again.bhh", home + "\n" + opening, ["--replace"]),
            ("more.bhh", generate_text(120, players=(2, 5), seed=3)[0], [])]


def run_steps(tmp_path, batch: str) -> list[tuple[str, dict]]:
    folder = tmp_path / f"batch-{batch}"
    folder.mkdir()
    db = folder / "b.duckdb"
    out = []
    env = dict(os.environ, BOORAY_AUDIT_BATCH=batch)
    for name, text, options in steps():
        (folder / name).write_text(text)
        p = subprocess.run([sys.executable, "-m", "booray_audit.cli", "import", str(folder / name), "--db", str(db),
                            *options], capture_output=True, env=env, cwd=ROOT, timeout=300)
        assert p.returncode in (0, 1), p.stderr
        rows = {t: [tuple(x.replace(str(folder), "<dir>") if isinstance(x, str) else x for x in row)
                    for row in table] for t, table in dump(db).items()}
        out.append((p.stdout.decode().replace(str(folder), "<dir>"), rows))
    return out


def test_batches_of_one_session_store_what_one_transaction_stores(tmp_path):
    one = run_steps(tmp_path, "1")
    whole = run_steps(tmp_path, "1000000")
    for k, ((said1, rows1), (said, rows)) in enumerate(zip(one, whole)):
        assert said1 == said, k
        for table in rows:
            assert rows1[table] == rows[table], (k, table)
    assert "session 1 replaced the stored session" in whole[3][0] and "a copy of the session" in whole[4][0]
    # the second session of the last edit copies hands of the session its first replaces: one transaction
    assert "36 hands, 36 new, 0 already stored, 24 replaced" in whole[5][0], whole[5][0]
    assert len(whole[5][1]["sessions"]) == len(whole[4][1]["sessions"]) + 1


def test_a_killed_batched_import_leaves_whole_batches_and_a_rerun_completes_it(tmp_path):
    text, _ = generate_text(200, players=(2, 4), seed=5)  # five sessions of 40 hands
    big = tmp_path / "big.bhh"
    big.write_text(text)
    db = tmp_path / "b.duckdb"
    run_cli("import", CORPUS / "01-spec-example.bhh", "--db", db)
    before = dump(db)
    # killed (as by kill -9) inside the third batch's transaction, its rows written, not committed
    kill = f"""
import os, signal, sys
from booray_audit.store import load
real, calls = load._insert, []
def insert(*args):
    real(*args)
    calls.append(1)
    if len(calls) == 3:
        os.kill(os.getpid(), signal.SIGKILL)
load._insert = insert
sys.argv = ["booray-audit", "import", {str(big)!r}, "--db", {str(db)!r}]
from booray_audit.cli import main
main.main()
"""
    p = subprocess.run([sys.executable, "-c", kill], capture_output=True, cwd=ROOT, timeout=300,
                       env=dict(os.environ, BOORAY_AUDIT_BATCH="40"))
    assert p.returncode == -signal.SIGKILL, p.stderr
    after = dump(db)
    assert after["imports"] == before["imports"]  # the file is not taken for imported
    new = [s for s in after["sessions"] if s not in before["sessions"]]
    assert len(new) == 2  # two whole batches: a session each
    con = duckdb.connect(str(db), read_only=True)
    try:
        sizes = con.execute("SELECT count(*) FROM hands WHERE session_id IN (SELECT unnest(?::VARCHAR[])) "
                            "GROUP BY session_id", [[s[0] for s in new]]).fetchall()
    finally:
        con.close()
    assert sizes == [(40,), (40,)]
    p = run_cli("import", big, "--db", db)
    assert p.returncode in (0, 1) and b"200 hands, 120 new, 80 already stored" in p.stdout, p.stdout
    fresh = tmp_path / "fresh.duckdb"
    run_cli("import", CORPUS / "01-spec-example.bhh", "--db", fresh)
    run_cli("import", big, "--db", fresh)
    completed, whole = dump(db), dump(fresh)
    for table in TABLES:
        assert completed[table] == whole[table], table
    assert [row[:2] for row in completed["imports"]] == [row[:2] for row in whole["imports"]]


@pytest.mark.parametrize("batch", ["1", "3"])
def test_an_edit_in_a_later_batch_refuses_the_whole_file(tmp_path, batch, monkeypatch):
    """Placing comes first for every batch: nothing is committed when any is refused."""
    monkeypatch.setenv("BOORAY_AUDIT_BATCH", batch)
    db = tmp_path / "b.duckdb"
    log = tmp_path / "week.bhh"
    log.write_text(EVENING + "\n" + OTHER_EVENING)
    run_cli("import", log, "--db", db)
    before = dump(db)
    log.write_text(EVENING + "\n" + OTHER_EVENING.replace("Tricks Cal 5", "Tricks Cal 4") + "\n"
                   + EVENING.replace("Thursday", "Friday"))
    p = run_cli("import", log, "--db", db)
    assert p.returncode == 4 and b"session 2 differs" in p.stderr, p.stderr
    assert dump(db) == before


def test_an_import_past_its_memory_limit_goes_on_with_more(tmp_path):
    """The store's indexes grow with it, past the memory an import starts with (a store of
    a million one-hand sessions needed more than 128 MB): DuckDB runs out, the transaction
    is rolled back and run again with twice the memory, and the store is the one an
    import with room to spare makes, its counts included."""
    from booray_audit.judge.audit import audit
    from booray_audit.notation import reader
    from booray_audit.store import load, schema
    text, _ = generate_text(1500, players=(2, 3), seed=8, session_hands=1)
    path = tmp_path / "sessions.bhh"
    path.write_text(text)
    results, limits = {}, {}
    for name, memory in (("tight", "8MB"), ("roomy", None)):
        con = schema.connect(str(tmp_path / f"{name}.duckdb"), memory=memory)
        try:
            limits[name] = con.execute("SELECT current_setting('memory_limit')").fetchone()[0]
            results[name] = load.import_file(con, str(path), audit(reader.read(str(path))))
            limits[name] = (limits[name], con.execute("SELECT current_setting('memory_limit')").fetchone()[0])
        finally:
            con.close()
    start, end = limits["tight"]
    assert start != end, "the import did not run out of memory: the test shows nothing"
    tight, roomy = results["tight"], results["roomy"]
    assert (tight.hands, tight.new, tight.findings) == (roomy.hands, roomy.new, roomy.findings)
    assert roomy.hands == roomy.new == 1500
    assert dump(tmp_path / "tight.duckdb") == dump(tmp_path / "roomy.duckdb")
