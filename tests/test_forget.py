"""`forget`: stored sessions removed whole, in one transaction, after a look at what goes."""

from __future__ import annotations

import random
import signal
import subprocess
import time

from booray_audit.generate import generate_text
from booray_audit.rules.profiles import profile, with_toggle

from .conftest import ROOT, cli_command, run_cli
from .test_hardening_second import err, out


def counts(db) -> dict:
    q = ("SELECT (SELECT count(*) FROM sessions), (SELECT count(*) FROM hands), (SELECT count(*) FROM plays), "
         "(SELECT count(*) FROM hand_players), (SELECT count(*) FROM findings), "
         "(SELECT count(*) FROM plays WHERE hand_id NOT IN (SELECT hand_id FROM hands))")
    row = out(run_cli("sql", "--db", db, "--format", "csv", q)).splitlines()[1]
    s, h, p, hp, f, orphans = map(int, row.split(","))
    return {"sessions": s, "hands": h, "plays": p, "hand_players": hp, "findings": f, "orphans": orphans}


def test_forget_lists_asks_and_removes_a_session_whole(tmp_path):
    db = tmp_path / "s.duckdb"
    samples = sorted((ROOT / "samples").glob("*.bhh"))
    assert run_cli("import", "--db", db, *samples).returncode in (0, 1)
    before = counts(db)
    asked = run_cli("forget", "--db", db, "--event", "friday night at boudreaux's")
    assert asked.returncode == 3 and "say --yes" in err(asked) and "24 hands" in out(asked)
    assert counts(db) == before  # nothing removed without --yes
    p = run_cli("forget", "--db", db, "--event", "Friday night at Boudreaux's", "--yes")
    assert p.returncode == 0 and "removed 1 session (24 hands)" in out(p)
    after = counts(db)
    assert after["sessions"] == before["sessions"] - 1 and after["hands"] == before["hands"] - 24
    assert after["orphans"] == 0
    # the file is no longer counted as imported: its next import brings the session back
    again = run_cli("import", "--db", db, *samples)
    assert "24 new" in out(again)
    assert counts(db) == before


def test_forget_needs_a_scope_and_says_when_nothing_matches(tmp_path):
    db = tmp_path / "s.duckdb"
    run_cli("import", "--db", db, ROOT / "samples" / "online-log.bhh")
    assert run_cli("forget", "--db", db, "--yes").returncode == 3
    p = run_cli("forget", "--db", db, "--session", "zzzz", "--yes")
    assert p.returncode == 3 and "no stored session matches" in err(p)


def test_a_killed_forget_leaves_the_store_before_or_after(tmp_path):
    rules = with_toggle(profile("standard"), "limit", "25")
    text, _ = generate_text(1500, players=(6, 8), seed=5, rules=rules, violations=0.1)
    f = tmp_path / "big.bhh"
    f.write_text(text)
    db = tmp_path / "s.duckdb"
    assert run_cli("import", "--db", db, f).returncode in (0, 1)
    full = counts(db)
    rng = random.Random(3)
    outcomes = set()
    for _ in range(4):
        p = subprocess.Popen(cli_command() + ["forget", "--db", str(db), "--source", str(f), "--yes"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        time.sleep(rng.uniform(0.3, 1.0))
        p.send_signal(signal.SIGKILL)
        p.wait()
        now = counts(db)
        assert now["orphans"] == 0
        if now["hands"]:
            assert now == full, now  # before
            outcomes.add("before")
        else:
            assert now["sessions"] == now["plays"] == now["hand_players"] == now["findings"] == 0  # after
            outcomes.add("after")
            assert run_cli("import", "--db", db, f).returncode in (0, 1)
            assert counts(db) == full
    assert outcomes  # the store was checked after every kill


def _hands(db) -> int:
    return counts(db)["hands"]


def test_an_edited_copy_under_a_new_name_is_an_edit_not_a_second_night(tmp_path):
    src = (ROOT / "samples" / "home-game.bhh").read_text()
    week1 = tmp_path / "week1.bhh"
    week1.write_text(src)
    fixed = tmp_path / "week1-fixed.bhh"
    fixed.write_text(src + "Dispute Carol renege 2\n")
    other = tmp_path / "elsewhere"
    other.mkdir()
    longer = other / "week1.bhh"  # a copy from another folder, with one more hand
    longer.write_text(src + "\nHand 25\nDealer Carol\n")
    db = tmp_path / "s.duckdb"
    run_cli("import", "--db", db, week1)
    for copy in (fixed, longer):
        p = run_cli("import", "--db", db, copy)
        assert p.returncode == 4, err(p)
        assert "a copy of the session stored from" in err(p) and "--as-new" in err(p)
        assert _hands(db) == 24  # nothing counted twice
    p = run_cli("import", "--db", db, "--replace", longer)
    assert p.returncode in (0, 1) and "replaced the stored session" in out(p)
    assert _hands(db) == 25 and counts(db)["sessions"] == 1
    # --as-new: a session of its own all the same
    q = run_cli("import", "--db", db, "--as-new", fixed)
    assert q.returncode in (0, 1) and counts(db)["sessions"] == 2


def test_another_night_with_other_players_is_no_copy(tmp_path):
    src = (ROOT / "samples" / "home-game.bhh").read_text()
    db = tmp_path / "s.duckdb"
    a, b = tmp_path / "a.bhh", tmp_path / "b.bhh"
    a.write_text(src)
    b.write_text(src.replace("Judy", "Jude").replace("Friday", "Saturday"))
    run_cli("import", "--db", db, a)
    p = run_cli("import", "--db", db, b)
    assert p.returncode in (0, 1) and counts(db)["sessions"] == 2


def test_a_killed_replace_leaves_the_store_before_or_after(tmp_path):
    rules = with_toggle(profile("standard"), "limit", "25")
    text, _ = generate_text(1500, players=(6, 8), seed=6, rules=rules, violations=0.1, session_hands=1500)
    f = tmp_path / "night.bhh"
    f.write_text(text)
    db = tmp_path / "s.duckdb"
    assert run_cli("import", "--db", db, f).returncode in (0, 1)
    old = counts(db)
    edited = text.replace("\nHand 2\n", "\nHand 2\nDispute Alice renege\n", 1)
    assert edited != text
    f.write_text(edited)
    assert run_cli("import", "--db", db, f).returncode == 4  # an edit: nothing changes without --replace
    rng = random.Random(4)
    for _ in range(4):
        p = subprocess.Popen(cli_command() + ["import", "--db", str(db), "--replace", str(f)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        time.sleep(rng.uniform(0.5, 4.0))
        p.send_signal(signal.SIGKILL)
        p.wait()
        now = counts(db)
        assert now["orphans"] == 0 and now["sessions"] == 1 and now["hands"] == old["hands"], now
        disputes = out(run_cli("sql", "--db", db, "--format", "csv",
                               "SELECT count(*) FROM hands WHERE text LIKE '%Dispute%'")).split()[1]
        assert disputes in ("0", "1")  # the stored session before the edit, or after it: never half
    assert run_cli("import", "--db", db, "--replace", f).returncode in (0, 1)
    assert out(run_cli("sql", "--db", db, "--format", "csv",
                       "SELECT count(*) FROM hands WHERE text LIKE '%Dispute%'")).split()[1] == "1"
