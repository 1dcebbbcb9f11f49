"""The benchmark script runs end to end in its small mode (no timing is asserted)."""

from __future__ import annotations

import json
import subprocess
import sys

from .conftest import ROOT


def test_bench_small_mode_runs(tmp_path):
    p = subprocess.run([sys.executable, str(ROOT / "bench" / "bench.py"), "--small", "--players", "2",
                        "--hands", "60", "--scale", "60,120", "--out", str(tmp_path)],
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr[-2000:]
    report = json.loads(p.stdout)
    two = report["corpora"]["2"]
    assert two["parse"]["hands"] == two["audit"]["hands"] == two["import"]["hands"] == 60
    assert [g["hands"] for g in report["growth"]["runs"]] == [60, 120]
    assert [(g["hands"], g["file"]) for g in report["import_growth"]] == [
        (60, "p2-x60.bhh"), (120, "p2-x120.bhh"), (120, "p2-sessions-120.bhh")]
    assert all(g["peak_mb"] > 0 and g["cpu_s"] > 0 for g in report["import_growth"])
    assert report["jobs"]["speedup_wall"] > 0 and report["start_cpu_s"] > 0
    assert len(report["jobs"]["halves_apart"]) == 3 and report["jobs"]["halves_speedup_wall"] > 0
    six = (tmp_path / "p6-120.bhh").read_bytes()  # its halves: the file, cut once, at a session's start
    first, second = ((tmp_path / f"p6-120.bhh.{h}-half").read_bytes() for h in ("first", "second"))
    assert first and second.startswith(b"[Event") and first + second == six
    assert report["stats_store_hands"] >= 120 and report["stats"]["leaderboard_s"] >= 0
    assert two["cinch"]["hands"] == 60
    cinch = two["cinch"]["cinch"]
    assert cinch["decisions"] == 0 or abs(sum(cinch["decided_by"].values()) - 1) < 1e-9


def test_oracle_script_runs_and_reports_agreement():
    for extra in ([], ["--exact-only"]):
        p = subprocess.run([sys.executable, str(ROOT / "bench" / "oracle.py"), "--positions", "30",
                            "--seed", "3", *extra], capture_output=True, text=True, timeout=600)
        assert p.returncode == 0, p.stderr[-2000:]
        out = json.loads(p.stdout)
        assert out["positions"] == 30 and out["answers"] >= 30 and out["wrong"] == 0
