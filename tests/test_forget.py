"""`forget`: stored sessions removed whole, in one transaction, after a look at what goes."""

from __future__ import annotations

import random
import signal
import subprocess
import time

from booray_audit.generate import generate_text
from booray_audit.rules.profiles import profile, with_toggle

from .conftest import ROOT, cli_command, run_cli


def out(p) -> str:
    return p.stdout.decode("utf-8", "replace")


def err(p) -> str:
    return p.stderr.decode("utf-8", "replace")


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
    text, _ = generate_text(3000, players=(6, 8), seed=5, rules=rules, violations=0.1)
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
        time.sleep(rng.uniform(0.3, 1.5))
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
