"""A cinch the search cannot settle within its budget: reported as undecidable,
never as a finding, and a dispute about it is ruled undecidable (docs/rules.md, the findings; docs/writing-hands.md, what a gap in the record hides)."""

from __future__ import annotations

import json

from booray_audit.cinch.judge import STATS

from .conftest import reports, run_cli

# Victor leads the 5h at trick 2 holding Ks Js 6s (spades trump) with one trick won:
# a cinch-lead if those trumps make two more tricks for sure.  They do not (As Qs Ts
# are unseen), but proving it needs the search: more than one node.
HAND = """[Event "Undecidable"]
[Rules "standard"]
[Ante "1"]
[Seats "Mallory Victor"]

Hand 1
Dealer Victor
Deal Mallory Ad 8h 3h 2c 2s
Deal Victor 6s Ks Td 9h Js
Up Js
Mallory play 8h 3h 2c -> 7s 4s 5d
Victor play Td 9h -> 5h 9d
Trick 1: Mallory 5d, Victor 9d
Trick 2: Victor 5h, Mallory 4s
Trick 3: Mallory Ad, Victor 6s
Trick 4: Victor Js, Mallory 2s
Trick 5: Victor Ks, Mallory 7s
Tricks Mallory 1 Victor 4
Dispute Victor cinch-lead 2
"""


def test_within_the_budget_the_dispute_is_rejected():
    (h,) = reports(HAND)
    assert h.findings == [] and h.replay.undecidable == []
    assert [(r.kind, r.ruling) for r in h.rulings] == [("cinch-lead", "rejected")]


def test_past_the_budget_the_check_is_undecidable_not_a_finding():
    before = STATS["undecided"]
    (h,) = reports(HAND, cinch_nodes=1)
    assert STATS["undecided"] > before
    assert h.findings == []
    (u,) = h.replay.undecidable
    assert (u.kind, u.trick, u.player) == ("cinch-lead", 2, "Victor")
    assert "5h" in u.reason and "(1 position;" in u.reason
    (r,) = h.rulings
    assert r.ruling == "undecidable" and "search budget" in r.evidence


def test_no_budget_searches_to_the_end():
    (h,) = reports(HAND, cinch_nodes=0)
    assert h.replay.undecidable == [] and h.findings == []


def test_cli_reports_undecidable_checks(tmp_path):
    f = tmp_path / "u.bhh"
    f.write_text(HAND)
    j = run_cli("check", "--format", "json", "--cinch-nodes", "1", f)
    assert j.returncode == 0, j.stderr  # undecidable is not a finding
    hand = json.loads(j.stdout)["sessions"][0]["hands"][0]
    assert [(u["kind"], u["trick"], u["player"], u["card"]) for u in hand["undecidable"]] == [
        ("cinch-lead", 2, "Victor", "5h")]
    assert hand["rulings"][0]["ruling"] == "undecidable"
    assert json.loads(run_cli("check", "--format", "json", f).stdout)["sessions"][0]["hands"][0][
        "undecidable"] == []
    t = run_cli("check", "--cinch-nodes", "1", f).stdout.decode()
    assert "UNDECIDABLE cinch-lead (trick 2)" in t and "1 undecidable check," in t
    db = tmp_path / "s.duckdb"
    assert run_cli("import", f, "--db", db, "--cinch-nodes", "1").returncode == 0
    rows = run_cli("sql", "SELECT player, kind, trick, card FROM undecidable", "--db", db, "--format", "csv")
    assert "Victor,cinch-lead,2,5h" in rows.stdout.decode()
    out = tmp_path / "pq"
    assert run_cli("check", "--format", "parquet", "--out", out, "--cinch-nodes", "1", f).returncode == 0
    import duckdb
    row = duckdb.connect().execute(
        f"SELECT player, kind, trick FROM read_parquet('{out}/undecidable/*/*.parquet')").fetchall()
    assert row == [("Victor", "cinch-lead", 2)]
    shown = run_cli("replay", f, "--hand", "1", "--cinch-nodes", "1").stdout.decode()
    assert "undecidable cinch-lead" in shown and "cinch-lead 2: UNDECIDABLE" in shown
    assert run_cli("check", "--cinch-nodes", "-1", f).returncode == 3
