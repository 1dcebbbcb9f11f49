"""Store and input hardening, second pass: a number or character the store cannot hold costs
its own hand, never the file (`check` and `import` agree); house files that are not one
say so in one line; pipes and devices are not read; no control character of a record
reaches the terminal."""

from __future__ import annotations

import os
import subprocess

import pytest

from .conftest import cli_command, run_cli

SESSION = '[Event "x"]\n[Seats "Ann Ben"]\n\n'
GOOD = "Hand {n}\nDealer Ben\nAnn play\nBen play\nTrick 1: Ann As, Ben Ks\n\n"


def out(p) -> str:
    return p.stdout.decode("utf-8", "replace")


def err(p) -> str:
    return p.stderr.decode("utf-8", "replace")


def stored_hands(db) -> list[int]:
    p = run_cli("sql", "--db", db, "--format", "csv", "SELECT number FROM hands ORDER BY number")
    return [int(x) for x in out(p).split()[1:]]


@pytest.mark.parametrize("bad, where, kept", [
    ("Trick 2147483648: Ann As, Ben Ks", "a trick number can be at most 2,147,483,647", [1, 3]),
    ("Dispute Ann renege 2147483648", "a trick number can be at most", [1, 3]),
    ("Tricks Ann 2147483648 Ben 0", "a trick count can be at most", [1, 3]),
    ("Net Ann +" + "9" * 39 + " Ben 0", "a chip amount can be at most", [1, 3]),
    ('"B\rb" pass', "a carriage return inside quoted text", [1, 3]),
    ("Ann play { note\r }", "a carriage return inside a note", [1, 3]),
    # a tag inside a hand changes the rules from there on: those hands are not checked
    ('[Event "x\r"]', "a carriage return inside quoted text", [1, 2]),
])
def test_a_value_the_store_cannot_hold_costs_its_hand_in_check_and_import_alike(tmp_path, bad, where, kept):
    f = tmp_path / "f.bhh"
    f.write_bytes((SESSION + GOOD.format(n=1) + f"Hand 2\nDealer Ann\n{bad}\n\n" + GOOD.format(n=3)).encode())
    p = run_cli("check", f)
    assert p.returncode == 2 and where in err(p)
    assert err(p).startswith(f"{f}:12:")  # file:line:column
    db = tmp_path / "s.duckdb"
    q = run_cli("import", "--db", db, f)
    assert q.returncode == 2 and where in err(q) and "failed" not in err(q), err(q)
    assert stored_hands(db) == kept


def test_a_hand_number_past_the_largest_does_not_drop_the_hands_after_it(tmp_path):
    f = tmp_path / "f.bhh"
    f.write_text(SESSION + GOOD.format(n=1) + "Hand 2147483648\nDealer Ann\n\n"
                 + GOOD.format(n="").replace("Hand ", "Hand") + GOOD.format(n=5))
    db = tmp_path / "s.duckdb"
    p = run_cli("import", "--db", db, f)
    assert p.returncode == 2 and "a hand number can be at most 2,147,483,647" in err(p)
    assert stored_hands(db) == [1, 2, 5]  # the unnumbered one follows hand 1


def test_an_unnumbered_hand_after_the_largest_number_is_refused_alone(tmp_path):
    f = tmp_path / "f.bhh"
    f.write_text(SESSION + GOOD.format(n=2147483647) + GOOD.format(n="").replace("Hand ", "Hand"))
    p = run_cli("check", f)
    assert p.returncode == 2 and "number this hand" in err(p) and "1 hand" in out(p)


@pytest.mark.parametrize("toml, says", [
    ('base = "standard"\nante = 2147483648\n', "rule `ante` can be at most 2,147,483,647"),
    ('base = "standard"\nlimit = 99999999999999999999\n', "rule `limit` takes a number of chips from 1"),
    ("x = " + "[" * 5000 + "]" * 5000 + "\n", "nested too deep"),
    ("ante = " + "9" * 5000 + "\n", "a number too long to read"),
    ('base = "standard"\nprofile = "basic"\n', "give the profile once"),
])
def test_a_house_file_that_is_not_one_says_why_in_one_line(tmp_path, toml, says):
    rules = tmp_path / "house.toml"
    rules.write_text(toml)
    f = tmp_path / "f.bhh"
    f.write_text(SESSION + GOOD.format(n=1))
    p = run_cli("check", "--rules", rules, f)
    assert p.returncode == 3 and says in err(p) and "Traceback" not in err(p)
    assert len(err(p).strip().splitlines()) == 1


def test_a_house_file_with_a_byte_order_mark_is_read(tmp_path):
    rules = tmp_path / "house.toml"
    rules.write_bytes(b'\xef\xbb\xbfbase = "basic"\n')
    f = tmp_path / "f.bhh"
    f.write_text(SESSION + GOOD.format(n=1))
    p = run_cli("check", "--rules", rules, f)
    assert p.returncode == 0 and "basic+house.toml" in out(p)


def test_the_ante_tag_past_the_store_is_refused_as_the_house_file_is(tmp_path):
    f = tmp_path / "f.bhh"
    f.write_text('[Ante "2147483648"]\n' + SESSION + GOOD.format(n=1))
    p = run_cli("check", f)
    assert p.returncode == 2 and "at most 2,147,483,647" in err(p)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_pipes_and_devices_are_skipped_and_said_never_read(tmp_path):
    folder = tmp_path / "logs"
    folder.mkdir()
    (folder / "a.bhh").write_text(SESSION + GOOD.format(n=1))
    os.mkfifo(folder / "fifo.bhh")
    os.symlink("/dev/zero", folder / "zero.jsonl")
    os.mkfifo(tmp_path / "house.toml")
    env = dict(os.environ, NO_COLOR="1")
    for args in (["check", folder], ["check", folder / "fifo.bhh"], ["fmt", folder / "zero.jsonl"],
                 ["import", "--db", tmp_path / "s.duckdb", folder], ["check", "--jobs", "2", folder / "fifo.bhh"],
                 ["check", "--rules", tmp_path / "house.toml", folder / "a.bhh"]):
        p = subprocess.run(cli_command() + [str(a) for a in args], capture_output=True, env=env, timeout=60)
        assert p.returncode in (2, 3), (args, err(p))
        assert "not a regular file" in err(p), (args, err(p))
    assert stored_hands(tmp_path / "s.duckdb") == [1]


ESC = '[Event "\x1b[31mRED\x1b]0;TITLE\x07"]\n[Seats "Ann \\"B\x1b[2Jb\\""]\n\nHand 1\nDealer Ann\n' \
      'Trick 1: Ann As, "B\x1b[2Jb" Ks\n\nHand 2\nDealer "\x1b[5m"\nTrick 1: Ann As, 9x\x1b\n'


def test_no_control_character_of_a_record_reaches_the_terminal(tmp_path):
    f = tmp_path / "esc.bhh"
    f.write_text(ESC)
    p = run_cli("check", f)
    assert "\x1b" not in out(p) + err(p) and "\x07" not in out(p) + err(p)
    assert "B\\x1b[2Jb" in out(p) and "\\x1b[31mRED" in out(p)
    db = tmp_path / "s.duckdb"
    q = run_cli("import", "--db", db, f)
    assert "\x1b" not in out(q) + err(q)
    for args in (["sql", "SELECT * FROM sessions"], ["sql", "SELECT * FROM findings"], ["stats"], ["ledger"]):
        r = run_cli(*args, "--db", db)
        assert "\x1b" not in out(r) + err(r), args
    # BHH text is data: as it is into a pipe, escaped on a terminal
    assert "\x1b" in out(run_cli("find", "--db", db, "--player", "B\x1b[2Jb"))
    clean = tmp_path / "clean.bhh"  # fmt prints a file that reads whole
    clean.write_text(ESC.split("\n\nHand 2")[0] + "\n")
    for args in (["find", "--db", db, "--player", "B\x1b[2Jb"], ["fmt", clean], ["check", f]):
        shown = on_terminal(args)
        assert "\x1b[2J" not in shown and "B\\x1b[2Jb" in shown, args
    # data formats keep the data (JSON escapes control characters itself)
    assert "\\u001b" in out(run_cli("sql", "--db", db, "--format", "json", "SELECT event FROM sessions"))


def on_terminal(args) -> str:
    """What a command prints on a terminal (a pseudo-terminal), colours off."""
    import pty
    leader, follower = pty.openpty()
    env = dict(os.environ, NO_COLOR="1", COLUMNS="200", TERM="dumb")
    p = subprocess.Popen(cli_command() + [str(a) for a in args], stdout=follower, stderr=follower, env=env)
    os.close(follower)
    chunks = []
    while True:
        try:
            data = os.read(leader, 65536)
        except OSError:
            break
        if not data:
            break
        chunks.append(data)
    p.wait(timeout=60)
    os.close(leader)
    return b"".join(chunks).decode("utf-8", "replace")


def test_bhh_json_refuses_what_the_text_grammar_refuses(tmp_path):
    f = tmp_path / "f.jsonl"
    f.write_text('{"type": "session", "tags": [["Event", "x\\r"]]}\n'
                 '{"type": "session", "tags": []}\n'
                 '{"type": "hand", "number": 1, "events": [{"event": "dealer", "player": "A\\rB"}]}\n')
    p = run_cli("check", f)
    assert p.returncode == 2 and "tags[0]" in err(p) and "events[0].player" in err(p)


@pytest.fixture
def store(tmp_path):
    f = tmp_path / "f.bhh"
    f.write_text(SESSION + GOOD.format(n=1))
    db = tmp_path / "s.duckdb"
    assert run_cli("import", "--db", db, f).returncode == 0
    return db


def test_sql_stops_at_once_on_ctrl_c_with_one_line(store):
    import signal
    import time
    p = subprocess.Popen(cli_command() + ["sql", "--db", str(store), "SELECT count(*) FROM range(100000000000)"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=dict(os.environ, NO_COLOR="1"))
    time.sleep(2.5)
    t0 = time.monotonic()
    p.send_signal(signal.SIGINT)
    _, stderr = p.communicate(timeout=30)
    assert p.returncode == 130 and time.monotonic() - t0 < 10
    assert stderr.decode().strip() == "booray-audit: interrupted"


def test_sql_timeout_inf_never_stops_the_query_and_a_short_one_does(store):
    p = run_cli("sql", "--db", store, "--timeout", "inf", "SELECT 42 AS n")
    assert p.returncode == 0 and "42" in out(p) and err(p) == ""
    q = run_cli("sql", "--db", store, "--timeout", "0.5", "SELECT count(*) FROM range(100000000000)")
    assert q.returncode == 3 and "ran longer than 0.5 seconds" in err(q)


def test_a_file_of_another_kind_is_no_store_and_nothing_is_fetched(tmp_path):
    import sqlite3
    lite = tmp_path / "lite.db"
    con = sqlite3.connect(lite)
    con.execute("CREATE TABLE t (x)")
    con.commit()
    con.close()
    for args in (["stats"], ["sql", "SELECT 1"], ["import", tmp_path / "none.bhh"]):
        p = run_cli(*args, "--db", lite)
        assert p.returncode == 2 and "not a booray-audit store" in err(p) and "download" not in err(p), err(p)


def test_a_file_name_that_is_not_utf8_and_a_huge_pot_are_no_store_failures(store):
    p = run_cli("stats", "--db", store, "--source", os.fsdecode(b"\xff.bhh"))
    assert "cannot answer" not in err(p) and p.returncode in (0, 3)
    q = run_cli("find", "--db", store, "--min-pot", "1" + "0" * 40)
    assert q.returncode == 3 and "--min-pot takes" in err(q)


def test_fmt_keeps_comments_in_place_with_a_line_separator_in_a_tag(tmp_path):
    f = tmp_path / "f.bhh"
    f.write_text('[Event "a\u2028b"]  # one\n# two\n[Seats "Ann Ben"]\n\nHand 1  # three\nDealer Ben # four\n')
    once = run_cli("fmt", f)
    assert once.returncode == 0
    text = out(once)
    assert text.split("\n")[:2] == ['[Event "a\u2028b"]  # one', "# two"] and "Dealer Ben # four" in text
    g = tmp_path / "g.bhh"
    g.write_bytes(once.stdout)
    assert run_cli("fmt", g).stdout == once.stdout  # the tidy form of the tidy form is itself


def test_a_read_only_query_writes_no_file_beside_the_store(store):
    p = run_cli("sql", "--db", store, "--memory", "64",
                "SELECT count(*) FROM (SELECT md5(range::VARCHAR) AS m FROM range(5000000) ORDER BY m)")
    assert p.returncode == 3 and "needs more than --memory 64 MB" in err(p)
    assert not os.path.exists(str(store) + ".tmp")
    q = run_cli("sql", "--db", store, f"COPY (SELECT 1) TO '{store}.tmp/x.csv'")
    assert q.returncode == 3 and not os.path.exists(str(store) + ".tmp")


def test_parquet_export_of_a_long_named_file_and_each_file_all_or_nothing(tmp_path, monkeypatch):
    from booray_audit.judge.audit import audit
    from booray_audit.notation import reader as notation
    from booray_audit.store import load
    long = tmp_path / ("n" * 240 + ".bhh")
    long.write_text(SESSION + GOOD.format(n=1))
    short = tmp_path / "short.bhh"
    short.write_text(SESSION + GOOD.format(n=1) + GOOD.format(n=2))
    out_dir = tmp_path / "pq"
    p = run_cli("check", "--format", "parquet", "--out", out_dir, long, short)
    assert p.returncode == 0, err(p)
    parts = sorted(str(x.relative_to(out_dir)) for x in out_dir.rglob("*.parquet"))
    assert len([x for x in parts if x.startswith("hands/")]) == 2  # a partition per file (empty tables have none)
    before = {x: (out_dir / x).read_bytes() for x in parts}

    def broken(table):  # the disk fills while the third table is written
        if table == list(load.PARQUET_TABLES.values())[2]:
            raise OSError(28, "No space left on device")
        return original(table)
    original = load.exact
    monkeypatch.setattr(load, "exact", broken)
    with pytest.raises(OSError):
        load.export_parquet(audit(notation.read(str(short))), str(short), str(out_dir))
    after = sorted(str(x.relative_to(out_dir)) for x in out_dir.rglob("*.parquet"))
    assert after == parts and all((out_dir / x).read_bytes() == before[x] for x in parts)
    assert not [d for d in out_dir.iterdir() if d.name.startswith(".writing-")]
